#pragma once
// The MPI runtime as the front ends see it, without mpi.h: MPI starts on first use (a solve
// with --backend mpi, or these calls), and ends at exit. Without MPI in the build: one rank.
#include <string>

namespace kcycle {

// Starts MPI if it has not started (a program run without mpirun is one rank).
void start_mpi();
// Whether MPI has started in this process.
bool mpi_started();
int mpi_rank();   // 0 when MPI has not started
int mpi_ranks();  // 1 when MPI has not started
// Whether `mine` is true on any rank: a collective every rank calls at the same point (a
// rank's interrupt becomes every rank's, at the same iteration). Without MPI: `mine`.
bool on_any_rank(bool mine);
// The largest of every rank's `mine` (a collective, as on_any_rank): a time every rank measured
// on its own clock becomes the slowest rank's, so that decisions taken by time agree. Without
// MPI: `mine`.
double max_on_ranks(double mine);
// Whether every rank's resolved input agrees: a collective every rank calls at the same point,
// with its own `refusal` ("" where its input was accepted) and the text of what it resolved. ""
// when no rank refused and every rank's text is rank 0's; else one message, the same on every
// rank, naming the rank that refused and why, or the ranks whose input differs from rank 0's and
// the keys (lines "key = value") that differ. Without MPI or on one rank: `refusal`.
std::string agreement_across_ranks(const std::string& refusal, const std::string& resolved_text);
// Ends every rank with `code` (MPI_Abort), after this one has said why: one rank's failure
// must not leave the others waiting in a collective. Without MPI: std::exit(code).
[[noreturn]] void abort_all_ranks(int code);

}  // namespace kcycle
