#pragma once
// What one MGCG iteration runs on the finest grid besides its preconditioning cycle, planned
// once like the cycle (cycle_schedule.hpp): CG's two-pass iteration (A p recomputed in each
// pass, never stored: 64 bytes a point in double instead of 80) where the backend has it
// (Capabilities::two_pass_cg_from) and the grid is large enough for it to pay, else the
// textbook's passes with q = A p stored. PreconditionedCG runs what it says; the memory account
// and `kcycle info --schedule` read it.
#include <string>
#include <vector>

#include "kcycle/cycle/cycle_schedule.hpp"
#include "kcycle/cycle/multigrid_settings.hpp"

namespace kcycle {

struct CgStepPlan {
  bool two_pass = false;  // p's update with (p, A p), then x's and r's with their norms
  bool flexible = false;  // flexible CG: beta from (z, A p), one pass more

  // For settings as their backend runs them (fused: --fused) on a backend that can do `can`.
  static CgStepPlan plan(const MultigridSettings& settings, Capabilities can, bool flexible);

  // The passes of one iteration after the first, in order, each in words.
  std::vector<std::string> passes() const;
  std::string describe() const;  // one line: "CG's own passes per iteration: ..."
};

}  // namespace kcycle
