// The MPI runtime a process sees: started once, its rank and ranks, a vote over all ranks,
// and an end of every rank at once.
#include <algorithm>
#include <cstdlib>
#include <functional>
#include <stdexcept>
#include <string>

#include "kcycle/backends/mpi/mpi_runtime.hpp"
#include "mpi_backend_parts.hpp"

namespace kcycle {

using namespace mpi_parts;

void start_mpi() {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized) return;
  int provided = 0;
  check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  std::atexit([] {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Finalize();
  });
}

bool mpi_started() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  return initialized && !finalized;
}

int mpi_rank() {
  int rank = 0;
  if (mpi_started()) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int mpi_ranks() {
  int size = 1;
  if (mpi_started()) MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

bool on_any_rank(bool mine) {
  if (!mpi_started() || mpi_ranks() < 2) return mine;
  int local = mine ? 1 : 0, any = 0;
  check(MPI_Allreduce(&local, &any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD), "MPI_Allreduce");
  return any != 0;
}

void abort_all_ranks(int code) {
  if (mpi_started() && mpi_ranks() > 1) MPI_Abort(MPI_COMM_WORLD, code);
  std::exit(code);
}

}  // namespace kcycle
