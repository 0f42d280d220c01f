// The lecture view: the paper's Figure 2.1 at the current level count, and totalCalls
// against the level count.
#include "panels.hpp"

#include <imgui.h>

#include <algorithm>
#include <vector>

#include "cycle_diagram.hpp"
#include "cycle_figure.hpp"
#include "cycle_figure_file.hpp"
#include "kcycle/cycle/cycle_counts.hpp"
#include "kcycle/cycle/cycle_plan.hpp"
#include "panels/widgets.hpp"
#include "plot.hpp"

namespace kcycle::gui {

void cycle_shapes_panel(UiState& ui, const Snapshot& snap) {
  const PanelWindow window(ui, "Cycle shapes");
  if (!window) return;
  const SolverOptions& o = snap.options;
  const int n = std::max(2, o.levels);
  text_wrapped(
      "The paper's Figure 2.1 at %d levels, drawn from the recursion alone (no solving): "
      "X = recursive call (its kappa beside it), circle = relaxation.",
      n);
  if (button(ui, "Save as figure", "Write these four diagrams, titled, to kcycle-figure-2.1.svg and .png for a slide"))
    ui.notice =
        export_cycle_figure(o, "kcycle-figure-2.1.svg") + "; " + export_cycle_figure(o, "kcycle-figure-2.1.png");
  if (ui.notice.find("kcycle-figure-2.1") != std::string::npos) text_wrapped("%s", ui.notice.c_str());
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float scale = ImGui::GetIO().FontGlobalScale;
  const ImGuiStyle& style = ImGui::GetStyle();
  // Two columns where the panel is wide enough: four diagrams stacked in a 720p window at UI
  // scale 1.5 left each a few pixels, titles and no diagram.
  const int columns = avail.x >= 360.0f * scale ? 2 : 1, rows = 4 / columns;
  const float column_w = (avail.x - float(columns - 1) * style.ItemSpacing.x) / float(columns);
  const char* names[] = {"V-cycle (kappa=1)", "F-cycle (kappa=2)", "kappa=3", "W-cycle (kappa>=levels)"};
  const int kappas[] = {1, 2, 3, kKappaW};
  std::vector<Trace> plans;
  std::vector<std::string> titles;
  float titles_h = 0;  // each row's tallest title, wrapped to its column
  for (int k = 0; k < 4; ++k) {
    plans.push_back(planned_cycle({CycleType::Kappa, kappas[k]}, n, o.nu1, o.nu2, o.coarsest_calls));
    titles.push_back(std::string(names[k]) + ": totalCalls = " + std::to_string(plot::calls_in(plans.back())));
  }
  for (int r = 0; r < rows; ++r) {
    float row_h = 0;
    for (int c = 0; c < columns; ++c)
      row_h = std::max(row_h,
                       ImGui::CalcTextSize(titles[std::size_t(r * columns + c)].c_str(), nullptr, false, column_w).y);
    titles_h += row_h + 2 * style.ItemSpacing.y;
  }
  // The chart keeps room for its five-line legend, where the diagrams keep a text line a level;
  // else the diagrams take it all (the chart is the smaller lesson).
  const float legend_h = 5 * (ImGui::GetTextLineHeight() + 2) + 64 * scale;
  float chart_h = std::max(avail.y * 0.30f, legend_h);
  const float wanted = float(n) * ImGui::GetTextLineHeight();
  const bool chart = (avail.y - chart_h - titles_h) / float(rows) >= wanted;
  if (!chart) chart_h = ImGui::GetTextLineHeightWithSpacing();  // a line saying where it went
  const float each = std::max(0.0f, (avail.y - chart_h - titles_h) / float(rows) - style.ItemSpacing.y);
  const ImVec2 top = ImGui::GetCursorScreenPos();
  float y = top.y;
  for (int r = 0; r < rows; ++r) {
    float row_title_h = 0;
    for (int c = 0; c < columns; ++c) {
      const std::string& title = titles[std::size_t(r * columns + c)];
      const float x = top.x + float(c) * (column_w + style.ItemSpacing.x);
      ImGui::SetCursorScreenPos(ImVec2(x, y));
      ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + column_w);
      ImGui::TextUnformatted(title.c_str());
      ImGui::PopTextWrapPos();
      row_title_h = std::max(row_title_h, ImGui::CalcTextSize(title.c_str(), nullptr, false, column_w).y);
    }
    const float diagram_y = y + row_title_h + style.ItemSpacing.y;
    for (int c = 0; c < columns; ++c) {
      const Trace& plan = plans[std::size_t(r * columns + c)];
      const ImVec2 origin(top.x + float(c) * (column_w + style.ItemSpacing.x), diagram_y);
      draw_cycle_diagram(ImGui::GetWindowDrawList(), origin, ImVec2(column_w, each), plan, n, plan.size(), -1);
    }
    y = diagram_y + each + style.ItemSpacing.y;
  }
  ImGui::SetCursorScreenPos(ImVec2(top.x, y));
  ImGui::Dummy(ImVec2(avail.x, 0));  // the window's content reaches down to here
  if (!chart) {
    ImGui::TextDisabled("totalCalls against n: in a taller window");
    return;
  }
  // totalCalls against the level count: a polynomial of degree kappa (Proposition 2.7) against
  // the W-cycle's 2^n - 1.
  std::vector<Series> series;
  const ImU32 colours[] = {IM_COL32(31, 119, 180, 255), IM_COL32(255, 127, 14, 255), IM_COL32(44, 160, 44, 255),
                           IM_COL32(148, 103, 189, 255), IM_COL32(200, 200, 200, 255)};
  for (int k = 0; k < 5; ++k) {
    Series s{"kappa=" + kappa_to_string(kKappaCandidates[k]), {}, {}, colours[k], 2.0f};
    for (int levels = 1; levels <= 16; ++levels) {
      s.x.push_back(levels);
      s.y.push_back(double(total_calls(std::min(kKappaCandidates[k], levels), levels)));
    }
    series.push_back(s);
  }
  PlotSpec spec{"levels n", "totalCalls (log)", false, true, 1, 16, 0, 0, true};
  draw_plot("total calls", spec, series, {{double(n), IM_COL32(255, 255, 255, 120), "this n"}},
            ImGui::GetContentRegionAvail());
}

std::string export_cycle_figure(const SolverOptions& options, const std::string& path) {
  try {
    plot::write_cycle_figure(
        plot::kappa_cycle_panels(std::max(2, options.levels), {1, 2, 3, kKappaW}, options.nu1, options.nu2), path);
    return "wrote " + path;
  } catch (const plot::FigureRefused& e) {
    return "cannot write " + path + ": " + e.what();
  } catch (const std::exception& e) {
    return e.what();  // the OS's reason, path and all
  }
}

}  // namespace kcycle::gui
