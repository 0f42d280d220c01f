#include "kcycle/backends/mpi/mpi_backend.hpp"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <stdexcept>
#include <string>

#include "kcycle/backends/mpi/mpi_runtime.hpp"
#include "kcycle/core/invalid_options.hpp"
#include "kcycle/core/kernels.hpp"
#include "kcycle/core/medians.hpp"

#include "mpi_backend_parts.hpp"

namespace kcycle {

using namespace mpi_parts;

MpiBackend::MpiBackend(const ExecutionTarget& target, MPI_Comm comm, int px, int py)
    : cpu_(target.threads), min_points_(target.min_points) {
  start_mpi();  // without mpirun: one rank
  int size = 1;
  MPI_Comm_size(comm, &size);
  // The grid the cost model assumes too (process_grid, mpi_decomposition.hpp): MPI_Dims_create's choice, or
  // the one asked for.
  std::array<int, 2> grid;
  try {
    grid = process_grid(size, px, py);
  } catch (const InvalidOptions& e) {
    throw InvalidOptions("ranks-x " + std::to_string(px) + " and ranks-y " + std::to_string(py) + ": " + e.what() +
                         " (mpirun started " + std::to_string(size) + ")");
  }
  const int dims[2] = {grid[0], grid[1]};
  const int periods[2] = {0, 0};
  check(MPI_Cart_create(comm, 2, dims, periods, 0, &cart_), "MPI_Cart_create");
  px_ = dims[0];
  py_ = dims[1];
  MPI_Comm_rank(cart_, &rank_);
  int coords[2];
  MPI_Cart_coords(cart_, rank_, 2, coords);
  rx_ = coords[0];
  ry_ = coords[1];
}

MpiBackend::~MpiBackend() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) {  // too late to free anything through MPI
    for (auto& p : plans_)
      if (p) p->requests.clear();
    for (auto& t : transitions_)
      if (t) t->comm = MPI_COMM_NULL;
    row_comms_.clear();
    col_comms_.clear();
    return;
  }
  plans_.clear();
  free_stage_comms();
  if (cart_ != MPI_COMM_NULL) MPI_Comm_free(&cart_);
}

void MpiBackend::distribute(int levels, Coarsening coarsening, int min_points) {
  decomposition_ =
      std::make_unique<Decomposition>(levels, coarsening, px_, py_, min_points > 0 ? min_points : min_points_);
  free_stage_comms();
  transitions_.resize(std::size_t(levels) + 1);
  row_comms_.assign(std::size_t(decomposition_->final_stage()) + 1, MPI_COMM_NULL);
  col_comms_.assign(std::size_t(decomposition_->final_stage()) + 1, MPI_COMM_NULL);
  if (ranks() > 1) make_stage_comms();
  plans_.clear();
  plans_.resize(std::size_t(levels) + 1);
  residuals_.assign(std::size_t(levels) + 1, Field{});
  fold_parts_.assign(std::size_t(levels) + 1, Field{});
  comm_stats_.assign(std::size_t(levels) + 1, CommStats{});
}

void MpiBackend::need_decomposition() const {
  if (!decomposition_) throw std::logic_error("MpiBackend: distribute() the hierarchy before making vectors");
}

std::vector<CommStats> MpiBackend::comm_stats_all_ranks() {
  std::vector<CommStats> all = comm_stats_;
  if (ranks() == 1) return all;
  for (CommStats& c : all) {
    std::uint64_t sum[2] = {c.messages, c.bytes}, most[2] = {c.exchanges, c.collectives};
    check(MPI_Allreduce(MPI_IN_PLACE, sum, 2, MPI_UINT64_T, MPI_SUM, cart_), "MPI_Allreduce");
    check(MPI_Allreduce(MPI_IN_PLACE, most, 2, MPI_UINT64_T, MPI_MAX, cart_), "MPI_Allreduce");
    c = {most[0], sum[0], sum[1], most[1]};
  }
  return all;
}

void MpiBackend::reset_comm_stats() { std::fill(comm_stats_.begin(), comm_stats_.end(), CommStats{}); }

MpiBackend::Vector MpiBackend::make_vector(GridShape global) {
  need_decomposition();
  const int level = decomposition_->level_of(global);
  if (level == 0) throw std::logic_error("MpiBackend: a vector of a shape the hierarchy does not have");
  const GridShape block = holds(level) ? decomposition_->block_shape(level, rx_, ry_) : GridShape{0, 0};
  return Vector{cpu_.make_vector(block), global, level};
}

void MpiBackend::synchronize() {
  if (ranks() > 1) check(MPI_Barrier(cart_), "MPI_Barrier");
}

bool MpiBackend::any_rank(bool mine) {
  int any = mine ? 1 : 0;
  if (ranks() > 1) check(MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_LOR, cart_), "MPI_Allreduce");
  return any != 0;
}

void MpiBackend::max_on_ranks(std::span<double> values) {
  if (ranks() > 1 && !values.empty())
    check(MPI_Allreduce(MPI_IN_PLACE, values.data(), int(values.size()), MPI_DOUBLE, MPI_MAX, cart_), "MPI_Allreduce");
}

double MpiBackend::message_latency(int rounds) {
  need_decomposition();
  if (ranks() == 1) return 0.0;
  const int level = decomposition_->distributed_levels();
  Vector x = make_vector(decomposition_->global_shape(level));
  const std::uint64_t messages_per_round = plan(level).messages;
  std::vector<double> times;
  for (int k = 0; k < rounds + 5; ++k) {  // 5 rounds to warm up
    const double t0 = MPI_Wtime();
    exchange(x);
    if (k >= 5) times.push_back(MPI_Wtime() - t0);
  }
  double slowest[2] = {upper_median(times), double(messages_per_round)};
  check(MPI_Allreduce(MPI_IN_PLACE, slowest, 2, MPI_DOUBLE, MPI_MAX, cart_), "MPI_Allreduce");
  comm_stats_[std::size_t(level)] = CommStats{};  // the benchmark is no part of any solve
  return slowest[0] / slowest[1];
}

// --- multigrid operations ---------------------------------------------------------------

void MpiBackend::jacobi(const Stencil9& A, double omega, const Vector& v, const Vector& f, Vector& out) {
  ++launches_;
  if (!holds(v.level)) return;
  exchange(v);
  cpu_.jacobi(A, omega, v.local, f.local, out.local);
}

void MpiBackend::restrict_residual(const Stencil9& A, const Vector& v, const Vector& f, Vector& fc,
                                   Coarsening coarsening) {
  ++launches_;
  const int l = v.level;
  if (!holds(l)) return;
  // r = f - A v on the owned points, then its ghosts (the residual at 2I+1 may be the next
  // block's), then full weighting around each owned coarse point, as the serial pass does.
  exchange(v);
  Field& r = residuals_[std::size_t(l)];
  if (!(r.shape() == v.local.shape())) r = Field(v.local.shape());
  cpu_.residual(A, v.local, f.local, r);
  exchange(r, l);
  const bool fold = folds_after(l);
  Field& c = fold ? fold_part(fc.level) : fc.local;  // where fewer ranks hold the coarse level: this rank's part
  const GridShape cs = c.shape();
  for (int J = 1; J <= cs.ny; ++J) {
    const double *rm = r.row(2 * J - 1), *r0 = r.row(2 * J), *rp = r.row(2 * J + 1);
    double* out = c.row(J);
    if (coarsening == Coarsening::Full)
      for (int I = 1; I <= cs.nx; ++I) out[I] = kernels::full_weighting(rm, r0, rp, 2 * I);
    else
      for (int i = 1; i <= cs.nx; ++i) out[i] = kernels::full_weighting_y(rm, r0, rp, i);
  }
  if (fold) gather_to_parent(c, fc);
}

void MpiBackend::prolong_add(const Vector& vc, Vector& v, Coarsening coarsening) {
  ++launches_;
  if (!holds(v.level)) return;
  if (!folds_after(v.level)) {  // the same ranks hold both levels
    exchange(vc);
    cpu_.prolong_add(vc.local, v.local, coarsening);
    return;
  }
  // Fewer ranks hold the coarse level: each parent refreshes its ring, then hands each child
  // the coarse points under the child's fine block, ring included (one scatter per group).
  Transition& t = transition(v.level);
  const bool parent = t.me == 0;
  if (parent) {
    exchange(vc);
    t.all.resize(std::size_t(t.ring_offsets.back() + t.ring_counts.back()));
    const auto& [x0, y0] = t.parts.front();  // the parent's part starts its block
    std::size_t k = 0;
    for (const auto& [xr, yr] : t.rings)
      for (int j = yr.first; j <= yr.last; ++j)
        for (int i = xr.first; i <= xr.last; ++i) t.all[k++] = vc.local(i - x0.first + 1, j - y0.first + 1);
  }
  t.mine.resize(std::size_t(t.ring_counts[t.me]));
  check(MPI_Scatterv(t.all.data(), t.ring_counts.data(), t.ring_offsets.data(), MPI_DOUBLE, t.mine.data(),
                     t.ring_counts[t.me], MPI_DOUBLE, 0, t.comm),
        "MPI_Scatterv");
  ++comm_stats_[std::size_t(vc.level)].collectives;
  Field& block = fold_part(vc.level);  // this rank's coarse part and its ring
  std::size_t k = 0;
  for (int j = 0; j <= block.shape().ny + 1; ++j)
    for (int i = 0; i <= block.shape().nx + 1; ++i) block(i, j) = t.mine[k++];
  cpu_.prolong_add(block, v.local, coarsening);
}

void MpiBackend::coarse_solve(const BandedLU& lu, const Vector& f, Vector& v) {
  ++launches_;
  if (holds(v.level)) cpu_.coarse_solve(lu, f.local, v.local);
}

// --- vector operations ------------------------------------------------------------------

void MpiBackend::fill(Vector& x, double value) {
  ++launches_;
  if (holds(x.level)) cpu_.fill(x.local, value);
}

void MpiBackend::copy(const Vector& x, Vector& y) {
  ++launches_;
  if (holds(x.level)) cpu_.copy(x.local, y.local);
}

void MpiBackend::residual(const Stencil9& A, const Vector& v, const Vector& f, Vector& r) {
  ++launches_;
  if (!holds(v.level)) return;
  exchange(v);
  cpu_.residual(A, v.local, f.local, r.local);
}

void MpiBackend::apply(const Stencil9& A, const Vector& u, Vector& out) {
  ++launches_;
  if (!holds(u.level)) return;
  exchange(u);
  cpu_.apply(A, u.local, out.local);
}

double MpiBackend::dot(const Vector& x, const Vector& y) {
  ++launches_;
  return all_sum(holds(x.level) ? cpu_.dot(x.local, y.local) : 0.0, x.level);
}

void MpiBackend::axpy(double a, const Vector& x, Vector& y) {
  ++launches_;
  if (holds(x.level)) cpu_.axpy(a, x.local, y.local);
}

void MpiBackend::xpay(const Vector& x, double b, Vector& y) {
  ++launches_;
  if (holds(x.level)) cpu_.xpay(x.local, b, y.local);
}

void MpiBackend::triad(double s, const Vector& b, const Vector& c, Vector& a) {
  ++launches_;
  if (holds(a.level)) cpu_.triad(s, b.local, c.local, a.local);
}

double MpiBackend::apply_dot(const Stencil9& A, const Vector& p, Vector& q) {
  ++launches_;
  if (!holds(p.level)) return all_sum(0.0, p.level);
  exchange(p);
  return all_sum(cpu_.apply_dot(A, p.local, q.local), p.level);
}

double MpiBackend::axpy_norm2(double a, const Vector& x, Vector& y, const Vector* minus) {
  ++launches_;
  if (!holds(x.level)) return all_sum(0.0, x.level);
  return all_sum(cpu_.axpy_norm2(a, x.local, y.local, minus ? &minus->local : nullptr), x.level);
}

double MpiBackend::residual_norm2(const Stencil9& A, const Vector& v, const Vector& f, Vector* r) {
  ++launches_;
  if (!holds(v.level)) return all_sum(0.0, v.level);
  exchange(v);
  return all_sum(cpu_.residual_norm2(A, v.local, f.local, r ? &r->local : nullptr), v.level);
}

void MpiBackend::image(const Stencil9& A, FieldView view, const Vector& v, const Vector& f, const Vector* exact,
                       float* out) {
  ++launches_;
  Field hv, hf, he;
  download(v, hv);
  download(f, hf);
  if (exact) download(*exact, he);
  cpu_.image(A, view, hv, hf, exact ? &he : nullptr, out);
}

// --- host transfers ---------------------------------------------------------------------

void MpiBackend::upload(const Field& host, Vector& x) {
  if (x.level == 0) x = make_vector(host.shape());  // a vector not made yet, as CpuBackend allows
  if (!(host.shape() == x.global)) throw std::invalid_argument("MpiBackend::upload: host field of another shape");
  if (!holds(x.level)) return;
  const IndexRange xr = decomposition_->x_range(x.level, rx_), yr = decomposition_->y_range(x.level, ry_);
  // The block and its ring: the neighbours' values and the boundary, as the host has them.
  for (int j = 0; j <= yr.size() + 1; ++j)
    for (int i = 0; i <= xr.size() + 1; ++i) x.local(i, j) = host(xr.first - 1 + i, yr.first - 1 + j);
}

void MpiBackend::download(const Vector& x, Field& host) {
  const GridShape g = x.global;
  if (!host.data() || !(host.shape() == g)) host = Field(g);
  if (ranks() == 1) {
    host = x.local;
    return;
  }
  if (!distributed(x.level)) {  // rank 0 holds all of it
    std::vector<double> all(g.storage());
    if (rank_ == 0) std::copy(x.local.values().begin(), x.local.values().end(), all.begin());
    check(MPI_Bcast(all.data(), int(all.size()), MPI_DOUBLE, 0, cart_), "MPI_Bcast");
    std::copy(all.begin(), all.end(), host.values().begin());
    return;
  }
  const int n = ranks();
  std::vector<int> counts(static_cast<std::size_t>(n)), offsets(static_cast<std::size_t>(n));
  std::vector<std::pair<IndexRange, IndexRange>> ranges(static_cast<std::size_t>(n));
  int total = 0;
  for (int q = 0; q < n; ++q) {
    ranges[std::size_t(q)] = block_of(x.level, q);
    counts[std::size_t(q)] = ranges[std::size_t(q)].first.size() * ranges[std::size_t(q)].second.size();
    offsets[std::size_t(q)] = total;
    total += counts[std::size_t(q)];
  }
  const GridShape b = x.local.shape();
  std::vector<double> mine(b.unknowns()), all(static_cast<std::size_t>(total));
  for (int j = 1, k = 0; j <= b.ny; ++j)
    for (int i = 1; i <= b.nx; ++i) mine[std::size_t(k++)] = x.local(i, j);
  check(MPI_Allgatherv(mine.data(), int(mine.size()), MPI_DOUBLE, all.data(), counts.data(), offsets.data(), MPI_DOUBLE,
                       cart_),
        "MPI_Allgatherv");
  for (int q = 0; q < n; ++q) {
    const auto& [xr, yr] = ranges[std::size_t(q)];
    std::size_t k = std::size_t(offsets[std::size_t(q)]);
    for (int j = yr.first; j <= yr.last; ++j)
      for (int i = xr.first; i <= xr.last; ++i) host(i, j) = all[k++];
  }
}

}  // namespace kcycle
