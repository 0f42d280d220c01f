// The MPI backend's halo exchanges: per level, buffers and persistent requests made once
// (the eight neighbours, corners included), started each round; sums over the ranks.
#include <algorithm>
#include <cstdlib>
#include <functional>
#include <stdexcept>
#include <string>

#include "mpi_backend_parts.hpp"

namespace kcycle {

using namespace mpi_parts;

MpiBackend::HaloPlan& MpiBackend::plan(int level) {
  std::unique_ptr<HaloPlan>& p = plans_[std::size_t(level)];
  if (p) return *p;
  p = std::make_unique<HaloPlan>();
  const GridShape b = decomposition_->block_shape(level, rx_, ry_);
  p->block = b;
  const int step = decomposition_->step(level);  // the neighbours holding the level
  for (int d = 0; d < 8; ++d) {
    const int dx = kDirections[std::size_t(d)][0], dy = kDirections[std::size_t(d)][1];
    HaloPlan::Side& s = p->sides[std::size_t(d)];
    const int cx = rx_ + step * dx, cy = ry_ + step * dy;
    if (cx < 0 || cy < 0 || cx >= px_ || cy >= py_) continue;  // the physical boundary: zeros stay
    const int coords[2] = {cx, cy};
    MPI_Cart_rank(cart_, coords, &s.neighbour);
    s.i = own_edge(dx, b.nx);
    s.j = own_edge(dy, b.ny);
    s.gi = ghost_edge(dx, b.nx);
    s.gj = ghost_edge(dy, b.ny);
    const std::size_t count = std::size_t(s.i.size()) * std::size_t(s.j.size());
    s.send.resize(count);
    s.recv.resize(count);
    // What goes toward d carries tag d; the neighbour there receives it from its side -d.
    MPI_Request recv, send;
    check(MPI_Recv_init(s.recv.data(), int(count), MPI_DOUBLE, s.neighbour, direction_index(-dx, -dy), cart_, &recv),
          "MPI_Recv_init");
    check(MPI_Send_init(s.send.data(), int(count), MPI_DOUBLE, s.neighbour, d, cart_, &send), "MPI_Send_init");
    p->requests.push_back(recv);
    p->requests.push_back(send);
    ++p->messages;
    p->bytes += count * sizeof(double);
  }
  return *p;
}

void MpiBackend::exchange(const Vector& x) { exchange(x.local, x.level); }

void MpiBackend::exchange(Field& f, int level) {
  if (ranks() == 1 || !distributed(level)) return;
  HaloPlan& p = plan(level);
  for (HaloPlan::Side& s : p.sides) {
    if (s.neighbour == MPI_PROC_NULL) continue;
    std::size_t k = 0;
    for (int j = s.j.from; j <= s.j.to; ++j)
      for (int i = s.i.from; i <= s.i.to; ++i) s.send[k++] = f(i, j);
  }
  if (!p.requests.empty()) {
    check(MPI_Startall(int(p.requests.size()), p.requests.data()), "MPI_Startall");
    check(MPI_Waitall(int(p.requests.size()), p.requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  }
  for (const HaloPlan::Side& s : p.sides) {
    if (s.neighbour == MPI_PROC_NULL) continue;
    std::size_t k = 0;
    for (int j = s.gj.from; j <= s.gj.to; ++j)
      for (int i = s.gi.from; i <= s.gi.to; ++i) f(i, j) = s.recv[k++];
  }
  CommStats& c = comm_stats_[std::size_t(level)];
  ++c.exchanges;
  c.messages += p.messages;
  c.bytes += p.bytes;
}

double MpiBackend::all_sum(double local, int level) {
  double total = local;
  if (ranks() > 1) {
    check(MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, cart_), "MPI_Allreduce");
    ++comm_stats_[std::size_t(level)].collectives;
  }
  return total;
}

}  // namespace kcycle
