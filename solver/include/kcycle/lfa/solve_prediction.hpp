#pragma once
// What local Fourier analysis predicts for one solve, from its options alone: the factor per
// iteration of its kappa-cycle (CG: the bound that factor gives CG) and the iterations to the
// tolerance. The visualizer draws it beside the measured factors; `kcycle lfa` prints the same.
#include <cmath>
#include <string>

#include "kcycle/solve/solver_options.hpp"

namespace kcycle::lfa {

struct SolvePrediction {
  double cycle_factor = NAN;                             // the kappa-cycle's asymptotic factor (fourier_analysis.hpp)
  double smoothing_factor = NAN, two_grid_factor = NAN;  // the same analysis's mu and two-grid factor
  double factor = NAN;      // per iteration of the solve: cycle_factor, or CG's bound from it
  double iterations = NAN;  // to options.tolerance at that factor (infinite: never)
  int depth = 0;            // levels analysed
  bool cg = false;          // the cycle preconditions CG
  std::string basis;        // what the numbers rest on; where there are none, why
  bool available() const { return std::isfinite(factor); }
};

// The solve's factor per iteration: CG's bound rho / (1 + sqrt(1 - rho^2)) where the cycle of
// factor rho preconditions CG (or flexible CG: the cycle is a fixed preconditioner), else rho.
double solve_factor(const SolverOptions& options, double cycle_factor);

// Never throws: options LFA does not cover (a smoother, coarsening or cycle scheme it cannot
// analyse, one level) give an unavailable prediction whose basis says why.
SolvePrediction predict_solve(const SolverOptions& options, int samples = 8);

}  // namespace kcycle::lfa
