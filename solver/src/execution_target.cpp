#include "kcycle/execution_target.hpp"

namespace kcycle {

std::string describe(const ExecutionTarget& t) {
  if (t.backend == BackendKind::Cpu) return "cpu";
  if (t.backend == BackendKind::Mpi) return "mpi";
  return t.graphs ? "cuda+graphs" : "cuda";
}

MultigridSettings as_run_on(MultigridSettings settings, BackendKind kind) {
  if (kind == BackendKind::Auto) kind = resolve_backend(kind).kind;
  bool fuses = FusesPasses<CpuBackend>;
#if KCYCLE_HAVE_CUDA
  if (kind == BackendKind::Cuda) fuses = FusesPasses<CudaBackend>;
#endif
#if KCYCLE_HAVE_MPI
  if (kind == BackendKind::Mpi) fuses = FusesPasses<MpiBackend>;
#endif
  settings.fused = settings.fused && fuses;
  return settings;
}

}  // namespace kcycle
