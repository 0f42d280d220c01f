#pragma once
// Conjugate gradients preconditioned by one multigrid cycle per iteration (MGCG), in the
// standard form and in Notay's flexible form FCG(1). For 1 < kappa < levels the kappa-cycle
// is not a symmetric operator (the paper, section 4), so standard PCG loses its theory;
// FCG(1) makes each new direction A-orthogonal to the previous one explicitly,
// beta = -(z, q_prev) / (p_prev, q_prev), and stays robust for any preconditioner.
#include <cmath>
#include <optional>

#include "kcycle/multigrid.hpp"

namespace kcycle {

enum class StepResult { Ok, Breakdown };

// Preconditioner: anything with precondition(r, z, cycle, hooks) computing z <- M r (r may be
// used as scratch and is given back unchanged) and returning (r, z) if it computed it on the
// way (std::optional<double>): Multigrid itself, or the float hierarchy of a mixed-precision
// solve (MixedPrecisionCycle).
template <MultigridBackend Backend, class Preconditioner = Multigrid<Backend>>
class PreconditionedCG {
 public:
  using Vector = typename Backend::Vector;

  // x holds the initial guess on entry and the iterate afterwards. `exact` (may be null: then
  // zero) is what error_norm2() measures the iterate against. fused: where the backend has it,
  // the new direction p <- z + beta p and q <- A p are one pass (xpay_apply_dot).
  PreconditionedCG(Backend& backend, const Stencil9& A, Preconditioner& M, const Vector& f, Vector& x,
                   CycleChoice cycle, bool flexible, const Vector* exact = nullptr, bool fused = false)
      : mg_(M),
        be_(backend),
        A_(A),
        f_(f),
        x_(x),
        exact_(exact),
        cycle_(cycle),
        flexible_(flexible),
        fused_(fused),
        r_(be_.make_vector(f.shape())),
        z_(be_.make_vector(f.shape())),
        p_(be_.make_vector(f.shape())),
        q_(be_.make_vector(f.shape())) {
    be_.residual(A_, x_, f_, r_);
    mg_.precondition(r_, z_, cycle_);
    be_.copy(z_, p_);
    rz_ = be_.dot(r_, z_);
  }

  // One iteration. The norms come out of the passes that update x and r (no extra pass).
  StepResult step(const CycleHooks& hooks = {}) {
    if (!(rz_ > 0.0)) return StepResult::Breakdown;  // M is not positive on r
    const double pq = new_direction();               // p <- z + beta p where due, q <- A p
    if (!(pq > 0.0)) return StepResult::Breakdown;   // A is not positive on p
    const double alpha = rz_ / pq;
    error2_ = be_.axpy_norm2(alpha, p_, x_, exact_);  // x <- x + alpha p
    residual2_ = update_residual(-alpha);             // r <- r - alpha q
    const std::optional<double> rz = mg_.precondition(r_, z_, cycle_, hooks);
    const double rz_new = rz ? *rz : be_.dot(r_, z_);  // from the cycle's last pass where it has it
    const double beta = flexible_ ? -be_.dot(z_, q_) / pq : rz_new / rz_;
    rz_ = rz_new;
    beta_ = beta;  // p <- z + beta p: the next step's first pass
    return StepResult::Ok;
  }

  // After a step: |x - exact|^2, and |r|^2 of the recursively updated residual r, which
  // equals f - A x up to rounding (it can fall below what x attains: confirm with a true one).
  double error_norm2() const { return error2_; }
  double residual_norm2() const { return residual2_; }

 private:
  // r <- r + a q, returning |r|^2; where the preconditioner can (a mixed-precision hierarchy), it
  // also takes r's rounding in that pass.
  double update_residual(double a) {
    if constexpr (requires { mg_.update_residual(a, q_, r_); })
      if (fused_) return mg_.update_residual(a, q_, r_);
    return be_.axpy_norm2(a, q_, r_, nullptr);
  }

  // q <- A p, returning (p, q), after p <- z + beta p unless p is the first direction.
  double new_direction() {
    if (beta_) {
      const double beta = *beta_;
      beta_.reset();
      if constexpr (requires { be_.xpay_apply_dot(A_, z_, beta, p_, q_); })
        if (fused_) return be_.xpay_apply_dot(A_, z_, beta, p_, q_);
      be_.xpay(z_, beta, p_);
    }
    return be_.apply_dot(A_, p_, q_);
  }

  Preconditioner& mg_;
  Backend& be_;
  const Stencil9& A_;
  const Vector& f_;
  Vector& x_;
  const Vector* exact_;
  CycleChoice cycle_;
  bool flexible_, fused_;
  Vector r_, z_, p_, q_;
  std::optional<double> beta_;  // set when p is still to be updated
  double rz_ = 0.0;
  double error2_ = NAN, residual2_ = NAN;
};

}  // namespace kcycle
