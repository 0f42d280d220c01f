#pragma once
// The cycle of a mixed-precision solve: a multigrid hierarchy that stores and computes in
// float (half the bytes per sweep, twice the values per vector instruction), used as an
// operator on double vectors. z <- M r rounds r into the finest level's right-hand side and
// runs one cycle from a zero guess: the preconditioner of MGCG, and the correction of
// iterative refinement (x <- x + M (f - A x), the residual in double), which is how the
// stand-alone solver still reaches 1e-8 and beyond. Both read z in float where the cycle left
// it (correction()); apply() hands it back in double for the unfused paths.
#include <optional>
#include <utility>

#include "kcycle/backends/cpu/cpu_backend.hpp"
#include "kcycle/solve/multigrid.hpp"

namespace kcycle {

class MixedPrecisionCycle {
 public:
  MixedPrecisionCycle(CpuBackend& backend, FloatCpuBackend& float_backend, const MultigridSettings& settings)
      : backend_(backend), float_backend_(float_backend), hierarchy_(float_backend, settings) {}

  Multigrid<FloatCpuBackend>& hierarchy() { return hierarchy_; }
  const Multigrid<FloatCpuBackend>& hierarchy() const { return hierarchy_; }

  // The finest level's right-hand side, which MGCG's residual update is about to fill with r's
  // float rounding on its way: the next precondition(r) takes it as it is.
  FloatField& right_hand_side_for(const Field& r) {
    rounded_ = &r;
    residual_of_ = nullptr;
    return hierarchy_.level(1).f;
  }

  // z <- M r (r is not changed): iterative refinement's correction.
  void apply(const Field& r, Field& z, CycleChoice choice, const CycleHooks& hooks = {}) {
    round_into_hierarchy(r);
    hierarchy_.cycle_from_zero(choice, hooks);
    backend_.assign(hierarchy_.level(1).v, z);
  }

  // One step of iterative refinement, x <- x + M (f - A x), in two passes of its own: x's
  // update reading z in float where the cycle left it, then the new x's residual in double,
  // rounded straight into the finest right-hand side (no double residual written), where the
  // next step's cycle reads it (the first step computes its own). Bitwise apply()'s step (the
  // widening of z is exact). Returns |x - exact|^2 (|x|^2 without exact) and |f - A x|^2 of
  // the new x.
  struct RefinementNorms {
    double error2_after, residual2_after;
  };
  RefinementNorms refine(const Stencil9& A, const Field& f, Field& x, const Field* exact, CycleChoice choice,
                         const CycleHooks& hooks = {}) {
    if (residual_of_ != &x) backend_.residual_norm2_rounded(A, x, f, hierarchy_.level(1).f);
    rounded_ = nullptr;
    residual_of_ = nullptr;  // until the new x's residual is there
    hierarchy_.cycle_from_zero(choice, hooks);
    RefinementNorms norms{};
    norms.error2_after = backend_.axpy_norm2(1.0, correction(), x, exact);
    norms.residual2_after = backend_.residual_norm2_rounded(A, x, f, hierarchy_.level(1).f);
    residual_of_ = &x;
    return norms;
  }

  // MGCG's z <- M r, left in float where the cycle computed it (correction()): CG reads it there
  // and keeps no double copy (4 bytes a point instead of 8 read, and no pass that widens it).
  // Returns (r, z) where the cycle's last pass summed it on the way (fused passes), taken with
  // r's float rounding, the right-hand side the cycle really had: it differs from (r, z) by a
  // float rounding, a relative change to beta that CG does not notice (the iteration counts of
  // the tests and Table 4.2 stay). Otherwise nothing, and CG takes (r, z).
  std::optional<double> precondition(const Field& r, CycleChoice choice, const CycleHooks& hooks = {}) {
    round_into_hierarchy(r);
    return hierarchy_.cycle_from_zero_summing_f_dot_v(choice, hooks);
  }
  const FloatField& correction() const { return hierarchy_.level(1).v; }

 private:
  void round_into_hierarchy(const Field& r) {
    residual_of_ = nullptr;
    if (std::exchange(rounded_, nullptr) != &r) float_backend_.assign(r, hierarchy_.level(1).f);
  }

  CpuBackend& backend_;
  FloatCpuBackend& float_backend_;
  Multigrid<FloatCpuBackend> hierarchy_;
  const Field* rounded_ = nullptr;      // the r whose rounding the finest f holds (right_hand_side_for)
  const Field* residual_of_ = nullptr;  // the x whose residual's rounding it holds (refine)
};

}  // namespace kcycle
