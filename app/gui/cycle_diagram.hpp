#pragma once
// The paper's Figure 2.1 for any cycle: its plan (kcycle/cycle/cycle_plan.hpp) drawn as a path over
// the levels, an X for every recursive call (with its kappa wherever it overlaps nothing), a circle for
// each relaxation phase. Operations before `done` solid, the rest faint; the operation
// `current_op` (or none: -1) highlighted on the level it wrote. A Krylov step is a green diamond
// on the level it works on; plan operations marked in `skipped` (a Krylov-accelerated cycle's
// second calls that did not run, aligned_with_plan) stay faint.
#include <imgui.h>

#include <cstddef>
#include <vector>

#include "kcycle/cycle/trace.hpp"

namespace kcycle::gui {

void draw_cycle_diagram(ImDrawList* dl, ImVec2 origin, ImVec2 avail, const Trace& plan, int levels, std::size_t done,
                        int current_op, const std::vector<bool>& skipped = {});

}  // namespace kcycle::gui
