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
  ImGui::TextWrapped(
      "The paper's Figure 2.1 at %d levels, drawn from the recursion alone (no solving): "
      "X = recursive call (its kappa beside it), circle = relaxation.",
      n);
  if (button(ui, "Save as figure", "Write these four diagrams, titled, to kcycle-figure-2.1.svg and .png for a slide"))
    ui.notice =
        export_cycle_figure(o, "kcycle-figure-2.1.svg") + "; " + export_cycle_figure(o, "kcycle-figure-2.1.png");
  if (ui.notice.find("kcycle-figure-2.1") != std::string::npos) ImGui::TextWrapped("%s", ui.notice.c_str());
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  // The chart keeps room for its five-line legend; the diagrams share the rest.
  const float scale = ImGui::GetIO().FontGlobalScale;
  const float legend_h = 5 * (ImGui::GetTextLineHeight() + 2) + 64 * scale;
  const float chart_h = std::max(avail.y * 0.30f, legend_h);
  ImGui::PushTextWrapPos(0.0f);
  float titles_h = 0;  // the four titles, wrapped
  const char* names[] = {"V-cycle (kappa=1)", "F-cycle (kappa=2)", "kappa=3", "W-cycle (kappa>=levels)"};
  const int kappas[] = {1, 2, 3, kKappaW};
  std::vector<Trace> plans;
  std::vector<std::string> titles;
  for (int k = 0; k < 4; ++k) {
    plans.push_back(planned_cycle({CycleType::Kappa, kappas[k]}, n, o.nu1, o.nu2));
    titles.push_back(std::string(names[k]) + ": totalCalls = " + std::to_string(plot::calls_in(plans.back())));
    titles_h +=
        ImGui::CalcTextSize(titles.back().c_str(), nullptr, false, avail.x).y + 2 * ImGui::GetStyle().ItemSpacing.y;
  }
  const float each = std::max(0.0f, (avail.y - chart_h - titles_h) / 4.0f);
  for (int k = 0; k < 4; ++k) {
    ImGui::TextUnformatted(titles[std::size_t(k)].c_str());
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 size(avail.x, each);
    ImGui::Dummy(size);
    draw_cycle_diagram(ImGui::GetWindowDrawList(), origin, size, plans[std::size_t(k)], n, plans[std::size_t(k)].size(),
                       -1);
  }
  ImGui::PopTextWrapPos();
  // totalCalls against the level count: a polynomial of degree kappa (Proposition 2.7) against
  // the W-cycle's 2^n - 1.
  std::vector<Series> series;
  const ImU32 colours[] = {IM_COL32(31, 119, 180, 255), IM_COL32(255, 127, 14, 255), IM_COL32(44, 160, 44, 255),
                           IM_COL32(148, 103, 189, 255), IM_COL32(200, 200, 200, 255)};
  const int chart_kappas[] = {1, 2, 3, 4, kKappaW};
  for (int k = 0; k < 5; ++k) {
    Series s{"kappa=" + kappa_to_string(chart_kappas[k]), {}, {}, colours[k], 2.0f};
    for (int levels = 1; levels <= 16; ++levels) {
      s.x.push_back(levels);
      s.y.push_back(double(total_calls(std::min(chart_kappas[k], levels), levels)));
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
