// The CUDA backend's vector operations (Krylov, norms, pictures): their kernels, one launch
// each, and the reductions, each summed in a fixed order in one launch.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>

#include "cuda_check.hpp"
#include "cuda_device.hpp"
#include "cuda_kernels.cuh"
#include "kcycle/backends/cuda/cuda_backend.hpp"
#include "kcycle/core/kernels.hpp"
#include "kcycle/cycle/byte_model.hpp"

namespace kcycle {

using namespace cuda;

namespace {

__global__ void fill_kernel(double* x, std::size_t count, double value) {
  const std::size_t k = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k < count) x[k] = value;
}

__global__ void residual_kernel(Stencil9 A, const double* v, const double* f, double* r, int nx, int ny, int stride) {
  int i, j;
  if (!interior_point(nx, ny, i, j)) return;
  row(r, j, stride)[i] =
      kernels::residual(A, row(v, j - 1, stride), row(v, j, stride), row(v, j + 1, stride), row(f, j, stride), i);
}

__global__ void apply_kernel(Stencil9 A, const double* u, double* out, int nx, int ny, int stride) {
  int i, j;
  if (!interior_point(nx, ny, i, j)) return;
  row(out, j, stride)[i] =
      kernels::apply_stencil(A, row(u, j - 1, stride), row(u, j, stride), row(u, j + 1, stride), i);
}

// y <- a x + b y (axpy: b = 1; xpay: a = 1), c <- b + s c as the triad.
__global__ void axpby_kernel(double a, const double* x, double b, double* y, int nx, int ny, int stride) {
  int i, j;
  if (!interior_point(nx, ny, i, j)) return;
  double& d = row(y, j, stride)[i];
  d = a * row(x, j, stride)[i] + b * d;
}

__global__ void triad_kernel(double s, const double* b, const double* c, double* a, int nx, int ny, int stride) {
  int i, j;
  if (!interior_point(nx, ny, i, j)) return;
  row(a, j, stride)[i] = kernels::triad(row(b, j, stride)[i], row(c, j, stride)[i], s);
}

__global__ void image_kernel(Stencil9 A, FieldView view, const double* v, const double* f, const double* exact,
                             float* out, int nx, int ny, int stride) {
  int i, j;
  if (!interior_point(nx, ny, i, j)) return;
  out[std::size_t(j - 1) * std::size_t(nx) + std::size_t(i - 1)] =
      kernels::image_value(A, view, row(v, j - 1, stride), row(v, j, stride), row(v, j + 1, stride), row(f, j, stride),
                           exact ? row(exact, j, stride) : nullptr, i);
}

// Sum of x*y over the interior in one launch and a fixed order: each block reduces its
// grid-stride share in shared memory; the last block to finish adds the block sums.
__device__ double block_sum(double value, double* shared) {
  shared[threadIdx.x] = value;
  __syncthreads();
  for (int half = kDotThreads / 2; half > 0; half /= 2) {
    if (int(threadIdx.x) < half) shared[threadIdx.x] += shared[threadIdx.x + half];
    __syncthreads();
  }
  return shared[0];
}

// The summands of the reductions: each returns point (i, j)'s term and may write the point.
struct DotTerm {
  const double *x, *y;
  int stride;
  __device__ double operator()(int i, int j) const { return row(x, j, stride)[i] * row(y, j, stride)[i]; }
};
struct ApplyDotTerm {  // q <- A p; (p, q)
  Stencil9 A;
  const double* p;
  double* q;
  int stride;
  __device__ double operator()(int i, int j) const {
    const double Ap = kernels::apply_stencil(A, row(p, j - 1, stride), row(p, j, stride), row(p, j + 1, stride), i);
    row(q, j, stride)[i] = Ap;
    return row(p, j, stride)[i] * Ap;
  }
};
struct AxpyNormTerm {  // y <- y + a x; |y - minus|^2
  double a;
  const double* x;
  double* y;
  const double* minus;
  int stride;
  __device__ double operator()(int i, int j) const {
    double& d = row(y, j, stride)[i];
    d += a * row(x, j, stride)[i];
    const double e = minus ? d - row(minus, j, stride)[i] : d;
    return e * e;
  }
};
struct ResidualNormTerm {  // |f - A v|^2
  Stencil9 A;
  const double *v, *f;
  int stride;
  __device__ double operator()(int i, int j) const {
    const double r =
        kernels::residual(A, row(v, j - 1, stride), row(v, j, stride), row(v, j + 1, stride), row(f, j, stride), i);
    return r * r;
  }
};

template <class Term>
__global__ void sum_kernel(Term term, int nx, int ny, double* partial, unsigned* finished, double* result) {
  __shared__ double shared[kDotThreads];
  __shared__ bool last;
  const long count = long(nx) * long(ny);
  double sum = 0.0;
  for (long k = long(blockIdx.x) * kDotThreads + threadIdx.x; k < count; k += long(gridDim.x) * kDotThreads)
    sum += term(int(k % nx) + 1, int(k / nx) + 1);
  sum = block_sum(sum, shared);
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = sum;
    __threadfence();
    last = atomicAdd(finished, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  double total = 0.0;
  for (unsigned b = threadIdx.x; b < gridDim.x; b += kDotThreads) total += partial[b];
  total = block_sum(total, shared);
  if (threadIdx.x == 0) {
    *result = total;
    *finished = 0;  // ready for the next call
  }
}

// The smallest and largest of `count` floats: each block reduces its grid-stride share, the
// last block to finish combines the blocks' (as sum_kernel). result[0] min, result[1] max.
__global__ void range_kernel(const float* values, std::size_t count, double* partial, unsigned* finished,
                             double* result) {
  __shared__ float lo[kDotThreads], hi[kDotThreads];
  __shared__ bool last;
  float a = INFINITY, b = -INFINITY;
  for (std::size_t k = std::size_t(blockIdx.x) * kDotThreads + threadIdx.x; k < count;
       k += std::size_t(gridDim.x) * kDotThreads)
    a = fminf(a, values[k]), b = fmaxf(b, values[k]);
  const auto reduce = [&](float x, float y) {
    lo[threadIdx.x] = x;
    hi[threadIdx.x] = y;
    __syncthreads();
    for (int half = kDotThreads / 2; half > 0; half /= 2) {
      if (int(threadIdx.x) < half) {
        lo[threadIdx.x] = fminf(lo[threadIdx.x], lo[threadIdx.x + half]);
        hi[threadIdx.x] = fmaxf(hi[threadIdx.x], hi[threadIdx.x + half]);
      }
      __syncthreads();
    }
  };
  reduce(a, b);
  if (threadIdx.x == 0) {
    partial[2 * blockIdx.x] = lo[0];
    partial[2 * blockIdx.x + 1] = hi[0];
    __threadfence();
    last = atomicAdd(finished, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  a = INFINITY, b = -INFINITY;
  for (unsigned k = threadIdx.x; k < gridDim.x; k += kDotThreads)
    a = fminf(a, float(partial[2 * k])), b = fmaxf(b, float(partial[2 * k + 1]));
  reduce(a, b);
  if (threadIdx.x == 0) {
    result[0] = lo[0];
    result[1] = hi[0];
    *finished = 0;
  }
}

}  // namespace

void CudaBackend::fill(DeviceField& x, double value) {
  if (!issue(x.shape(), pass_bytes::fill(x.shape()))) return;
  const std::size_t n = x.shape().storage();
  if (value == 0.0) {
    check(cudaMemsetAsync(x.data(), 0, n * sizeof(double), device_->stream), "cudaMemsetAsync");
    return;
  }
  fill_kernel<<<blocks_for(long(n), 256), 256, 0, device_->stream>>>(x.data(), n, value);
  check_launch("fill");
}

void CudaBackend::copy(const DeviceField& x, DeviceField& y) {
  if (!issue(x.shape(), pass_bytes::copy(x.shape()))) return;
  check(cudaMemcpyAsync(y.data(), x.data(), x.shape().storage() * sizeof(double), cudaMemcpyDeviceToDevice,
                        device_->stream),
        "cudaMemcpyAsync");
}

void CudaBackend::residual(const Stencil9& A, const DeviceField& v, const DeviceField& f, DeviceField& r) {
  if (!issue(v.shape(), pass_bytes::residual(v.shape()))) return;
  const GridShape& s = v.shape();
  residual_kernel<<<tiles(s.nx, s.ny), kTile, 0, device_->stream>>>(A, v.data(), f.data(), r.data(), s.nx, s.ny,
                                                                    s.stride());
  check_launch("residual");
}

void CudaBackend::apply(const Stencil9& A, const DeviceField& u, DeviceField& out) {
  if (!issue(u.shape(), pass_bytes::two_arrays(u.shape()))) return;
  const GridShape& s = u.shape();
  apply_kernel<<<tiles(s.nx, s.ny), kTile, 0, device_->stream>>>(A, u.data(), out.data(), s.nx, s.ny, s.stride());
  check_launch("apply");
}

template <class Term>
double CudaBackend::sum_over(const GridShape& s, const Term& term, const char* what) {
  const int blocks = std::min(kDotMaxBlocks, std::max(1, blocks_for(long(s.unknowns()), kDotThreads)));
  double* result = device_->partial.data() + kDotMaxBlocks;
  sum_kernel<<<blocks, kDotThreads, 0, device_->stream>>>(term, s.nx, s.ny, device_->partial.data(),
                                                          device_->finished.data(), result);
  check_launch(what);
  check(cudaMemcpyAsync(device_->result_host, result, sizeof(double), cudaMemcpyDeviceToHost, device_->stream),
        "cudaMemcpyAsync");
  synchronize();
  return *device_->result_host;
}

double CudaBackend::dot(const DeviceField& x, const DeviceField& y) {
  if (!issue(x.shape(), pass_bytes::two_arrays(x.shape()))) return 0.0;
  return sum_over(x.shape(), DotTerm{x.data(), y.data(), x.stride()}, "dot");
}

double CudaBackend::apply_dot(const Stencil9& A, const DeviceField& p, DeviceField& q) {
  if (!issue(p.shape(), pass_bytes::apply_dot(p.shape()))) return 0.0;
  return sum_over(p.shape(), ApplyDotTerm{A, p.data(), q.data(), p.stride()}, "apply_dot");
}

double CudaBackend::axpy_norm2(double a, const DeviceField& x, DeviceField& y, const DeviceField* minus) {
  if (!issue(x.shape(), pass_bytes::axpy_norm2(x.shape(), minus != nullptr))) return 0.0;
  return sum_over(x.shape(), AxpyNormTerm{a, x.data(), y.data(), minus ? minus->data() : nullptr, x.stride()},
                  "axpy_norm2");
}

double CudaBackend::residual_norm2(const Stencil9& A, const DeviceField& v, const DeviceField& f) {
  if (!issue(v.shape(), pass_bytes::residual_norm2(v.shape()))) return 0.0;
  return sum_over(v.shape(), ResidualNormTerm{A, v.data(), f.data(), v.stride()}, "residual_norm2");
}

void CudaBackend::axpy(double a, const DeviceField& x, DeviceField& y) {
  if (!issue(x.shape(), pass_bytes::three_arrays(x.shape()))) return;
  const GridShape& s = x.shape();
  axpby_kernel<<<tiles(s.nx, s.ny), kTile, 0, device_->stream>>>(a, x.data(), 1.0, y.data(), s.nx, s.ny, s.stride());
  check_launch("axpy");
}

void CudaBackend::xpay(const DeviceField& x, double b, DeviceField& y) {
  if (!issue(x.shape(), pass_bytes::three_arrays(x.shape()))) return;
  const GridShape& s = x.shape();
  axpby_kernel<<<tiles(s.nx, s.ny), kTile, 0, device_->stream>>>(1.0, x.data(), b, y.data(), s.nx, s.ny, s.stride());
  check_launch("xpay");
}

void CudaBackend::triad(double s, const DeviceField& b, const DeviceField& c, DeviceField& a) {
  if (!issue(a.shape(), pass_bytes::three_arrays(a.shape()))) return;
  const GridShape& g = a.shape();
  triad_kernel<<<tiles(g.nx, g.ny), kTile, 0, device_->stream>>>(s, b.data(), c.data(), a.data(), g.nx, g.ny,
                                                                 g.stride());
  check_launch("triad");
}

void CudaBackend::image(const Stencil9& A, FieldView view, const DeviceField& v, const DeviceField& f,
                        const DeviceField* exact, float* out) {
  const GridShape& s = v.shape();
  image_kernel<<<tiles(s.nx, s.ny), kTile, 0, device_->stream>>>(
      A, view, v.data(), f.data(), exact ? exact->data() : nullptr, out, s.nx, s.ny, s.stride());
  check_launch("image");
}

std::array<float, 2> CudaBackend::value_range(const float* values, std::size_t count) {
  if (count == 0) return {0.0f, 0.0f};
  // Two partials per block (min, max) in the reduction scratch; its last two slots the result.
  const int blocks = std::min(kDotMaxBlocks / 2, std::max(1, blocks_for(long(count), kDotThreads)));
  double* result = device_->partial.data() + kDotMaxBlocks;
  range_kernel<<<blocks, kDotThreads, 0, device_->stream>>>(values, count, device_->partial.data(),
                                                            device_->finished.data(), result);
  check_launch("value_range");
  check(cudaMemcpyAsync(device_->result_host, result, 2 * sizeof(double), cudaMemcpyDeviceToHost, device_->stream),
        "cudaMemcpyAsync");
  synchronize();
  return {float(device_->result_host[0]), float(device_->result_host[1])};
}

}  // namespace kcycle
