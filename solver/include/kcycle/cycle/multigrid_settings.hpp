#pragma once
// What a multigrid hierarchy is built from and how its cycles may run: the PDE, coarsening,
// coarse operators, smoother, sweeps, and whether passes may fuse and the coarse levels run as
// one tail. Data only: what a cycle then physically runs (which passes fuse, which levels the
// tail runs, the launches and bytes) is planned from these in one place, cycle_schedule.cpp.
#include <cstddef>
#include <optional>

#include "kcycle/core/grid.hpp"
#include "kcycle/core/stencil.hpp"
#include "kcycle/cycle/multigrid_choices.hpp"

namespace kcycle {

enum class CoarseOperator { Rediscretized, Galerkin };

struct MultigridSettings {
  int levels = 1;
  DiffusionTensor tensor{1.0, 1.0, 0.0};  // the PDE; the finest level discretizes it
  Coarsening coarsening = Coarsening::Full;
  CoarseOperator coarse_operator = CoarseOperator::Rediscretized;
  Smoother smoother = Smoother::Jacobi;
  double omega = 0.8;  // Jacobi only; the other smoothers are undamped
  int nu1 = 2;
  int nu2 = 2;
  // false (the paper's cycle): every sweep runs in the same order (red before black, odd
  // lines before even, x before y). true: sweeps after the correction run as the adjoint of
  // those before it, so with nu1 = nu2 the V- and W-cycles are symmetric preconditioners.
  // The adjoint order repeats a half sweep (red after red), so it converges a little slower.
  bool symmetric_smoothing = false;
  // Whether a call makes its second (and later) recursive calls when they land on the coarsest
  // level, solved exactly by the first: the same iterate either way, fewer calls with Once.
  CoarsestCalls coarsest_calls = CoarsestCalls::Repeated;
  // The Krylov-accelerated kappa-cycle (Notay & Vassilevski's K-cycle applied to Algorithm 3):
  // where a call makes its two coarse calls above the coarsest level, the first call's
  // correction is weighed by CG, the second runs on the residual that leaves (skipped when that
  // is at most kKrylovSkipRatio of the first's), and the two are combined by a flexible-CG
  // step (solve/coarse_krylov.hpp). kappa = 1 is unchanged; kappa = W is the K-cycle. No coarse
  // tail runs with it (the tail's recursion has no Krylov steps), nor a recorded graph (its
  // steps branch on dot products).
  bool coarse_krylov = false;
  // Run the pre-smoothing sweeps, the residual and the restriction as one pass over memory,
  // and the prolongation with the correction and the post-smoothing sweeps as another, where
  // the backend can (CpuBackend, Jacobi); and each Gauss-Seidel or x-zebra sweep as one
  // pipelined pass: bitwise the same iterate, fewer bytes and launches. Cycles watched
  // operation by operation always run every operation on its own.
  bool fused = false;
  // Run every level of at most this many unknowns (and all coarser ones) as one coarse tail
  // (coarse_tail.hpp) where the backend can: one launch instead of the tail's per-level
  // operations. 0: never; empty: the backend's default (its kCoarseTailUnknowns, measured).
  // Cycles watched or timed level by level always run every operation on its own.
  std::optional<std::size_t> coarse_tail_unknowns;
};

}  // namespace kcycle
