// Run by the mpi_one_rank_fails CTest entry on two ranks: rank 1 fails while rank 0 waits in a
// collective, as a rank that meets an error of its own would. abort_all_ranks must end both
// (the entry passes on rank 1's message) and never leave rank 0 waiting (the entry's timeout).
#include <mpi.h>

#include <cstdio>

#include "kcycle/backends/mpi/mpi_runtime.hpp"

int main() {
  kcycle::start_mpi();
  if (kcycle::mpi_ranks() != 2) {
    std::fprintf(stderr, "one_rank_fails: run it on two ranks\n");
    return 2;
  }
  if (kcycle::mpi_rank() == 1) {
    std::fprintf(stderr, "kcycle: failed on rank 1: injected fault\n");
    kcycle::abort_all_ranks(1);
  }
  MPI_Barrier(MPI_COMM_WORLD);  // rank 1 never arrives
  std::fprintf(stderr, "one_rank_fails: rank 0 passed a barrier rank 1 never reached\n");
  return 1;
}
