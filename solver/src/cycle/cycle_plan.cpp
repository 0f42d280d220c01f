#include "kcycle/cycle/cycle_plan.hpp"

#include "kcycle/cycle/cycles.hpp"

namespace kcycle {

namespace {

struct PlanOps {
  int levels, pre, post;
  CoarsestCalls coarsest_calls_made;
  Trace trace;
  int coarsest() const { return levels; }
  int nu1() const { return pre; }
  int nu2() const { return post; }
  CoarsestCalls coarsest_calls() const { return coarsest_calls_made; }
  void record(OpKind kind, int l, int counter = 0) { trace.push_back({kind, std::int16_t(l), counter}); }
  void enter(int l, int counter) { record(OpKind::Call, l, counter); }
  void coarse_solve(int l) { record(OpKind::CoarseSolve, l); }
  void relax(int l, OpKind kind, int) { record(kind, l); }
  void restrict_residual(int l) { record(OpKind::Restrict, l); }
  void zero_coarse(int l) { record(OpKind::ZeroCoarse, l); }
  void prolong_add(int l) { record(OpKind::Prolong, l); }
};

}  // namespace

Trace planned_cycle(CycleChoice choice, int levels, int nu1, int nu2, CoarsestCalls coarsest) {
  PlanOps ops{levels, nu1, nu2, coarsest, {}};
  cycle_call(ops, choice.type, 1, choice.first_counter());
  return std::move(ops.trace);
}

}  // namespace kcycle
