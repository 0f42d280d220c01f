#include "kcycle/solve/execution_target.hpp"

namespace kcycle {

std::string describe(const ExecutionTarget& t) {
  if (t.backend == BackendKind::Cpu) return "cpu";
  if (t.backend == BackendKind::Mpi) return "mpi";
  return t.graphs ? "cuda+graphs" : "cuda";
}

ExecutionTarget execution_target(BackendKind kind, const SolverOptions& o) {
  ExecutionTarget t{kind, o.threads, o.cuda_graphs, o.line_solver, o.ranks_x, o.ranks_y, agglomeration_threshold(o)};
  if (kind == BackendKind::Mpi && t.ranks_x == 0 && t.ranks_y == 0) {
    if (o.smoother == Smoother::XZebra) t.ranks_x = 1;  // and ranks_y: all of them
    if (o.smoother == Smoother::YZebra) t.ranks_y = 1;
  }
  return t;
}

}  // namespace kcycle
