#pragma once
// The cycle of a mixed-precision solve: a multigrid hierarchy that stores and computes in
// float (half the bytes per sweep, twice the values per vector instruction), used as an
// operator on double vectors. z <- M r rounds r into the finest level's right-hand side, runs
// one cycle from a zero guess and hands the correction back in double: the preconditioner of
// MGCG, and the correction of iterative refinement (x <- x + M (f - A x), the residual in
// double), which is how the stand-alone solver still reaches 1e-8 and beyond.
#include <optional>

#include "kcycle/cpu_backend.hpp"
#include "kcycle/multigrid.hpp"

namespace kcycle {

class MixedPrecisionCycle {
 public:
  MixedPrecisionCycle(CpuBackend& backend, FloatCpuBackend& float_backend, const MultigridSettings& settings)
      : backend_(backend), float_backend_(float_backend), hierarchy_(float_backend, settings) {}

  Multigrid<FloatCpuBackend>& hierarchy() { return hierarchy_; }
  const Multigrid<FloatCpuBackend>& hierarchy() const { return hierarchy_; }

  // z <- M r (r is not changed); (r, z) is left to the caller (the hierarchy sees float r).
  std::optional<double> precondition(Field& r, Field& z, CycleChoice choice, const CycleHooks& hooks = {}) {
    auto& fine = hierarchy_.level(1);
    float_backend_.assign(r, fine.f);
    hierarchy_.cycle_from_zero(choice, hooks);
    backend_.assign(fine.v, z);
    return std::nullopt;
  }

 private:
  CpuBackend& backend_;
  FloatCpuBackend& float_backend_;
  Multigrid<FloatCpuBackend> hierarchy_;
};

}  // namespace kcycle
