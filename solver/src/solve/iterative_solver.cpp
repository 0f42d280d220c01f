#include "kcycle/solve/iterative_solver.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <optional>
#include <sstream>
#include <type_traits>

#include "kcycle/core/medians.hpp"
#include "kcycle/solve/resolved_run.hpp"
#include "solver_engine.hpp"

namespace kcycle {

namespace {

// A solve whose monitored norm has not halved in this many iterations has stalled (slower
// than a factor 0.9986 per iteration; the paper's slowest case, the 12-level V-cycle, is 0.9973).
constexpr int kStallIterations = 500;

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

const SolverOptions& checked(const SolverOptions& o) {
  check_options(o);
  return o;
}

}  // namespace

IterativeSolver::IterativeSolver(const SolverOptions& options, DiscreteProblem problem)
    : options_(checked(options)),
      monitor_(problem.monitor),
      run_(resolve(options_)) {  // throws where the backend asked for is not there
  const auto setup_start = Clock::now();
  const MemoryAccount account = memory_account(options_, run_);
  check_host_memory(options_, account);
  check_device_memory(options_, run_);
  engine_ = make_engine(run_, options_, std::move(problem));
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

std::string_view IterativeSolver::backend_name() const { return to_string(run_.target.backend); }
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
  // A solve on a process grid takes its slowest rank's time: every rank reports the same times,
  // and whatever is decided by them (a probe's end, an advice's budget) is decided alike on all.
  std::vector<double> seconds = step_seconds_;
  seconds.push_back(seconds_setup_);
  seconds.push_back(seconds_loop_);
  engine_->take_slowest_rank(seconds);
  const double loop = seconds.back();
  r.seconds_setup = seconds[seconds.size() - 2];
  r.seconds_total = loop;
  r.seconds_per_iteration = r.iterations > 0 ? loop / r.iterations : 0.0;
  seconds.resize(step_seconds_.size());
  if (!seconds.empty()) r.seconds_per_cycle = upper_median(seconds);
  r.omega = run_.settings.omega;
  r.unknowns = engine_->shape(1).unknowns();
  r.backend = std::string(backend_name());
  r.backend_note = run_.note;
  r.launches_per_iteration = launches_per_iteration_;
  r.monitor = monitor_;
  if (with_history) {
    r.history = history_;
    for (std::size_t k = 0; k < seconds.size() && k < r.history.size(); ++k) r.history[k].seconds = seconds[k];
  }

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
          << kStallIterations << " iterations";
      // CG's short recurrence assumes a symmetric preconditioner: without one it stalls far
      // above the rounding floor (gs-rb, nu2 = 0: at 1.9e-7), where flexible CG converges.
      if (const CycleAsymmetry asymmetry = cycle_asymmetry(options_);
          options_.solver == SolverKind::PCG && asymmetry.any())
        msg << " (CG needs a symmetric preconditioner and this cycle is not one: " << asymmetry.text()
            << "; use solver fcg, flexible CG)";
      else
        msg << " (the rounding floor of "
            << (options_.precision == Precision::Mixed ? "this mixed-precision solve" : "double precision")
            << " is above the tolerance, tol)";
      break;
  }
  r.message = msg.str();
  return r;
}

}  // namespace kcycle
