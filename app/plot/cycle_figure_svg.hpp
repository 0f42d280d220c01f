#pragma once
// The paper's Figure 2.1 for a slide: one cycle diagram per kappa, stacked, each titled with its
// kappa and the calls it makes ("kappa = 3, totalCalls = 25"), as SVG (text stays text: it can be
// searched, edited and scaled). `kcycle figure cycles` and the visualizer's export both write it.
#include <string>
#include <vector>

#include "kcycle/cycle/trace.hpp"

namespace kcycle::plot {

struct CycleFigurePanel {
  int kappa;   // the cycle's counter (kKappaW: the W-cycle)
  Trace plan;  // one cycle's operations (planned_cycle)
  int levels;
};

// One panel per kappa: the plan of one kappa-cycle on `levels` levels with nu1 / nu2 sweeps.
std::vector<CycleFigurePanel> kappa_cycle_panels(int levels, const std::vector<int>& kappas, int nu1, int nu2);

// The title a panel carries: "κ = 3, totalCalls = 25" (W for the W-cycle), the calls counted in
// the plan drawn.
std::string panel_title(const CycleFigurePanel& panel);

// The whole figure, `width` pixels (user units) wide; its height follows from the panels' levels.
std::string cycle_figure_svg(const std::vector<CycleFigurePanel>& panels, float width = 960);

}  // namespace kcycle::plot
