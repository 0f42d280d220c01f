#pragma once
// The three recursive cycle schemes of the paper, written once over an `Ops` object that
// performs (and may record) each operation. Levels are numbered as in the paper: 1 is the
// finest, `ops.coarsest()` the coarsest.
//
// Ops must provide: int coarsest(); void enter(level, counter); void coarse_solve(level);
// void relax(level, OpKind PreRelax|PostRelax, sweep index); void restrict_residual(level);
// void zero_coarse(level); void prolong_add(level); int nu1(); int nu2();
// CoarsestCalls coarsest_calls() (whether calls into the coarsest level are repeated).
// Ops that can run the Krylov-accelerated cycle (KrylovOps) also provide bool coarse_krylov();
// bool krylov_weigh(level) (after the first coarse call: whether the second runs) and
// void krylov_combine(level).
// They compile for the device too: the coarse tail (coarse_tail.hpp) runs them in one kernel.
#include <concepts>

#include "kcycle/core/host_device.hpp"
#include "kcycle/cycle/multigrid_choices.hpp"
#include "kcycle/cycle/trace.hpp"

namespace kcycle {

// Whether a call on `level` makes its recursive calls after the first: always, except where
// they would solve the coarsest level again and the cycle makes its calls there once.
KCYCLE_NO_HD_CHECK
template <class Ops>
KCYCLE_HD bool repeats_call_below(const Ops& ops, int level) {
  return ops.coarsest_calls() == CoarsestCalls::Repeated || level + 1 < ops.coarsest();
}

template <class Ops>
concept KrylovOps = requires(Ops& ops, int level) {
  { ops.coarse_krylov() } -> std::convertible_to<bool>;
  { ops.krylov_weigh(level) } -> std::convertible_to<bool>;
  ops.krylov_combine(level);
};

// The second coarse call of a kappa-cycle on `level` with counter `kappa` (kappa > 1): plain,
// or Krylov-accelerated where the Ops run it and the coarser level is not the coarsest (whose
// exact solve leaves nothing for a second call or a Krylov step to improve).
KCYCLE_NO_HD_CHECK
template <class Ops>
KCYCLE_HD_RECURSIVE void kappa_cycle(Ops& ops, int level, int kappa);
KCYCLE_NO_HD_CHECK
template <class Ops>
KCYCLE_HD_RECURSIVE void second_coarse_call(Ops& ops, int level, int kappa) {
  if constexpr (KrylovOps<Ops>) {
    if (ops.coarse_krylov() && level + 1 < ops.coarsest()) {
      if (ops.krylov_weigh(level)) {
        kappa_cycle(ops, level + 1, kappa - 1);
        ops.krylov_combine(level);
      }
      return;
    }
  }
  kappa_cycle(ops, level + 1, kappa - 1);
}

// Algorithm 3: one recursive call with the same counter, then one with kappa-1 while it
// stays positive. kappa = 1 is the V-cycle, 2 the F-cycle, >= levels the W-cycle.
KCYCLE_NO_HD_CHECK
template <class Ops>
KCYCLE_HD_RECURSIVE void kappa_cycle(Ops& ops, int level, int kappa) {
  ops.enter(level, kappa);
  if (level == ops.coarsest()) {
    ops.coarse_solve(level);
    return;
  }
  for (int s = 0; s < ops.nu1(); ++s) ops.relax(level, OpKind::PreRelax, s);
  ops.restrict_residual(level);
  ops.zero_coarse(level);
  kappa_cycle(ops, level + 1, kappa);
  if (kappa > 1 && repeats_call_below(ops, level)) second_coarse_call(ops, level, kappa);
  ops.prolong_add(level);
  for (int s = 0; s < ops.nu2(); ++s) ops.relax(level, OpKind::PostRelax, s);
}

// Algorithm 1: the classical cycle with cycle index gamma (1 = V, 2 = W).
KCYCLE_NO_HD_CHECK
template <class Ops>
KCYCLE_HD_RECURSIVE void gamma_cycle(Ops& ops, int level, int gamma) {
  ops.enter(level, gamma);
  if (level == ops.coarsest()) {
    ops.coarse_solve(level);
    return;
  }
  for (int s = 0; s < ops.nu1(); ++s) ops.relax(level, OpKind::PreRelax, s);
  ops.restrict_residual(level);
  ops.zero_coarse(level);
  for (int g = 0; g < gamma && (g == 0 || repeats_call_below(ops, level)); ++g) gamma_cycle(ops, level + 1, gamma);
  ops.prolong_add(level);
  for (int s = 0; s < ops.nu2(); ++s) ops.relax(level, OpKind::PostRelax, s);
}

// Algorithm 2: the F-cycle, one recursive F-cycle followed by a V-cycle. Its calls are
// recorded with counter 2 (F) and 1 (V).
KCYCLE_NO_HD_CHECK
template <class Ops>
KCYCLE_HD_RECURSIVE void f_cycle(Ops& ops, int level) {
  ops.enter(level, 2);
  if (level == ops.coarsest()) {
    ops.coarse_solve(level);
    return;
  }
  for (int s = 0; s < ops.nu1(); ++s) ops.relax(level, OpKind::PreRelax, s);
  ops.restrict_residual(level);
  ops.zero_coarse(level);
  f_cycle(ops, level + 1);
  if (repeats_call_below(ops, level)) gamma_cycle(ops, level + 1, 1);
  ops.prolong_add(level);
  for (int s = 0; s < ops.nu2(); ++s) ops.relax(level, OpKind::PostRelax, s);
}

// A call of `scheme` on `level` with `counter` as the trace records it: kappa_cycle,
// gamma_cycle, or for the F scheme f_cycle (counter 2) or one of its V-cycles (counter 1).
// Every executor starts here: Multigrid's and the planner's at the finest level with the
// choice's first counter, the coarse tail at its top with the counter of the call it replaces.
KCYCLE_NO_HD_CHECK
template <class Ops>
KCYCLE_HD_RECURSIVE void cycle_call(Ops& ops, CycleType scheme, int level, int counter) {
  switch (scheme) {
    case CycleType::Kappa: return kappa_cycle(ops, level, counter);
    case CycleType::Gamma: return gamma_cycle(ops, level, counter);
    case CycleType::F:
      if (counter == 1) return gamma_cycle(ops, level, 1);
      return f_cycle(ops, level);
  }
}

}  // namespace kcycle
