#pragma once
// Point bodies of the multigrid operations, written once for every backend. Each takes
// row pointers (row j-1, j, j+1 of a field with ghost ring) and an x index, so a backend
// decides only how to loop: OpenMP over rows on the CPU, one thread per point on a GPU.
#include "kcycle/host_device.hpp"
#include "kcycle/stencil.hpp"

namespace kcycle::kernels {

// (A u)(i, j) for rows below (um), at (u0) and above (up) row j. The three rows are summed
// as independent chains: a 9-term serial chain made the sweep latency-bound.
KCYCLE_HD double apply_stencil(const Stencil9& s, const double* um, const double* u0,
                               const double* up, int i) {
  const double south = s.a[0][0] * um[i - 1] + s.a[0][1] * um[i] + s.a[0][2] * um[i + 1];
  const double middle = s.a[1][0] * u0[i - 1] + s.a[1][1] * u0[i] + s.a[1][2] * u0[i + 1];
  const double north = s.a[2][0] * up[i - 1] + s.a[2][1] * up[i] + s.a[2][2] * up[i + 1];
  return (south + north) + middle;
}

// r = f - A v at (i, j).
KCYCLE_HD double residual(const Stencil9& s, const double* vm, const double* v0, const double* vp,
                          const double* f0, int i) {
  return f0[i] - apply_stencil(s, vm, v0, vp, i);
}

// One damped Jacobi update: v + omega (f - A v) / a_center. `omega_over_diag` is
// omega / a_center, computed once per sweep.
KCYCLE_HD double jacobi(const Stencil9& s, double omega_over_diag, const double* vm,
                        const double* v0, const double* vp, const double* f0, int i) {
  return v0[i] + omega_over_diag * residual(s, vm, v0, vp, f0, i);
}

// Full weighting (1/16)[1 2 1; 2 4 2; 1 2 1] of fine rows rm, r0, rp around fine x index i.
KCYCLE_HD double full_weighting(const double* rm, const double* r0, const double* rp, int i) {
  return 0.0625 * ((rm[i - 1] + rm[i + 1] + rp[i - 1] + rp[i + 1]) +
                   2.0 * (rm[i] + rp[i] + r0[i - 1] + r0[i + 1]) + 4.0 * r0[i]);
}

// Bilinear interpolation from coarse rows cJ (coarse row j/2) and cJ1 (the row above) to
// fine point (i, j), fine point 2I coinciding with coarse point I. Odd fine indices take
// the mean of their two coarse neighbours.
KCYCLE_HD double bilinear(const double* cJ, const double* cJ1, int i, int j) {
  const int I = i >> 1;
  const double tx = 0.5 * (i & 1);
  const double ty = 0.5 * (j & 1);
  return (1.0 - ty) * ((1.0 - tx) * cJ[I] + tx * cJ[I + 1]) +
         ty * ((1.0 - tx) * cJ1[I] + tx * cJ1[I + 1]);
}

// STREAM triad a = b + s c, the memory-bandwidth reference the benchmarks print.
KCYCLE_HD double triad(double b, double c, double s) { return b + s * c; }

}  // namespace kcycle::kernels
