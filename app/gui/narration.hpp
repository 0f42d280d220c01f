#pragma once
// The narration of a cycle, step by step: what one operation of its trace does, in words a
// lecture can read out ("pre-relax 2/2 on level 3", "restrict the residual, level 3 -> 4",
// "recursive call on level 4 with kappa=2").
#include <cstddef>
#include <string>

#include "kcycle/trace.hpp"

namespace kcycle::gui {

// Operation k (0-based) of `trace`; nu1 and nu2 number the sweeps of a relaxation phase.
std::string narrate(const Trace& trace, std::size_t k, int nu1, int nu2);

}  // namespace kcycle::gui
