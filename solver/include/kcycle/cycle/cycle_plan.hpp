#pragma once
// A cycle's operations without its arithmetic: the very recursion of cycles.hpp run on Ops
// that only record. The visualizer draws the whole cycle from it before it runs (and narrates
// each step against it); the tests count calls in it up to sizes no grid would fit.
#include <cstddef>
#include <vector>

#include "kcycle/cycle/multigrid_choices.hpp"
#include "kcycle/cycle/trace.hpp"

namespace kcycle {

// The trace one cycle of `choice` on `levels` levels with nu1 / nu2 sweeps executes: equal to
// what Multigrid's executor records for the same cycle (with the same CoarsestCalls). With
// coarse_krylov, the Krylov-accelerated cycle with every second coarse call made: a cycle that
// runs it skips some (aligned_with_plan).
Trace planned_cycle(CycleChoice choice, int levels, int nu1, int nu2, CoarsestCalls coarsest = CoarsestCalls::Repeated,
                    bool coarse_krylov = false);

// How far into `plan` (a Krylov-accelerated one) the operations `executed` reach: the plan's
// position after them, its second calls that the cycle skipped (a weigh step not followed by a
// call) passed over, and marked in *skipped (plan.size() entries) where asked.
std::size_t aligned_with_plan(const Trace& plan, const Trace& executed, std::vector<bool>* skipped = nullptr);

}  // namespace kcycle
