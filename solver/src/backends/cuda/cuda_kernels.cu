// The CUDA backend's multigrid kernels (declared in cuda_kernels.cuh): thin loops around
// level_bodies.hpp's point bodies.
#include "cuda_kernels.cuh"

#include "cuda_check.hpp"
#include "kcycle/core/team.hpp"

namespace kcycle::cuda {

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
__global__ void __launch_bounds__(kPcrThreads)
    zebra_x_pcr_kernel(Stencil9 A, level::PcrView pcr, double* v, const double* f, int nx, int stride, int first_row) {
  extern __shared__ double buffers[];
  level::pcr_x_line(BlockTeam{}, A, pcr, v, f, nx, stride, first_row + 2 * int(blockIdx.x), buffers);
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

}  // namespace kcycle::cuda
