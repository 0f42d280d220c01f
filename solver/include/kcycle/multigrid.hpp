#pragma once
// The multigrid hierarchy over a backend: per-level operators and vectors, the coarsest
// level's exact solver, and the executor that runs the recursive cycles of cycles.hpp on
// the backend while recording the trace.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "kcycle/banded_lu.hpp"
#include "kcycle/cycles.hpp"
#include "kcycle/galerkin.hpp"
#include "kcycle/grid.hpp"
#include "kcycle/stencil.hpp"
#include "kcycle/trace.hpp"
#include "kcycle/tridiagonal.hpp"

namespace kcycle {

enum class Smoother {
  Jacobi,       // damped point Jacobi
  GaussSeidel,  // point Gauss-Seidel, red-black (four colours for the 9-point stencil)
  XZebra,       // exact x-line solves, odd rows then even rows
  YZebra,       // exact y-line solves, odd columns then even columns
  XYZebra,      // alternating: one x sweep and one y sweep count as two relaxations
};

// Backend launches one relaxation sweep issues.
constexpr int launches_per_relaxation(Smoother s) {
  return s == Smoother::Jacobi ? 1 : s == Smoother::GaussSeidel ? 4 : 2;
}

enum class CoarseOperator { Rediscretized, Galerkin };

// Which recursive scheme a cycle follows (Algorithms 1-3 of the paper).
enum class CycleType { Kappa, Gamma, F };
struct CycleChoice {
  CycleType type = CycleType::Kappa;
  int counter = 1;  // kappa for Kappa (any value >= levels is the W-cycle), gamma for Gamma
};

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

  // Backend launches per cycle-routine call above the coarsest level, for a backend that
  // issues `transfer_launches` for restriction, zeroing and prolongation together.
  int launches_per_call(int transfer_launches) const {
    return transfer_launches + (nu1 + nu2) * launches_per_relaxation(smoother);
  }
};

// What a recorded cycle depends on: the device buffers of every level and the cycle choice.
// A backend that records cycles (CUDA Graphs) keys its recordings by it.
using CycleSignature = std::vector<std::uintptr_t>;

// Called after every operation a cycle performs (the visualizer's step-by-operation mode).
// It may throw to abandon the cycle; the hierarchy's vectors are then mid-cycle.
using OpObserver = std::function<void(const TraceEvent&)>;

template <class Backend>
class Multigrid {
 public:
  using Vector = typename Backend::Vector;
  using LineFactor = typename Backend::LineFactor;
  struct Level {
    GridShape shape;
    Stencil9 A;
    Vector v;  // iterate (correction on coarse levels)
    Vector f;  // right-hand side
    Vector t;  // Jacobi's output, swapped with v after each sweep
    LineFactor x_line, y_line;  // zebra smoothers' line matrices, factored
  };

  Multigrid(Backend& backend, const MultigridSettings& settings)
      : backend_(backend), settings_(settings) {
    if (settings.levels < 1) throw std::invalid_argument("multigrid needs at least one level");
    levels_.reserve(std::size_t(settings.levels));
    for (int l = 1; l <= settings.levels; ++l) {
      const GridShape shape = level_shape(settings.levels, l, settings.coarsening);
      const Stencil9 A = l == 1 || settings.coarse_operator == CoarseOperator::Rediscretized
                             ? discretize(settings.tensor, shape.hx(), shape.hy())
                             : galerkin_coarse(levels_.back().A, settings.coarsening);
      Level level{shape, A, backend.make_vector(shape), backend.make_vector(shape),
                  Vector{}, {}, {}};
      if (settings.smoother == Smoother::Jacobi) level.t = backend.make_vector(shape);
      if (settings.smoother == Smoother::XZebra || settings.smoother == Smoother::XYZebra)
        level.x_line = backend.make_line_factor(
            TridiagonalFactor::constant(A.a[1][0], A.a[1][1], A.a[1][2], shape.nx));
      if (settings.smoother == Smoother::YZebra || settings.smoother == Smoother::XYZebra)
        level.y_line = backend.make_line_factor(
            TridiagonalFactor::constant(A.a[0][1], A.a[1][1], A.a[2][1], shape.ny));
      levels_.push_back(std::move(level));
    }
    const Level& coarsest = levels_.back();
    coarse_solver_ = backend.make_coarse_solver(BandedLU(coarsest.A, coarsest.shape));
  }

  int levels() const { return settings_.levels; }
  const MultigridSettings& settings() const { return settings_; }
  Backend& backend() { return backend_; }
  Level& level(int l) { return levels_[std::size_t(l - 1)]; }
  const Level& level(int l) const { return levels_[std::size_t(l - 1)]; }

  // One cycle on the finest level: improves level(1).v for the right-hand side level(1).f.
  // A backend that records cycles (CUDA Graphs, when on) replays them, unless an observer
  // watches each operation: then every operation runs on its own.
  void cycle(CycleChoice choice, Trace* trace = nullptr, const OpObserver* observer = nullptr) {
    if constexpr (requires { backend_.run_as_graph(CycleSignature{}, [] {}); }) {
      const bool watched = observer && *observer;
      if (backend_.graphs() && !watched) {
        backend_.run_as_graph(signature(choice), [&] { run_cycle(choice, trace, nullptr); });
        return;
      }
    }
    run_cycle(choice, trace, observer);
  }

  // z <- M r: one cycle from a zero initial guess, the MGCG preconditioner. r and z are
  // swapped in and out of the finest level, so nothing is copied.
  void precondition(Vector& r, Vector& z, CycleChoice choice, Trace* trace = nullptr,
                    const OpObserver* observer = nullptr) {
    Level& fine = level(1);
    std::swap(fine.f, r);
    backend_.fill(fine.v, 0.0);
    cycle(choice, trace, observer);
    std::swap(fine.f, r);
    std::swap(fine.v, z);
  }

 private:
  void run_cycle(CycleChoice choice, Trace* trace, const OpObserver* observer) {
    Executor ops{*this, trace, observer};
    switch (choice.type) {
      case CycleType::Kappa:
        // kappa >= levels is the W-cycle (Proposition 2.1); clamping keeps counters small.
        kappa_cycle(ops, 1, std::min(choice.counter, levels()));
        break;
      case CycleType::Gamma: gamma_cycle(ops, 1, choice.counter); break;
      case CycleType::F: f_cycle(ops, 1); break;
    }
  }

  // The buffers a cycle touches (Jacobi and MGCG swap them between cycles) and its choice.
  CycleSignature signature(CycleChoice choice) const {
    CycleSignature key{std::uintptr_t(choice.type), std::uintptr_t(std::min(choice.counter, levels()))};
    for (const Level& L : levels_)
      for (const Vector* x : {&L.v, &L.f, &L.t}) key.push_back(reinterpret_cast<std::uintptr_t>(x->data()));
    return key;
  }

  // The Ops of cycles.hpp: each operation is recorded, then run on the backend.
  class Executor {
   public:
    Executor(Multigrid& mg, Trace* trace, const OpObserver* observer)
        : mg_(mg), trace_(trace), observer_(observer) {}
    int coarsest() const { return mg_.levels(); }
    int nu1() const { return mg_.settings_.nu1; }
    int nu2() const { return mg_.settings_.nu2; }

    void enter(int l, int counter) {
      record(OpKind::Call, l, counter);
      notify(OpKind::Call, l, counter);
    }
    void coarse_solve(int l) {
      record(OpKind::CoarseSolve, l);
      Level& L = mg_.level(l);
      mg_.backend_.coarse_solve(mg_.coarse_solver_, L.f, L.v);
      notify(OpKind::CoarseSolve, l);
    }
    // Sweep `sweep` of a relaxation phase; see MultigridSettings::symmetric_smoothing.
    void relax(int l, OpKind phase, int sweep) {
      record(phase, l);
      Level& L = mg_.level(l);
      Backend& be = mg_.backend_;
      const bool forward = phase == OpKind::PreRelax || !mg_.settings_.symmetric_smoothing;
      switch (mg_.settings_.smoother) {
        case Smoother::Jacobi:
          be.jacobi(L.A, mg_.settings_.omega, L.v, L.f, L.t);
          std::swap(L.v, L.t);
          break;
        case Smoother::GaussSeidel: be.gauss_seidel(L.A, L.v, L.f, !forward); break;
        case Smoother::XZebra: be.zebra_x(L.A, L.x_line, L.v, L.f, forward); break;
        case Smoother::YZebra: be.zebra_y(L.A, L.y_line, L.v, L.f, forward); break;
        case Smoother::XYZebra:
          // Forward: x, y, x, ...; adjoint: y, x, y, ...
          if ((sweep % 2 == 0) == forward) be.zebra_x(L.A, L.x_line, L.v, L.f, forward);
          else be.zebra_y(L.A, L.y_line, L.v, L.f, forward);
          break;
      }
      notify(phase, l);
    }
    void restrict_residual(int l) {
      record(OpKind::Restrict, l);
      Level& L = mg_.level(l);
      mg_.backend_.restrict_residual(L.A, L.v, L.f, mg_.level(l + 1).f, mg_.settings_.coarsening);
      notify(OpKind::Restrict, l);
    }
    void zero_coarse(int l) {
      record(OpKind::ZeroCoarse, l);
      mg_.backend_.fill(mg_.level(l + 1).v, 0.0);
      notify(OpKind::ZeroCoarse, l);
    }
    void prolong_add(int l) {
      record(OpKind::Prolong, l);
      mg_.backend_.prolong_add(mg_.level(l + 1).v, mg_.level(l).v, mg_.settings_.coarsening);
      notify(OpKind::Prolong, l);
    }

   private:
    void record(OpKind kind, int l, int counter = 0) {
      if (trace_) trace_->push_back(TraceEvent{kind, std::int16_t(l), counter});
    }
    void notify(OpKind kind, int l, int counter = 0) {
      if (observer_ && *observer_) (*observer_)(TraceEvent{kind, std::int16_t(l), counter});
    }
    Multigrid& mg_;
    Trace* trace_;
    const OpObserver* observer_;
  };

  Backend& backend_;
  MultigridSettings settings_;
  std::vector<Level> levels_;
  typename Backend::CoarseSolver coarse_solver_;
};

}  // namespace kcycle
