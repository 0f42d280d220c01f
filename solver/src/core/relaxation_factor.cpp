#include "kcycle/core/relaxation_factor.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

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

// symbol(theta) / a_center for a symmetric stencil (the symbol is real).
double scaled_symbol(const Stencil9& s, double tx, double ty) {
  double sum = 0.0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) sum += s.a[dy + 1][dx + 1] * std::cos(dx * tx + dy * ty);
  return sum / s.center();
}

// Calls visit(lambda) for the scaled symbol at every sampled high frequency.
template <class Visit>
void for_high_frequencies(const Stencil9& s, int samples, Visit visit) {
  const double pi = std::numbers::pi;
  for (int ky = -samples + 1; ky <= samples; ++ky) {
    for (int kx = -samples + 1; kx <= samples; ++kx) {
      const double tx = pi * kx / samples, ty = pi * ky / samples;
      if (std::max(std::abs(tx), std::abs(ty)) < 0.5 * pi) continue;  // low frequency
      visit(scaled_symbol(s, tx, ty));
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
