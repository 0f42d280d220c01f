#include "kcycle/cycle/cycle_plan.hpp"

#include "kcycle/cycle/cycles.hpp"

namespace kcycle {

namespace {

struct PlanOps {
  int levels, pre, post;
  CoarsestCalls coarsest_calls_made;
  bool krylov;
  Trace trace;
  int coarsest() const { return levels; }
  int nu1() const { return pre; }
  int nu2() const { return post; }
  CoarsestCalls coarsest_calls() const { return coarsest_calls_made; }
  // The Krylov-accelerated cycle's shape with every second call made (which ones are skipped
  // depends on the residuals: aligned_with_plan says where a cycle that ran them is).
  bool coarse_krylov() const { return krylov; }
  bool krylov_weigh(int l) {
    record(OpKind::KrylovWeigh, l);
    return true;
  }
  void krylov_combine(int l) { record(OpKind::KrylovCombine, l); }
  void record(OpKind kind, int l, int counter = 0) { trace.push_back({kind, std::int16_t(l), counter}); }
  void enter(int l, int counter) { record(OpKind::Call, l, counter); }
  void coarse_solve(int l) { record(OpKind::CoarseSolve, l); }
  void relax(int l, OpKind kind, int) { record(kind, l); }
  void restrict_residual(int l) { record(OpKind::Restrict, l); }
  void zero_coarse(int l) { record(OpKind::ZeroCoarse, l); }
  void prolong_add(int l) { record(OpKind::Prolong, l); }
};

}  // namespace

Trace planned_cycle(CycleChoice choice, int levels, int nu1, int nu2, CoarsestCalls coarsest, bool coarse_krylov) {
  PlanOps ops{levels, nu1, nu2, coarsest, coarse_krylov, {}};
  cycle_call(ops, choice.type, 1, choice.first_counter());
  return std::move(ops.trace);
}

std::size_t aligned_with_plan(const Trace& plan, const Trace& executed, std::vector<bool>* skipped) {
  if (skipped) skipped->assign(plan.size(), false);
  std::size_t p = 0;
  for (std::size_t k = 0; k < executed.size() && p < plan.size(); ++k) {
    // A weigh step the cycle ran without its second call: the plan's second call and its
    // combine step were skipped, up to the caller's next operation.
    if (k > 0 && executed[k - 1].kind == OpKind::KrylovWeigh && plan[p].kind == OpKind::Call &&
        executed[k].kind != OpKind::Call) {
      const int caller = executed[k - 1].level;
      while (p < plan.size() && !(plan[p].kind == OpKind::KrylovCombine && plan[p].level == caller)) {
        if (skipped) (*skipped)[p] = true;
        ++p;
      }
      if (p < plan.size() && skipped) (*skipped)[p] = true;
      ++p;  // the combine step
    }
    ++p;
  }
  return std::min(p, plan.size());
}

}  // namespace kcycle
