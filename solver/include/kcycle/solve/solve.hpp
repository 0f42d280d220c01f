#pragma once
// The solve driver: the stand-alone kappa-cycle iteration, or CG / flexible CG
// preconditioned by one kappa-cycle per iteration, with stopping on convergence,
// divergence, NaN or the iteration limit.
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "kcycle/core/problem.hpp"
#include "kcycle/solve/solver_options.hpp"

namespace kcycle {

// Failed: the backend raised an error (a CUDA error, say); the solve cannot go on.
enum class SolveStatus {
  Running,
  Converged,
  MaxIterations,
  Diverged,
  NotANumber,
  Breakdown,
  Cancelled,
  Stalled,
  Failed
};
std::string_view to_string(SolveStatus);

struct IterationRecord {
  int iteration = 0;
  double error_norm = 0;     // L2 (h-scaled) norm of u - u_exact; NaN when unknown
  double residual_norm = 0;  // L2 (h-scaled) norm of f - A u
  double factor = 0;         // monitored norm / previous monitored norm
  double seconds = 0;        // the cycle (or CG iteration) alone, norms excluded
  // CG's step length alpha and the next direction's beta: its Lanczos coefficients, which
  // give the preconditioned operator's extreme eigenvalues (lanczos_spectrum.hpp). NaN stand-alone.
  double cg_alpha = NAN, cg_beta = NAN;
};

struct SolveResult {
  SolveStatus status = SolveStatus::MaxIterations;
  int iterations = 0;
  double initial_error = 0, final_error = 0;
  double initial_residual = 0, final_residual = 0;
  double error_reduction = 0, residual_reduction = 0;  // final / initial
  double mean_factor = 0;                              // (monitored reduction)^(1/iterations)
  double seconds_setup = 0;
  double seconds_total = 0;  // the iteration loop, norms included
  double seconds_per_iteration = 0;
  double seconds_per_cycle = 0;  // median of the cycle-only times
  double omega = 0;
  std::uint64_t unknowns = 0;
  std::uint64_t launches_per_iteration = 0;
  Monitor monitor = Monitor::Error;
  std::string backend;       // "cpu" or "cuda": what ran the solve
  std::string backend_note;  // --backend auto's line when it fell back to the CPU
  std::vector<IterationRecord> history;
  std::string message;

  bool converged() const { return status == SolveStatus::Converged; }
};

// Called after every iteration with its record (complete: the new iterate's norms); return false to cancel the solve.
using IterationCallback = std::function<bool(const IterationRecord&)>;

// The damping factor a solve with these options uses (paper formula, LFA, or fixed).
double resolve_omega(const SolverOptions& options);
// The hierarchy a solve with these options builds.
MultigridSettings multigrid_settings(const SolverOptions& options);

// Validates the options (throws InvalidOptions) and solves the chosen problem.
SolveResult solve(const SolverOptions& options, const IterationCallback& on_iteration = {});
// Same, for a problem the caller built on the finest grid of `options.levels` levels.
SolveResult solve(const SolverOptions& options, DiscreteProblem problem, const IterationCallback& on_iteration = {});
// The problem options.problem names, on the finest grid (validates the options).
DiscreteProblem make_problem(const SolverOptions& options);

}  // namespace kcycle
