// A mixed-precision solve on the CPU (MixedEngine): the hierarchy in float, the iterate, the
// problem, CG and every norm in double.
#include <array>
#include <cmath>
#include <optional>

#include "kcycle/solve/mixed_precision.hpp"
#include "solver_engine.hpp"

namespace kcycle {

namespace {

using namespace engine_parts;

// CG's two-pass update writes the residual rounded into the float hierarchy's f.
static_assert(TakesRoundedResidual<MixedPrecisionCycle, Field>);

// A mixed-precision solve on the CPU: the hierarchy in float (MixedPrecisionCycle), the
// iterate, the problem, CG and every norm in double. Stand-alone, each step is one step of
// iterative refinement: r = f - A x in double, x <- x + M r.
class MixedEngine final : public IterativeSolver::Engine {
 public:
  MixedEngine(int threads, const SolverOptions& options, const MultigridSettings& settings, DiscreteProblem&& problem)
      : backend_(threads),
        float_backend_(backend_.team()),  // one team for the float cycle and the double CG
        cycle_(backend_, float_backend_, settings),
        A_(cycle_.hierarchy().level(1).A),
        choice_(options.cycle),
        fused_(settings.fused),
        exact_is_zero_(problem.exact_is_zero),
        has_exact_(problem.exact.has_value()) {
    const GridShape fine = cycle_.hierarchy().level(1).shape;
    if (!(problem.rhs.shape() == fine))
      throw InvalidOptions("the problem's grid does not match the finest level of --levels");
    if (!fused_) r_ = backend_.make_vector(fine);  // the fused refinement writes no double residual
    // The correction in double: the unfused step's, and x - u* for the error where u* is not 0
    // (the fused refinement adds the float correction to x as it reads it).
    if (!fused_ || exact()) z_ = backend_.make_vector(fine);
    take(backend_, std::move(problem.rhs), rhs_);
    if (has_exact_ && !exact_is_zero_) take(backend_, std::move(*problem.exact), exact_);
    take(backend_, std::move(problem.initial_guess), x_);
    if (options.solver != SolverKind::Multigrid)
      cg_.emplace(backend_, A_, cycle_, rhs_, x_, choice_, options.solver == SolverKind::FCG, exact(), settings.fused);
  }

  int levels() const override { return cycle_.hierarchy().levels(); }
  GridShape shape(int level) const override { return cycle_.hierarchy().level(level).shape; }
  std::uint64_t launches() const override { return backend_.launches() + float_backend_.launches(); }

  StepResult step(const CycleHooks& hooks) override {
    if (cg_) return cg_->step(hooks);
    // In double: refinement reaches what double attains. The residual of the new x is the next
    // step's right-hand side (the first step computes its own).
    if (fused_) {  // the residual rounded into the hierarchy, z read in float: two passes
      const auto norms = cycle_.refine(A_, rhs_, x_, exact(), choice_, hooks);
      error2_ = norms.error2_after;
      residual2_ = norms.residual2_after;
      return StepResult::Ok;
    }
    if (!r_is_residual_) backend_.residual_norm2(A_, x_, rhs_, &r_);
    cycle_.apply(r_, z_, choice_, hooks);
    error2_ = backend_.axpy_norm2(1.0, z_, x_, exact());
    residual2_ = backend_.residual_norm2(A_, x_, rhs_, &r_);
    r_is_residual_ = true;
    return StepResult::Ok;
  }

  void set_level_timing(bool on) override {
    cycle_.hierarchy().set_level_timing(on);
    cycle_.hierarchy().reset_level_stats();
  }
  std::vector<LevelStats> level_stats() const override {
    std::vector<LevelStats> stats;
    for (int l = 1; l <= levels(); ++l) stats.push_back(cycle_.hierarchy().level(l).stats);
    return stats;
  }

  double error_norm() override {
    if (!has_exact_ && !exact_is_zero_) return NAN;
    if (!exact()) return std::sqrt(scale() * backend_.dot(x_, x_));
    backend_.copy(x_, z_);
    return std::sqrt(scale() * backend_.axpy_norm2(-1.0, *exact(), z_, nullptr));
  }
  double residual_norm() override { return std::sqrt(scale() * backend_.residual_norm2(A_, x_, rhs_)); }
  Norms norms_after_step() override {
    const bool known = has_exact_ || exact_is_zero_;
    if (cg_) {
      Norms n;
      n.error = known ? std::sqrt(scale() * cg_->error_norm2()) : NAN;
      n.residual = std::sqrt(scale() * cg_->residual_norm2());
      n.residual_recursive = true;
      return n;
    }
    Norms n;
    n.error = known ? std::sqrt(scale() * error2_) : NAN;
    n.residual = std::sqrt(scale() * residual2_);
    return n;
  }

  std::array<double, 2> cg_coefficients() const override {
    if (!cg_) return {NAN, NAN};
    return {cg_->coefficients().alpha, cg_->coefficients().beta};
  }

  void image(int level, FieldView view, std::vector<float>* out, std::shared_ptr<const DeviceImage>* on_device,
             std::array<float, 2>* range) override {
    host_picture(out, scratch_image_, shape(level).unknowns(), on_device, range, [&](float* values) {
      if (level == 1) return backend_.image(A_, view, x_, rhs_, exact(), values);
      auto& L = cycle_.hierarchy().level(level);
      float_backend_.image(L.A, view, L.v, L.f, nullptr, values);
    });
  }
  Field iterate() override { return x_; }

  std::vector<HeldArray> held_arrays() const override {
    std::vector<HeldArray> out;
    add_hierarchy(out, cycle_.hierarchy());
    add_held<CpuBackend>(out, 1, "x (iterate, double)", x_);
    add_held<CpuBackend>(out, 1, "r (residual, double)", r_);
    add_held<CpuBackend>(out, 1, "z (correction, double)", z_);
    add_held<CpuBackend>(out, 1, "rhs (double)", rhs_);
    add_held<CpuBackend>(out, 1, "exact solution", exact_);
    add_cg(out, cg_);
    return out;
  }

 private:
  const Field* exact() const { return has_exact_ && !exact_is_zero_ ? &exact_ : nullptr; }
  double scale() const { return x_.shape().hx() * x_.shape().hy(); }

  CpuBackend backend_;
  FloatCpuBackend float_backend_;
  MixedPrecisionCycle cycle_;
  Stencil9 A_;
  CycleChoice choice_;
  bool fused_, exact_is_zero_, has_exact_;
  Field x_, r_, z_, rhs_, exact_;
  std::optional<PreconditionedCG<CpuBackend, MixedPrecisionCycle>> cg_;
  double error2_ = NAN, residual2_ = NAN;
  bool r_is_residual_ = false;        // r_ holds f - A x (the last unfused refinement step's)
  std::vector<float> scratch_image_;  // a picture nobody asked the floats of
};

}  // namespace

std::unique_ptr<IterativeSolver::Engine> make_mixed_engine(const SolverOptions& o, const MultigridSettings& settings,
                                                           DiscreteProblem&& p) {
  return std::make_unique<MixedEngine>(o.threads, o, settings, std::move(p));
}

}  // namespace kcycle
