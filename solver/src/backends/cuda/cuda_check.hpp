#pragma once
// Turns a CUDA error into an exception that names what failed.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace kcycle::cuda {

inline void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) throw std::runtime_error(std::string("CUDA: ") + what + ": " + cudaGetErrorString(status));
}

// After a kernel launch: a bad configuration or a missing kernel image shows up here.
inline void check_launch(const char* kernel) { check(cudaGetLastError(), kernel); }

}  // namespace kcycle::cuda
