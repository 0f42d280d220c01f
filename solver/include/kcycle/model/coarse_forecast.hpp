#pragma once
// A kappa-cycle's iterations at n levels forecast from the same solve on coarser hierarchies:
// solved to the tolerance at n - ahead - window + 1 .. n - ahead levels (a quarter of the
// unknowns per level down), log(iterations) fitted linearly in the level and evaluated at n
// (MGCG: the geometric mean of that and the linear fit of the iterations themselves).
// LFA's factors do not depend on the level count; the V- and F-cycles' iterations do (jacobi,
// 45 degrees: 275, 615, 1209, 2242 V-cycles at 7-10 levels): this sees that growth. Measured
// against solves at 3-10 levels in docs/model.md ("The level dependence LFA cannot see").
#include <stop_token>
#include <string>
#include <vector>

#include "kcycle/solve/solver_options.hpp"

namespace kcycle {

struct CoarseForecastSettings {
  int ahead = 2;   // the last hierarchy solved has n - ahead levels
  int window = 3;  // how many hierarchies are solved
};

struct CoarseForecast {
  std::vector<int> levels;          // the hierarchies solved, coarsest first
  std::vector<int> iterations;      // their iterations to the tolerance
  bool converged = true;            // every one did (else no forecast)
  double iterations_at_target = 0;  // the fit at the target's level count
  double low = 0, high = 0;         // the fits through the first two and the last two counts, and it
  std::string basis;                // "solves at 6, 7, 8 levels: 212, 369, 575 iterations"
};

// Whether the target has enough levels for the settings' window (the coarsest solve needs 2).
bool coarse_forecast_fits(const SolverOptions& target, const CoarseForecastSettings& settings);

// Solves `target` at the window's level counts (same kappa, tolerance and problem) and fits.
// Throws CycleCancelled when `stop` is requested.
CoarseForecast forecast_from_coarse_solves(const SolverOptions& target, const CoarseForecastSettings& settings,
                                           std::stop_token stop = {});

}  // namespace kcycle
