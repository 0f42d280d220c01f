#pragma once
// What the MPI backend's files share (private): the MPI error check, the halo plan and the
// agglomeration transition the backend keeps per level, and the index helpers on blocks.
#include <mpi.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "kcycle/backends/mpi/mpi_backend.hpp"

namespace kcycle {

namespace mpi_parts {

inline void check(int status, const char* what) {
  if (status != MPI_SUCCESS) throw std::runtime_error(std::string("MPI: ") + what + " failed");
}

// The eight neighbours, corners included (the 9-point stencil reads them all).
constexpr std::array<std::array<int, 2>, 8> kDirections{
    {{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}}};
inline int direction_index(int dx, int dy) {
  for (int d = 0; d < 8; ++d)
    if (kDirections[std::size_t(d)][0] == dx && kDirections[std::size_t(d)][1] == dy) return d;
  return -1;
}

// The block's own points next to side (dx, dy) [send], or its ghost points there [receive],
// as index ranges [from, to] per direction: -1 the low edge, 0 all, +1 the high edge.
struct Span {
  int from, to;
  int size() const { return to - from + 1; }
};
inline Span own_edge(int d, int n) { return d < 0 ? Span{1, 1} : d > 0 ? Span{n, n} : Span{1, n}; }
inline Span ghost_edge(int d, int n) { return d < 0 ? Span{0, 0} : d > 0 ? Span{n + 1, n + 1} : Span{1, n}; }

// Coarse points over a fine range when the direction coarsens: I with 2I in [first, last].
inline IndexRange coarser(IndexRange fine) { return {(fine.first + 1) / 2, fine.last / 2}; }

}  // namespace mpi_parts

// A level's halo exchange: buffers and persistent requests made once, started each round.
struct MpiBackend::HaloPlan {
  GridShape block;
  struct Side {
    int neighbour = MPI_PROC_NULL;
    mpi_parts::Span i{}, j{};    // own points sent
    mpi_parts::Span gi{}, gj{};  // ghost points received
    std::vector<double> send, recv;
  };
  std::array<Side, 8> sides;
  std::vector<MPI_Request> requests;
  std::uint64_t messages = 0, bytes = 0;  // per round
  ~HaloPlan() {
    for (MPI_Request& r : requests) MPI_Request_free(&r);
  }
};

// The ranks of one agglomeration step's group: its parent (rank 0 of comm) and its children,
// with what each sends up (its part of the coarse level) and gets back (that part with its
// ring), laid out once; the cycle visits the fold many times.
struct MpiBackend::Transition {
  using Ranges = std::pair<IndexRange, IndexRange>;
  MPI_Comm comm = MPI_COMM_NULL;
  std::vector<int> members;  // cart ranks, in comm's rank order
  std::size_t me = 0;        // this rank's place among them
  std::vector<Ranges> parts, rings;
  std::vector<int> part_counts, part_offsets, ring_counts, ring_offsets;
  std::vector<double> mine, all;  // the packed values, grown once
  void lay_out(const std::function<Ranges(int)>& part_of) {
    int parts_total = 0, rings_total = 0;
    for (int q : members) {
      const Ranges p = part_of(q);
      const Ranges r{{p.first.first - 1, p.first.last + 1}, {p.second.first - 1, p.second.last + 1}};
      parts.push_back(p);
      rings.push_back(r);
      part_counts.push_back(p.first.size() * p.second.size());
      ring_counts.push_back(r.first.size() * r.second.size());
      part_offsets.push_back(parts_total);
      ring_offsets.push_back(rings_total);
      parts_total += part_counts.back();
      rings_total += ring_counts.back();
    }
  }
  ~Transition() {
    if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
  }
};

}  // namespace kcycle
