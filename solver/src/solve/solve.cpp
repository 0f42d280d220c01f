#include "kcycle/solve/solve.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <sstream>

#include "kcycle/core/relaxation_factor.hpp"
#include "kcycle/solve/iterative_solver.hpp"

namespace kcycle {

std::string_view to_string(SolveStatus s) {
  switch (s) {
    case SolveStatus::Running: return "running";
    case SolveStatus::Converged: return "converged";
    case SolveStatus::MaxIterations: return "max-iterations";
    case SolveStatus::Diverged: return "diverged";
    case SolveStatus::NotANumber: return "nan";
    case SolveStatus::Breakdown: return "breakdown";
    case SolveStatus::Cancelled: return "cancelled";
    case SolveStatus::Stalled: return "stalled";
    case SolveStatus::Failed: return "failed";
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
  s.coarsest_calls = o.coarsest_calls;
  s.coarse_krylov = o.coarse_krylov;
  s.fused = o.fused;
  if (o.coarse_tail != kCoarseTailAuto) s.coarse_tail_unknowns = std::size_t(o.coarse_tail);
  return s;
}

DiscreteProblem make_problem(const SolverOptions& o) {
  validate(o);
  const GridShape fine = level_shape(o.levels, 1, o.coarsening);
  switch (o.problem) {
    case ProblemKind::RandomError: return random_error_problem(fine, o.seed);
    case ProblemKind::ZeroMeanRandomError: return zero_mean_random_error_problem(fine, o.seed);
    case ProblemKind::FourierMode: return fourier_mode_problem(fine, o.mode_k, o.mode_l);
    case ProblemKind::Drawn: return drawn_error_problem(fine, parse_error_shapes(o.drawn_error).shapes);
    case ProblemKind::Manufactured: break;
  }
  return manufactured_problem(fine, rotated_anisotropic_tensor(o.eps, o.angle_degrees));
}

double resolve_omega(const SolverOptions& o) {
  switch (o.omega_mode) {
    case OmegaMode::Paper: return paper_jacobi_omega(o.eps, o.angle_degrees);
    case OmegaMode::Fourier: return lfa_jacobi_omega(rotated_anisotropic_stencil(o.eps, o.angle_degrees)).omega;
    case OmegaMode::Fixed: return o.omega;
  }
  return o.omega;
}

SolveResult solve(const SolverOptions& options, DiscreteProblem problem, const IterationCallback& on_iteration) {
  IterativeSolver solver(options, std::move(problem));
  while (solver.running()) {
    const IterationRecord& rec = solver.step();
    if (on_iteration && !on_iteration(rec) && solver.running()) solver.cancel();
  }
  return solver.result();
}

SolveResult solve(const SolverOptions& options, const IterationCallback& on_iteration) {
  return solve(options, make_problem(options), on_iteration);
}

}  // namespace kcycle
