#include "kcycle/model/lanczos_spectrum.hpp"

#include <algorithm>
#include <cmath>

namespace kcycle {

namespace {

// The symmetric tridiagonal matrix: diagonal a, off-diagonal b (b[j] between j and j + 1).
struct Tridiagonal {
  std::vector<double> a, b;

  // How many eigenvalues lie below x: the negative pivots of T - x I = L D L^T (Sturm).
  int count_below(double x) const {
    int count = 0;
    double d = 1;
    for (std::size_t j = 0; j < a.size(); ++j) {
      const double coupling = j == 0 ? 0.0 : b[j - 1] * b[j - 1] / d;
      d = a[j] - x - coupling;
      if (d == 0.0) d = -1e-300;  // x is an eigenvalue: count it below
      if (d < 0) ++count;
    }
    return count;
  }

  // The eigenvalue with `index` below it (0: the smallest), by bisection within Gershgorin's disc.
  double eigenvalue(int index) const {
    double lo = a[0], hi = a[0];
    for (std::size_t j = 0; j < a.size(); ++j) {
      const double radius = (j > 0 ? std::abs(b[j - 1]) : 0.0) + (j + 1 < a.size() ? std::abs(b[j]) : 0.0);
      lo = std::min(lo, a[j] - radius), hi = std::max(hi, a[j] + radius);
    }
    for (int it = 0; it < 200 && hi - lo > 1e-14 * std::max(std::abs(lo), std::abs(hi)); ++it) {
      const double mid = 0.5 * (lo + hi);
      (count_below(mid) > index ? hi : lo) = mid;
    }
    return 0.5 * (lo + hi);
  }
};

}  // namespace

std::optional<RitzExtremes> lanczos_extremes(const std::vector<double>& alpha, const std::vector<double>& beta) {
  const std::size_t k = alpha.size();
  if (k == 0 || beta.size() + 1 < k) return std::nullopt;
  Tridiagonal t;
  for (std::size_t j = 0; j < k; ++j) {
    if (!(alpha[j] > 0) || !std::isfinite(alpha[j])) return std::nullopt;
    double diagonal = 1.0 / alpha[j];
    if (j > 0) {
      // Flexible CG's beta equals standard CG's for a symmetric M; its sign says nothing else.
      const double beta_before = std::abs(beta[j - 1]);
      diagonal += beta_before / alpha[j - 1];
      t.b.push_back(std::sqrt(beta_before) / alpha[j - 1]);
    }
    t.a.push_back(diagonal);
  }
  RitzExtremes e{t.eigenvalue(0), t.eigenvalue(int(k) - 1)};
  if (!(e.lambda_min > 0) || !std::isfinite(e.lambda_max)) return std::nullopt;
  return e;
}

double cg_iteration_bound(double condition, double reduction) {
  if (!(reduction < 1.0)) return 0.0;
  if (!(condition > 1.0)) return 1.0;  // one eigenvalue: one step
  const double s = std::sqrt(condition), sigma = (s - 1.0) / (s + 1.0);
  return std::max(1.0, std::ceil(std::log(reduction / 2.0) / std::log(sigma)));
}

}  // namespace kcycle
