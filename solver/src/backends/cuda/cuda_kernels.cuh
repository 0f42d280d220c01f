#pragma once
// The CUDA backend's multigrid kernels (smoothers, transfers, the coarsest solve, the coarse
// tail) and the launch geometry every CUDA file shares. Each kernel is a thin loop (one thread
// per point, line or coarse point) around the point bodies of level_bodies.hpp, the arithmetic
// the CPU tests exercise. Declared here, defined once in cuda_kernels.cu, launched by the
// operations (cuda_backend.cu) and the line-solver timing. Private to the CUDA backend.
#include <cuda_runtime.h>

#include <cstddef>

#include "kcycle/core/cyclic_reduction.hpp"
#include "kcycle/core/level_bodies.hpp"
#include "kcycle/core/stencil.hpp"
#include "kcycle/cycle/coarse_tail.hpp"

namespace kcycle::cuda {

// --- launch geometry ------------------------------------------------------------------
constexpr int kTileX = 32, kTileY = 8;  // 2D point kernels: a warp along a row
constexpr int kLineThreads = 64;        // line kernels: one thread per line
constexpr int kDotThreads = 256;
constexpr int kDotMaxBlocks = 1024;

inline int blocks_for(long count, int per_block) { return int((count + per_block - 1) / per_block); }
inline dim3 tiles(long nx, long ny) { return dim3(unsigned(blocks_for(nx, kTileX)), unsigned(blocks_for(ny, kTileY))); }
inline const dim3 kTile(kTileX, kTileY);

// Interior point (i, j) of this thread, 1-based; false outside the nx x ny interior.
__device__ inline bool interior_point(int nx, int ny, int& i, int& j) {
  i = int(blockIdx.x * blockDim.x + threadIdx.x) + 1;
  j = int(blockIdx.y * blockDim.y + threadIdx.y) + 1;
  return i <= nx && j <= ny;
}
using level::row;

// --- smoothers ---------------------------------------------------------------------------
__global__ void jacobi_kernel(Stencil9 A, double w, const double* v, const double* f, double* out, int nx, int ny,
                              int stride);
// One colour of the four-colour Gauss-Seidel sweep.
__global__ void gauss_seidel_kernel(Stencil9 A, double inv_diag, double* v, const double* f, int nx, int ny, int stride,
                                    int colour);
// Exact solves of rows first_row, first_row + 2, ...: one thread per row.
__global__ void zebra_x_kernel(Stencil9 A, level::LineView line, double* v, const double* f, int nx, int ny, int stride,
                               int first_row);
// Rows first_row, first_row + 2, ...: one block per row, cyclic reduction in shared memory.
constexpr int kPcrThreads = 256;
__global__ void __launch_bounds__(kPcrThreads)
    zebra_x_pcr_kernel(Stencil9 A, level::PcrView pcr, double* v, const double* f, int nx, int stride, int first_row);
inline int pcr_shared_bytes(int nx) { return int(2 * std::size_t(nx) * sizeof(double)); }
// Columns first_col, first_col + 2, ...: one thread per column.
__global__ void zebra_y_kernel(Stencil9 A, level::LineView line, double* v, const double* f, int nx, int ny, int stride,
                               int first_col);

// --- transfers and the coarsest level ----------------------------------------------------
__global__ void restrict_residual_kernel(Stencil9 A, const double* v, const double* f, int nx, int ny, int stride,
                                         double* fc, int nxc, int nyc, int stride_c, bool full);
__global__ void prolong_add_kernel(const double* vc, int stride_c, double* v, int nx, int ny, int stride, bool full);
// The coarsest level: one thread, the CPU's banded substitution.
__global__ void coarse_solve_kernel(const double* band, int n, int bw, double* work, const double* f, double* v, int nx,
                                    int ny, int stride);

// --- the coarse tail -----------------------------------------------------------------------
constexpr int kTailThreads = 512;
__global__ void __launch_bounds__(kTailThreads) coarse_tail_kernel(const __grid_constant__ CoarseTail tail);
// The stack a thread of coarse_tail_kernel needs (it recurses once per level).
std::size_t coarse_tail_stack_bytes();

}  // namespace kcycle::cuda
