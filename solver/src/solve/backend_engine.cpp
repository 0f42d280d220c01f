// The solve's state on one backend (EngineOn<Backend>): the hierarchy, the iterate, the
// problem's vectors, and CG where it preconditions.
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include "kcycle/solve/execution_target.hpp"
#include "kcycle/solve/image_pool.hpp"
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

// The solve's state on one backend: the hierarchy, the iterate, the problem's vectors.
template <MultigridBackend Backend>
class EngineOn final : public IterativeSolver::Engine {
 public:
  using Vector = typename Backend::Vector;

  EngineOn(const ExecutionTarget& target, const SolverOptions& options, const MultigridSettings& settings,
           DiscreteProblem&& problem)
      : backend_(make_backend<Backend>(target)),
        mg_(prepared_for(backend_, settings), settings),
        exact_is_zero_(problem.exact_is_zero),
        has_exact_(problem.exact.has_value()) {
    const GridShape fine = mg_.level(1).shape;
    if (!(problem.rhs.shape() == fine))
      throw InvalidOptions("the problem's grid does not match the finest level of --levels");
    if (has_exact_ && !exact_is_zero_) {  // the error is x - u*, formed in work_
      take(backend_, std::move(*problem.exact), exact_);
      work_ = backend_.make_vector(fine);
    }
    // The iterate and right-hand side: the finest level's own vectors for the stand-alone
    // cycle (it never writes level 1's f), x and its own f for CG.
    if (options.solver == SolverKind::Multigrid) {
      take(backend_, std::move(problem.rhs), mg_.level(1).f);
      take(backend_, std::move(problem.initial_guess), mg_.level(1).v);
    } else {
      // CG's cycle runs on r swapped in as level 1's f (Multigrid::precondition): the
      // hierarchy's own is never used.
      mg_.level(1).f = Vector{};
      take(backend_, std::move(problem.rhs), rhs_);
      take(backend_, std::move(problem.initial_guess), x_);
      cg_.emplace(backend_, mg_.level(1).A, mg_, rhs_, x_, options.cycle, options.solver == SolverKind::FCG,
                  has_exact_ && !exact_is_zero_ ? &exact_ : nullptr, mg_.settings().fused);
    }
    cycle_ = options.cycle;
  }

  int levels() const override { return mg_.levels(); }
  GridShape shape(int level) const override { return mg_.level(level).shape; }
  std::uint64_t launches() const override { return backend_.launches(); }

  StepResult step(const CycleHooks& hooks) override {
    StepResult result = StepResult::Ok;
    if (cg_) {
      result = cg_->step(hooks);
    } else {
      // The new iterate's norms from the cycle's last pass, where the schedule has one.
      CycleHooks summing = hooks;
      summed_ = mg_.schedule_for(hooks).sums_pass() != nullptr;
      if (summed_) {
        summing.sums.residual2 = &residual2_;
        if (exact_is_zero_) summing.sums.v_norm2 = &norm2_;
      }
      mg_.cycle(cycle_, summing);
    }
    backend_.synchronize();  // the step's time is the device's, not just the issuing
    return result;
  }

  void set_level_timing(bool on) override {
    mg_.set_level_timing(on);
    mg_.reset_level_stats();
  }
  std::vector<LevelStats> level_stats() const override {
    std::vector<LevelStats> stats;
    for (int l = 1; l <= mg_.levels(); ++l) stats.push_back(mg_.level(l).stats);
    return stats;
  }
  std::vector<CommStats> comm_stats_all_ranks() override {
    if constexpr (Distributes<Backend>)
      return backend_.comm_stats_all_ranks();
    else
      return {};
  }
  std::array<int, 2> process_grid() const override {
    if constexpr (Distributes<Backend>)
      return {backend_.px(), backend_.py()};
    else
      return {1, 1};
  }

  double error_norm() override {
    const Vector& x = current();
    const double scale = x.shape().hx() * x.shape().hy();
    if (exact_is_zero_) return std::sqrt(scale * backend_.dot(x, x));
    if (!has_exact_) return NAN;
    backend_.copy(x, work_);
    return std::sqrt(scale * backend_.axpy_norm2(-1.0, exact_, work_, nullptr));
  }

  double residual_norm() override {
    const Vector& x = current();
    return std::sqrt(x.shape().hx() * x.shape().hy() * backend_.residual_norm2(mg_.level(1).A, x, rhs()));
  }

  Norms norms_after_step() override {
    const double scale = current().shape().hx() * current().shape().hy();
    Norms n;
    if (cg_) {
      n.error = has_exact_ || exact_is_zero_ ? std::sqrt(scale * cg_->error_norm2()) : NAN;
      n.residual = std::sqrt(scale * cg_->residual_norm2());
      n.residual_recursive = true;
      return n;
    }
    // The error |v| where the exact solution is zero (the paper's problem) and the residual,
    // summed by the cycle's last pass where it ran one.
    n.error = summed_ && exact_is_zero_ ? std::sqrt(scale * norm2_) : error_norm();
    n.residual = summed_ ? std::sqrt(scale * residual2_) : residual_norm();
    return n;
  }

  std::array<double, 2> cg_coefficients() const override {
    if (!cg_) return {NAN, NAN};
    return {cg_->coefficients().alpha, cg_->coefficients().beta};
  }

  void image(int level, FieldView view, std::vector<float>* out, std::shared_ptr<const DeviceImage>* on_device,
             std::array<float, 2>* range) override {
    const auto& L = mg_.level(level);
    const bool fine = level == 1;
    const Vector& v = fine ? current() : L.v;
    const Vector& f = fine ? rhs() : L.f;
    const Vector* exact = fine && has_exact_ && !exact_is_zero_ ? &exact_ : nullptr;
    if constexpr (!Backend::kDeviceMemory) {  // the picture is drawn straight into host memory
      host_picture(out, scratch_image_, L.shape.unknowns(), on_device, range,
                   [&](float* values) { backend_.image(L.A, view, v, f, exact, values); });
    } else {
#if KCYCLE_HAVE_CUDA
      const std::shared_ptr<CudaImage> picture =
          images_.acquire(level, [&] { return new CudaImage(L.shape.nx, L.shape.ny); });
      backend_.image(L.A, view, v, f, exact, picture->values.data());
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
    add_hierarchy(out, mg_);
    add_held<Backend>(out, 1, "exact solution", exact_);
    add_held<Backend>(out, 1, "x - exact (work)", work_);
    add_held<Backend>(out, 1, "rhs (CG)", rhs_);
    add_held<Backend>(out, 1, "x (CG iterate)", x_);
    add_cg(out, cg_);
    return out;
  }

  bool device_memory() const override { return Backend::kDeviceMemory; }
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
  const Vector& current() const { return cg_ ? x_ : mg_.level(1).v; }
  const Vector& rhs() const { return cg_ ? rhs_ : mg_.level(1).f; }

  Backend backend_;
  Multigrid<Backend> mg_;
  bool exact_is_zero_, has_exact_;
  Vector x_, rhs_;       // CG's iterate and right-hand side (the stand-alone cycle's are level 1's)
  Vector exact_, work_;  // u* and x - u*, where u* is known and not zero
  std::optional<PreconditionedCG<Backend>> cg_;
  CycleChoice cycle_;
  bool summed_ = false;               // the last stand-alone step's sums pass summed its norms:
  double residual2_ = 0, norm2_ = 0;  // |f - A v|^2 and |v|^2 of its iterate
  std::vector<float> scratch_image_;  // a host picture nobody asked the floats of
#if KCYCLE_HAVE_CUDA
  ImagePool<CudaImage> images_;  // the device pictures published, per level, reused
#endif
};
}  // namespace

std::unique_ptr<IterativeSolver::Engine> make_backend_engine(const ResolvedRun& run, const SolverOptions& o,
                                                             DiscreteProblem&& p) {
  return with_backend_type(run.target.backend,
                           [&]<class Backend>(std::type_identity<Backend>) -> std::unique_ptr<IterativeSolver::Engine> {
                             return std::make_unique<EngineOn<Backend>>(run.target, o, run.settings, std::move(p));
                           });
}

}  // namespace kcycle
