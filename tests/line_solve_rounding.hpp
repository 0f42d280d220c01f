#pragma once
// How far two solvers of one tridiagonal x-line (Thomas, parallel cyclic reduction, cuSPARSE)
// may differ by rounding alone: both are backward stable, so each solution is off by about
// (its elimination steps) x (unit roundoff) x (the line's condition number). A fixed 1e-12 was
// too tight for the weakly dominant lines of semi-coarsened levels (nx = 511, h_y = 1/2 already
// differs by 1.0e-12) and needlessly loose for well-conditioned ones.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <numbers>

#include "kcycle/core/stencil.hpp"

namespace kcycle::testing {

// The condition number (2-norm) of the symmetric Toeplitz line (lower, diag, upper) of n points:
// its eigenvalues are diag + 2 sqrt(lower upper) cos(k pi / (n + 1)).
inline double line_condition(double lower, double diag, double upper, int n) {
  const double spread = 2.0 * std::sqrt(std::abs(lower * upper)) * std::cos(std::numbers::pi / (n + 1.0));
  return (std::abs(diag) + spread) / std::max(std::abs(diag) - spread, DBL_MIN);
}

// The relative difference allowed between two solutions of that line: 8 roundings per step,
// ceil(log2 n) steps (cyclic reduction's; Thomas's error bound is no larger).
inline double line_solve_rounding(double lower, double diag, double upper, int n) {
  const double steps = std::max(1.0, std::ceil(std::log2(std::max(n, 2))));
  return 8.0 * steps * DBL_EPSILON * line_condition(lower, diag, upper, n);
}

// The same for the x-lines of a level with stencil A, nx points a line.
inline double x_line_rounding(const Stencil9& A, int nx) {
  return line_solve_rounding(A.a[1][0], A.a[1][1], A.a[1][2], nx);
}

}  // namespace kcycle::testing
