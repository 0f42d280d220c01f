#include "kcycle/model/iteration_estimate.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "kcycle/model/lanczos_spectrum.hpp"

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

// CG: its factors go up and down, and fall as its Ritz values lock onto the preconditioned
// operator's outlying eigenvalues (superlinear convergence), so the recent rate overestimates
// what is left; the Chebyshev bound at the condition number of the Ritz values, which grows
// toward M A's own from inside, underestimates it. Measured on MGCG at 10 levels (kappa = 1, 2,
// 4: 109, 58 and 43 iterations), the two bracketed the count from a fifth of the way on and
// met near it: the band is theirs, the estimate their geometric mean.
std::optional<IterationEstimate> estimate_cg_iterations(const std::vector<IterationRecord>& history, double remaining,
                                                        double rate_estimate) {
  std::vector<double> alpha, beta;
  for (const IterationRecord& r : history) alpha.push_back(r.cg_alpha), beta.push_back(r.cg_beta);
  beta.pop_back();  // the last beta makes the next direction: T_k has k - 1 couplings
  const std::optional<RitzExtremes> ritz = lanczos_extremes(alpha, beta);
  if (!ritz) return std::nullopt;
  const double chebyshev = double(history.size()) + cg_iteration_bound(ritz->condition(), remaining);
  IterationEstimate e;
  e.low = std::min(chebyshev, rate_estimate);
  e.high = std::max(chebyshev, rate_estimate);
  e.iterations = std::sqrt(e.low * e.high);
  return e;
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
  const bool cg = std::isfinite(history.back().cg_alpha);  // CG's factors do not rise toward a rate
  if (k >= 8 && !cg) {
    const int d = k / 4, a = k - 2 * d, b = k - d;  // a, b, k equally spaced
    const double d1 = q(b) - q(a), d2 = q(k) - q(b);
    const double ratio = d1 > 0 ? d2 / d1 : 0;  // r^(k - b)
    const double limit = ratio > 0 && ratio < 1 ? last + d2 * ratio / (1.0 - ratio) : 1.0;
    // A limit at 1 or above is a rise that has not settled, not a factor: near the tolerance a
    // cycle's factors jump (xyzebra-galerkin kappa = 2 at 8 levels, 71 of 77 iterations: 1.023,
    // which read "never"); the recent mean below holds them.
    if (limit < 1.0) {
      e.rho = limit;
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
  if (cg) {  // its own Lanczos coefficients
    if (const std::optional<IterationEstimate> lanczos = estimate_cg_iterations(history, remaining, e.iterations)) {
      const double rho = e.rho;
      e = *lanczos;
      e.rho = rho;  // the recent rate, as for the other solvers
      return e;
    }
  }
  const double low = k + iterations_until(remaining, std::min(last, e.rho));
  const double high = k + iterations_until(remaining, std::max(last, e.rho));
  e.low = std::min(low, e.iterations);
  e.high = std::max(high, e.iterations);
  return e;
}

}  // namespace kcycle
