// The CUDA backend's kernels: each a thin loop (one thread per point, line or coarse point)
// around the point bodies of kernels.hpp, the arithmetic the CPU tests exercise.
#include "kcycle/backends/cuda/cuda_backend.hpp"

#include <cuda_runtime.h>
#if KCYCLE_HAVE_CUSPARSE
#include <cusparse.h>
#endif

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cuda_check.hpp"
#include "kcycle/backends/backend_selection.hpp"
#include "kcycle/core/cyclic_reduction.hpp"
#include "kcycle/core/kernels.hpp"
#include "kcycle/core/level_bodies.hpp"
#include "kcycle/cycle/byte_model.hpp"

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

// Rows first_row, first_row + 2, ...: one block per row, cyclic reduction in shared memory
// (level::pcr_x_line): every step's nx combinations at once, coalesced reads and writes.
constexpr int kPcrThreads = 256;
__global__ void __launch_bounds__(kPcrThreads)
    zebra_x_pcr_kernel(Stencil9 A, level::PcrView pcr, double* v, const double* f, int nx, int stride, int first_row) {
  extern __shared__ double buffers[];
  level::pcr_x_line(BlockTeam{}, A, pcr, v, f, nx, stride, first_row + 2 * int(blockIdx.x), buffers);
}
int pcr_shared_bytes(int nx) { return int(2 * std::size_t(nx) * sizeof(double)); }

// cuSPARSE's baseline (time_x_line_solvers): rows first_row, first_row + 2, ... gathered as
// right-hand sides of a batch (line b at rhs + b nx), and the solutions scattered back.
__global__ void gather_x_line_rhs_kernel(Stencil9 A, const double* v, const double* f, double* rhs, int nx, int lines,
                                         int stride, int first_row) {
  int k, b;
  if (!interior_point(nx, lines, k, b)) return;
  const int j = first_row + 2 * (b - 1);
  rhs[std::size_t(b - 1) * nx + (k - 1)] =
      kernels::x_line_rhs(A, row(v, j - 1, stride), row(v, j + 1, stride), row(f, j, stride), k);
}
__global__ void scatter_x_lines_kernel(const double* x, double* v, int nx, int lines, int stride, int first_row) {
  int k, b;
  if (!interior_point(nx, lines, k, b)) return;
  row(v, first_row + 2 * (b - 1), stride)[k] = x[std::size_t(b - 1) * nx + (k - 1)];
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

// One block: the tail in shared memory (one copy its threads share and Jacobi's swaps change).
// The parameter (1.9 KB) stays in the constant bank (__grid_constant__): taking its address
// would otherwise copy it into every thread's local memory (debug builds did, and overran the
// stack).
__global__ void __launch_bounds__(kTailThreads) coarse_tail_kernel(const __grid_constant__ CoarseTail tail) {
  __shared__ alignas(CoarseTail) unsigned char storage[sizeof(CoarseTail)];
  if (threadIdx.x == 0) memcpy(storage, &tail, sizeof(CoarseTail));
  __syncthreads();
  run_coarse_tail(BlockTeam{}, *reinterpret_cast<CoarseTail*>(storage));
}

// The tail recurses once per level and ptxas cannot bound a recursion, so the stack a thread
// needs is sized here: the kernel's own frame (cudaFuncGetAttributes) plus one cycle frame per
// level and the deepest operation's, with half again to spare. ptxas -v, sm_90, release: cycle
// frames 48-56 bytes, the deepest operation (coarse_solve) 224 bytes, about 1 KB in all at 12
// levels; device-debug builds (-G) keep every local on the stack (about 4.3 KB).
#ifdef __CUDACC_DEBUG__
constexpr std::size_t kTailCycleFrameBytes = 320, kTailDeepestOperationBytes = 1024;
#else
constexpr std::size_t kTailCycleFrameBytes = 64, kTailDeepestOperationBytes = 256;
#endif
std::size_t coarse_tail_stack_bytes() {
  cudaFuncAttributes kernel{};
  check(cudaFuncGetAttributes(&kernel, coarse_tail_kernel), "cudaFuncGetAttributes (coarse tail)");
  const std::size_t path = kernel.localSizeBytes + kMaxTailLevels * kTailCycleFrameBytes + kTailDeepestOperationBytes;
  return path + path / 2;
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

// --- the backend -------------------------------------------------------------------------

struct CudaBackend::Device {
  cudaStream_t stream = nullptr;
  int pcr_max_points = 0;  // the longest x-line whose two buffers fit a block's shared memory
  std::map<CycleSignature, cudaGraphExec_t> recorded;
  cuda::DeviceBuffer<double> partial{kDotMaxBlocks + 2};  // block sums, then the result(s)
  cuda::DeviceBuffer<unsigned> finished{1};
  double* result_host = nullptr;  // pinned, for the dot product's one copy back

  Device() {
    check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
    check(cudaMemsetAsync(finished.data(), 0, sizeof(unsigned), stream), "cudaMemset");
    check(cudaMallocHost(&result_host, 2 * sizeof(double)), "cudaMallocHost");
    // The coarse tail's kernel recurses once per level (up to kMaxTailLevels frames).
    std::size_t stack = 0;
    const std::size_t needed = coarse_tail_stack_bytes();
    check(cudaDeviceGetLimit(&stack, cudaLimitStackSize), "cudaDeviceGetLimit");
    if (stack < needed) check(cudaDeviceSetLimit(cudaLimitStackSize, needed), "cudaDeviceSetLimit");
    int device = 0, shared = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    check(cudaDeviceGetAttribute(&shared, cudaDevAttrMaxSharedMemoryPerBlockOptin, device), "cudaDeviceGetAttribute");
    check(cudaFuncSetAttribute(zebra_x_pcr_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared),
          "cudaFuncSetAttribute");
    pcr_max_points = shared / int(2 * sizeof(double));
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

CudaBackend::CudaBackend(bool graphs, LineSolver line_solver) : graphs_(graphs), line_solver_(line_solver) {
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
  LineFactor line{to_device(factor.lower(), n, device_->stream), to_device(factor.cprime(), n, device_->stream),
                  to_device(factor.inv_denom(), n, device_->stream)};
  const bool fits = factor.size() <= device_->pcr_max_points;
  line.pcr = fits &&
             (line_solver_ == LineSolver::Pcr || (line_solver_ == LineSolver::Auto && factor.size() >= kPcrFromPoints));
  if (line.pcr) {  // used where the factor is an x-line's (zebra_x)
    const PcrFactor pcr(factor);
    line.pcr_steps = pcr.steps();
    line.pcr_alpha = to_device(pcr.alpha(), pcr.alpha_values().size(), device_->stream);
    line.pcr_gamma = to_device(pcr.gamma(), pcr.gamma_values().size(), device_->stream);
    line.pcr_inv_diag = to_device(pcr.inv_diag(), n, device_->stream);
  }
  return line;
}

CudaBackend::CoarseSolver CudaBackend::make_coarse_solver(const BandedLU& lu) {
  return {lu.shape(), lu.size(), lu.half_bandwidth(), to_device(lu.band().data(), lu.band().size(), device_->stream),
          cuda::DeviceBuffer<double>(std::size_t(lu.size()))};
}

// --- x-line solvers compared ---------------------------------------------------------------

namespace {
// max |a - b| / max |a| over the interiors.
double relative_difference(const Field& a, const Field& b) {
  double diff = 0, scale = 0;
  for (int j = 1; j <= a.shape().ny; ++j)
    for (int i = 1; i <= a.shape().nx; ++i) {
      diff = std::max(diff, std::abs(a(i, j) - b(i, j)));
      scale = std::max(scale, std::abs(a(i, j)));
    }
  return scale > 0 ? diff / scale : diff;
}
#if KCYCLE_HAVE_CUSPARSE
void check_sparse(cusparseStatus_t status, const char* what) {
  if (status != CUSPARSE_STATUS_SUCCESS)
    throw std::runtime_error(std::string("cuSPARSE: ") + what + ": " + cusparseGetErrorString(status));
}
#endif
}  // namespace

CudaBackend::LineSolverTimes CudaBackend::time_x_line_solvers(const Stencil9& A, GridShape shape, int repetitions) {
  cudaStream_t stream = device_->stream;
  const int nx = shape.nx, first_row = 1, lines = (shape.ny + 1) / 2;
  Field start(shape), rhs(shape);
  for (int j = 1; j <= shape.ny; ++j)
    for (int i = 1; i <= nx; ++i) {
      start(i, j) = std::sin(0.37 * i + 1.3 * j);
      rhs(i, j) = std::cos(0.11 * i - 0.7 * j);
    }
  DeviceField v, f;
  upload(rhs, f);
  cudaEvent_t begin = nullptr, end = nullptr;
  check(cudaEventCreate(&begin), "cudaEventCreate");
  check(cudaEventCreate(&end), "cudaEventCreate");
  // The median of `repetitions` passes from the same start (a pass rewrites only its lines,
  // from the others: every repetition computes the same).
  const auto median_seconds = [&](auto&& pass) {
    upload(start, v);
    pass();  // warm-up
    std::vector<float> ms;
    for (int r = 0; r < std::max(1, repetitions); ++r) {
      check(cudaEventRecord(begin, stream), "cudaEventRecord");
      pass();
      check(cudaEventRecord(end, stream), "cudaEventRecord");
      check(cudaEventSynchronize(end), "cudaEventSynchronize");
      float t = 0;
      check(cudaEventElapsedTime(&t, begin, end), "cudaEventElapsedTime");
      ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    return 1e-3 * ms[ms.size() / 2];
  };
  const auto solution = [&] {
    Field x;
    download(v, x);
    return x;
  };
  LineSolverTimes out;
  const TridiagonalFactor matrix = TridiagonalFactor::constant(A.a[1][0], A.a[1][1], A.a[1][2], nx);
  const LineSolver asked = std::exchange(line_solver_, LineSolver::Thomas);
  const LineFactor thomas = make_line_factor(matrix);
  line_solver_ = LineSolver::Pcr;
  const LineFactor pcr = make_line_factor(matrix);
  line_solver_ = asked;
  out.thomas_seconds = median_seconds([&] {
    zebra_x_kernel<<<blocks_for(lines, kLineThreads), kLineThreads, 0, stream>>>(
        A, line_view(thomas), v.data(), f.data(), nx, shape.ny, shape.stride(), first_row);
    check_launch("zebra_x");
  });
  const Field reference = solution();
  if (pcr.pcr) {
    out.pcr_seconds = median_seconds([&] {
      zebra_x_pcr_kernel<<<lines, kPcrThreads, pcr_shared_bytes(nx), stream>>>(A, pcr_view(pcr), v.data(), f.data(), nx,
                                                                               shape.stride(), first_row);
      check_launch("zebra_x (cyclic reduction)");
    });
    out.pcr_difference = relative_difference(reference, solution());
  }
#if KCYCLE_HAVE_CUSPARSE
  {  // the batch's matrices, one per line (gtsv2StridedBatch reads each line's own diagonals)
    const std::size_t batch = std::size_t(nx) * std::size_t(lines);
    std::vector<double> dl(batch), d(batch), du(batch);
    for (std::size_t k = 0; k < batch; ++k) {
      const int i = int(k % std::size_t(nx));
      dl[k] = i > 0 ? matrix.lower()[i] : 0.0;
      d[k] = matrix.diag()[i];
      du[k] = i + 1 < nx ? matrix.upper()[i] : 0.0;
    }
    const auto dl_d = to_device(dl.data(), batch, stream), d_d = to_device(d.data(), batch, stream),
               du_d = to_device(du.data(), batch, stream);
    cuda::DeviceBuffer<double> x(batch);
    cusparseHandle_t handle = nullptr;
    check_sparse(cusparseCreate(&handle), "cusparseCreate");
    try {
      check_sparse(cusparseSetStream(handle, stream), "cusparseSetStream");
      std::size_t bytes = 0;
      check_sparse(cusparseDgtsv2StridedBatch_bufferSizeExt(handle, nx, dl_d.data(), d_d.data(), du_d.data(), x.data(),
                                                            lines, nx, &bytes),
                   "gtsv2StridedBatch_bufferSizeExt");
      cuda::DeviceBuffer<double> work(bytes / sizeof(double) + 1);
      out.cusparse_seconds = median_seconds([&] {
        gather_x_line_rhs_kernel<<<tiles(nx, lines), kTile, 0, stream>>>(A, v.data(), f.data(), x.data(), nx, lines,
                                                                         shape.stride(), first_row);
        check_launch("gather_x_line_rhs");
        check_sparse(cusparseDgtsv2StridedBatch(handle, nx, dl_d.data(), d_d.data(), du_d.data(), x.data(), lines, nx,
                                                work.data()),
                     "gtsv2StridedBatch");
        scatter_x_lines_kernel<<<tiles(nx, lines), kTile, 0, stream>>>(x.data(), v.data(), nx, lines, shape.stride(),
                                                                       first_row);
        check_launch("scatter_x_lines");
      });
      out.cusparse_difference = relative_difference(reference, solution());
    } catch (...) {
      cusparseDestroy(handle);
      throw;
    }
    cusparseDestroy(handle);
  }
#endif
  cudaEventDestroy(begin);
  cudaEventDestroy(end);
  return out;
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
    if (line.pcr) {
      const int lines = (s.ny - first_row + 2) / 2;  // rows first_row, first_row + 2, ... <= ny
      if (lines < 1) continue;
      zebra_x_pcr_kernel<<<lines, kPcrThreads, pcr_shared_bytes(s.nx), device_->stream>>>(
          A, pcr_view(line), v.data(), f.data(), s.nx, s.stride(), first_row);
      check_launch("zebra_x (cyclic reduction)");
      continue;
    }
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
