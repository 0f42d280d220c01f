#include "kcycle/backend_selection.hpp"

#include "kcycle/solver_options.hpp"

namespace kcycle {

ResolvedBackend resolve_backend(BackendKind requested) {
  if (requested == BackendKind::Cpu) return {BackendKind::Cpu, ""};
  const CudaDeviceStatus& cuda = cuda_device_status();
  if (cuda.usable) return {BackendKind::Cuda, ""};
  if (requested == BackendKind::Cuda)
    throw InvalidOptions("backend cuda: " + cuda.reason + " (choose backend cpu or auto)");
  return {BackendKind::Cpu, "kcycle: --backend auto: running on the CPU: " + cuda.reason};
}

}  // namespace kcycle
