#pragma once
// Point bodies of the multigrid operations, written once for every backend. Each takes
// row pointers (row j-1, j, j+1 of a field with ghost ring) and an x index, so a backend
// decides only how to loop: chunks of rows on the CPU's thread team, one thread per point on a GPU.
// T is the type the values are stored and computed in: double, or float in the hierarchy of
// a mixed-precision solve (constants are rounded to T, so a double body is unchanged).
#include "kcycle/core/field_view.hpp"
#include "kcycle/core/host_device.hpp"
#include "kcycle/core/stencil.hpp"

namespace kcycle::kernels {

// The 3x3 neighbourhood of a point (x-1, x, x+1 on the rows below, at and above it), as values
// of V: T for one point, or a SIMD vector of T for consecutive points (the CPU backend builds
// those from one load per row; the bodies below are the same arithmetic either way).
template <class V>
struct Neighbourhood {
  V sw, s, se, w, c, e, nw, n, ne;
};
template <class T>
KCYCLE_HD Neighbourhood<T> neighbourhood(const T* um, const T* u0, const T* up, int i) {
  return {um[i - 1], um[i], um[i + 1], u0[i - 1], u0[i], u0[i + 1], up[i - 1], up[i], up[i + 1]};
}

// A u at the centre of u. Two independent chains of multiply-adds: one 9-term chain made the
// sweep latency-bound; three chains cost one more addition a point.
template <class T, class V>
KCYCLE_HD V apply_stencil_at(const BasicStencil9<T>& s, const Neighbourhood<V>& u) {
  const V near = s.a[1][1] * u.c + s.a[1][0] * u.w + s.a[1][2] * u.e + s.a[0][1] * u.s;
  const V far = s.a[0][0] * u.sw + s.a[0][2] * u.se + s.a[2][0] * u.nw + s.a[2][1] * u.n + s.a[2][2] * u.ne;
  return near + far;
}
// f - A u, in the same two chains (f starts the first: one operation fewer).
template <class T, class V>
KCYCLE_HD V residual_at(const BasicStencil9<T>& s, const Neighbourhood<V>& u, V f) {
  const V near = f - s.a[1][1] * u.c - s.a[1][0] * u.w - s.a[1][2] * u.e - s.a[0][1] * u.s;
  const V far = s.a[0][0] * u.sw + s.a[0][2] * u.se + s.a[2][0] * u.nw + s.a[2][1] * u.n + s.a[2][2] * u.ne;
  return near - far;
}
// One damped Jacobi update: u + omega (f - A u) / a_center; `omega_over_diag` is
// omega / a_center, computed once per sweep. jacobi_update takes the residual f - A u (a pass
// that also sums the residuals' squares computes it once).
template <class T, class V>
KCYCLE_HD V jacobi_update(V centre, T omega_over_diag, V residual) {
  return centre + omega_over_diag * residual;
}
template <class T, class V>
KCYCLE_HD V jacobi_at(const BasicStencil9<T>& s, T omega_over_diag, const Neighbourhood<V>& u, V f) {
  return jacobi_update(u.c, omega_over_diag, residual_at(s, u, f));
}

// The same at (i, j) of rows below (um), at (u0) and above (up) row j.
template <class T>
KCYCLE_HD T apply_stencil(const BasicStencil9<T>& s, const T* um, const T* u0, const T* up, int i) {
  return apply_stencil_at(s, neighbourhood(um, u0, up, i));
}
template <class T>
KCYCLE_HD T residual(const BasicStencil9<T>& s, const T* vm, const T* v0, const T* vp, const T* f0, int i) {
  return residual_at(s, neighbourhood(vm, v0, vp, i), f0[i]);
}
template <class T>
KCYCLE_HD T jacobi(const BasicStencil9<T>& s, T omega_over_diag, const T* vm, const T* v0, const T* vp, const T* f0,
                   int i) {
  return jacobi_at(s, omega_over_diag, neighbourhood(vm, v0, vp, i), f0[i]);
}

// jacobi() of a zero iterate (A 0 = 0): omega f / a_center, equal to what jacobi() gives
// with zero rows (up to the sign of a zero), without reading them. A fused pass starts a
// zeroed coarse correction with it, so the zeroing pass and the first sweep's reads go.
template <class T>
KCYCLE_HD T jacobi_from_zero(T omega_over_diag, const T* f0, int i) {
  return T(0) + omega_over_diag * f0[i];
}

// Full weighting (1/16)[1 2 1; 2 4 2; 1 2 1] of fine rows rm, r0, rp around fine x index i.
template <class T>
KCYCLE_HD T full_weighting(const T* rm, const T* r0, const T* rp, int i) {
  return T(0.0625) * ((rm[i - 1] + rm[i + 1] + rp[i - 1] + rp[i + 1]) + T(2) * (rm[i] + rp[i] + r0[i - 1] + r0[i + 1]) +
                      T(4) * r0[i]);
}

// Bilinear interpolation from coarse rows cJ (coarse row j/2) and cJ1 (the row above) to
// fine point (2I + odd_x, j), fine point 2I coinciding with coarse point I. Odd fine indices
// take the mean of their two coarse neighbours. A loop over I with a constant odd_x reads
// cJ contiguously (vectorizes without gathers).
template <class T>
KCYCLE_HD T bilinear_at(const T* cJ, const T* cJ1, int I, int odd_x, int j) {
  const T tx = T(0.5) * T(odd_x);
  const T ty = T(0.5) * T(j & 1);
  return (T(1) - ty) * ((T(1) - tx) * cJ[I] + tx * cJ[I + 1]) + ty * ((T(1) - tx) * cJ1[I] + tx * cJ1[I + 1]);
}
// The same at fine point (i, j).
template <class T>
KCYCLE_HD T bilinear(const T* cJ, const T* cJ1, int i, int j) {
  return bilinear_at(cJ, cJ1, i >> 1, i & 1, j);
}

// Gauss-Seidel point update (no damping): v + (f - A v) / a_center, in place.
template <class T>
KCYCLE_HD T gauss_seidel(const BasicStencil9<T>& s, T inv_diag, const T* vm, const T* v0, const T* vp, const T* f0,
                         int i) {
  return v0[i] + inv_diag * residual(s, vm, v0, vp, f0, i);
}

// Right-hand side of the x-line (grid row) through (i, j): f minus the couplings to rows
// j-1 and j+1, which a line solve of row j holds fixed.
template <class T>
KCYCLE_HD T x_line_rhs(const BasicStencil9<T>& s, const T* vm, const T* vp, const T* f0, int i) {
  return f0[i] - (s.a[0][0] * vm[i - 1] + s.a[0][1] * vm[i] + s.a[0][2] * vm[i + 1]) -
         (s.a[2][0] * vp[i - 1] + s.a[2][1] * vp[i] + s.a[2][2] * vp[i + 1]);
}

// Right-hand side of the y-line (grid column) through (i, j): f minus the couplings to
// columns i-1 and i+1.
template <class T>
KCYCLE_HD T y_line_rhs(const BasicStencil9<T>& s, const T* vm, const T* v0, const T* vp, const T* f0, int i) {
  return f0[i] - (s.a[0][0] * vm[i - 1] + s.a[1][0] * v0[i - 1] + s.a[2][0] * vp[i - 1]) -
         (s.a[0][2] * vm[i + 1] + s.a[1][2] * v0[i + 1] + s.a[2][2] * vp[i + 1]);
}

// The two recurrences of the Thomas algorithm for a tridiagonal system factored once
// (see tridiagonal.hpp). Forward: d'_k = (rhs_k - lower_k d'_{k-1}) / denom_k, with
// d'_0 = 0 at the boundary. Backward: x_k = d'_k - c'_k x_{k+1}, with x_{n+1} = 0.
template <class T>
KCYCLE_HD T thomas_forward(T rhs, T lower, T previous, T inv_denom) {
  return (rhs - lower * previous) * inv_denom;
}
template <class T>
KCYCLE_HD T thomas_backward(T dprime, T cprime, T next) {
  return dprime - cprime * next;
}

// Full weighting in y only, (1/4)[1 2 1]^T, for semi-coarsening (R = P^T / 2).
template <class T>
KCYCLE_HD T full_weighting_y(const T* rm, const T* r0, const T* rp, int i) {
  return T(0.25) * (rm[i] + T(2) * r0[i] + rp[i]);
}

// Linear interpolation in y only, for semi-coarsening: fine row j from coarse rows j/2
// and j/2 + 1 at the same x index.
template <class T>
KCYCLE_HD T linear_y(const T* cJ, const T* cJ1, int i, int j) {
  const T ty = T(0.5) * T(j & 1);
  return (T(1) - ty) * cJ[i] + ty * cJ1[i];
}

// Forward and backward substitution with a banded LU factor (see banded_lu.hpp): row r,
// column c at band[r * (2 bw + 1) + (c - r + bw)], L unit lower. x: right-hand side in,
// solution out.
KCYCLE_HD void banded_lu_substitute(const double* band, int n, int bw, double* x) {
  const long width = 2L * bw + 1;
  for (int r = 0; r < n; ++r) {  // L y = f
    double s = x[r];
    for (int c = r - bw < 0 ? 0 : r - bw; c < r; ++c) s -= band[r * width + (c - r + bw)] * x[c];
    x[r] = s;
  }
  for (int r = n - 1; r >= 0; --r) {  // U x = y
    double s = x[r];
    const int last = r + bw < n - 1 ? r + bw : n - 1;
    for (int c = r + 1; c <= last; ++c) s -= band[r * width + (c - r + bw)] * x[c];
    x[r] = s / band[r * width + bw];
  }
}

// The picture at (i, j): see FieldView (exact0 may be null: then v itself, the error of
// problem 0 or a coarse-level correction).
template <class T>
KCYCLE_HD float image_value(const BasicStencil9<T>& s, FieldView view, const T* vm, const T* v0, const T* vp,
                            const T* f0, const T* exact0, int i) {
  switch (view) {
    case FieldView::Residual: return float(residual(s, vm, v0, vp, f0, i));
    case FieldView::RightHandSide: return float(f0[i]);
    case FieldView::Iterate: break;
  }
  return float(v0[i] - (exact0 ? exact0[i] : T(0)));
}

// STREAM triad a = b + s c, the memory-bandwidth reference the benchmarks print.
template <class T>
KCYCLE_HD T triad(T b, T c, T s) {
  return b + s * c;
}

}  // namespace kcycle::kernels
