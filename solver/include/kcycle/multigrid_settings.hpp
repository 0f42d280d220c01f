#pragma once
// What a multigrid hierarchy is built from and how its cycles may run: the PDE, coarsening,
// coarse operators, smoother, sweeps, and whether passes fuse and the coarse levels run as one
// tail. What a cycle then physically runs is planned from these (cycle_schedule.hpp).
#include <algorithm>
#include <cstddef>
#include <optional>

#include "kcycle/coarse_tail.hpp"
#include "kcycle/grid.hpp"
#include "kcycle/multigrid_choices.hpp"
#include "kcycle/stencil.hpp"

namespace kcycle {

// Backend launches of the transfers in one call above the coarsest level: the fused
// residual-and-restriction, the zeroing of the coarse correction and the prolongation.
inline constexpr int kTransferLaunchesPerCall = 3;

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

  // Whether a sweep of `kind` runs as one pipelined pass (its colours or line parities
  // trailing each other by a row). Not y-zebra: a y-line spans all rows.
  bool pipelines(Smoother kind) const { return fused && (kind == Smoother::GaussSeidel || kind == Smoother::XZebra); }
  // Whether any pass of the cycle runs fused or pipelined.
  bool fuses_any() const {
    const bool x_sweeps = smoother == Smoother::XZebra || smoother == Smoother::XYZebra;
    return fuses_down() || fuses_up() || (smoother == Smoother::GaussSeidel && pipelines(smoother)) ||
           (x_sweeps && pipelines(Smoother::XZebra));
  }
  // Launches of a relaxation phase of `sweeps` sweeps, as issued (x_first: see alternating_x_sweeps).
  int phase_launches(int sweeps, bool x_first) const {
    const auto sweep = [&](Smoother kind) { return launches_per_relaxation(kind, pipelines(kind)); };
    if (smoother != Smoother::XYZebra) return sweeps * sweep(smoother);
    const int x = alternating_x_sweeps(sweeps, x_first);
    return x * sweep(Smoother::XZebra) + (sweeps - x) * sweep(Smoother::YZebra);
  }

  // Whether a call's pre-smoothing and restriction (down), or its prolongation and
  // post-smoothing (up), run as one fused pass.
  bool fuses_down() const { return fused && smoother == Smoother::Jacobi && nu1 > 0; }
  bool fuses_up() const { return fused && smoother == Smoother::Jacobi && nu2 > 0; }
  // Backend launches per cycle-routine call above the coarsest level (the coarsest level's
  // call is one launch, the exact solve), as issued: a fused pass is one launch, and with the
  // fused down pass the coarse correction is not zeroed by a pass of its own (the coarse
  // level's first sweep starts from zero, the coarsest level's solve overwrites it).
  int launches_per_call() const {
    const int pre = fuses_down() ? 0 : phase_launches(nu1, true);
    const int post = fuses_up() ? 0 : phase_launches(nu2, !symmetric_smoothing);
    return kTransferLaunchesPerCall - (fuses_down() ? 1 : 0) + pre + post;
  }
};

// The top level of the coarse tail of settings whose threshold is resolved (coarse_tail_on):
// the first level small enough, if a coarser one follows it and the tail's levels fit; else 0.
inline int coarse_tail_top(const MultigridSettings& s) {
  const std::size_t below = s.coarse_tail_unknowns.value_or(0);
  for (int l = std::max(1, s.levels - kMaxTailLevels + 1); l < s.levels && below > 0; ++l)
    if (level_shape(s.levels, l, s.coarsening).unknowns() <= below) return l;
  return 0;
}
// The levels whose operations an unwatched cycle launches one by one: a hierarchy with a coarse
// tail launches like one whose coarsest level is the tail's top (its one launch per call).
inline int launched_levels(const MultigridSettings& s) {
  const int top = coarse_tail_top(s);
  return top > 0 ? top : s.levels;
}

// The levels below the top of a coarse tail of `unknowns` (as on 16 levels: with full
// coarsening the same for every level count), which it runs in one launch per call.
inline int coarse_tail_depth(std::size_t unknowns, Coarsening coarsening) {
  MultigridSettings s;
  s.levels = 16;
  s.coarsening = coarsening;
  s.coarse_tail_unknowns = unknowns;
  return s.levels - launched_levels(s);
}

}  // namespace kcycle
