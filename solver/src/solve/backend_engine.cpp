// The solve's state on one backend (EngineOn<Backend, Cycle>): the hierarchy, the iterate, the
// problem's vectors, and CG where it preconditions. One engine for both precisions, composed
// as AMGCL composes them: the backend holds the iterate, the problem and CG in its precision;
// the cycle is either the backend's own hierarchy (Multigrid<Backend>), which runs in place on
// the iterate, or a float hierarchy driven from double vectors (MixedPrecisionCycle on the
// CPU), which corrects the iterate by iterative refinement.
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <type_traits>

#include "kcycle/solve/execution_target.hpp"
#include "kcycle/solve/image_pool.hpp"
#include "kcycle/solve/mixed_precision.hpp"
#include "solver_engine.hpp"

namespace kcycle {

namespace {

using namespace engine_parts;

#if KCYCLE_HAVE_CUDA
struct CudaImage final : DeviceImage {
  CudaImage(int w, int h) : values(std::size_t(w) * std::size_t(h)) { nx = w, ny = h; }
  const float* data() const override { return values.data(); }
  cuda::DeviceBuffer<float> values;
};
#endif

// How an engine makes its cycle, and the hierarchy the cycle runs on.
template <MultigridBackend Backend, class Cycle>
struct CycleOn;

// The backend's own hierarchy: the stand-alone cycle runs in place on level 1's v and f.
template <MultigridBackend Backend>
struct CycleOn<Backend, Multigrid<Backend>> {
  static constexpr bool kRefines = false;
  CycleOn(Backend& backend, const MultigridSettings& settings) : cycle(prepared_for(backend, settings), settings) {}
  Multigrid<Backend>& hierarchy() { return cycle; }
  const Multigrid<Backend>& hierarchy() const { return cycle; }
  Backend& hierarchy_backend(Backend& backend) { return backend; }
  std::uint64_t launches(const Backend& backend) const { return backend.launches(); }
  Multigrid<Backend> cycle;
};

// The hierarchy in float on the double backend's thread team: the iterate, the problem, CG and
// every norm stay in double; stand-alone, each step is one step of iterative refinement,
// r = f - A x in double, x <- x + M r.
template <>
struct CycleOn<CpuBackend, MixedPrecisionCycle> {
  static constexpr bool kRefines = true;
  CycleOn(CpuBackend& backend, const MultigridSettings& settings)
      : float_backend(backend.team()), cycle(backend, float_backend, settings) {}
  Multigrid<FloatCpuBackend>& hierarchy() { return cycle.hierarchy(); }
  const Multigrid<FloatCpuBackend>& hierarchy() const { return cycle.hierarchy(); }
  FloatCpuBackend& hierarchy_backend(CpuBackend&) { return float_backend; }
  std::uint64_t launches(const CpuBackend& backend) const { return backend.launches() + float_backend.launches(); }
  FloatCpuBackend float_backend;  // one team for the float cycle and the double CG
  MixedPrecisionCycle cycle;
};

// CG's two-pass update writes the residual rounded into the float hierarchy's f.
static_assert(TakesRoundedResidual<MixedPrecisionCycle, Field>);

template <MultigridBackend Backend, class Cycle = Multigrid<Backend>>
class EngineOn final : public IterativeSolver::Engine {
 public:
  using Vector = typename Backend::Vector;
  static constexpr bool kRefines = CycleOn<Backend, Cycle>::kRefines;

  EngineOn(const ResolvedRun& run, const SolverOptions& options, DiscreteProblem&& problem)
      : backend_(make_backend<Backend>(run.target)),
        cycle_(backend_, run.settings),
        A_(hierarchy().level(1).A),
        choice_(options.cycle),
        fused_(run.settings.fused),
        exact_is_zero_(problem.exact_is_zero),
        has_exact_(problem.exact.has_value()) {
    const GridShape fine = hierarchy().level(1).shape;
    if (!(problem.rhs.shape() == fine))
      throw InvalidOptions("the problem's grid does not match the finest level of --levels");
    const bool cg = options.solver != SolverKind::Multigrid;
    if (has_exact_ && !exact_is_zero_) take(backend_, std::move(*problem.exact), exact_);
    if constexpr (kRefines) {
      if (!fused_) r_ = backend_.make_vector(fine);  // the fused refinement writes no double residual
      // The correction in double: the unfused step's, and x - u* for the error where u* is not 0
      // (the fused refinement adds the float correction to x as it reads it).
      if (!fused_ || exact()) z_ = backend_.make_vector(fine);
    } else if (exact()) {
      work_ = backend_.make_vector(fine);  // x - u*
    }
    if constexpr (kRefines) {
      take(backend_, std::move(problem.rhs), rhs_);
      take(backend_, std::move(problem.initial_guess), x_);
    } else if (cg) {
      // CG's cycle runs on r swapped in as level 1's f (Multigrid::precondition): the
      // hierarchy's own is never used.
      hierarchy().level(1).f = Vector{};
      take(backend_, std::move(problem.rhs), rhs_);
      take(backend_, std::move(problem.initial_guess), x_);
    } else {  // the stand-alone cycle's iterate and right-hand side are level 1's own
      take(backend_, std::move(problem.rhs), hierarchy().level(1).f);
      take(backend_, std::move(problem.initial_guess), hierarchy().level(1).v);
    }
    if (cg)
      cg_.emplace(backend_, A_, cycle_.cycle, rhs_, x_, choice_, run.cg_step.flexible, exact(), run.cg_step.two_pass);
  }

  int levels() const override { return hierarchy().levels(); }
  GridShape shape(int level) const override { return hierarchy().level(level).shape; }
  std::uint64_t launches() const override { return cycle_.launches(backend_); }

  StepResult step(const CycleHooks& hooks) override {
    StepResult result = StepResult::Ok;
    if (cg_)
      result = cg_->step(hooks);
    else if constexpr (kRefines)
      refine(hooks);
    else
      cycle_in_place(hooks);
    backend_.synchronize();  // the step's time is the device's, not just the issuing
    return result;
  }

  void set_level_timing(bool on) override {
    hierarchy().set_level_timing(on);
    hierarchy().reset_level_stats();
  }
  std::vector<LevelStats> level_stats() const override {
    std::vector<LevelStats> stats;
    for (int l = 1; l <= levels(); ++l) stats.push_back(hierarchy().level(l).stats);
    return stats;
  }
  std::vector<CommStats> comm_stats_all_ranks() override {
    if constexpr (Distributes<Backend>)
      return backend_.comm_stats_all_ranks();
    else
      return {};
  }
  void take_slowest_rank(std::span<double> seconds) override {
    if constexpr (Distributes<Backend>) backend_.max_on_ranks(seconds);
  }
  std::array<int, 2> process_grid() const override {
    if constexpr (Distributes<Backend>)
      return {backend_.px(), backend_.py()};
    else
      return {1, 1};
  }

  double error_norm() override {
    const Vector& x = current();
    if (exact_is_zero_) return std::sqrt(scale() * backend_.dot(x, x));
    if (!has_exact_) return NAN;
    Vector& difference = kRefines ? z_ : work_;
    backend_.copy(x, difference);
    return std::sqrt(scale() * backend_.axpy_norm2(-1.0, exact_, difference, nullptr));
  }

  double residual_norm() override { return std::sqrt(scale() * backend_.residual_norm2(A_, current(), rhs())); }

  Norms norms_after_step() override {
    const bool known = has_exact_ || exact_is_zero_;
    Norms n;
    if (cg_) {
      n.error = known ? std::sqrt(scale() * cg_->error_norm2()) : NAN;
      n.residual = std::sqrt(scale() * cg_->residual_norm2());
      n.residual_recursive = true;
    } else if constexpr (kRefines) {  // the refinement step's own passes summed both
      n.error = known ? std::sqrt(scale() * error2_) : NAN;
      n.residual = std::sqrt(scale() * residual2_);
    } else {
      // The error |v| where the exact solution is zero (the paper's problem) and the residual,
      // summed by the cycle's last pass where it ran one.
      n.error = summed_ && exact_is_zero_ ? std::sqrt(scale() * norm2_) : error_norm();
      n.residual = summed_ ? std::sqrt(scale() * residual2_) : residual_norm();
    }
    return n;
  }

  std::array<double, 2> cg_coefficients() const override {
    if (!cg_) return {NAN, NAN};
    return {cg_->coefficients().alpha, cg_->coefficients().beta};
  }

  void image(int level, FieldView view, std::vector<float>* out, std::shared_ptr<const DeviceImage>* on_device,
             std::array<float, 2>* range) override {
    auto& L = hierarchy().level(level);
    if constexpr (!DrawsOnDevice<Backend>) {  // the picture is drawn straight into host memory
      host_picture(out, scratch_image_, L.shape.unknowns(), on_device, range, [&](float* values) {
        if (level == 1) return backend_.image(A_, view, current(), rhs(), exact(), values);
        cycle_.hierarchy_backend(backend_).image(L.A, view, L.v, L.f, nullptr, values);
      });
    } else {
#if KCYCLE_HAVE_CUDA
      const bool fine = level == 1;
      const std::shared_ptr<CudaImage> picture =
          images_.acquire(level, [&] { return new CudaImage(L.shape.nx, L.shape.ny); });
      backend_.image(L.A, view, fine ? current() : L.v, fine ? rhs() : L.f, fine ? exact() : nullptr,
                     picture->values.data());
      if (out) {  // the floats come back only when asked for
        out->resize(L.shape.unknowns());
        backend_.download(picture->data(), out->size(), out->data());  // also waits for the kernel
        if (range) *range = range_of(*out);
      } else if (range) {
        *range = backend_.value_range(picture->data(), picture->values.size());  // two floats back, not nx * ny
      }
      if (on_device) *on_device = std::move(picture);
#endif
    }
  }

  std::vector<HeldArray> held_arrays() const override {
    std::vector<HeldArray> out;
    add_hierarchy(out, hierarchy());
    if constexpr (kRefines) {
      add_held<Backend>(out, 1, "x (iterate, double)", x_);
      add_held<Backend>(out, 1, "r (residual, double)", r_);
      add_held<Backend>(out, 1, "z (correction, double)", z_);
      add_held<Backend>(out, 1, "rhs (double)", rhs_);
      add_held<Backend>(out, 1, "exact solution", exact_);
    } else {
      add_held<Backend>(out, 1, "exact solution", exact_);
      add_held<Backend>(out, 1, "x - exact (work)", work_);
      add_held<Backend>(out, 1, "rhs (CG)", rhs_);
      add_held<Backend>(out, 1, "x (CG iterate)", x_);
    }
    add_cg(out, cg_);
    return out;
  }

  bool device_memory() const override { return DrawsOnDevice<Backend>; }
#if KCYCLE_HAVE_CUDA
  std::vector<std::shared_ptr<const DeviceImage>> pictures() const override {
    const auto all = images_.all();
    return {all.begin(), all.end()};
  }
#endif
  Field iterate() override {
    Field host;
    backend_.download(current(), host);
    return host;
  }

 private:
  auto& hierarchy() { return cycle_.hierarchy(); }
  const auto& hierarchy() const { return cycle_.hierarchy(); }
  // The iterate and its right-hand side: CG's and refinement's own vectors, else level 1's.
  const Vector& current() const {
    if constexpr (kRefines)
      return x_;
    else
      return cg_ ? x_ : hierarchy().level(1).v;
  }
  const Vector& rhs() const {
    if constexpr (kRefines)
      return rhs_;
    else
      return cg_ ? rhs_ : hierarchy().level(1).f;
  }
  const Vector* exact() const { return has_exact_ && !exact_is_zero_ ? &exact_ : nullptr; }
  double scale() const { return current().shape().hx() * current().shape().hy(); }

  // One cycle on level 1's iterate; the new iterate's norms from its last pass, where the
  // schedule has one.
  void cycle_in_place(const CycleHooks& hooks) {
    CycleHooks summing = hooks;
    summed_ = hierarchy().schedule_for(hooks).sums_pass() != nullptr;
    if (summed_) {
      summing.sums.residual2 = &residual2_;
      if (exact_is_zero_) summing.sums.v_norm2 = &norm2_;
    }
    hierarchy().cycle(choice_, summing);
  }

  // One step of iterative refinement, in double: it reaches what double attains. The residual
  // of the new x is the next step's right-hand side (the first step computes its own).
  void refine(const CycleHooks& hooks) {
    if constexpr (kRefines) {
      if (fused_) {  // the residual rounded into the hierarchy, z read in float: two passes
        const auto norms = cycle_.cycle.refine(A_, rhs_, x_, exact(), choice_, hooks);
        error2_ = norms.error2_after;
        residual2_ = norms.residual2_after;
        return;
      }
      if (!r_is_residual_) backend_.residual_norm2(A_, x_, rhs_, &r_);
      cycle_.cycle.apply(r_, z_, choice_, hooks);
      error2_ = backend_.axpy_norm2(1.0, z_, x_, exact());
      residual2_ = backend_.residual_norm2(A_, x_, rhs_, &r_);
      r_is_residual_ = true;
    }
  }

  Backend backend_;
  CycleOn<Backend, Cycle> cycle_;
  Stencil9 A_;  // level 1's operator
  CycleChoice choice_;
  bool fused_, exact_is_zero_, has_exact_;
  Vector x_, rhs_;       // CG's or refinement's iterate and right-hand side (else level 1's are)
  Vector exact_, work_;  // u* and x - u*, where u* is known and not zero (refinement: z_ is x - u*)
  Vector r_, z_;         // refinement's residual and correction in double, where its step needs them
  std::optional<PreconditionedCG<Backend, Cycle>> cg_;
  bool summed_ = false;               // the last in-place cycle's sums pass summed its norms:
  double residual2_ = 0, norm2_ = 0;  // |f - A v|^2 and |v|^2 of its iterate (refinement: its step's)
  double error2_ = NAN;               // refinement: |x - u*|^2 (|x|^2 without u*) of its step
  bool r_is_residual_ = false;        // r_ holds f - A x (the last unfused refinement step's)
  std::vector<float> scratch_image_;  // a host picture nobody asked the floats of
#if KCYCLE_HAVE_CUDA
  ImagePool<CudaImage> images_;  // the device pictures published, per level, reused
#endif
};
}  // namespace

std::unique_ptr<IterativeSolver::Engine> make_engine(const ResolvedRun& run, const SolverOptions& o,
                                                     DiscreteProblem&& p) {
  // Mixed precision runs on the CPU (validate() refuses it elsewhere).
  if (o.precision == Precision::Mixed)
    return std::make_unique<EngineOn<CpuBackend, MixedPrecisionCycle>>(run, o, std::move(p));
  return with_backend_type(run.target.backend,
                           [&]<class Backend>(std::type_identity<Backend>) -> std::unique_ptr<IterativeSolver::Engine> {
                             return std::make_unique<EngineOn<Backend>>(run, o, std::move(p));
                           });
}

}  // namespace kcycle
