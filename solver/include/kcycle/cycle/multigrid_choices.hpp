#pragma once
// What a hierarchy's cycles are chosen from: the smoother and the recursive scheme. Apart
// from the executor (solve/multigrid.hpp) so that device code (the coarse tail) and the
// options can include them.
#include <array>
#include <limits>

#include "kcycle/core/host_device.hpp"

namespace kcycle {

enum class Smoother {
  Jacobi,       // damped point Jacobi
  GaussSeidel,  // point Gauss-Seidel, red-black (four colours for the 9-point stencil)
  XZebra,       // exact x-line solves, odd rows then even rows
  YZebra,       // exact y-line solves, odd columns then even columns
  XYZebra,      // alternating: one x sweep and one y sweep count as two relaxations
};

// Backend launches one relaxation sweep issues, pass by pass or pipelined into one pass
// (MultigridSettings::pipelines).
constexpr int launches_per_relaxation(Smoother s, bool pipelined = false) {
  if (pipelined) return 1;
  return s == Smoother::Jacobi ? 1 : s == Smoother::GaussSeidel ? 4 : 2;
}
// The x sweeps among `sweeps` sweeps of the alternating smoother, which starts with x
// (x_first) or with y (the adjoint order of symmetric post-smoothing).
constexpr int alternating_x_sweeps(int sweeps, bool x_first) { return x_first ? (sweeps + 1) / 2 : sweeps / 2; }
// The smoother sweep `sweep` of a relaxation phase runs: the alternating smoother's x and y
// sweeps take turns, x first going forward, y first in the adjoint order; every other smoother
// is itself. The schedule's planner and the coarse tail both take it from here.
KCYCLE_HD constexpr Smoother sweep_smoother(Smoother s, int sweep, bool adjoint) {
  if (s != Smoother::XYZebra) return s;
  return (sweep % 2 == 0) != adjoint ? Smoother::XZebra : Smoother::YZebra;
}
// kappa = W: any counter >= levels gives the W-cycle (Proposition 2.1).
inline constexpr int kKappaW = std::numeric_limits<int>::max();
// The kappas kcycle compares wherever it picks or tabulates one (the paper's tables): the
// advisor, sweeps, calibration, experiments, `kcycle lfa` and the visualizer's time panel.
inline constexpr std::array<int, 5> kKappaCandidates = {1, 2, 3, 4, kKappaW};

// Whether a call whose recursive calls land on the coarsest level makes all of them or only
// the first. The coarsest level is solved exactly and its right-hand side does not change
// between the calls, so a repeat solves the same equation again and leaves the same iterate.
// Repeated: the paper's counts (Proposition 2.2), rocALUTION's; Once: the authors' own code,
// which skips the repeats (levelCalls(kappa, n) becomes levelCalls(kappa, n - 1)).
enum class CoarsestCalls { Repeated, Once };

// Which recursive scheme a cycle follows (Algorithms 1-3 of the paper).
enum class CycleType { Kappa, Gamma, F };
struct CycleChoice {
  CycleType type = CycleType::Kappa;
  int counter = 1;  // kappa for Kappa (any value >= levels is the W-cycle), gamma for Gamma
  friend bool operator==(const CycleChoice&, const CycleChoice&) = default;
  // The counter of the cycle's first call, as the trace records it (the F-cycle's is 2).
  constexpr int first_counter() const { return type == CycleType::F ? 2 : counter; }
};

}  // namespace kcycle
