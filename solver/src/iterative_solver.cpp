#include "kcycle/iterative_solver.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>

#include "kcycle/relaxation_factor.hpp"

namespace kcycle {

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

const SolverOptions& validated(const SolverOptions& o) {
  validate(o);
  return o;
}

}  // namespace

IterativeSolver::IterativeSolver(const SolverOptions& options, DiscreteProblem problem)
    : options_(validated(options)), problem_(std::move(problem)), backend_(options.threads),
      settings_(multigrid_settings(options)), mg_(backend_, settings_) {
  const auto setup_start = Clock::now();
  const GridShape fine = mg_.level(1).shape;
  if (!(problem_.rhs.shape() == fine))
    throw InvalidOptions("the problem's grid does not match the finest level of --levels");
  x_ = backend_.make_vector(fine);
  work_ = backend_.make_vector(fine);
  // The iterate: the finest level's own vectors for the stand-alone cycle, x for CG.
  if (options_.solver == SolverKind::Multigrid) {
    backend_.copy(problem_.rhs, mg_.level(1).f);
    backend_.copy(problem_.initial_guess, mg_.level(1).v);
  } else {
    backend_.copy(problem_.initial_guess, x_);
    cg_.emplace(mg_, problem_.rhs, x_, options_.cycle, options_.solver == SolverKind::FCG);
  }
  initial_error_ = error_norm(iterate());
  initial_residual_ = residual_norm(iterate());
  monitored0_ = problem_.monitor == Monitor::Error ? initial_error_ : initial_residual_;
  previous_ = monitored0_;
  if (!std::isfinite(monitored0_)) status_ = SolveStatus::NotANumber;
  else if (monitored0_ == 0.0) status_ = SolveStatus::Converged;  // nothing to do
  step_seconds_.reserve(std::size_t(std::min(options_.max_iterations, 100000)));
  seconds_setup_ = seconds_since(setup_start);
}

// h-scaled L2 norms: sqrt(hx hy sum v^2).
double IterativeSolver::error_norm(const Field& x) {
  const double scale = x.shape().hx() * x.shape().hy();
  if (problem_.exact_is_zero) return std::sqrt(scale * backend_.dot(x, x));
  if (!problem_.exact) return NAN;
  backend_.copy(x, work_);
  backend_.axpy(-1.0, *problem_.exact, work_);
  return std::sqrt(scale * backend_.dot(work_, work_));
}

double IterativeSolver::residual_norm(const Field& x) {
  backend_.residual(mg_.level(1).A, x, problem_.rhs, work_);
  return std::sqrt(x.shape().hx() * x.shape().hy() * backend_.dot(work_, work_));
}

const IterationRecord& IterativeSolver::step(Trace* trace, const OpObserver* observer) {
  const std::uint64_t launches0 = backend_.launches();
  const auto t0 = Clock::now();
  StepResult step = StepResult::Ok;
  if (cg_) step = cg_->step(trace, observer);
  else mg_.cycle(options_.cycle, trace, observer);
  const double dt = seconds_since(t0);
  launches_per_iteration_ = backend_.launches() - launches0;
  step_seconds_.push_back(dt);

  IterationRecord rec;
  rec.iteration = int(history_.size()) + 1;
  rec.seconds = dt;
  rec.error_norm = error_norm(iterate());
  rec.residual_norm = residual_norm(iterate());
  const double monitored = problem_.monitor == Monitor::Error ? rec.error_norm : rec.residual_norm;
  rec.factor = monitored / previous_;
  previous_ = monitored;
  history_.push_back(rec);
  seconds_loop_ += seconds_since(t0);

  if (step == StepResult::Breakdown) status_ = SolveStatus::Breakdown;
  else if (!std::isfinite(monitored) || !std::isfinite(rec.residual_norm)) status_ = SolveStatus::NotANumber;
  else if (monitored <= options_.tolerance * monitored0_) status_ = SolveStatus::Converged;
  else if (monitored > options_.divergence_factor * monitored0_) status_ = SolveStatus::Diverged;
  else if (rec.iteration >= options_.max_iterations) status_ = SolveStatus::MaxIterations;
  return history_.back();
}

SolveResult IterativeSolver::result() const {
  SolveResult r;
  r.status = status_;
  r.iterations = int(history_.size());
  r.initial_error = initial_error_;
  r.initial_residual = initial_residual_;
  r.final_error = history_.empty() ? initial_error_ : history_.back().error_norm;
  r.final_residual = history_.empty() ? initial_residual_ : history_.back().residual_norm;
  r.error_reduction = r.final_error / r.initial_error;
  r.residual_reduction = r.final_residual / r.initial_residual;
  const double reduction = problem_.monitor == Monitor::Error ? r.error_reduction : r.residual_reduction;
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
  r.smoothing_factor =
      options_.smoother == Smoother::Jacobi
          ? jacobi_smoothing_factor(rotated_anisotropic_stencil(options_.eps, options_.angle_degrees), settings_.omega)
          : NAN;
  r.unknowns = mg_.level(1).shape.unknowns();
  r.launches_per_iteration = launches_per_iteration_;
  r.monitor = problem_.monitor;
  r.history = history_;

  std::ostringstream msg;
  const char* what = problem_.monitor == Monitor::Error ? "error" : "residual";
  switch (status_) {
    case SolveStatus::Running: msg << "running: " << what << " reduced by " << reduction << " so far"; break;
    case SolveStatus::Converged:
      msg << "converged: " << what << " reduced by " << reduction << " in " << r.iterations << " iterations";
      break;
    case SolveStatus::MaxIterations:
      msg << "not converged: " << what << " reduced only by " << reduction << " after " << r.iterations
          << " iterations (--max-iter)";
      break;
    case SolveStatus::Diverged:
      msg << "diverged: " << what << " grew by " << reduction << " after " << r.iterations << " iterations";
      break;
    case SolveStatus::NotANumber:
      msg << "stopped: the " << what << " became NaN or infinite at iteration " << r.iterations;
      break;
    case SolveStatus::Breakdown:
      msg << "stopped: CG broke down at iteration " << r.iterations
          << " (the preconditioner or operator is not positive definite; try --solver fcg)";
      break;
    case SolveStatus::Cancelled: msg << "cancelled after " << r.iterations << " iterations"; break;
  }
  r.message = msg.str();
  return r;
}

}  // namespace kcycle
