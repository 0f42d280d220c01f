#include "kcycle/backend_selection.hpp"

#include "kcycle/solver_options.hpp"

namespace kcycle {

std::string_view to_string(BackendKind k) {
  switch (k) {
    case BackendKind::Cpu: return "cpu";
    case BackendKind::Cuda: return "cuda";
    case BackendKind::Auto: return "auto";
  }
  return "?";
}

ResolvedBackend resolve_backend(BackendKind requested) {
  if (requested == BackendKind::Cpu) return {BackendKind::Cpu, ""};
  const CudaDeviceStatus& cuda = cuda_device_status();
  if (cuda.usable) return {BackendKind::Cuda, ""};
  if (requested == BackendKind::Cuda)
    throw InvalidOptions("--backend cuda: " + cuda.reason + " (use --backend cpu or auto)");
  return {BackendKind::Cpu, "kcycle: --backend auto: running on the CPU: " + cuda.reason};
}

}  // namespace kcycle
