#include "kcycle/cpu_backend.hpp"

#include <omp.h>

#include <algorithm>
#include <stdexcept>

#include "kcycle/kernels.hpp"

namespace kcycle {

namespace {

// Rows [begin, end) of 1..count handled by thread t of nt (static, contiguous blocks).
struct RowRange {
  int begin, end;
};
RowRange block_of(int count, int t, int nt) {
  const int base = count / nt, extra = count % nt;
  const int begin = 1 + t * base + std::min(t, extra);
  return {begin, begin + base + (t < extra ? 1 : 0)};
}

}  // namespace

CpuBackend::CpuBackend(int threads) : threads_(threads > 0 ? threads : omp_get_max_threads()) {}

bool CpuBackend::parallel(const GridShape& shape) const {
  return threads_ > 1 && shape.unknowns() >= kParallelThreshold;
}

Field CpuBackend::make_vector(GridShape shape) {
  // Scratch for restrict_residual on this size: three residual rows per thread.
  if (shape.stride() > restrict_row_stride_) {
    restrict_row_stride_ = shape.stride();
    restrict_rows_.assign(std::size_t(3 * threads_) * std::size_t(restrict_row_stride_), 0.0);
  }
  return Field(shape);
}

void CpuBackend::jacobi(const Stencil9& A, double omega, const Field& v, const Field& f,
                        Field& out) {
  ++launches_;
  const int nx = v.shape().nx, ny = v.shape().ny;
  const double w = omega / A.center();
#pragma omp parallel for num_threads(threads_) if (parallel(v.shape())) schedule(static)
  for (int j = 1; j <= ny; ++j) {
    const double *vm = v.row(j - 1), *v0 = v.row(j), *vp = v.row(j + 1), *f0 = f.row(j);
    double* o = out.row(j);
#pragma omp simd
    for (int i = 1; i <= nx; ++i) o[i] = kernels::jacobi(A, w, vm, v0, vp, f0, i);
  }
}

void CpuBackend::restrict_residual(const Stencil9& A, const Field& v, const Field& f, Field& fc) {
  ++launches_;
  if (v.stride() > restrict_row_stride_)
    throw std::logic_error("restrict_residual: field not made by this backend's make_vector");
  const int nxf = v.shape().nx, nyc = fc.shape().ny, nxc = fc.shape().nx;
  const bool par = parallel(v.shape());
  const int nt = par ? threads_ : 1;
  const std::size_t stride = std::size_t(restrict_row_stride_);
#pragma omp parallel num_threads(nt) if (par)
  {
    const int t = par ? omp_get_thread_num() : 0;
    double* ring[3];
    for (int k = 0; k < 3; ++k) ring[k] = restrict_rows_.data() + (std::size_t(3 * t + k)) * stride;
    auto residual_row = [&](int j, double* r) {
      const double *vm = v.row(j - 1), *v0 = v.row(j), *vp = v.row(j + 1), *f0 = f.row(j);
#pragma omp simd
      for (int i = 1; i <= nxf; ++i) r[i] = kernels::residual(A, vm, v0, vp, f0, i);
    };
    const RowRange rows = block_of(nyc, t, nt);
    if (rows.begin < rows.end) residual_row(2 * rows.begin - 1, ring[0]);
    for (int J = rows.begin; J < rows.end; ++J) {
      // ring[0] holds fine row 2J-1 (the previous coarse row's 2J+1).
      residual_row(2 * J, ring[1]);
      residual_row(2 * J + 1, ring[2]);
      double* c = fc.row(J);
      for (int I = 1; I <= nxc; ++I) c[I] = kernels::full_weighting(ring[0], ring[1], ring[2], 2 * I);
      std::swap(ring[0], ring[2]);
    }
  }
}

void CpuBackend::prolong_add(const Field& vc, Field& v) {
  ++launches_;
  const int nxc = vc.shape().nx, ny = v.shape().ny;
#pragma omp parallel for num_threads(threads_) if (parallel(v.shape())) schedule(static)
  for (int j = 1; j <= ny; ++j) {
    const double *cJ = vc.row(j >> 1), *cJ1 = vc.row((j >> 1) + 1);
    double* o = v.row(j);
    // Fine points 2I and 2I+1 together, so each call's x parity is a compile-time constant
    // and the loop vectorizes; fine point 1 (I = 0) has no even partner.
    o[1] += kernels::bilinear(cJ, cJ1, 1, j);
#pragma omp simd
    for (int I = 1; I <= nxc; ++I) {
      o[2 * I] += kernels::bilinear(cJ, cJ1, 2 * I, j);
      o[2 * I + 1] += kernels::bilinear(cJ, cJ1, 2 * I + 1, j);
    }
  }
}

void CpuBackend::coarse_solve(const BandedLU& lu, const Field& f, Field& v) {
  ++launches_;
  lu.solve(f, v);
}

void CpuBackend::fill(Field& x, double value) {
  ++launches_;
  std::span<double> all = x.values();
  const std::size_t n = all.size();
  double* p = all.data();
#pragma omp parallel for num_threads(threads_) if (parallel(x.shape())) schedule(static)
  for (std::size_t k = 0; k < n; ++k) p[k] = value;
}

void CpuBackend::copy(const Field& x, Field& y) {
  ++launches_;
  const std::size_t n = x.values().size();
  const double* src = x.data();
  double* dst = y.data();
#pragma omp parallel for num_threads(threads_) if (parallel(x.shape())) schedule(static)
  for (std::size_t k = 0; k < n; ++k) dst[k] = src[k];
}

void CpuBackend::residual(const Stencil9& A, const Field& v, const Field& f, Field& r) {
  ++launches_;
  const int nx = v.shape().nx, ny = v.shape().ny;
#pragma omp parallel for num_threads(threads_) if (parallel(v.shape())) schedule(static)
  for (int j = 1; j <= ny; ++j) {
    const double *vm = v.row(j - 1), *v0 = v.row(j), *vp = v.row(j + 1), *f0 = f.row(j);
    double* o = r.row(j);
#pragma omp simd
    for (int i = 1; i <= nx; ++i) o[i] = kernels::residual(A, vm, v0, vp, f0, i);
  }
}

void CpuBackend::apply(const Stencil9& A, const Field& u, Field& out) {
  ++launches_;
  const int nx = u.shape().nx, ny = u.shape().ny;
#pragma omp parallel for num_threads(threads_) if (parallel(u.shape())) schedule(static)
  for (int j = 1; j <= ny; ++j) {
    const double *um = u.row(j - 1), *u0 = u.row(j), *up = u.row(j + 1);
    double* o = out.row(j);
#pragma omp simd
    for (int i = 1; i <= nx; ++i) o[i] = kernels::apply_stencil(A, um, u0, up, i);
  }
}

double CpuBackend::dot(const Field& x, const Field& y) {
  ++launches_;
  const int nx = x.shape().nx, ny = x.shape().ny;
  double sum = 0.0;
#pragma omp parallel for num_threads(threads_) if (parallel(x.shape())) schedule(static) reduction(+ : sum)
  for (int j = 1; j <= ny; ++j) {
    const double *a = x.row(j), *b = y.row(j);
    double row = 0.0;
#pragma omp simd reduction(+ : row)
    for (int i = 1; i <= nx; ++i) row += a[i] * b[i];
    sum += row;
  }
  return sum;
}

void CpuBackend::axpy(double a, const Field& x, Field& y) {
  ++launches_;
  const int nx = x.shape().nx, ny = x.shape().ny;
#pragma omp parallel for num_threads(threads_) if (parallel(x.shape())) schedule(static)
  for (int j = 1; j <= ny; ++j) {
    const double* s = x.row(j);
    double* d = y.row(j);
#pragma omp simd
    for (int i = 1; i <= nx; ++i) d[i] += a * s[i];
  }
}

void CpuBackend::xpay(const Field& x, double b, Field& y) {
  ++launches_;
  const int nx = x.shape().nx, ny = x.shape().ny;
#pragma omp parallel for num_threads(threads_) if (parallel(x.shape())) schedule(static)
  for (int j = 1; j <= ny; ++j) {
    const double* s = x.row(j);
    double* d = y.row(j);
#pragma omp simd
    for (int i = 1; i <= nx; ++i) d[i] = s[i] + b * d[i];
  }
}

void CpuBackend::triad(double s, const Field& b, const Field& c, Field& a) {
  ++launches_;
  const int nx = a.shape().nx, ny = a.shape().ny;
#pragma omp parallel for num_threads(threads_) if (parallel(a.shape())) schedule(static)
  for (int j = 1; j <= ny; ++j) {
    const double *pb = b.row(j), *pc = c.row(j);
    double* pa = a.row(j);
#pragma omp simd
    for (int i = 1; i <= nx; ++i) pa[i] = kernels::triad(pb[i], pc[i], s);
  }
}

}  // namespace kcycle
