#pragma once
// The narration of a cycle, step by step: what one operation of its trace does, in words a
// lecture can read out ("pre-relax 2/2 on level 3", "restrict the residual, level 3 -> 4",
// "recursive call on level 4 with kappa=2").
#include <cstddef>
#include <string>
#include <vector>

#include "kcycle/cycle/trace.hpp"
#include "kcycle/solve/solver_options.hpp"

namespace kcycle::gui {

// Operation k (0-based) of `trace` under `options` (nu1 and nu2 number a phase's sweeps; a zebra
// sweep says its lines' direction; a repeated exact solve on the coarsest level says it changes
// nothing).
std::string narrate(const Trace& trace, std::size_t k, const SolverOptions& options);

// The calls active when operation k runs, outermost first: (level, counter) each.
struct ActiveCall {
  int level, counter;
};
std::vector<ActiveCall> call_stack(const Trace& trace, std::size_t k);
// "level 1 (kappa=3) > level 2 (kappa=3) > level 3 (kappa=2)".
std::string describe_call_stack(const std::vector<ActiveCall>& stack);

// The paper's Algorithm 3, a line each, and the line operation k of a kappa-cycle's trace
// carries out (a recursive call: the line of its caller that makes it).
const std::vector<std::string>& algorithm3_lines();
int algorithm3_line(const Trace& trace, std::size_t k);

}  // namespace kcycle::gui
