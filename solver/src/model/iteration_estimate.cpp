#include "kcycle/model/iteration_estimate.hpp"

#include <algorithm>
#include <cmath>

namespace kcycle {

namespace {

constexpr double kNever = 1e9;  // iterations: a factor at or above 1 never gets there

// Iterations until the factors q_j = rho - c r^j (j = 1, 2, ...) have reduced the norm by
// `remaining` (< 1): one by one while they still rise, then at rho in closed form.
double iterations_until(double remaining, double rho, double c = 0, double r = 0) {
  if (!(rho < 1.0) || !(rho > 0.0)) return rho <= 0.0 ? 1.0 : kNever;
  const double need = std::log(remaining);  // < 0
  double sum = 0, rise = c;
  int j = 0;
  while (rise * r > 1e-12 && j < 1000000) {
    ++j;
    rise *= r;
    sum += std::log(std::max(rho - rise, 1e-300));
    if (sum <= need) return j;
  }
  return std::min(kNever, j + std::ceil((need - sum) / std::log(rho)));
}

}  // namespace

IterationEstimate estimate_iterations(const std::vector<IterationRecord>& history, double remaining) {
  IterationEstimate e;
  const int k = int(history.size());
  if (k == 0) return e;
  if (!(remaining < 1.0)) {
    e.iterations = e.low = e.high = k;
    return e;
  }
  const auto q = [&](int i) { return history[std::size_t(i - 1)].factor; };
  const double last = q(k);
  if (k >= 8) {
    const int d = k / 4, a = k - 2 * d, b = k - d;  // a, b, k equally spaced
    const double d1 = q(b) - q(a), d2 = q(k) - q(b);
    if (d1 > 0 && d2 > 0 && d2 < d1) {
      const double ratio = d2 / d1;  // r^(k - b)
      e.rho = last + d2 * ratio / (1.0 - ratio);
      e.extrapolated = true;
      const double r = std::pow(ratio, 1.0 / double(d));
      e.iterations = k + iterations_until(remaining, e.rho, e.rho - last, r);
    }
  }
  if (!e.extrapolated) {
    double logs = 0;
    int n = 0;
    for (int i = k / 2 + 1; i <= k; ++i, ++n) logs += std::log(std::max(q(i), 1e-300));
    e.rho = std::exp(logs / std::max(n, 1));
    e.iterations = k + iterations_until(remaining, e.rho);
  }
  const double low = k + iterations_until(remaining, std::min(last, e.rho));
  const double high = k + iterations_until(remaining, std::max(last, e.rho));
  e.low = std::min(low, e.iterations);
  e.high = std::max(high, e.iterations);
  return e;
}

}  // namespace kcycle
