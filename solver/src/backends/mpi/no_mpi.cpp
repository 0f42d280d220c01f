// The MPI runtime where kcycle is built without MPI: one rank.
#include <cstdlib>

#include "kcycle/backends/mpi/mpi_runtime.hpp"

namespace kcycle {

void start_mpi() {}
bool mpi_started() { return false; }
int mpi_rank() { return 0; }
int mpi_ranks() { return 1; }
bool on_any_rank(bool mine) { return mine; }
double max_on_ranks(double mine) { return mine; }
std::string agreement_across_ranks(const std::string& refusal, const std::string&) { return refusal; }
void abort_all_ranks(int code) { std::exit(code); }

}  // namespace kcycle
