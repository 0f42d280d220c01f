#pragma once
// The closed forms the cycle's schedule replaced (cycle_schedule.hpp), kept as the tests'
// oracles: the schedule's folds must equal them wherever they apply.
#include <algorithm>
#include <cstddef>

#include "kcycle/cycle/coarse_tail.hpp"
#include "kcycle/cycle/multigrid_settings.hpp"

namespace kcycle::closed_form {

// Backend launches of the transfers in one call above the coarsest level: the
// residual-and-restriction, the zeroing of the coarse correction and the prolongation.
inline constexpr int kTransferLaunchesPerCall = 3;

// Whether a sweep of `kind` runs as one pipelined pass (not y-zebra: a y-line spans all rows).
inline bool pipelines(const MultigridSettings& s, Smoother kind) {
  return s.fused && (kind == Smoother::GaussSeidel || kind == Smoother::XZebra);
}
inline bool fuses_down(const MultigridSettings& s) { return s.fused && s.smoother == Smoother::Jacobi && s.nu1 > 0; }
inline bool fuses_up(const MultigridSettings& s) { return s.fused && s.smoother == Smoother::Jacobi && s.nu2 > 0; }
// Whether any pass of the cycle runs fused or pipelined: with fused passes on, every level
// above the coarsest has one (Jacobi's down pass, or the restriction that zeroes the coarse
// correction in its launch).
inline bool fuses_any(const MultigridSettings& s) { return s.fused && s.levels > 1; }
// Launches of a relaxation phase of `sweeps` sweeps (x_first: see alternating_x_sweeps).
inline int phase_launches(const MultigridSettings& s, int sweeps, bool x_first) {
  const auto sweep = [&](Smoother kind) { return launches_per_relaxation(kind, pipelines(s, kind)); };
  if (s.smoother != Smoother::XYZebra) return sweeps * sweep(s.smoother);
  const int x = alternating_x_sweeps(sweeps, x_first);
  return x * sweep(Smoother::XZebra) + (sweeps - x) * sweep(Smoother::YZebra);
}
// Backend launches per call above the coarsest level: a fused pass is one launch, and with
// fused passes on the coarse correction is not zeroed by a pass of its own (the fused down
// pass or the restriction's launch does it).
inline int launches_per_call(const MultigridSettings& s) {
  const int pre = fuses_down(s) ? 0 : phase_launches(s, s.nu1, true);
  const int post = fuses_up(s) ? 0 : phase_launches(s, s.nu2, !s.symmetric_smoothing);
  return kTransferLaunchesPerCall - (s.fused ? 1 : 0) + pre + post;
}
// The top level of the coarse tail of settings whose threshold is resolved: the first level
// small enough, if a coarser one follows it and the tail's levels fit; else 0.
inline int coarse_tail_top(const MultigridSettings& s) {
  const std::size_t below = s.coarse_tail_unknowns.value_or(0);
  for (int l = std::max(1, s.levels - kMaxTailLevels + 1); l < s.levels && below > 0; ++l)
    if (level_shape(s.levels, l, s.coarsening).unknowns() <= below) return l;
  return 0;
}
// The levels an unwatched cycle launches one by one (a tail's top acts as the coarsest level).
inline int launched_levels(const MultigridSettings& s) {
  const int top = coarse_tail_top(s);
  return top > 0 ? top : s.levels;
}

}  // namespace kcycle::closed_form
