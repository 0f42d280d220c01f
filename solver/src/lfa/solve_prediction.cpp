#include "kcycle/lfa/solve_prediction.hpp"

#include <exception>

#include "kcycle/lfa/convergence.hpp"
#include "kcycle/lfa/fourier_analysis.hpp"
#include "kcycle/solve/solve.hpp"

namespace kcycle::lfa {

double solve_factor(const SolverOptions& options, double cycle_factor) {
  return options.solver == SolverKind::Multigrid ? cycle_factor : cg_factor(cycle_factor);
}

SolvePrediction predict_solve(const SolverOptions& options, int samples) {
  SolvePrediction p;
  p.cg = options.solver != SolverKind::Multigrid;  // PCG, or flexible CG with the same fixed cycle
  if (options.cycle.type != CycleType::Kappa) {
    p.basis = "no LFA prediction: it analyses kappa-cycles (this is the " + std::string(enum_name(options.cycle.type)) +
              " scheme)";
    return p;
  }
  LfaSettings settings;
  try {
    settings.cycle = multigrid_settings(options);
  } catch (const std::exception& e) {
    p.basis = std::string("no LFA prediction: ") + e.what();
    return p;
  }
  settings.samples = samples;
  if (const std::string why = settings_problem(settings); !why.empty()) {
    p.basis = "no LFA prediction: " + why;
    return p;
  }
  LfaResult r;
  try {
    r = analyse(settings, {options.cycle.counter});
  } catch (const std::exception& e) {
    p.basis = std::string("no LFA prediction: ") + e.what();
    return p;
  }
  p.cycle_factor = r.kappa_factors.front().factor;
  p.smoothing_factor = r.smoothing_factor;
  p.two_grid_factor = r.two_grid_factor;
  p.factor = solve_factor(options, p.cycle_factor);
  p.iterations = iterations_to_reduce(p.factor, options.tolerance);
  p.depth = r.depth;
  p.basis = r.basis;
  if (p.cg) p.basis += "; CG's factor is its bound for a cycle whose error spectrum lies in [-rho, rho]";
  return p;
}

}  // namespace kcycle::lfa
