#pragma once
// From a predicted factor per cycle to the iterations a solve needs.
#include <cmath>
#include <limits>

namespace kcycle::lfa {

// Iterations for an error that falls by `factor` each one to fall by `reduction` (< 1):
// log(reduction) / log(factor), unrounded; infinite for a factor of 1 or more.
inline double iterations_to_reduce(double factor, double reduction) {
  if (!(factor < 1)) return std::numeric_limits<double>::infinity();
  if (factor <= 0) return 1;
  return std::max(1.0, std::log(reduction) / std::log(factor));
}

// CG preconditioned by a cycle whose error propagation E has its spectrum in [-rho, rho]:
// the preconditioned operator I - E has condition number at most (1 + rho) / (1 - rho), and
// CG's bound (sqrt(c) - 1) / (sqrt(c) + 1) is rho / (1 + sqrt(1 - rho^2)).
inline double cg_factor(double rho) {
  if (!(rho < 1)) return 1;
  return rho / (1 + std::sqrt(1 - rho * rho));
}

}  // namespace kcycle::lfa
