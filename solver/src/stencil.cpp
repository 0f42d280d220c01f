#include "kcycle/stencil.hpp"

#include <cmath>
#include <numbers>

namespace kcycle {

DiffusionTensor rotated_anisotropic_tensor(double eps, double angle_degrees) {
  const double phi = angle_degrees * std::numbers::pi / 180.0;
  const double C = std::cos(phi), S = std::sin(phi);
  return {C * C + eps * S * S, eps * C * C + S * S, (1.0 - eps) * C * S};
}

Stencil9 rotated_anisotropic_stencil(double eps, double angle_degrees) {
  const DiffusionTensor K = rotated_anisotropic_tensor(eps, angle_degrees);
  // Central differences: u_xx, u_yy with 3 points, u_xy with the 4 diagonal points / 4.
  const double d = 0.5 * K.kxy;
  Stencil9 s;
  s.a[2][0] = d;       s.a[2][1] = -K.kyy;             s.a[2][2] = -d;
  s.a[1][0] = -K.kxx;  s.a[1][1] = 2.0 * (K.kxx + K.kyy); s.a[1][2] = -K.kxx;
  s.a[0][0] = -d;      s.a[0][1] = -K.kyy;             s.a[0][2] = d;
  return s;
}

Stencil9 scaled(const Stencil9& s, double factor) {
  Stencil9 out;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) out.a[r][c] = s.a[r][c] * factor;
  return out;
}

}  // namespace kcycle
