// The CUDA backend's kernels: each a thin loop (one thread per point, line or coarse point)
// around the point bodies of kernels.hpp, the arithmetic the CPU tests exercise.
#include "kcycle/cuda_backend.hpp"

#include <cuda_runtime.h>

#include <map>
#include <stdexcept>

#include "cuda_check.hpp"
#include "kcycle/backend_selection.hpp"
#include "kcycle/byte_model.hpp"
#include "kcycle/kernels.hpp"
#include "kcycle/level_bodies.hpp"

namespace kcycle {

using cuda::check;
using cuda::check_launch;

namespace {

// --- launch geometry ------------------------------------------------------------------
constexpr int kTileX = 32, kTileY = 8;  // 2D point kernels: a warp along a row
constexpr int kLineThreads = 64;        // line kernels: one thread per line
constexpr int kDotThreads = 256;
constexpr int kDotMaxBlocks = 1024;

int blocks_for(long count, int per_block) { return int((count + per_block - 1) / per_block); }
dim3 tiles(long nx, long ny) { return dim3(unsigned(blocks_for(nx, kTileX)), unsigned(blocks_for(ny, kTileY))); }
const dim3 kTile(kTileX, kTileY);

// Interior point (i, j) of this thread, 1-based; false outside the nx x ny interior.
__device__ bool interior_point(int nx, int ny, int& i, int& j) {
  i = int(blockIdx.x * blockDim.x + threadIdx.x) + 1;
  j = int(blockIdx.y * blockDim.y + threadIdx.y) + 1;
  return i <= nx && j <= ny;
}
using level::row;

// --- smoothers (bodies: level_bodies.hpp) ------------------------------------------------
__global__ void jacobi_kernel(Stencil9 A, double w, const double* v, const double* f, double* out, int nx, int ny,
                              int stride) {
  int i, j;
  if (interior_point(nx, ny, i, j)) level::jacobi_point(A, w, v, f, out, stride, i, j);
}

// One colour of the four-colour Gauss-Seidel sweep.
__global__ void gauss_seidel_kernel(Stencil9 A, double inv_diag, double* v, const double* f, int nx, int ny, int stride,
                                    int colour) {
  int i, j;
  const int pi = int(blockIdx.x * blockDim.x + threadIdx.x), pj = int(blockIdx.y * blockDim.y + threadIdx.y);
  if (level::gauss_seidel_colour_point(nx, ny, colour, pi, pj, i, j))
    level::gauss_seidel_point(A, inv_diag, v, f, stride, i, j);
}

// Exact solves of rows first_row, first_row + 2, ...: one thread per row.
__global__ void zebra_x_kernel(Stencil9 A, level::LineView line, double* v, const double* f, int nx, int ny, int stride,
                               int first_row) {
  const int j = first_row + 2 * int(blockIdx.x * blockDim.x + threadIdx.x);
  if (j <= ny) level::zebra_x_line(A, line, v, f, nx, stride, j);
}

// Columns first_col, first_col + 2, ...: one thread per column (coalesced row steps).
__global__ void zebra_y_kernel(Stencil9 A, level::LineView line, double* v, const double* f, int nx, int ny, int stride,
                               int first_col) {
  const int i = first_col + 2 * int(blockIdx.x * blockDim.x + threadIdx.x);
  if (i <= nx) level::zebra_y_line(A, line, v, f, ny, stride, i);
}

// --- transfers ---------------------------------------------------------------------------
__global__ void restrict_residual_kernel(Stencil9 A, const double* v, const double* f, int nx, int ny, int stride,
                                         double* fc, int nxc, int nyc, int stride_c, bool full) {
  int I, J;
  if (interior_point(nxc, nyc, I, J)) level::restrict_point(A, v, f, nx, ny, stride, fc, stride_c, full, I, J);
}

__global__ void prolong_add_kernel(const double* vc, int stride_c, double* v, int nx, int ny, int stride, bool full) {
  int i, j;
  if (interior_point(nx, ny, i, j)) level::prolong_point(vc, stride_c, v, stride, full, i, j);
}

// The coarsest level: one thread, the CPU's banded substitution.
__global__ void coarse_solve_kernel(const double* band, int n, int bw, double* work, const double* f, double* v, int nx,
                                    int ny, int stride) {
  level::coarse_solve(band, n, bw, work, f, v, nx, ny, stride);
}

// --- the coarse tail -----------------------------------------------------------------------
constexpr int kTailThreads = 512;

// The block's threads share each operation of the tail (coarse_tail.hpp).
struct BlockTeam {
  KCYCLE_HD int rank() const {
#ifdef __CUDA_ARCH__
    return int(threadIdx.x);
#else
    return 0;
#endif
  }
  KCYCLE_HD int size() const {
#ifdef __CUDA_ARCH__
    return int(blockDim.x);
#else
    return 1;
#endif
  }
  KCYCLE_HD void sync() const {
#ifdef __CUDA_ARCH__
    __syncthreads();
#endif
  }
};

// One block: the tail in shared memory (one copy its threads share and Jacobi's swaps change).
__global__ void __launch_bounds__(kTailThreads) coarse_tail_kernel(CoarseTail tail) {
  __shared__ alignas(CoarseTail) unsigned char storage[sizeof(CoarseTail)];
  if (threadIdx.x == 0) memcpy(storage, &tail, sizeof(CoarseTail));
  __syncthreads();
  run_coarse_tail(BlockTeam{}, *reinterpret_cast<CoarseTail*>(storage));
}

// --- vector operations -------------------------------------------------------------------
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

__global__ void image_kernel(Stencil9 A, bool residual_view, const double* v, const double* f, const double* exact,
                             float* out, int nx, int ny, int stride) {
  int i, j;
  if (!interior_point(nx, ny, i, j)) return;
  out[std::size_t(j - 1) * std::size_t(nx) + std::size_t(i - 1)] =
      kernels::image_value(A, residual_view, row(v, j - 1, stride), row(v, j, stride), row(v, j + 1, stride),
                           row(f, j, stride), exact ? row(exact, j, stride) : nullptr, i);
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

}  // namespace

// --- the backend -------------------------------------------------------------------------

struct CudaBackend::Device {
  cudaStream_t stream = nullptr;
  std::map<CycleSignature, cudaGraphExec_t> recorded;
  cuda::DeviceBuffer<double> partial{kDotMaxBlocks + 1};  // block sums, then the result
  cuda::DeviceBuffer<unsigned> finished{1};
  double* result_host = nullptr;  // pinned, for the dot product's one copy back

  Device() {
    check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
    check(cudaMemsetAsync(finished.data(), 0, sizeof(unsigned), stream), "cudaMemset");
    check(cudaMallocHost(&result_host, sizeof(double)), "cudaMallocHost");
    // The coarse tail's kernel recurses once per level (up to kMaxTailLevels frames).
    check(cudaDeviceSetLimit(cudaLimitStackSize, 2048), "cudaDeviceSetLimit");
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  }
  ~Device() {
    forget_graphs();
    cudaFreeHost(result_host);
    cudaStreamDestroy(stream);
  }
  void forget_graphs() {
    for (auto& [signature, exec] : recorded) cudaGraphExecDestroy(exec);
    recorded.clear();
  }
};

CudaBackend::CudaBackend(bool graphs) : graphs_(graphs) {
  const CudaDeviceStatus& status = cuda_device_status();
  if (!status.usable) throw std::runtime_error("CUDA backend: " + status.reason);
  device_ = std::make_unique<Device>();
}

CudaBackend::~CudaBackend() = default;

DeviceField CudaBackend::make_vector(GridShape shape) {
  DeviceField x(shape);
  check(cudaMemsetAsync(x.data(), 0, shape.storage() * sizeof(double), device_->stream), "cudaMemset");
  synchronize();
  return x;
}

namespace {
cuda::DeviceBuffer<double> to_device(const double* host, std::size_t count, cudaStream_t stream) {
  cuda::DeviceBuffer<double> d(count);
  check(cudaMemcpyAsync(d.data(), host, count * sizeof(double), cudaMemcpyHostToDevice, stream), "cudaMemcpy");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  return d;
}
}  // namespace

CudaBackend::LineFactor CudaBackend::make_line_factor(const TridiagonalFactor& factor) {
  const auto n = std::size_t(factor.size());
  return {to_device(factor.lower(), n, device_->stream), to_device(factor.cprime(), n, device_->stream),
          to_device(factor.inv_denom(), n, device_->stream)};
}

CudaBackend::CoarseSolver CudaBackend::make_coarse_solver(const BandedLU& lu) {
  return {lu.shape(), lu.size(), lu.half_bandwidth(), to_device(lu.band().data(), lu.band().size(), device_->stream),
          cuda::DeviceBuffer<double>(std::size_t(lu.size()))};
}

void CudaBackend::jacobi(const Stencil9& A, double omega, const DeviceField& v, const DeviceField& f,
                         DeviceField& out) {
  if (!issue(v.shape(), pass_bytes::jacobi(v.shape()))) return;
  const GridShape& s = v.shape();
  jacobi_kernel<<<tiles(s.nx, s.ny), kTile, 0, device_->stream>>>(A, omega / A.center(), v.data(), f.data(), out.data(),
                                                                  s.nx, s.ny, s.stride());
  check_launch("jacobi");
}

void CudaBackend::gauss_seidel(const Stencil9& A, DeviceField& v, const DeviceField& f, bool reverse) {
  const GridShape& s = v.shape();
  for (int step = 0; step < 4; ++step) {  // the CPU backend's colour order
    if (!issue(s, pass_bytes::gauss_seidel_colour(s))) continue;
    gauss_seidel_kernel<<<tiles((s.nx + 1) / 2, (s.ny + 1) / 2), kTile, 0, device_->stream>>>(
        A, 1.0 / A.center(), v.data(), f.data(), s.nx, s.ny, s.stride(), reverse ? 3 - step : step);
    check_launch("gauss_seidel");
  }
}

void CudaBackend::zebra_x(const Stencil9& A, const LineFactor& line, DeviceField& v, const DeviceField& f,
                          bool odd_first) {
  const GridShape& s = v.shape();
  for (int pass = 0; pass < 2; ++pass) {
    if (!issue(s, pass_bytes::zebra_x_pass(s))) continue;
    const int first_row = (pass == 0) == odd_first ? 1 : 2;
    zebra_x_kernel<<<blocks_for((s.ny + 1) / 2, kLineThreads), kLineThreads, 0, device_->stream>>>(
        A, line_view(line), v.data(), f.data(), s.nx, s.ny, s.stride(), first_row);
    check_launch("zebra_x");
  }
}

void CudaBackend::zebra_y(const Stencil9& A, const LineFactor& line, DeviceField& v, const DeviceField& f,
                          bool odd_first) {
  const GridShape& s = v.shape();
  for (int pass = 0; pass < 2; ++pass) {
    if (!issue(s, pass_bytes::zebra_y_pass(s))) continue;
    const int first_col = (pass == 0) == odd_first ? 1 : 2;
    zebra_y_kernel<<<blocks_for((s.nx + 1) / 2, kLineThreads), kLineThreads, 0, device_->stream>>>(
        A, line_view(line), v.data(), f.data(), s.nx, s.ny, s.stride(), first_col);
    check_launch("zebra_y");
  }
}

void CudaBackend::restrict_residual(const Stencil9& A, const DeviceField& v, const DeviceField& f, DeviceField& fc,
                                    Coarsening coarsening) {
  if (!issue(v.shape(), pass_bytes::restrict_residual(v.shape(), fc.shape()))) return;
  const GridShape &s = v.shape(), &c = fc.shape();
  restrict_residual_kernel<<<tiles(c.nx, c.ny), kTile, 0, device_->stream>>>(
      A, v.data(), f.data(), s.nx, s.ny, s.stride(), fc.data(), c.nx, c.ny, c.stride(), coarsening == Coarsening::Full);
  check_launch("restrict_residual");
}

void CudaBackend::prolong_add(const DeviceField& vc, DeviceField& v, Coarsening coarsening) {
  if (!issue(v.shape(), pass_bytes::prolong_add(v.shape(), vc.shape()))) return;
  const GridShape& s = v.shape();
  prolong_add_kernel<<<tiles(s.nx, s.ny), kTile, 0, device_->stream>>>(vc.data(), vc.stride(), v.data(), s.nx, s.ny,
                                                                       s.stride(), coarsening == Coarsening::Full);
  check_launch("prolong_add");
}

void CudaBackend::coarse_solve(const CoarseSolver& solver, const DeviceField& f, DeviceField& v) {
  if (!issue(v.shape(), pass_bytes::coarse_solve(v.shape()))) return;
  if (!(f.shape() == solver.shape)) throw std::logic_error("coarse_solve: the field is not the coarsest level");
  coarse_solve_kernel<<<1, 1, 0, device_->stream>>>(solver.band.data(), solver.n, solver.bw, solver.work.data(),
                                                    f.data(), v.data(), solver.shape.nx, solver.shape.ny,
                                                    solver.shape.stride());
  check_launch("coarse_solve");
}

void CudaBackend::coarse_tail(CoarseTail& tail) {
  if (!issue(GridShape{tail.levels[0].nx, tail.levels[0].ny}, 0)) return;
  coarse_tail_kernel<<<1, kTailThreads, 0, device_->stream>>>(tail);
  check_launch("coarse_tail");
}

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

void CudaBackend::image(const Stencil9& A, bool residual_view, const DeviceField& v, const DeviceField& f,
                        const DeviceField* exact, float* out) {
  const GridShape& s = v.shape();
  image_kernel<<<tiles(s.nx, s.ny), kTile, 0, device_->stream>>>(
      A, residual_view, v.data(), f.data(), exact ? exact->data() : nullptr, out, s.nx, s.ny, s.stride());
  check_launch("image");
}

void CudaBackend::upload(const Field& host, DeviceField& device) {
  if (!(device.shape() == host.shape())) device = DeviceField(host.shape());
  check(cudaMemcpyAsync(device.data(), host.data(), host.shape().storage() * sizeof(double), cudaMemcpyHostToDevice,
                        device_->stream),
        "cudaMemcpyAsync (upload)");
  synchronize();
}

void CudaBackend::download(const DeviceField& device, Field& host) {
  if (!(host.shape() == device.shape())) host = Field(device.shape());
  check(cudaMemcpyAsync(host.data(), device.data(), device.shape().storage() * sizeof(double), cudaMemcpyDeviceToHost,
                        device_->stream),
        "cudaMemcpyAsync (download)");
  synchronize();
}

void CudaBackend::download(const float* device, std::size_t count, float* host) {
  check(cudaMemcpyAsync(host, device, count * sizeof(float), cudaMemcpyDeviceToHost, device_->stream),
        "cudaMemcpyAsync (download)");
  synchronize();
}

void CudaBackend::synchronize() { check(cudaStreamSynchronize(device_->stream), "cudaStreamSynchronize"); }

// --- CUDA Graphs -------------------------------------------------------------------------

void CudaBackend::forget_recordings(std::uint64_t owner) {
  if (!device_) return;  // moved from
  auto& recorded = device_->recorded;
  for (auto it = recorded.begin(); it != recorded.end();) {
    if (!it->first.empty() && it->first.front() == std::uintptr_t(owner)) {
      cudaGraphExecDestroy(it->second);
      it = recorded.erase(it);
    } else {
      ++it;
    }
  }
}

bool CudaBackend::launch_recorded(const CycleSignature& signature) {
  const auto found = device_->recorded.find(signature);
  if (found == device_->recorded.end()) return false;
  check(cudaGraphLaunch(found->second, device_->stream), "cudaGraphLaunch");
  ++replays_;
  return true;
}

void CudaBackend::begin_capture() {
  check(cudaStreamBeginCapture(device_->stream, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
}

void CudaBackend::abandon_capture() noexcept {
  cudaGraph_t graph = nullptr;
  if (cudaStreamEndCapture(device_->stream, &graph) == cudaSuccess && graph) cudaGraphDestroy(graph);
  cudaGetLastError();
}

void CudaBackend::end_capture_and_launch(const CycleSignature& signature) {
  cudaGraph_t graph = nullptr;
  check(cudaStreamEndCapture(device_->stream, &graph), "cudaStreamEndCapture");
  cudaGraphExec_t exec = nullptr;
  const cudaError_t made = cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphDestroy(graph);
  check(made, "cudaGraphInstantiate");
  // A handful of signatures occur (Jacobi and MGCG alternate buffers); more means the
  // hierarchy changed, and the old recordings are dead.
  if (device_->recorded.size() >= 16) device_->forget_graphs();
  device_->recorded.emplace(signature, exec);
  ++captures_;
  check(cudaGraphLaunch(exec, device_->stream), "cudaGraphLaunch");
}

}  // namespace kcycle
