#pragma once
// CudaBackend's device state (its stream, recorded graphs, reduction scratch), shared by the
// backend's files. Private to the CUDA backend.
#include <cuda_runtime.h>

#include <cstddef>
#include <map>

#include "cuda_check.hpp"
#include "cuda_kernels.cuh"
#include "kcycle/backends/cuda/cuda_backend.hpp"

namespace kcycle {

struct CudaBackend::Device {
  cudaStream_t stream = nullptr;
  int pcr_max_points = 0;  // the longest x-line whose two buffers fit a block's shared memory
  std::map<CycleSignature, cudaGraphExec_t> recorded;
  cuda::DeviceBuffer<double> partial{cuda::kDotMaxBlocks + 2};  // block sums, then the result(s)
  cuda::DeviceBuffer<unsigned> finished{1};
  double* result_host = nullptr;  // pinned, for the dot product's one copy back

  Device();  // cuda_backend.cu
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

namespace cuda {
// `count` doubles copied to a new device buffer (waits for the copy).
inline DeviceBuffer<double> to_device(const double* host, std::size_t count, cudaStream_t stream) {
  DeviceBuffer<double> d(count);
  check(cudaMemcpyAsync(d.data(), host, count * sizeof(double), cudaMemcpyHostToDevice, stream), "cudaMemcpy");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  return d;
}
}  // namespace cuda

}  // namespace kcycle
