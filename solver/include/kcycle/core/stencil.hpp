#pragma once
#include "kcycle/core/host_device.hpp"

namespace kcycle {

// A 9-point constant-coefficient stencil. a[dy+1][dx+1] multiplies u(i+dx, j+dy); x runs
// along grid rows (index i), y across them (index j). Level operators are stored already
// scaled by 1/h^2, so that A u = f with f the PDE's right-hand side.
// T is the arithmetic's type: double, or float for a mixed-precision hierarchy's sweeps.
template <class T>
struct BasicStencil9 {
  T a[3][3] = {};

  KCYCLE_HD T center() const { return a[1][1]; }
};
using Stencil9 = BasicStencil9<double>;

// The coefficients rounded to T (the stencil a float sweep multiplies with).
template <class T>
KCYCLE_HD BasicStencil9<T> stencil_as(const Stencil9& s) {
  BasicStencil9<T> out;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) out.a[r][c] = T(s.a[r][c]);
  return out;
}

// The paper's stencil (section 4) for -div(K grad u), where K has eigenvalue 1 along the
// direction at angle phi from the x axis and eps across it:
//   [  (1-eps)CS/2   -(eps C^2+S^2)  -(1-eps)CS/2 ]
//   [ -(C^2+eps S^2)   2(1+eps)      -(C^2+eps S^2)]     (top row: north, j+1)
//   [ -(1-eps)CS/2   -(eps C^2+S^2)   (1-eps)CS/2 ]
// unscaled (h = 1). For phi = 0 the strong coupling is along x (grid rows).
Stencil9 rotated_anisotropic_stencil(double eps, double angle_degrees);

// The same discretization scaled for mesh widths hx, hy (they differ under semi-coarsening):
// u_xx / hx^2, u_yy / hy^2, u_xy / (4 hx hy).
Stencil9 discretize(const struct DiffusionTensor& K, double hx, double hy);

// The stencil multiplied by a factor (e.g. 1/h^2).
Stencil9 scaled(const Stencil9& s, double factor);

// Coefficients of the continuous operator -kxx u_xx - kyy u_yy - 2 kxy u_xy.
struct DiffusionTensor {
  double kxx, kyy, kxy;
};
DiffusionTensor rotated_anisotropic_tensor(double eps, double angle_degrees);

}  // namespace kcycle
