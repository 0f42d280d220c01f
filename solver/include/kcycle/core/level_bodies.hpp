#pragma once
// The bodies of a level's operations at one point or one line, on raw row-major storage with
// a ghost ring (pointer and row stride, as Field and DeviceField lay it out), around the
// point bodies of kernels.hpp. The CUDA backend's kernels run them one thread per point or
// line; the coarse tail (coarse_tail.hpp) runs them in loops shared by a team of threads, on
// the host in the CPU tests and on one thread block of the GPU.
#include <cstddef>

#include "kcycle/core/host_device.hpp"
#include "kcycle/core/kernels.hpp"
#include "kcycle/core/stencil.hpp"

namespace kcycle::level {

// A factored line matrix in memory (TridiagonalFactor's arrays, host or device).
struct LineView {
  const double* lower = nullptr;
  const double* cprime = nullptr;
  const double* inv_denom = nullptr;
};

KCYCLE_HD const double* row(const double* p, int j, int stride) { return p + std::size_t(j) * std::size_t(stride); }
KCYCLE_HD double* row(double* p, int j, int stride) { return p + std::size_t(j) * std::size_t(stride); }

// out(i, j) <- one damped Jacobi update of v; w = omega / a_center.
KCYCLE_HD void jacobi_point(const Stencil9& A, double w, const double* v, const double* f, double* out, int stride,
                            int i, int j) {
  row(out, j, stride)[i] =
      kernels::jacobi(A, w, row(v, j - 1, stride), row(v, j, stride), row(v, j + 1, stride), row(f, j, stride), i);
}

// Point (pi, pj) of Gauss-Seidel's colour k (0..3; the CPU backend's order): rows 1, 3, ...
// (k even) or 2, 4, ... (k odd), and on them the points with (i + j) % 2 == k / 2. False
// beyond the nx x ny interior. pi < (nx + 1) / 2 and pj < (ny + 1) / 2 cover the colour.
KCYCLE_HD bool gauss_seidel_colour_point(int nx, int ny, int k, int pi, int pj, int& i, int& j) {
  const int black = k / 2;
  j = (k % 2 == 0 ? 1 : 2) + 2 * pj;
  i = ((j + black) % 2 == 0 ? 2 : 1) + 2 * pi;
  return i <= nx && j <= ny;
}
// v(i, j) <- its Gauss-Seidel update, in place; inv_diag = 1 / a_center.
KCYCLE_HD void gauss_seidel_point(const Stencil9& A, double inv_diag, double* v, const double* f, int stride, int i,
                                  int j) {
  double* v0 = row(v, j, stride);
  v0[i] = kernels::gauss_seidel(A, inv_diag, row(v, j - 1, stride), v0, row(v, j + 1, stride), row(f, j, stride), i);
}

// The exact solve of x-line (row) j: the Thomas recurrences, the CPU's arithmetic.
KCYCLE_HD void zebra_x_line(const Stencil9& A, const LineView& line, double* v, const double* f, int nx, int stride,
                            int j) {
  const double *vm = row(v, j - 1, stride), *vp = row(v, j + 1, stride), *f0 = row(f, j, stride);
  double* x = row(v, j, stride);
  for (int i = 1; i <= nx; ++i)  // x[0] is the zero boundary where the recurrence starts
    x[i] = kernels::thomas_forward(kernels::x_line_rhs(A, vm, vp, f0, i), line.lower[i - 1], x[i - 1],
                                   line.inv_denom[i - 1]);
  for (int i = nx; i >= 1; --i) x[i] = kernels::thomas_backward(x[i], line.cprime[i - 1], x[i + 1]);
}
// The exact solve of y-line (column) i. Threads on neighbouring columns touch neighbouring
// addresses at every row step.
KCYCLE_HD void zebra_y_line(const Stencil9& A, const LineView& line, double* v, const double* f, int ny, int stride,
                            int i) {
  for (int j = 1; j <= ny; ++j) {
    const double *vm = row(v, j - 1, stride), *vp = row(v, j + 1, stride);
    double* v0 = row(v, j, stride);
    v0[i] = kernels::thomas_forward(kernels::y_line_rhs(A, vm, v0, vp, row(f, j, stride), i), line.lower[j - 1], vm[i],
                                    line.inv_denom[j - 1]);
  }
  for (int j = ny; j >= 1; --j) {
    double* v0 = row(v, j, stride);
    v0[i] = kernels::thomas_backward(v0[i], line.cprime[j - 1], row(v, j + 1, stride)[i]);
  }
}

// The fine residual f - A v at (i, j); zero on the boundary ring (Dirichlet: v and f hold it).
KCYCLE_HD double residual_or_zero(const Stencil9& A, const double* v, const double* f, int nx, int ny, int stride,
                                  int i, int j) {
  if (i < 1 || i > nx || j < 1 || j > ny) return 0.0;
  return kernels::residual(A, row(v, j - 1, stride), row(v, j, stride), row(v, j + 1, stride), row(f, j, stride), i);
}
// fc(I, J) <- the restricted residual. Coarse point (I, J) sits on fine point (2I, 2J) (full)
// or (I, 2J) (semi-coarsening in y); the fine residuals it weights are formed here, in no array.
KCYCLE_HD void restrict_point(const Stencil9& A, const double* v, const double* f, int nx, int ny, int stride,
                              double* fc, int stride_c, bool full, int I, int J) {
  const int i = full ? 2 * I : I, j = 2 * J;
  double r[3][3];  // rows south, centre, north; the weights index them at 1
  for (int dy = 0; dy < 3; ++dy)
    for (int dx = 0; dx < 3; ++dx)
      r[dy][dx] = (full || dx == 1) ? residual_or_zero(A, v, f, nx, ny, stride, i + dx - 1, j + dy - 1) : 0.0;
  row(fc, J, stride_c)[I] =
      full ? kernels::full_weighting(r[0], r[1], r[2], 1) : kernels::full_weighting_y(r[0], r[1], r[2], 1);
}
// v(i, j) += the interpolated coarse correction.
KCYCLE_HD void prolong_point(const double* vc, int stride_c, double* v, int stride, bool full, int i, int j) {
  const double *cJ = row(vc, j >> 1, stride_c), *cJ1 = row(vc, (j >> 1) + 1, stride_c);
  row(v, j, stride)[i] += full ? kernels::bilinear(cJ, cJ1, i, j) : kernels::linear_y(cJ, cJ1, i, j);
}

// The coarsest level's exact solve by one thread: the banded substitution of BandedLU, with
// `work` (n values) holding the right-hand side and then the solution.
KCYCLE_HD void coarse_solve(const double* band, int n, int bw, double* work, const double* f, double* v, int nx, int ny,
                            int stride) {
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) work[j * nx + i] = row(f, j + 1, stride)[i + 1];
  kernels::banded_lu_substitute(band, n, bw, work);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) row(v, j + 1, stride)[i + 1] = work[j * nx + i];
}

}  // namespace kcycle::level
