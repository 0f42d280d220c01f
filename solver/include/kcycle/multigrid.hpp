#pragma once
// The multigrid hierarchy over a backend: per-level operators and vectors, the coarsest
// level's exact solver, and the executor that runs the recursive cycles of cycles.hpp on
// the backend while recording the trace.
#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

#include "kcycle/banded_lu.hpp"
#include "kcycle/cycles.hpp"
#include "kcycle/grid.hpp"
#include "kcycle/stencil.hpp"
#include "kcycle/trace.hpp"

namespace kcycle {

enum class Smoother { Jacobi };

// Which recursive scheme a cycle follows (Algorithms 1-3 of the paper).
enum class CycleType { Kappa, Gamma, F };
struct CycleChoice {
  CycleType type = CycleType::Kappa;
  int counter = 1;  // kappa for Kappa (any value >= levels is the W-cycle), gamma for Gamma
};

struct MultigridSettings {
  int levels = 1;
  Stencil9 stencil;  // unscaled (h = 1); level l uses stencil / h_l^2 (rediscretization)
  Smoother smoother = Smoother::Jacobi;
  double omega = 0.8;
  int nu1 = 2;
  int nu2 = 2;
};

template <class Backend>
class Multigrid {
 public:
  using Vector = typename Backend::Vector;
  struct Level {
    GridShape shape;
    Stencil9 A;
    Vector v;  // iterate (correction on coarse levels)
    Vector f;  // right-hand side
    Vector t;  // relaxation output, swapped with v after each sweep
  };

  Multigrid(Backend& backend, const MultigridSettings& settings)
      : backend_(backend), settings_(settings) {
    if (settings.levels < 1) throw std::invalid_argument("multigrid needs at least one level");
    levels_.reserve(std::size_t(settings.levels));
    for (int l = 1; l <= settings.levels; ++l) {
      const GridShape shape = full_coarsening_shape(settings.levels, l);
      const double h = shape.hx();
      levels_.push_back(Level{shape, scaled(settings.stencil, 1.0 / (h * h)),
                              backend.make_vector(shape), backend.make_vector(shape),
                              backend.make_vector(shape)});
    }
    const Level& coarsest = levels_.back();
    coarse_solver_ = BandedLU(coarsest.A, coarsest.shape);
  }

  int levels() const { return settings_.levels; }
  const MultigridSettings& settings() const { return settings_; }
  Backend& backend() { return backend_; }
  Level& level(int l) { return levels_[std::size_t(l - 1)]; }
  const Level& level(int l) const { return levels_[std::size_t(l - 1)]; }

  // One cycle on the finest level: improves level(1).v for the right-hand side level(1).f.
  void cycle(CycleChoice choice, Trace* trace = nullptr) {
    Executor ops{*this, trace};
    switch (choice.type) {
      case CycleType::Kappa:
        // kappa >= levels is the W-cycle (Proposition 2.1); clamping keeps counters small.
        kappa_cycle(ops, 1, std::min(choice.counter, levels()));
        break;
      case CycleType::Gamma: gamma_cycle(ops, 1, choice.counter); break;
      case CycleType::F: f_cycle(ops, 1); break;
    }
  }

  // z <- M r: one cycle from a zero initial guess, the MGCG preconditioner. r and z are
  // swapped in and out of the finest level, so nothing is copied.
  void precondition(Vector& r, Vector& z, CycleChoice choice, Trace* trace = nullptr) {
    Level& fine = level(1);
    std::swap(fine.f, r);
    backend_.fill(fine.v, 0.0);
    cycle(choice, trace);
    std::swap(fine.f, r);
    std::swap(fine.v, z);
  }

 private:
  // The Ops of cycles.hpp: each operation is recorded, then run on the backend.
  class Executor {
   public:
    Executor(Multigrid& mg, Trace* trace) : mg_(mg), trace_(trace) {}
    int coarsest() const { return mg_.levels(); }
    int nu1() const { return mg_.settings_.nu1; }
    int nu2() const { return mg_.settings_.nu2; }

    void enter(int l, int counter) { record(OpKind::Call, l, counter); }
    void coarse_solve(int l) {
      record(OpKind::CoarseSolve, l);
      Level& L = mg_.level(l);
      mg_.backend_.coarse_solve(mg_.coarse_solver_, L.f, L.v);
    }
    void relax(int l, OpKind phase) {
      record(phase, l);
      Level& L = mg_.level(l);
      mg_.backend_.jacobi(L.A, mg_.settings_.omega, L.v, L.f, L.t);
      std::swap(L.v, L.t);
    }
    void restrict_residual(int l) {
      record(OpKind::Restrict, l);
      Level& L = mg_.level(l);
      mg_.backend_.restrict_residual(L.A, L.v, L.f, mg_.level(l + 1).f);
    }
    void zero_coarse(int l) {
      record(OpKind::ZeroCoarse, l);
      mg_.backend_.fill(mg_.level(l + 1).v, 0.0);
    }
    void prolong_add(int l) {
      record(OpKind::Prolong, l);
      mg_.backend_.prolong_add(mg_.level(l + 1).v, mg_.level(l).v);
    }

   private:
    void record(OpKind kind, int l, int counter = 0) {
      if (trace_) trace_->push_back(TraceEvent{kind, std::int16_t(l), counter});
    }
    Multigrid& mg_;
    Trace* trace_;
  };

  Backend& backend_;
  MultigridSettings settings_;
  std::vector<Level> levels_;
  BandedLU coarse_solver_;
};

}  // namespace kcycle
