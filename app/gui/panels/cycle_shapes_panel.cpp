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
  const float chart_h = avail.y * 0.30f, each = (avail.y - chart_h) / 4.0f;
  const int kappas[] = {1, 2, 3, kKappaW};
  const char* names[] = {"V-cycle (kappa=1)", "F-cycle (kappa=2)", "kappa=3", "W-cycle (kappa>=levels)"};
  for (int k = 0; k < 4; ++k) {
    const Trace plan = planned_cycle({CycleType::Kappa, kappas[k]}, n, o.nu1, o.nu2);
    ImGui::Text("%s: totalCalls = %zu", names[k], plot::calls_in(plan));
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 size(avail.x, each - ImGui::GetTextLineHeightWithSpacing());
    ImGui::Dummy(size);
    draw_cycle_diagram(ImGui::GetWindowDrawList(), origin, size, plan, n, plan.size(), -1);
  }
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
