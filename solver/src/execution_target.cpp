#include "kcycle/execution_target.hpp"

namespace kcycle {

std::string describe(const ExecutionTarget& t) {
  if (t.backend == BackendKind::Cpu) return "cpu";
  if (t.backend == BackendKind::Mpi) return "mpi";
  return t.graphs ? "cuda+graphs" : "cuda";
}

ExecutionTarget execution_target(BackendKind kind, const SolverOptions& o) {
  ExecutionTarget t{kind, o.threads, o.cuda_graphs, o.ranks_x, o.ranks_y, agglomeration_threshold(o)};
  if (kind == BackendKind::Mpi && t.ranks_x == 0 && t.ranks_y == 0) {
    if (o.smoother == Smoother::XZebra) t.ranks_x = 1;  // and ranks_y: all of them
    if (o.smoother == Smoother::YZebra) t.ranks_y = 1;
  }
  return t;
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
