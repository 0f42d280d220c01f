#pragma once
// Conjugate gradients preconditioned by one multigrid cycle per iteration (MGCG), in the
// standard form and in Notay's flexible form FCG(1). For 1 < kappa < levels the kappa-cycle
// is not a symmetric operator (the paper, section 4), so standard PCG loses its theory;
// FCG(1) makes each new direction A-orthogonal to the previous one explicitly,
// beta = -(z, q_prev) / (p_prev, q_prev), and stays robust for any preconditioner.
#include <cmath>

#include "kcycle/multigrid.hpp"

namespace kcycle {

enum class StepResult { Ok, Breakdown };

template <MultigridBackend Backend>
class PreconditionedCG {
 public:
  using Vector = typename Backend::Vector;

  // x holds the initial guess on entry and the iterate afterwards.
  PreconditionedCG(Multigrid<Backend>& mg, const Vector& f, Vector& x, CycleChoice cycle, bool flexible)
      : mg_(mg),
        be_(mg.backend()),
        A_(mg.level(1).A),
        f_(f),
        x_(x),
        cycle_(cycle),
        flexible_(flexible),
        r_(be_.make_vector(f.shape())),
        z_(be_.make_vector(f.shape())),
        p_(be_.make_vector(f.shape())),
        q_(be_.make_vector(f.shape())) {
    be_.residual(A_, x_, f_, r_);
    mg_.precondition(r_, z_, cycle_);
    be_.copy(z_, p_);
    rz_ = be_.dot(r_, z_);
  }

  StepResult step(const CycleHooks& hooks = {}) {
    if (!(rz_ > 0.0)) return StepResult::Breakdown;  // M is not positive on r
    be_.apply(A_, p_, q_);
    const double pq = be_.dot(p_, q_);
    if (!(pq > 0.0)) return StepResult::Breakdown;  // A is not positive on p
    const double alpha = rz_ / pq;
    be_.axpy(alpha, p_, x_);
    be_.axpy(-alpha, q_, r_);
    mg_.precondition(r_, z_, cycle_, hooks);
    const double rz_new = be_.dot(r_, z_);
    const double beta = flexible_ ? -be_.dot(z_, q_) / pq : rz_new / rz_;
    rz_ = rz_new;
    be_.xpay(z_, beta, p_);  // p <- z + beta p
    return StepResult::Ok;
  }

 private:
  Multigrid<Backend>& mg_;
  Backend& be_;
  const Stencil9& A_;
  const Vector& f_;
  Vector& x_;
  CycleChoice cycle_;
  bool flexible_;
  Vector r_, z_, p_, q_;
  double rz_ = 0.0;
};

}  // namespace kcycle
