#pragma once
// The cycle of a mixed-precision solve: a multigrid hierarchy that stores and computes in
// float (half the bytes per sweep, twice the values per vector instruction), used as an
// operator on double vectors. z <- M r rounds r into the finest level's right-hand side, runs
// one cycle from a zero guess and hands the correction back in double: the preconditioner of
// MGCG, and the correction of iterative refinement (x <- x + M (f - A x), the residual in
// double), which is how the stand-alone solver still reaches 1e-8 and beyond.
#include <optional>
#include <utility>

#include "kcycle/cpu_backend.hpp"
#include "kcycle/multigrid.hpp"

namespace kcycle {

class MixedPrecisionCycle {
 public:
  MixedPrecisionCycle(CpuBackend& backend, FloatCpuBackend& float_backend, const MultigridSettings& settings)
      : backend_(backend), float_backend_(float_backend), hierarchy_(float_backend, settings) {}

  Multigrid<FloatCpuBackend>& hierarchy() { return hierarchy_; }
  const Multigrid<FloatCpuBackend>& hierarchy() const { return hierarchy_; }

  // MGCG's r <- r + a q returning |r|^2, with r's float rounding written into the finest
  // level's right-hand side on the way: the next precondition(r, ...) starts from it.
  double update_residual(double a, const Field& q, Field& r) {
    const double r2 = backend_.axpy_norm2_rounded(a, q, r, hierarchy_.level(1).f);
    rounded_ = &r;
    return r2;
  }

  // z <- M r (r is not changed): iterative refinement's correction.
  void apply(const Field& r, Field& z, CycleChoice choice, const CycleHooks& hooks = {}) {
    cycle_on(r, choice, hooks);
    backend_.assign(hierarchy_.level(1).v, z);
  }
  // The same for MGCG, returning (r, z) in double, summed as z is written back (with fused
  // passes; otherwise nothing, and the caller takes the dot).
  std::optional<double> precondition(Field& r, Field& z, CycleChoice choice, const CycleHooks& hooks = {}) {
    if (!hierarchy_.settings().fused) {
      apply(r, z, choice, hooks);
      return std::nullopt;
    }
    cycle_on(r, choice, hooks);
    return backend_.assign_dot(hierarchy_.level(1).v, z, r);
  }

 private:
  void cycle_on(const Field& r, CycleChoice choice, const CycleHooks& hooks) {
    if (std::exchange(rounded_, nullptr) != &r) float_backend_.assign(r, hierarchy_.level(1).f);
    hierarchy_.cycle_from_zero(choice, hooks);
  }

  CpuBackend& backend_;
  FloatCpuBackend& float_backend_;
  Multigrid<FloatCpuBackend> hierarchy_;
  const Field* rounded_ = nullptr;  // the r whose rounding the finest f holds (update_residual)
};

}  // namespace kcycle
