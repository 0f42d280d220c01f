// The MPI backend's Gauss-Seidel and zebra line smoothers.
//
// Gauss-Seidel: each of the four colours refreshes the ghost ring and then runs the CPU
// backend's colour pass on the block. A colour's points never neighbour each other (that is
// what the four colours are for), so the distributed sweep updates every point from the same
// values as the serial one: bitwise the serial iterate.
//
// Zebra lines: a line that lies within one block (x-lines when the process grid has one
// column of ranks, y-lines when it has one row) is solved by the CPU backend's pass. A line
// that crosses ranks is transposed: each rank computes its segment of the line's right-hand
// side, the segments travel to the rank that solves the whole line (line t of a row of ranks
// on its rank t mod P: one MPI_Alltoallv), the Thomas recurrences run over the whole line in
// the serial order, and the solved segments travel back (a second MPI_Alltoallv). We chose the
// transpose over a partitioned (SPIKE / reduced-system) solve because it runs the serial
// arithmetic, so iterates stay bitwise serial for every smoother, and because each pass costs
// two collectives per row of ranks whatever P is; a reduced system would send less (two values
// a line and rank instead of the segment) but changes the rounding and adds a third,
// sequential step. Both directions of xy-zebra use it; with y-semi-coarsening and x-zebra the
// default process grid is 1 x P (strips, see solve.cpp), where no line crosses a rank.
#include <mpi.h>

#include "kcycle/backends/mpi/mpi_backend.hpp"
#include "kcycle/core/kernels.hpp"
#include "mpi_backend_parts.hpp"

namespace kcycle {

using mpi_parts::check;

void MpiBackend::gauss_seidel(const Stencil9& A, Vector& v, const Vector& f, bool reverse) {
  for (int q = 0; q < 4; ++q) {
    ++launches_;
    if (!holds(v.level)) continue;
    exchange(v);
    cpu_.gauss_seidel_colour(A, v.local, f.local, reverse ? 3 - q : q);
  }
}

void MpiBackend::zebra_x(const Stencil9& A, const TridiagonalFactor& line, Vector& v, const Vector& f, bool odd_first) {
  for (int first_row : {odd_first ? 1 : 2, odd_first ? 2 : 1}) {
    ++launches_;
    if (!holds(v.level)) continue;
    exchange(v);
    if (decomposition_->ranks_across(v.level) == 1) {
      cpu_.zebra_x_lines(A, line, v.local, f.local, first_row);
      continue;
    }
    // The rows of this parity, each crossing the px ranks of this row of the process grid.
    const GridShape b = v.local.shape();
    const int lines = first_row <= b.ny ? (b.ny - first_row) / 2 + 1 : 0;
    std::vector<double>& segments = line_segments_;
    segments.resize(std::size_t(lines) * std::size_t(b.nx));
    for (int t = 0; t < lines; ++t) {
      const int j = first_row + 2 * t;
      const double *vm = v.local.row(j - 1), *vp = v.local.row(j + 1), *f0 = f.local.row(j);
      double* out = &segments[std::size_t(t) * std::size_t(b.nx)];
      for (int i = 1; i <= b.nx; ++i) out[i - 1] = kernels::x_line_rhs(A, vm, vp, f0, i);
    }
    solve_lines_across(line_comm(v.level, true), v.level, true, line, lines, segments);
    for (int t = 0; t < lines; ++t) {
      double* row = v.local.row(first_row + 2 * t);
      const double* in = &segments[std::size_t(t) * std::size_t(b.nx)];
      for (int i = 1; i <= b.nx; ++i) row[i] = in[i - 1];
    }
  }
}

void MpiBackend::zebra_y(const Stencil9& A, const TridiagonalFactor& line, Vector& v, const Vector& f, bool odd_first) {
  for (int first_col : {odd_first ? 1 : 2, odd_first ? 2 : 1}) {
    ++launches_;
    if (!holds(v.level)) continue;
    exchange(v);
    if (decomposition_->ranks_down(v.level) == 1) {
      cpu_.zebra_y_lines(A, line, v.local, f.local, first_col);
      continue;
    }
    // The columns of this parity, each crossing the py ranks of this column of the grid.
    const GridShape b = v.local.shape();
    const int lines = first_col <= b.nx ? (b.nx - first_col) / 2 + 1 : 0;
    std::vector<double>& segments = line_segments_;
    segments.resize(std::size_t(lines) * std::size_t(b.ny));
    for (int j = 1; j <= b.ny; ++j) {
      const double *vm = v.local.row(j - 1), *v0 = v.local.row(j), *vp = v.local.row(j + 1), *f0 = f.local.row(j);
      for (int t = 0; t < lines; ++t)
        segments[std::size_t(t) * std::size_t(b.ny) + std::size_t(j - 1)] =
            kernels::y_line_rhs(A, vm, v0, vp, f0, first_col + 2 * t);
    }
    solve_lines_across(line_comm(v.level, false), v.level, false, line, lines, segments);
    for (int j = 1; j <= b.ny; ++j) {
      double* row = v.local.row(j);
      for (int t = 0; t < lines; ++t)
        row[first_col + 2 * t] = segments[std::size_t(t) * std::size_t(b.ny) + std::size_t(j - 1)];
    }
  }
}

void MpiBackend::solve_lines_across(MPI_Comm comm, int level, bool x_lines, const TridiagonalFactor& factor, int lines,
                                    std::vector<double>& segments) {
  // The ranks holding the level along the lines (every step-th of the grid) and their segments.
  const int step = decomposition_->step(level);
  const int P = x_lines ? decomposition_->ranks_across(level) : decomposition_->ranks_down(level);
  const int me = (x_lines ? rx_ : ry_) / step;
  const std::size_t ranks = std::size_t(P);
  std::vector<IndexRange> extent(ranks);
  for (int q = 0; q < P; ++q)
    extent[std::size_t(q)] =
        x_lines ? decomposition_->x_range(level, q * step) : decomposition_->y_range(level, q * step);
  const int n = extent.back().last;  // the whole line
  const int mine = extent[std::size_t(me)].size();
  const auto lines_on = [&](int q) { return q < lines ? (lines - q + P - 1) / P : 0; };  // t = q, q + P, ...
  const int solved_here = lines_on(me);

  // There: each rank's segments of the lines rank d solves, in line order.
  std::vector<int> send_counts(ranks), send_offsets(ranks), recv_counts(ranks), recv_offsets(ranks);
  int sent = 0, received = 0;
  for (int q = 0; q < P; ++q) {
    send_counts[std::size_t(q)] = lines_on(q) * mine;
    send_offsets[std::size_t(q)] = sent;
    sent += send_counts[std::size_t(q)];
    recv_counts[std::size_t(q)] = solved_here * extent[std::size_t(q)].size();
    recv_offsets[std::size_t(q)] = received;
    received += recv_counts[std::size_t(q)];
  }
  std::vector<double>& outgoing = line_outgoing_;
  std::vector<double>& incoming = line_incoming_;
  outgoing.resize(std::size_t(sent));
  incoming.resize(std::size_t(received));
  for (int q = 0, k = 0; q < P; ++q)
    for (int t = q; t < lines; t += P)
      for (int s = 0; s < mine; ++s)
        outgoing[std::size_t(k++)] = segments[std::size_t(t) * std::size_t(mine) + std::size_t(s)];
  check(MPI_Alltoallv(outgoing.data(), send_counts.data(), send_offsets.data(), MPI_DOUBLE, incoming.data(),
                      recv_counts.data(), recv_offsets.data(), MPI_DOUBLE, comm),
        "MPI_Alltoallv");

  // The whole lines solved here, with the zero boundary at both ends, as the serial sweep has it.
  std::vector<double>& whole = line_whole_;
  whole.assign(std::size_t(solved_here) * std::size_t(n + 2), 0.0);
  for (int q = 0, k = 0; q < P; ++q)
    for (int t = 0; t < solved_here; ++t)
      for (int s = extent[std::size_t(q)].first; s <= extent[std::size_t(q)].last; ++s)
        whole[std::size_t(t) * std::size_t(n + 2) + std::size_t(s)] = incoming[std::size_t(k++)];
  const double *lower = factor.lower(), *cprime = factor.cprime(), *inv = factor.inv_denom();
  for (int t = 0; t < solved_here; ++t) {
    double* x = &whole[std::size_t(t) * std::size_t(n + 2)];
    for (int i = 1; i <= n; ++i) x[i] = kernels::thomas_forward(x[i], lower[i - 1], x[i - 1], inv[i - 1]);
    for (int i = n; i >= 1; --i) x[i] = kernels::thomas_backward(x[i], cprime[i - 1], x[i + 1]);
  }

  // And back: the solved segments to the ranks they came from (the counts reversed).
  for (int q = 0, k = 0; q < P; ++q)
    for (int t = 0; t < solved_here; ++t)
      for (int s = extent[std::size_t(q)].first; s <= extent[std::size_t(q)].last; ++s)
        incoming[std::size_t(k++)] = whole[std::size_t(t) * std::size_t(n + 2) + std::size_t(s)];
  check(MPI_Alltoallv(incoming.data(), recv_counts.data(), recv_offsets.data(), MPI_DOUBLE, outgoing.data(),
                      send_counts.data(), send_offsets.data(), MPI_DOUBLE, comm),
        "MPI_Alltoallv");
  for (int q = 0, k = 0; q < P; ++q)
    for (int t = q; t < lines; t += P)
      for (int s = 0; s < mine; ++s)
        segments[std::size_t(t) * std::size_t(mine) + std::size_t(s)] = outgoing[std::size_t(k++)];

  // What this rank sends in both: its segments there, the lines it solved back.
  CommStats& c = comm_stats_[std::size_t(level)];
  c.collectives += 2;
  for (int q = 0; q < P; ++q) {
    if (q == me) continue;
    for (int count : {send_counts[std::size_t(q)], recv_counts[std::size_t(q)]})
      if (count > 0) {
        ++c.messages;
        c.bytes += std::uint64_t(count) * sizeof(double);
      }
  }
}

}  // namespace kcycle
