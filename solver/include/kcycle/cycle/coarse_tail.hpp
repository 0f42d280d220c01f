#pragma once
// The coarse tail: the whole remaining recursion below a small level (every coarser level,
// both recursive calls, relaxations, transfers and the coarsest solve) run as ONE operation.
// On a GPU the per-level kernels of small levels are pure launch overhead, the alpha * calls
// term the paper's model charges the higher kappa; one thread block runs the tail instead,
// its threads sharing each operation's points and meeting at a barrier between operations.
//
// The recursion is cycles.hpp's (kappa_cycle, gamma_cycle, f_cycle), run over TailOps, and
// every operation is a level_bodies.hpp body, the per-level kernels' arithmetic. A Team
// (team.hpp) says who shares the work: SerialTeam (one thread: the CPU backend) or BlockTeam
// (the CUDA backend's block of threads).
#include "kcycle/core/grid.hpp"
#include "kcycle/core/host_device.hpp"
#include "kcycle/core/level_bodies.hpp"
#include "kcycle/core/stencil.hpp"
#include "kcycle/core/team.hpp"
#include "kcycle/cycle/cycles.hpp"
#include "kcycle/cycle/multigrid_choices.hpp"
#include "kcycle/cycle/trace.hpp"

namespace kcycle {

inline constexpr int kMaxTailLevels = 12;

// One level of the tail: its operator, interior size and vectors (v, f and Jacobi's t), and its
// line factors where a zebra smoother uses them.
struct TailLevel {
  Stencil9 A;
  int nx = 0, ny = 0;
  double *v = nullptr, *f = nullptr, *t = nullptr;
  level::LineView x_line, y_line;
  KCYCLE_HD int stride() const { return nx + 2; }
};
// The coarsest level's banded LU factor and its work vector (n values).
struct CoarseView {
  const double* band = nullptr;
  int n = 0, bw = 0;
  double* work = nullptr;
};

// Everything one tail runs with: the smoother's settings, which recursive call it stands for,
// and its levels. Plain data, so a kernel takes it by value (and a recorded graph keeps it).
struct CoarseTail {
  Smoother smoother = Smoother::Jacobi;
  Coarsening coarsening = Coarsening::Full;
  double omega = 0.8;
  int nu1 = 2, nu2 = 2;
  bool symmetric_smoothing = false;
  CoarsestCalls coarsest_calls = CoarsestCalls::Repeated;
  // The call the tail replaces: kappa_cycle(first, counter), gamma_cycle(first, counter), or for
  // the F scheme f_cycle(first) (counter 2) or its V-cycles (counter 1).
  CycleType scheme = CycleType::Kappa;
  int counter = 1;
  int first = 1;            // the tail's top level (paper numbering, 1 = finest)
  int count = 0;            // levels first .. first + count - 1, the last the coarsest
  bool zero_first = false;  // the top level's v stands for zero (its zeroing pass was skipped)
  TailLevel levels[kMaxTailLevels];
  CoarseView coarse;
};

// The Ops of cycles.hpp over a tail's levels. Each operation's points are shared by the team
// (thread r takes points r, r + size, ...), and the team meets before the next operation reads
// them. Jacobi's buffer swap is made by rank 0 on the tail the team shares.
template <class Team>
class TailOps {
 public:
  KCYCLE_HD TailOps(const Team& team, CoarseTail& tail) : team_(team), tail_(tail) {}
  KCYCLE_HD int coarsest() const { return tail_.first + tail_.count - 1; }
  KCYCLE_HD int nu1() const { return tail_.nu1; }
  KCYCLE_HD int nu2() const { return tail_.nu2; }
  KCYCLE_HD CoarsestCalls coarsest_calls() const { return tail_.coarsest_calls; }
  KCYCLE_HD void enter(int, int) const {}

  KCYCLE_HD_NOINLINE void coarse_solve(int l) {
    TailLevel& L = at(l);
    if (team_.rank() == 0)
      level::coarse_solve(tail_.coarse.band, tail_.coarse.n, tail_.coarse.bw, tail_.coarse.work, L.f, L.v, L.nx, L.ny,
                          L.stride());
    team_.sync();
  }
  // The sweep the schedule plans for this operation (CycleSchedule's passes, sweep_smoother).
  KCYCLE_HD_NOINLINE void relax(int l, OpKind phase, int sweep) {
    TailLevel& L = at(l);
    const bool adjoint = phase == OpKind::PostRelax && tail_.symmetric_smoothing;
    switch (sweep_smoother(tail_.smoother, sweep, adjoint)) {
      case Smoother::Jacobi: return jacobi(L);
      case Smoother::GaussSeidel: return gauss_seidel(L, adjoint);
      case Smoother::XZebra: return zebra_x(L, !adjoint);
      case Smoother::YZebra: return zebra_y(L, !adjoint);
      case Smoother::XYZebra: return;  // sweep_smoother says x or y
    }
  }
  KCYCLE_HD_NOINLINE void restrict_residual(int l) {
    const TailLevel &L = at(l), &C = at(l + 1);
    const bool full = tail_.coarsening == Coarsening::Full;
    for_each_point(C.nx, C.ny, [&](int I, int J) {
      level::restrict_point(L.A, L.v, L.f, L.nx, L.ny, L.stride(), C.f, C.stride(), full, I, J);
    });
  }
  KCYCLE_HD_NOINLINE void zero_coarse(int l) { zero(at(l + 1).v, at(l + 1)); }
  KCYCLE_HD_NOINLINE void prolong_add(int l) {
    const TailLevel &L = at(l), &C = at(l + 1);
    const bool full = tail_.coarsening == Coarsening::Full;
    for_each_point(L.nx, L.ny,
                   [&](int i, int j) { level::prolong_point(C.v, C.stride(), L.v, L.stride(), full, i, j); });
  }

  // The whole storage of `x` (ring included: the ring of a correction is zero) set to zero.
  KCYCLE_HD void zero(double* x, const TailLevel& L) {
    const int count = L.stride() * (L.ny + 2);
    for (int k = team_.rank(); k < count; k += team_.size()) x[k] = 0.0;
    team_.sync();
  }
  // y's interior <- x's.
  KCYCLE_HD void copy(const double* x, double* y, const TailLevel& L) {
    for_each_point(L.nx, L.ny,
                   [&](int i, int j) { level::row(y, j, L.stride())[i] = level::row(x, j, L.stride())[i]; });
  }
  KCYCLE_HD TailLevel& at(int l) { return tail_.levels[l - tail_.first]; }

 private:
  // body(i, j) at the points rank, rank + size, ... of the nx x ny interior in row order. The
  // divisions happen once a loop, not once a point (they are slow on a GPU).
  template <class Body>
  KCYCLE_HD void for_each_point(int nx, int ny, const Body& body) {
    const int step = team_.size(), step_i = step % nx, step_j = step / nx;
    int i = team_.rank() % nx + 1, j = team_.rank() / nx + 1;
    while (j <= ny) {
      body(i, j);
      i += step_i;
      j += step_j;
      if (i > nx) i -= nx, ++j;
    }
    team_.sync();
  }
  KCYCLE_HD void jacobi(TailLevel& L) {
    const double w = tail_.omega / L.A.center();
    for_each_point(L.nx, L.ny, [&](int i, int j) { level::jacobi_point(L.A, w, L.v, L.f, L.t, L.stride(), i, j); });
    if (team_.rank() == 0) {  // the swap Multigrid makes after each sweep
      double* v = L.v;
      L.v = L.t;
      L.t = v;
    }
    team_.sync();
  }
  KCYCLE_HD void gauss_seidel(TailLevel& L, bool reverse) {
    const double inv_diag = 1.0 / L.A.center();
    const int half_x = (L.nx + 1) / 2, half_y = (L.ny + 1) / 2;
    for (int step = 0; step < 4; ++step) {
      const int colour = reverse ? 3 - step : step;
      for_each_point(half_x, half_y, [&](int pi, int pj) {
        int i, j;
        if (level::gauss_seidel_colour_point(L.nx, L.ny, colour, pi - 1, pj - 1, i, j))
          level::gauss_seidel_point(L.A, inv_diag, L.v, L.f, L.stride(), i, j);
      });
    }
  }
  KCYCLE_HD void zebra_x(TailLevel& L, bool odd_first) {
    for (int pass = 0; pass < 2; ++pass) {
      const int first_row = (pass == 0) == odd_first ? 1 : 2;
      for (int j = first_row + 2 * team_.rank(); j <= L.ny; j += 2 * team_.size())
        level::zebra_x_line(L.A, L.x_line, L.v, L.f, L.nx, L.stride(), j);
      team_.sync();
    }
  }
  KCYCLE_HD void zebra_y(TailLevel& L, bool odd_first) {
    for (int pass = 0; pass < 2; ++pass) {
      const int first_col = (pass == 0) == odd_first ? 1 : 2;
      for (int i = first_col + 2 * team_.rank(); i <= L.nx; i += 2 * team_.size())
        level::zebra_y_line(L.A, L.y_line, L.v, L.f, L.ny, L.stride(), i);
      team_.sync();
    }
  }

  const Team& team_;
  CoarseTail& tail_;
};

// Runs the tail. `tail` is shared by the team (one copy for all its threads) and is changed by
// it: Jacobi swaps its levels' buffers. Every level's iterate ends in the buffer the caller
// passed as its v.
KCYCLE_NO_HD_CHECK
template <class Team>
KCYCLE_HD_RECURSIVE void run_coarse_tail(const Team& team, CoarseTail& tail) {
  TailOps<Team> ops(team, tail);
  TailLevel& top = ops.at(tail.first);
  double* given[kMaxTailLevels];  // each level's v as the caller passed it
  for (int k = 0; k < tail.count; ++k) given[k] = tail.levels[k].v;
  if (tail.zero_first) ops.zero(top.v, top);
  cycle_call(ops, tail.scheme, tail.first, tail.counter);
  // An odd number of Jacobi sweeps leaves a level's iterate in its other buffer: every level's
  // goes back where the caller keeps it (the prolongation reads the top one there, the
  // visualizer draws the others from there).
  for (int k = 0; k < tail.count; ++k)
    if (tail.levels[k].v != given[k]) ops.copy(tail.levels[k].v, given[k], tail.levels[k]);
}

}  // namespace kcycle
