#pragma once
// The clock the models decide by. On a process grid (the MPI backend) every rank runs the same
// probes, and each probe's steps are collectives: a probe that one rank ends by its own clock
// while another steps on leaves the two waiting in different collectives, for ever (seen under
// ctest -j2: an advice on 2 ranks spun for 9 minutes). There the clock reads the slowest rank's
// time, a collective every rank calls at the same point; elsewhere this process's own.
#include <chrono>

#include "kcycle/backends/mpi/mpi_runtime.hpp"
#include "kcycle/solve/solver_options.hpp"

namespace kcycle {

class RunClock {
 public:
  explicit RunClock(const SolverOptions& run)
      : across_ranks_(run.backend == BackendKind::Mpi), started_(std::chrono::steady_clock::now()) {}

  // Seconds since the clock started: on a process grid, the most any rank counted.
  double seconds() const {
    const double mine = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    return across_ranks_ ? max_on_ranks(mine) : mine;
  }

 private:
  bool across_ranks_;
  std::chrono::steady_clock::time_point started_;
};

}  // namespace kcycle
