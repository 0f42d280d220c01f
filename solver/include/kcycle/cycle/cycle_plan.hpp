#pragma once
// A cycle's operations without its arithmetic: the very recursion of cycles.hpp run on Ops
// that only record. The visualizer draws the whole cycle from it before it runs (and narrates
// each step against it); the tests count calls in it up to sizes no grid would fit.
#include "kcycle/cycle/multigrid_choices.hpp"
#include "kcycle/cycle/trace.hpp"

namespace kcycle {

// The trace one cycle of `choice` on `levels` levels with nu1 / nu2 sweeps executes: equal to
// what Multigrid's executor records for the same cycle (with the same CoarsestCalls).
Trace planned_cycle(CycleChoice choice, int levels, int nu1, int nu2, CoarsestCalls coarsest = CoarsestCalls::Repeated);

}  // namespace kcycle
