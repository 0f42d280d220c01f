#include "kcycle/backends/backend_selection.hpp"

#include "kcycle/core/invalid_options.hpp"

namespace kcycle {

ResolvedBackend resolve_backend(BackendKind requested) {
  if (requested == BackendKind::Cpu) return {BackendKind::Cpu, ""};
  if (requested == BackendKind::Mpi) {
#if KCYCLE_HAVE_MPI
    return {BackendKind::Mpi, ""};
#else
    throw InvalidOptions("backend mpi: this kcycle was built without MPI (install libopenmpi-dev and rebuild)");
#endif
  }
  const CudaDeviceStatus& cuda = cuda_device_status();
  if (cuda.usable) return {BackendKind::Cuda, ""};
  if (requested == BackendKind::Cuda)
    throw InvalidOptions("backend cuda: " + cuda.reason + " (choose backend cpu or auto)");
  return {BackendKind::Cpu, "kcycle: --backend auto: running on the CPU: " + cuda.reason};
}

}  // namespace kcycle
