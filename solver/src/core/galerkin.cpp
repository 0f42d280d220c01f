#include "kcycle/core/galerkin.hpp"

#include <cstdlib>

namespace kcycle {

namespace {

// 1D interpolation weight at fine offset d from a coarse point: hat function for a
// coarsened direction, Kronecker delta for a kept one.
double interpolation_weight(int d, bool coarsened) {
  if (!coarsened) return d == 0 ? 1.0 : 0.0;
  const int a = std::abs(d);
  return a == 0 ? 1.0 : a == 1 ? 0.5 : 0.0;
}

}  // namespace

Stencil9 galerkin_coarse(const Stencil9& A, Coarsening coarsening) {
  const bool cx = coarsening == Coarsening::Full, cy = true;
  const int fx = cx ? 2 : 1, fy = 2;  // fine offset per coarse offset
  // Restriction weights are the interpolation weights halved in each coarsened direction.
  auto restriction = [&](int x, int y) {
    return interpolation_weight(x, cx) * (cx ? 0.5 : 1.0) * interpolation_weight(y, cy) * 0.5;
  };
  Stencil9 coarse;
  const int W = 4;  // the window holds every fine point any weight reaches
  for (int DY = -1; DY <= 1; ++DY)
    for (int DX = -1; DX <= 1; ++DX) {
      // P applied to the coarse unit vector at (DX, DY).
      auto prolonged = [&](int x, int y) {
        return interpolation_weight(x - fx * DX, cx) * interpolation_weight(y - fy * DY, cy);
      };
      double sum = 0.0;
      for (int y = -W; y <= W; ++y)
        for (int x = -W; x <= W; ++x) {
          const double r = restriction(x, y);
          if (r == 0.0) continue;
          double Ap = 0.0;  // (A P e)(x, y)
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) Ap += A.a[dy + 1][dx + 1] * prolonged(x + dx, y + dy);
          sum += r * Ap;
        }
      coarse.a[DY + 1][DX + 1] = sum;
    }
  return coarse;
}

}  // namespace kcycle
