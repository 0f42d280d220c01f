// The CUDA half of backend selection: allocation and the one-time device probe.
#include <cuda_runtime.h>

#include <cstdio>

#include "cuda_check.hpp"
#include "kcycle/backends/backend_selection.hpp"
#include "kcycle/backends/cuda/device_buffer.hpp"

namespace kcycle {

namespace {

__global__ void probe_kernel(int* out) { *out = 42; }

CudaDeviceStatus probe() {
  CudaDeviceStatus s;
  s.compiled = true;
  int count = 0;
  if (const cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess) {
    s.reason = e == cudaErrorInsufficientDriver
                   ? "no NVIDIA driver for CUDA " + std::to_string(CUDART_VERSION / 1000) +
                         " (none installed, or an older one; cudaGetDeviceCount: " + cudaGetErrorString(e) + ")"
               : e == cudaErrorNoDevice ? std::string("no CUDA device present")
                                        : std::string("no usable CUDA device (") + cudaGetErrorString(e) + ")";
    cudaGetLastError();  // clear the sticky error for later callers
    return s;
  }
  if (count == 0) {
    s.reason = "no CUDA device present";
    return s;
  }
  cudaDeviceProp p{};
  if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) {
    s.reason = "cannot query CUDA device 0";
    return s;
  }
  // Our kernels must exist for this device: a test launch finds a missing kernel image.
  int* flag = nullptr;
  int value = 0;
  cudaError_t e = cudaMalloc(&flag, sizeof(int));
  if (e == cudaSuccess) {
    probe_kernel<<<1, 1>>>(flag);
    e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaMemcpy(&value, flag, sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(flag);
  }
  char name[512];
  std::snprintf(name, sizeof name, "%s (sm_%d%d, %.1f GiB)", p.name, p.major, p.minor,
                double(p.totalGlobalMem) / double(1 << 30));
  if (e != cudaSuccess || value != 42) {
    s.reason = std::string(name) + " cannot run kcycle's kernels (" + cudaGetErrorString(e) +
               "); rebuild with -DCMAKE_CUDA_ARCHITECTURES=" + std::to_string(p.major) + std::to_string(p.minor);
    return s;
  }
  s.usable = true;
  s.device = name;
  return s;
}

}  // namespace

const CudaDeviceStatus& cuda_device_status() {
  static const CudaDeviceStatus status = probe();  // immutable after the first call
  return status;
}

std::optional<std::size_t> cuda_free_memory_bytes() {
  if (!cuda_device_status().usable) return std::nullopt;
  std::size_t free = 0, total = 0;
  if (cudaMemGetInfo(&free, &total) != cudaSuccess) {
    cudaGetLastError();
    return std::nullopt;
  }
  return free;
}

namespace cuda {

void* device_allocate(std::size_t bytes) {
  void* p = nullptr;
  check(cudaMalloc(&p, bytes), "cudaMalloc");
  return p;
}

void device_free(void* pointer) noexcept {
  if (pointer) cudaFree(pointer);
}

}  // namespace cuda
}  // namespace kcycle
