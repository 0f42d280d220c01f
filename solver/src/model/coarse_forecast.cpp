#include "kcycle/model/coarse_forecast.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "kcycle/solve/iterative_solver.hpp"
#include "kcycle/solve/solve.hpp"

namespace kcycle {

namespace {

// log(iterations) at level n from the least-squares line through (levels, log counts).
double fitted_at(const std::vector<int>& levels, const std::vector<int>& counts, std::size_t first, std::size_t last,
                 int n) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double m = double(last - first + 1);
  for (std::size_t k = first; k <= last; ++k) {
    const double x = levels[k], y = std::log(double(std::max(counts[k], 1)));
    sx += x, sy += y, sxx += x * x, sxy += x * y;
  }
  const double slope = (m * sxy - sx * sy) / (m * sxx - sx * sx);
  const double intercept = (sy - slope * sx) / m;
  return std::exp(intercept + slope * n);
}

// iterations at level n from the least-squares line through (levels, counts).
double linear_at(const std::vector<int>& levels, const std::vector<int>& counts, std::size_t first, std::size_t last,
                 int n) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double m = double(last - first + 1);
  for (std::size_t k = first; k <= last; ++k) {
    const double x = levels[k], y = counts[k];
    sx += x, sy += y, sxx += x * x, sxy += x * y;
  }
  const double slope = (m * sxy - sx * sy) / (m * sxx - sx * sx);
  return (sy - slope * sx) / m + slope * n;
}

// The forecast of one fit. MGCG's counts grow linearly in the level for kappa >= 2 (CG's count
// goes as the square root of a condition number growing about as n^2) and geometrically for
// the V-cycle: the geometric mean of the linear and log-linear fits holds both (docs/model.md,
// "A fit for the MGCG rows": 29 of 30 MGCG counts within 15% at 11-12 levels from n-5..n-3,
// the log-linear fit alone 24). Stand-alone counts keep the log-linear fit, which does better there.
double forecast_at(const std::vector<int>& levels, const std::vector<int>& counts, std::size_t first, std::size_t last,
                   int n, bool mgcg) {
  const double log_linear = fitted_at(levels, counts, first, last, n);
  if (!mgcg) return log_linear;
  const double linear = linear_at(levels, counts, first, last, n);
  return linear > 0 ? std::sqrt(log_linear * linear) : log_linear;
}

}  // namespace

bool coarse_forecast_fits(const SolverOptions& target, const CoarseForecastSettings& settings) {
  return settings.ahead >= 1 && settings.window >= 2 && target.levels - settings.ahead - settings.window + 1 >= 2;
}

CoarseForecast forecast_from_coarse_solves(const SolverOptions& target, const CoarseForecastSettings& settings,
                                           std::stop_token stop) {
  if (!coarse_forecast_fits(target, settings))
    throw InvalidOptions("a forecast from coarser solves needs at least " +
                         std::to_string(settings.ahead + settings.window + 1) + " levels (got " +
                         std::to_string(target.levels) + ")");
  CoarseForecast f;
  const int last = target.levels - settings.ahead;
  for (int levels = last - settings.window + 1; levels <= last; ++levels) {
    SolverOptions coarse = target;
    coarse.levels = levels;
    IterativeSolver solver(coarse, make_problem(coarse));
    while (solver.running()) {
      solver.step();
      if (stop.stop_requested()) throw CycleCancelled();
    }
    const SolveResult r = solver.result();
    f.levels.push_back(levels);
    f.iterations.push_back(r.iterations);
    f.converged = f.converged && r.converged();
  }
  const std::size_t k = f.levels.size() - 1;
  const bool mgcg = target.solver != SolverKind::Multigrid;
  f.iterations_at_target = forecast_at(f.levels, f.iterations, 0, k, target.levels, mgcg);
  const double early = forecast_at(f.levels, f.iterations, 0, 1, target.levels, mgcg);
  const double late = forecast_at(f.levels, f.iterations, k - 1, k, target.levels, mgcg);
  f.low = std::min({f.iterations_at_target, early, late});
  f.high = std::max({f.iterations_at_target, early, late});
  f.basis = "solves at ";
  for (std::size_t j = 0; j <= k; ++j) f.basis += std::to_string(f.levels[j]) + (j < k ? ", " : " levels: ");
  for (std::size_t j = 0; j <= k; ++j) f.basis += std::to_string(f.iterations[j]) + (j < k ? ", " : " iterations");
  if (mgcg) f.basis += " (CG: the geometric mean of the linear and log-linear fits)";
  if (!f.converged) f.basis += " (not all converged: no forecast)";
  return f;
}

}  // namespace kcycle
