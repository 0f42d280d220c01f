#pragma once
// Conjugate gradients preconditioned by one multigrid cycle per iteration (MGCG), in the
// standard form and in Notay's flexible form FCG(1). For 1 < kappa < levels the kappa-cycle
// is not a symmetric operator (the paper, section 4), so standard PCG loses its theory;
// FCG(1) makes each new direction A-orthogonal to the previous one explicitly,
// beta = -(z, q_prev) / (p_prev, q_prev), and stays robust for any preconditioner.
#include <cmath>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "kcycle/solve/multigrid.hpp"

namespace kcycle {

enum class StepResult { Ok, Breakdown };

// Preconditioner: anything with precondition(r, z, cycle, hooks) computing z <- M r (r may be
// used as scratch and is given back unchanged) and returning (r, z) if it computed it on the
// way (std::optional<double>): Multigrid itself. Or one that keeps z where it computed it,
// with precondition(r, cycle, hooks) and correction() giving z: the float hierarchy of a
// mixed-precision solve (MixedPrecisionCycle), whose z CG reads in float.
template <class P>
concept HoldsCorrection = requires(P& m) {
  m.correction();
};

// A preconditioner whose right-hand side CG's two-pass update may write, rounded, on its way
// (right_hand_side_for(r): the float hierarchy's f of MixedPrecisionCycle).
template <class P, class V>
concept TakesRoundedResidual = requires(P& m, const V& r) {
  { m.right_hand_side_for(r) } -> std::same_as<FloatField&>;
};

// The type of z: the preconditioner's own where it holds it, else CG's vectors.
template <class Preconditioner, class Vector>
struct CorrectionOf {
  using type = Vector;
};
template <HoldsCorrection Preconditioner, class Vector>
struct CorrectionOf<Preconditioner, Vector> {
  using type = std::remove_cvref_t<decltype(std::declval<Preconditioner&>().correction())>;
};

template <MultigridBackend Backend, class Preconditioner = Multigrid<Backend>>
class PreconditionedCG {
 public:
  using Vector = typename Backend::Vector;
  using Correction = typename CorrectionOf<Preconditioner, Vector>::type;

  // x holds the initial guess on entry and the iterate afterwards. `exact` (may be null: then
  // zero) is what error_norm2() measures the iterate against. two_pass: the plan's
  // (CgStepPlan::two_pass): the two-pass iteration, q = A p never stored; a backend without it
  // (RunsTwoPassCg) refuses it.
  PreconditionedCG(Backend& backend, const Stencil9& A, Preconditioner& M, const Vector& f, Vector& x,
                   CycleChoice cycle, bool flexible, const Vector* exact = nullptr, bool two_pass = false)
      : mg_(M),
        be_(backend),
        A_(A),
        f_(f),
        x_(x),
        exact_(exact),
        cycle_(cycle),
        flexible_(flexible),
        two_pass_(runnable(two_pass)),
        r_(be_.make_vector(f.shape())),
        p_(be_.make_vector(f.shape())) {
    if constexpr (!HoldsCorrection<Preconditioner>) z_ = be_.make_vector(f.shape());
    if (!two_pass_) q_ = be_.make_vector(f.shape());
    be_.residual(A_, x_, f_, r_);
    precondition({});
    if constexpr (HoldsCorrection<Preconditioner>)
      be_.assign(z(), p_);  // p <- z, widened
    else
      be_.copy(z_, p_);
    rz_ = be_.dot(r_, z());
  }

  // One iteration. The norms come out of the passes that update x and r (no extra pass).
  StepResult step(const CycleHooks& hooks = {}) {
    if (!(rz_ > 0.0)) return StepResult::Breakdown;  // M is not positive on r
    const double pAp = new_direction();              // p <- z + beta p where due; (p, A p)
    if (!(pAp > 0.0)) return StepResult::Breakdown;  // A is not positive on p
    const double alpha = rz_ / pAp;
    update_x_and_r(alpha);  // x <- x + alpha p, r <- r - alpha A p, and their norms
    const std::optional<double> rz = precondition(hooks);
    const double rz_new = rz ? *rz : be_.dot(r_, z());  // from the cycle's last pass where it has it
    const double beta = flexible_ ? -z_dot_Ap() / pAp : rz_new / rz_;
    rz_ = rz_new;
    beta_ = beta;  // p <- z + beta p: the next step's first pass
    coefficients_ = {alpha, beta};
    return StepResult::Ok;
  }

  // The last step's alpha and beta: CG's Lanczos coefficients (lanczos_spectrum.hpp).
  struct Coefficients {
    double alpha = NAN, beta = NAN;
  };
  Coefficients coefficients() const { return coefficients_; }

  // After a step: |x - exact|^2, and |r|^2 of the recursively updated residual r, which
  // equals f - A x up to rounding (it can fall below what x attains: confirm with a true one).
  double error_norm2() const { return error2_; }
  double residual_norm2() const { return residual2_; }

  // The vectors CG holds of its own, by name ("CG r", ...): the memory account's (the
  // preconditioner's z and the caller's x and f are theirs).
  std::vector<std::pair<const char*, const Vector*>> own_vectors() const {
    std::vector<std::pair<const char*, const Vector*>> out{{"CG r", &r_}, {"CG p", &p_}};
    if constexpr (!HoldsCorrection<Preconditioner>) out.push_back({"CG z", &z_});
    if (!two_pass_) out.push_back({"CG q = A p", &q_});
    return out;
  }

 private:
  static constexpr bool kCanRunTwoPass = RunsTwoPassCg<Backend, Correction>;
  static bool runnable(bool two_pass) {
    if (two_pass && !kCanRunTwoPass)
      throw std::logic_error("PreconditionedCG: two-pass iterations planned for a backend that has none");
    return two_pass;
  }

  // (p, A p), after p <- z + beta p unless p is the first direction; q <- A p unless two-pass.
  double new_direction() {
    const std::optional<double> beta = std::exchange(beta_, std::nullopt);
    if constexpr (kCanRunTwoPass)
      if (two_pass_) return be_.xpay_energy(A_, z(), beta.value_or(0.0), p_);
    if (beta) be_.xpay(z(), *beta, p_);
    return be_.apply_dot(A_, p_, q_);
  }

  // x <- x + alpha p, r <- r - alpha A p. Where the preconditioner rounds r into its own
  // right-hand side (a mixed-precision hierarchy), the two-pass update writes it on the way.
  void update_x_and_r(double alpha) {
    if constexpr (kCanRunTwoPass) {
      if (two_pass_) {
        FloatField* rounded = nullptr;
        if constexpr (TakesRoundedResidual<Preconditioner, Vector>) rounded = &mg_.right_hand_side_for(r_);
        const auto norms = be_.update_x_and_r(alpha, A_, p_, x_, r_, exact_, rounded);
        error2_ = norms.error2;
        residual2_ = norms.residual2;
        return;
      }
    }
    error2_ = be_.axpy_norm2(alpha, p_, x_, exact_);
    residual2_ = be_.axpy_norm2(-alpha, q_, r_, nullptr);
  }

  // (z, A p) of the new z and the last direction: flexible CG's beta.
  double z_dot_Ap() {
    if constexpr (kCanRunTwoPass)
      if (two_pass_) return be_.dot_apply(z(), A_, p_);
    return be_.dot(q_, z());
  }

  // z <- M r, returning (r, z) where the preconditioner summed it on the way.
  std::optional<double> precondition(const CycleHooks& hooks) {
    if constexpr (HoldsCorrection<Preconditioner>)
      return mg_.precondition(r_, cycle_, hooks);
    else
      return mg_.precondition(r_, z_, cycle_, hooks);
  }
  const Correction& z() const {
    if constexpr (HoldsCorrection<Preconditioner>)
      return mg_.correction();
    else
      return z_;
  }

  Preconditioner& mg_;
  Backend& be_;
  const Stencil9& A_;
  const Vector& f_;
  Vector& x_;
  const Vector* exact_;
  CycleChoice cycle_;
  bool flexible_, two_pass_;
  Vector r_, z_, p_, q_;        // z_ is left empty where the preconditioner holds z, q_ where two-pass
  std::optional<double> beta_;  // set when p is still to be updated
  double rz_ = 0.0;
  double error2_ = NAN, residual2_ = NAN;
  Coefficients coefficients_;
};

}  // namespace kcycle
