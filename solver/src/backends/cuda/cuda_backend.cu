// The CUDA backend (cuda_backend.hpp): its device state and set-up, the multigrid operations
// (each a launch of a kernel of cuda_kernels.cuh) and the copies between host and device.
// Vector operations: cuda_vector_ops.cu; CUDA Graphs: cuda_graphs.cu; the x-line solvers
// timed: cuda_line_solver_timing.cu.
#include "kcycle/backends/cuda/cuda_backend.hpp"

#include <cuda_runtime.h>

#include <stdexcept>

#include "cuda_check.hpp"
#include "cuda_device.hpp"
#include "cuda_kernels.cuh"
#include "kcycle/backends/backend_selection.hpp"
#include "kcycle/core/cyclic_reduction.hpp"
#include "kcycle/cycle/byte_model.hpp"

namespace kcycle {

using namespace cuda;

// --- the device and set-up -----------------------------------------------------------------

CudaBackend::Device::Device() {
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

// --- multigrid operations ------------------------------------------------------------------

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

// --- host copies ---------------------------------------------------------------------------

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

}  // namespace kcycle
