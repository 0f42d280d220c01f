#include "kcycle/core/relaxation_factor.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

namespace kcycle {

double paper_jacobi_omega(double eps, double angle_degrees) {
  const double phi = angle_degrees * std::numbers::pi / 180.0;
  const double C = std::cos(phi), S = std::sin(phi);
  const double a = (eps * C * C + S * S) / (1.0 + eps);
  const double c = (C * C + eps * S * S) / (1.0 + eps);
  const double b = (1.0 - eps) * S * C / (1.0 + eps);
  const double s = std::sqrt(std::max(a, c) * std::max(a, c) + b * b);
  return 2.0 / (3.0 - s);
}

namespace {

// Calls visit(lambda) for symbol(theta) / a_center of a symmetric stencil (a real symbol) at
// every sampled high frequency. The terms cos(dx tx + dy ty) = cos(dx tx) cos(dy ty) -
// sin(dx tx) sin(dy ty) come from each axis's cos and sin, taken once per sample: every solver
// set-up runs this (Jacobi's mu), and 2.4 million cos calls took 30 ms of it at any size.
template <class Visit>
void for_high_frequencies(const Stencil9& s, int samples, Visit visit) {
  const double pi = std::numbers::pi;
  const auto n = std::size_t(2 * samples);
  std::vector<double> cos_of(n), sin_of(n);  // at theta = pi k / samples, k = -samples + 1 .. samples
  for (std::size_t j = 0; j < n; ++j) {
    const double theta = pi * (double(j) - samples + 1) / samples;
    cos_of[j] = std::cos(theta), sin_of[j] = std::sin(theta);
  }
  const double center = s.center();
  for (std::size_t jy = 0; jy < n; ++jy) {
    for (std::size_t jx = 0; jx < n; ++jx) {
      const double tx = pi * (double(jx) - samples + 1) / samples, ty = pi * (double(jy) - samples + 1) / samples;
      if (std::max(std::abs(tx), std::abs(ty)) < 0.5 * pi) continue;  // low frequency
      double sum = 0.0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const double cx = dx ? cos_of[jx] : 1.0, sx = dx * sin_of[jx];  // cos(-t) = cos t, sin(-t) = -sin t
          const double cy = dy ? cos_of[jy] : 1.0, sy = dy * sin_of[jy];
          sum += s.a[dy + 1][dx + 1] * (cx * cy - sx * sy);
        }
      visit(sum / center);
    }
  }
}

}  // namespace

double jacobi_smoothing_factor(const Stencil9& s, double omega, int samples) {
  double mu = 0.0;
  for_high_frequencies(s, samples, [&](double lambda) { mu = std::max(mu, std::abs(1.0 - omega * lambda)); });
  return mu;
}

FourierOmega lfa_jacobi_omega(const Stencil9& s, int samples) {
  double lo = INFINITY, hi = -INFINITY;
  for_high_frequencies(s, samples, [&](double lambda) {
    lo = std::min(lo, lambda);
    hi = std::max(hi, lambda);
  });
  // |1 - omega lambda| over [lo, hi] is smallest when both ends are equal.
  const double omega = 2.0 / (lo + hi);
  return {omega, jacobi_smoothing_factor(s, omega, samples)};
}

}  // namespace kcycle
