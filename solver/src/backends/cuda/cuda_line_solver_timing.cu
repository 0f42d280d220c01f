// The x-line solvers timed on the same data (CudaBackend::time_x_line_solvers): Thomas, cyclic
// reduction and cuSPARSE's gtsv2StridedBatch, the library baseline. `kcycle bench --line-solvers`.
#include <cuda_runtime.h>
#if KCYCLE_HAVE_CUSPARSE
#include <cusparse.h>
#endif

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cuda_check.hpp"
#include "cuda_device.hpp"
#include "cuda_kernels.cuh"
#include "kcycle/backends/cuda/cuda_backend.hpp"
#include "kcycle/core/kernels.hpp"

namespace kcycle {

using namespace cuda;

namespace {

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

}  // namespace kcycle
