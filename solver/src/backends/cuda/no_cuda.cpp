// Built instead of src/cuda/ when CMake found no CUDA toolkit: the CUDA backend is absent,
// and asking for it says so.
#include <stdexcept>

#include "kcycle/backends/backend_selection.hpp"
#include "kcycle/backends/cuda/device_buffer.hpp"

namespace kcycle {

const CudaDeviceStatus& cuda_device_status() {
  static const CudaDeviceStatus status{false, false, "",
                                       "this kcycle was built without the CUDA backend (CMake found no nvcc)"};
  return status;
}

std::optional<std::size_t> cuda_free_memory_bytes() { return std::nullopt; }

namespace cuda {
void* device_allocate(std::size_t) { throw std::runtime_error(cuda_device_status().reason); }
void device_free(void*) noexcept {}
}  // namespace cuda

}  // namespace kcycle
