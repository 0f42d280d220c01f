#include "kcycle/solve/iterative_solver.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <optional>
#include <sstream>
#include <type_traits>

#include "kcycle/core/relaxation_factor.hpp"
#include "kcycle/solve/execution_target.hpp"
#include "kcycle/solve/image_pool.hpp"
#include "kcycle/solve/krylov.hpp"
#include "kcycle/solve/mixed_precision.hpp"
#include "kcycle/solve/resolved_run.hpp"

namespace kcycle {

namespace {

// A solve whose monitored norm has not halved in this many iterations has stalled (slower
// than a factor 0.9986 per iteration; the paper's slowest case, the 12-level V-cycle, is 0.9973).
constexpr int kStallIterations = 500;

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

const SolverOptions& validated(const SolverOptions& o) {
  validate(o);
  return o;
}

}  // namespace

class IterativeSolver::Engine {
 public:
  virtual ~Engine() = default;
  virtual int levels() const = 0;
  virtual GridShape shape(int level) const = 0;
  virtual StepResult step(const CycleHooks& hooks) = 0;
  virtual std::uint64_t launches() const = 0;
  virtual void set_level_timing(bool on) = 0;
  virtual std::vector<LevelStats> level_stats() const = 0;
  // A distributed backend's communication per level over all ranks (a collective); else empty.
  virtual std::vector<CommStats> comm_stats_all_ranks() { return {}; }
  virtual std::array<int, 2> process_grid() const { return {1, 1}; }
  virtual double error_norm() = 0;     // of the iterate, h-scaled L2
  virtual double residual_norm() = 0;  // of the iterate, h-scaled L2 (f - A x computed)
  // Both of the step's new iterate, from the step's own passes where it has them (the cycle's
  // sums pass; CG: residual_recursive), else from passes of their own.
  struct Norms {
    double error = NAN, residual = NAN;
    bool residual_recursive = false;
  };
  virtual Norms norms_after_step() = 0;
  // CG's last alpha and beta (NaN stand-alone).
  virtual std::array<double, 2> cg_coefficients() const { return {NAN, NAN}; }
  // The picture of `level` into *out (when given), on the device into *on_device (when given
  // and the backend keeps one), and its range into *range (when given).
  virtual void image(int level, FieldView view, std::vector<float>* out, std::shared_ptr<const DeviceImage>* on_device,
                     std::array<float, 2>* range) = 0;
  virtual Field iterate() = 0;
  virtual bool device_memory() const { return false; }
  virtual std::vector<std::shared_ptr<const DeviceImage>> pictures() const { return {}; }
  // The grid arrays it holds, as memory_account() names them (MPI: this rank's blocks).
  virtual std::vector<HeldArray> held_arrays() const = 0;
};

namespace {

// The bytes a vector of backend B holds (a distributed backend's: this rank's block, its ring
// included).
template <MultigridBackend B>
std::size_t bytes_held(const typename B::Vector& v) {
  if constexpr (Distributes<B>)
    return v.local.values().size_bytes();
  else
    return v.data() ? v.shape().storage() * sizeof(*v.data()) : 0;
}

template <MultigridBackend B>
void add_held(std::vector<HeldArray>& out, int level, const char* purpose, const typename B::Vector& v) {
  if (const std::size_t bytes = bytes_held<B>(v); bytes > 0) out.push_back({level, purpose, bytes});
}

template <MultigridBackend B>
void add_hierarchy(std::vector<HeldArray>& out, const Multigrid<B>& mg) {
  for (int l = 1; l <= mg.levels(); ++l) {
    add_held<B>(out, l, "v (iterate or correction)", mg.level(l).v);
    add_held<B>(out, l, "f (right-hand side)", mg.level(l).f);
    add_held<B>(out, l, "t (Jacobi's output)", mg.level(l).t);
  }
}

template <MultigridBackend B, class Preconditioner>
void add_cg(std::vector<HeldArray>& out, const std::optional<PreconditionedCG<B, Preconditioner>>& cg) {
  if (cg)
    for (const auto& [purpose, v] : cg->own_vectors()) add_held<B>(out, 1, purpose, *v);
}

std::array<float, 2> range_of(const std::vector<float>& values) {
  if (values.empty()) return {0.0f, 0.0f};
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  return {*lo, *hi};
}

// A host backend's picture: drawn into *out, or into `scratch` when only its range is asked for.
template <class Draw>
void host_picture(std::vector<float>* out, std::vector<float>& scratch, std::size_t count,
                  std::shared_ptr<const DeviceImage>* on_device, std::array<float, 2>* range, Draw&& draw) {
  std::vector<float>& values = out ? *out : scratch;
  values.resize(count);
  draw(values.data());
  if (on_device) on_device->reset();
  if (range) *range = range_of(values);
}

// A problem's host array into a backend's vector: moved where the backend's vectors are host
// fields (no second copy beside the first during the set-up, and a zero right-hand side stays
// pages never written), else uploaded.
template <class Backend>
void take(Backend& backend, Field&& host, typename Backend::Vector& vector) {
  if constexpr (std::is_same_v<typename Backend::Vector, Field>)
    vector = std::move(host);
  else
    backend.upload(host, vector);
}

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

std::unique_ptr<IterativeSolver::Engine> make_engine(const ResolvedRun& run, const SolverOptions& o,
                                                     DiscreteProblem&& p) {
  if (o.precision == Precision::Mixed) return std::make_unique<MixedEngine>(o.threads, o, run.settings, std::move(p));
  return with_backend_type(run.target.backend,
                           [&]<class Backend>(std::type_identity<Backend>) -> std::unique_ptr<IterativeSolver::Engine> {
                             return std::make_unique<EngineOn<Backend>>(run.target, o, run.settings, std::move(p));
                           });
}

}  // namespace

IterativeSolver::IterativeSolver(const SolverOptions& options, DiscreteProblem problem)
    : options_(validated(options)), monitor_(problem.monitor) {
  const auto setup_start = Clock::now();
  const ResolvedRun run = resolve(options_);  // throws where the backend asked for is not there
  check_device_memory(options_, run);
  settings_ = run.settings;
  backend_note_ = run.note;
  target_ = run.target;
  if (options_.smoother == Smoother::Jacobi)
    smoothing_factor_ =
        jacobi_smoothing_factor(rotated_anisotropic_stencil(options_.eps, options_.angle_degrees), settings_.omega);
  engine_ = make_engine(run, options_, std::move(problem));
  problem = {};  // what the engine copied rather than took is freed before the first cycle
  initial_error_ = engine_->error_norm();
  initial_residual_ = engine_->residual_norm();
  monitored0_ = monitor_ == Monitor::Error ? initial_error_ : initial_residual_;
  previous_ = monitored0_;
  best_ = monitored0_;
  if (!std::isfinite(monitored0_))
    status_ = SolveStatus::NotANumber;
  else if (monitored0_ == 0.0)
    status_ = SolveStatus::Converged;  // nothing to do
  step_seconds_.reserve(std::size_t(std::min(options_.max_iterations, 100000)));
  seconds_setup_ = seconds_since(setup_start);
}

IterativeSolver::~IterativeSolver() = default;

std::vector<HeldArray> IterativeSolver::held_arrays() const { return engine_->held_arrays(); }

std::string_view IterativeSolver::backend_name() const { return to_string(target_.backend); }
int IterativeSolver::levels() const { return engine_->levels(); }
GridShape IterativeSolver::level_shape(int level) const { return engine_->shape(level); }
Field IterativeSolver::iterate() const { return engine_->iterate(); }

void IterativeSolver::level_image(int level, FieldView view, std::vector<float>& out) {
  if (fault_) fault_("picture");
  engine_->image(level, view, &out, nullptr, nullptr);
}

bool IterativeSolver::pictures_on_device() const { return engine_->device_memory(); }
std::vector<std::shared_ptr<const DeviceImage>> IterativeSolver::device_pictures() const { return engine_->pictures(); }

IterativeSolver::LevelPicture IterativeSolver::level_device_image(int level, FieldView view,
                                                                  std::vector<float>* host_copy) {
  LevelPicture picture;
  std::array<float, 2> range{};
  if (fault_) fault_("picture");
  engine_->image(level, view, host_copy, &picture.device, &range);
  picture.min = range[0];
  picture.max = range[1];
  return picture;
}

void IterativeSolver::set_level_timing(bool on) { engine_->set_level_timing(on); }
std::vector<LevelStats> IterativeSolver::level_stats() const { return engine_->level_stats(); }

std::vector<CommStats> IterativeSolver::comm_stats_all_ranks() { return engine_->comm_stats_all_ranks(); }
std::array<int, 2> IterativeSolver::process_grid() const { return engine_->process_grid(); }

const IterationRecord& IterativeSolver::step(const CycleHooks& hooks) {
  // A watcher holding an operation (the visualizer's stepping) is not cycle time.
  double watched = 0;
  OpObserver timed_observer;
  CycleHooks inner = hooks;
  if (hooks.observer && *hooks.observer) {
    timed_observer = [&](const TraceEvent& e) {
      const auto held_from = Clock::now();
      struct AddHeld {
        double& total;
        Clock::time_point from;
        ~AddHeld() { total += seconds_since(from); }
      } add{watched, held_from};
      (*hooks.observer)(e);
    };
    inner.observer = &timed_observer;
  }
  const std::uint64_t launches0 = engine_->launches();
  const auto t0 = Clock::now();
  StepResult step = StepResult::Ok;
  try {
    if (fault_) fault_("cycle");
    step = engine_->step(inner);
  } catch (const CycleCancelled&) {
    status_ = SolveStatus::Cancelled;  // the hierarchy is mid-cycle: this solve cannot go on
    throw;
  } catch (const std::exception& e) {
    status_ = SolveStatus::Failed;  // the device's state is unknown: neither can this one
    failure_ = e.what();
    throw;
  }
  const double dt = seconds_since(t0) - watched;
  step_seconds_.push_back(dt);

  IterationRecord rec;
  rec.iteration = int(history_.size()) + 1;
  rec.seconds = dt;
  const Engine::Norms norms = engine_->norms_after_step();
  rec.error_norm = norms.error;
  rec.residual_norm = norms.residual;
  const std::array<double, 2> coefficients = engine_->cg_coefficients();
  rec.cg_alpha = coefficients[0];
  rec.cg_beta = coefficients[1];
  const bool by_residual = monitor_ == Monitor::Residual;
  launches_per_iteration_ = engine_->launches() - launches0;  // the cycle and the passes its norms took
  // CG's recursive residual can keep falling below what the iterate attains: a solve that
  // stops on the residual confirms it with f - A x before it says converged.
  if (by_residual && norms.residual_recursive && rec.residual_norm <= options_.tolerance * monitored0_)
    rec.residual_norm = engine_->residual_norm();
  const double monitored = by_residual ? rec.residual_norm : rec.error_norm;
  rec.factor = monitored / previous_;
  previous_ = monitored;
  history_.push_back(rec);
  seconds_loop_ += seconds_since(t0) - watched;

  if (step == StepResult::Breakdown)
    status_ = SolveStatus::Breakdown;
  else if (!std::isfinite(monitored) || !std::isfinite(rec.residual_norm))
    status_ = SolveStatus::NotANumber;
  else if (monitored <= options_.tolerance * monitored0_)
    status_ = SolveStatus::Converged;
  else if (monitored > options_.divergence_factor * monitored0_)
    status_ = SolveStatus::Diverged;
  else if (rec.iteration >= options_.max_iterations)
    status_ = SolveStatus::MaxIterations;
  else if (monitored < 0.5 * best_)
    best_ = monitored, best_iteration_ = rec.iteration;
  else if (rec.iteration - best_iteration_ >= kStallIterations)
    status_ = SolveStatus::Stalled;  // rounding (or float's) floor: it will not get there
  // The last record reports the true residual f - A x (one pass, once per solve).
  if (status_ != SolveStatus::Running && norms.residual_recursive)
    history_.back().residual_norm = engine_->residual_norm();
  return history_.back();
}

SolveResult IterativeSolver::result(bool with_history) const {
  SolveResult r;
  r.status = status_;
  r.iterations = int(history_.size());
  r.initial_error = initial_error_;
  r.initial_residual = initial_residual_;
  r.final_error = history_.empty() ? initial_error_ : history_.back().error_norm;
  r.final_residual = history_.empty() ? initial_residual_ : history_.back().residual_norm;
  // A norm that starts at zero (the zero-mean guess on one unknown) has nothing to reduce: 0.
  const auto reduced = [](double final, double initial) { return final == 0.0 ? 0.0 : final / initial; };
  r.error_reduction = reduced(r.final_error, r.initial_error);
  r.residual_reduction = reduced(r.final_residual, r.initial_residual);
  const double reduction = monitor_ == Monitor::Error ? r.error_reduction : r.residual_reduction;
  r.mean_factor = r.iterations > 0 ? std::pow(reduction, 1.0 / r.iterations) : 0.0;
  r.seconds_setup = seconds_setup_;
  r.seconds_total = seconds_loop_;
  r.seconds_per_iteration = r.iterations > 0 ? seconds_loop_ / r.iterations : 0.0;
  if (!step_seconds_.empty()) {
    std::vector<double> sorted = step_seconds_;
    std::nth_element(sorted.begin(), sorted.begin() + std::ptrdiff_t(sorted.size() / 2), sorted.end());
    r.seconds_per_cycle = sorted[sorted.size() / 2];
  }
  r.omega = settings_.omega;
  r.smoothing_factor = smoothing_factor_;
  r.unknowns = engine_->shape(1).unknowns();
  r.backend = std::string(backend_name());
  r.backend_note = backend_note_;
  r.launches_per_iteration = launches_per_iteration_;
  r.monitor = monitor_;
  if (with_history) r.history = history_;

  std::ostringstream msg;
  const char* what = monitor_ == Monitor::Error ? "error" : "residual";
  switch (status_) {
    case SolveStatus::Running: msg << "running: " << what << " reduced by " << reduction << " so far"; break;
    case SolveStatus::Converged:
      if (monitored0_ == 0.0)
        msg << "converged: the initial " << what << " is already zero, nothing to reduce";
      else
        msg << "converged: " << what << " reduced by " << reduction << " in " << r.iterations << " iterations";
      break;
    case SolveStatus::MaxIterations:
      msg << "not converged: " << what << " reduced only by " << reduction << " after " << r.iterations
          << " iterations (the iteration limit, max-iter)";
      break;
    case SolveStatus::Diverged:
      msg << "diverged: " << what << " grew by " << reduction << " after " << r.iterations << " iterations";
      break;
    case SolveStatus::NotANumber:
      msg << "stopped: the " << what << " became NaN or infinite at iteration " << r.iterations;
      break;
    case SolveStatus::Breakdown:
      msg << "stopped: CG broke down at iteration " << r.iterations
          << " (the preconditioner or operator is not positive definite; try the fcg solver)";
      break;
    case SolveStatus::Cancelled: msg << "cancelled after " << r.iterations << " iterations"; break;
    case SolveStatus::Failed:
      msg << "failed after " << r.iterations << " iterations: the " << r.backend << " backend raised: " << failure_;
      break;
    case SolveStatus::Stalled:
      msg << "stalled: " << what << " reduced only by " << reduction << "; it has not halved in the last "
          << kStallIterations << " iterations (the rounding floor of "
          << (options_.precision == Precision::Mixed ? "this mixed-precision solve" : "double precision")
          << " is above the tolerance, tol)";
      break;
  }
  r.message = msg.str();
  return r;
}

}  // namespace kcycle
