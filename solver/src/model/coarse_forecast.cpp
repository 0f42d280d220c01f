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
  f.iterations_at_target = fitted_at(f.levels, f.iterations, 0, k, target.levels);
  const double early = fitted_at(f.levels, f.iterations, 0, 1, target.levels);
  const double late = fitted_at(f.levels, f.iterations, k - 1, k, target.levels);
  f.low = std::min({f.iterations_at_target, early, late});
  f.high = std::max({f.iterations_at_target, early, late});
  f.basis = "solves at ";
  for (std::size_t j = 0; j <= k; ++j) f.basis += std::to_string(f.levels[j]) + (j < k ? ", " : " levels: ");
  for (std::size_t j = 0; j <= k; ++j) f.basis += std::to_string(f.iterations[j]) + (j < k ? ", " : " iterations");
  if (!f.converged) f.basis += " (not all converged: no forecast)";
  return f;
}

}  // namespace kcycle
