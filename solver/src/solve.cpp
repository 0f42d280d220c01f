#include "kcycle/solve.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <sstream>

#include "kcycle/cpu_backend.hpp"
#include "kcycle/krylov.hpp"
#include "kcycle/multigrid.hpp"
#include "kcycle/relaxation_factor.hpp"

namespace kcycle {

std::string_view to_string(SolveStatus s) {
  switch (s) {
    case SolveStatus::Converged: return "converged";
    case SolveStatus::MaxIterations: return "max-iterations";
    case SolveStatus::Diverged: return "diverged";
    case SolveStatus::NotANumber: return "nan";
    case SolveStatus::Breakdown: return "breakdown";
    case SolveStatus::Cancelled: return "cancelled";
  }
  return "?";
}

MultigridSettings multigrid_settings(const SolverOptions& o) {
  MultigridSettings s;
  s.levels = o.levels;
  s.tensor = rotated_anisotropic_tensor(o.eps, o.angle_degrees);
  s.coarsening = o.coarsening;
  s.coarse_operator = o.coarse_operator;
  s.smoother = o.smoother;
  s.omega = o.smoother == Smoother::Jacobi ? resolve_omega(o) : 1.0;
  s.nu1 = o.nu1;
  s.nu2 = o.nu2;
  s.symmetric_smoothing = o.symmetric_smoothing;
  return s;
}

double resolve_omega(const SolverOptions& o) {
  switch (o.omega_mode) {
    case OmegaMode::Paper: return paper_jacobi_omega(o.eps, o.angle_degrees);
    case OmegaMode::Fourier:
      return lfa_jacobi_omega(rotated_anisotropic_stencil(o.eps, o.angle_degrees)).omega;
    case OmegaMode::Fixed: return o.omega;
  }
  return o.omega;
}

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// The error and residual norms of an iterate, h-scaled L2: sqrt(hx hy sum v^2).
template <class Backend>
class NormMeter {
 public:
  NormMeter(Backend& be, const DiscreteProblem& p, const Stencil9& A)
      : be_(be), p_(p), A_(A), work_(be.make_vector(p.rhs.shape())),
        scale_(p.rhs.shape().hx() * p.rhs.shape().hy()) {}

  double error(const Field& x) {
    if (p_.exact_is_zero) return std::sqrt(scale_ * be_.dot(x, x));
    if (!p_.exact) return NAN;
    be_.copy(x, work_);
    be_.axpy(-1.0, *p_.exact, work_);
    return std::sqrt(scale_ * be_.dot(work_, work_));
  }
  double residual(const Field& x) {
    be_.residual(A_, x, p_.rhs, work_);
    return std::sqrt(scale_ * be_.dot(work_, work_));
  }

 private:
  Backend& be_;
  const DiscreteProblem& p_;
  const Stencil9& A_;
  Field work_;
  double scale_;
};

template <class Backend>
SolveResult run_solve(const SolverOptions& o, const DiscreteProblem& problem,
                      const IterationCallback& on_iteration) {
  const auto setup_start = Clock::now();
  SolveResult result;
  Backend backend(o.threads);
  const MultigridSettings settings = multigrid_settings(o);
  Multigrid<Backend> mg(backend, settings);
  const GridShape fine = mg.level(1).shape;
  if (!(problem.rhs.shape() == fine))
    throw InvalidOptions("the problem's grid does not match the finest level of --levels");

  result.omega = settings.omega;
  result.smoothing_factor =
      o.smoother == Smoother::Jacobi
          ? jacobi_smoothing_factor(rotated_anisotropic_stencil(o.eps, o.angle_degrees), settings.omega)
          : NAN;
  result.unknowns = fine.unknowns();
  result.monitor = problem.monitor;

  NormMeter<Backend> norms(backend, problem, mg.level(1).A);
  // The iterate: the finest level's own vectors for the stand-alone cycle, x for CG.
  Field x = backend.make_vector(fine);
  std::optional<PreconditionedCG<Backend>> cg;
  if (o.solver == SolverKind::Multigrid) {
    backend.copy(problem.rhs, mg.level(1).f);
    backend.copy(problem.initial_guess, mg.level(1).v);
  } else {
    backend.copy(problem.initial_guess, x);
    cg.emplace(mg, problem.rhs, x, o.cycle, o.solver == SolverKind::FCG);
  }
  auto iterate = [&]() -> const Field& { return cg ? x : mg.level(1).v; };

  result.initial_error = norms.error(iterate());
  result.initial_residual = norms.residual(iterate());
  const double monitored0 =
      problem.monitor == Monitor::Error ? result.initial_error : result.initial_residual;
  result.seconds_setup = seconds_since(setup_start);

  std::vector<double> step_seconds;
  step_seconds.reserve(std::size_t(std::min(o.max_iterations, 100000)));
  double previous = monitored0;
  result.status = SolveStatus::MaxIterations;
  const auto loop_start = Clock::now();
  if (!std::isfinite(monitored0)) result.status = SolveStatus::NotANumber;
  if (monitored0 == 0.0) result.status = SolveStatus::Converged;  // nothing to do
  for (int it = 1; it <= o.max_iterations && result.status == SolveStatus::MaxIterations; ++it) {
    const std::uint64_t launches0 = backend.launches();
    const auto t0 = Clock::now();
    StepResult step = StepResult::Ok;
    if (cg) step = cg->step();
    else mg.cycle(o.cycle);
    const double dt = seconds_since(t0);
    result.launches_per_iteration = backend.launches() - launches0;
    step_seconds.push_back(dt);

    IterationRecord rec;
    rec.iteration = it;
    rec.seconds = dt;
    rec.error_norm = norms.error(iterate());
    rec.residual_norm = norms.residual(iterate());
    const double monitored = problem.monitor == Monitor::Error ? rec.error_norm : rec.residual_norm;
    rec.factor = monitored / previous;
    previous = monitored;
    result.history.push_back(rec);
    result.iterations = it;

    if (step == StepResult::Breakdown) result.status = SolveStatus::Breakdown;
    else if (!std::isfinite(monitored) || !std::isfinite(rec.residual_norm))
      result.status = SolveStatus::NotANumber;
    else if (monitored <= o.tolerance * monitored0) result.status = SolveStatus::Converged;
    else if (monitored > o.divergence_factor * monitored0) result.status = SolveStatus::Diverged;
    if (on_iteration && !on_iteration(rec) && result.status == SolveStatus::MaxIterations)
      result.status = SolveStatus::Cancelled;
  }
  result.seconds_total = seconds_since(loop_start);

  if (!result.history.empty()) {
    result.final_error = result.history.back().error_norm;
    result.final_residual = result.history.back().residual_norm;
    result.seconds_per_iteration = result.seconds_total / result.iterations;
    std::nth_element(step_seconds.begin(), step_seconds.begin() + std::ptrdiff_t(step_seconds.size() / 2),
                     step_seconds.end());
    result.seconds_per_cycle = step_seconds[step_seconds.size() / 2];
  } else {
    result.final_error = result.initial_error;
    result.final_residual = result.initial_residual;
  }
  result.error_reduction = result.final_error / result.initial_error;
  result.residual_reduction = result.final_residual / result.initial_residual;
  const double monitored_reduction =
      problem.monitor == Monitor::Error ? result.error_reduction : result.residual_reduction;
  result.mean_factor =
      result.iterations > 0 ? std::pow(monitored_reduction, 1.0 / result.iterations) : 0.0;

  std::ostringstream msg;
  const char* what = problem.monitor == Monitor::Error ? "error" : "residual";
  switch (result.status) {
    case SolveStatus::Converged:
      msg << "converged: " << what << " reduced by " << monitored_reduction << " in "
          << result.iterations << " iterations";
      break;
    case SolveStatus::MaxIterations:
      msg << "not converged: " << what << " reduced only by " << monitored_reduction << " after "
          << result.iterations << " iterations (--max-iter)";
      break;
    case SolveStatus::Diverged:
      msg << "diverged: " << what << " grew by " << monitored_reduction << " after "
          << result.iterations << " iterations";
      break;
    case SolveStatus::NotANumber:
      msg << "stopped: the " << what << " became NaN or infinite at iteration "
          << result.iterations;
      break;
    case SolveStatus::Breakdown:
      msg << "stopped: CG broke down at iteration " << result.iterations
          << " (the preconditioner or operator is not positive definite; try --solver fcg)";
      break;
    case SolveStatus::Cancelled: msg << "cancelled after " << result.iterations << " iterations"; break;
  }
  result.message = msg.str();
  return result;
}

}  // namespace

SolveResult solve(const SolverOptions& options, const DiscreteProblem& problem,
                  const IterationCallback& on_iteration) {
  validate(options);
  return run_solve<CpuBackend>(options, problem, on_iteration);
}

SolveResult solve(const SolverOptions& options, const IterationCallback& on_iteration) {
  validate(options);
  const GridShape fine = level_shape(options.levels, 1, options.coarsening);
  const DiscreteProblem problem =
      options.problem == ProblemKind::RandomError
          ? random_error_problem(fine, options.seed)
          : manufactured_problem(fine, rotated_anisotropic_tensor(options.eps, options.angle_degrees));
  return run_solve<CpuBackend>(options, problem, on_iteration);
}

}  // namespace kcycle
