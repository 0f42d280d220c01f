#pragma once
// The least-squares line y = intercept + slope x through a set of points: the coarse forecast
// fits its counts (or their logarithms) over the level count with it, the count recursion its
// counts over H.
#include <cstddef>
#include <optional>
#include <vector>

namespace kcycle {

struct Line {
  double intercept = 0, slope = 0;
  double at(double x) const { return intercept + slope * x; }
};

// None where there are fewer than two points, the lengths differ or the xs do not spread
// (all equal, to rounding): no slope is determined.
inline std::optional<Line> least_squares_line(const std::vector<double>& xs, const std::vector<double>& ys) {
  if (xs.size() < 2 || ys.size() != xs.size()) return std::nullopt;
  const double m = double(xs.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t j = 0; j < xs.size(); ++j) sx += xs[j], sy += ys[j], sxx += xs[j] * xs[j], sxy += xs[j] * ys[j];
  const double spread = m * sxx - sx * sx;  // m^2 times the variance of x
  if (!(spread > 1e-12 * m * sxx)) return std::nullopt;
  const double slope = (m * sxy - sx * sy) / spread;
  return Line{(sy - slope * sx) / m, slope};
}

}  // namespace kcycle
