#include "kcycle/core/stencil.hpp"

#include <cmath>
#include <numbers>

namespace kcycle {

DiffusionTensor rotated_anisotropic_tensor(double eps, double angle_degrees) {
  const double phi = angle_degrees * std::numbers::pi / 180.0;
  const double C = std::cos(phi), S = std::sin(phi);
  return {C * C + eps * S * S, eps * C * C + S * S, (1.0 - eps) * C * S};
}

Stencil9 discretize(const DiffusionTensor& K, double hx, double hy) {
  // Central differences: u_xx, u_yy with 3 points, u_xy with the 4 diagonal points / 4.
  const double ex = K.kxx / (hx * hx), ey = K.kyy / (hy * hy), d = 0.5 * K.kxy / (hx * hy);
  Stencil9 s;
  s.a[2][0] = d;
  s.a[2][1] = -ey;
  s.a[2][2] = -d;
  s.a[1][0] = -ex;
  s.a[1][1] = 2.0 * (ex + ey);
  s.a[1][2] = -ex;
  s.a[0][0] = -d;
  s.a[0][1] = -ey;
  s.a[0][2] = d;
  return s;
}

Stencil9 rotated_anisotropic_stencil(double eps, double angle_degrees) {
  return discretize(rotated_anisotropic_tensor(eps, angle_degrees), 1.0, 1.0);
}

Stencil9 scaled(const Stencil9& s, double factor) {
  Stencil9 out;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) out.a[r][c] = s.a[r][c] * factor;
  return out;
}

}  // namespace kcycle
