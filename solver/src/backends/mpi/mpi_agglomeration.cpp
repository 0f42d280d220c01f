// The MPI backend's agglomeration: coarse levels gathered onto fewer ranks stage by stage
// (2 x 2 ranks into one), the groups' communicators, and each rank's blocks.
#include <algorithm>
#include <cstdlib>
#include <functional>
#include <stdexcept>
#include <string>

#include "mpi_backend_parts.hpp"

namespace kcycle {

using namespace mpi_parts;

void MpiBackend::free_stage_comms() {
  transitions_.clear();
  for (std::vector<MPI_Comm>* comms : {&row_comms_, &col_comms_})
    for (MPI_Comm& c : *comms)
      if (c != MPI_COMM_NULL) MPI_Comm_free(&c);
  row_comms_.clear();
  col_comms_.clear();
}

void MpiBackend::gather_to_parent(const Field& part, Vector& coarse) {
  // One collective per group: the children's parts, packed row by row, into the parent's block.
  Transition& t = transition(coarse.level - 1);
  t.mine.resize(part.shape().unknowns());
  for (int j = 1, k = 0; j <= part.shape().ny; ++j)
    for (int i = 1; i <= part.shape().nx; ++i) t.mine[std::size_t(k++)] = part(i, j);
  const bool parent = t.me == 0;
  t.all.resize(parent ? std::size_t(t.part_offsets.back() + t.part_counts.back()) : 0);
  check(MPI_Gatherv(t.mine.data(), int(t.mine.size()), MPI_DOUBLE, t.all.data(), t.part_counts.data(),
                    t.part_offsets.data(), MPI_DOUBLE, 0, t.comm),
        "MPI_Gatherv");
  ++comm_stats_[std::size_t(coarse.level)].collectives;
  if (!parent) return;
  const auto& [x0, y0] = t.parts.front();  // the parent's part starts its block
  for (std::size_t q = 0; q < t.members.size(); ++q) {
    const auto& [xr, yr] = t.parts[q];
    std::size_t k = std::size_t(t.part_offsets[q]);
    for (int j = yr.first; j <= yr.last; ++j)
      for (int i = xr.first; i <= xr.last; ++i) coarse.local(i - x0.first + 1, j - y0.first + 1) = t.all[k++];
  }
}

MpiBackend::Transition& MpiBackend::transition(int fine) {
  const std::unique_ptr<Transition>& t = transitions_[std::size_t(fine)];
  if (!t || t->comm == MPI_COMM_NULL) throw std::logic_error("MpiBackend: no fold after this level on this rank");
  return *t;
}

void MpiBackend::make_stage_comms() {
  // Collectives of all ranks, once per hierarchy: the groups that fold into one after a level
  // (one communicator each, the parent first), and per stage the rows and columns of its ranks.
  const Decomposition& d = *decomposition_;
  for (int fine = 1; fine < d.levels(); ++fine) {
    if (!folds_after(fine)) continue;
    const int step = d.step(fine + 1);
    const int coords[2] = {rx_ - rx_ % step, ry_ - ry_ % step};
    int parent = 0;
    MPI_Cart_rank(cart_, coords, &parent);
    auto t = std::make_unique<Transition>();
    check(MPI_Comm_split(cart_, holds(fine) ? parent : MPI_UNDEFINED, rank_ == parent ? 0 : rank_ + 1, &t->comm),
          "MPI_Comm_split");
    if (t->comm != MPI_COMM_NULL) {
      int size = 0;
      MPI_Comm_size(t->comm, &size);
      t->members.resize(std::size_t(size));
      check(MPI_Allgather(&rank_, 1, MPI_INT, t->members.data(), 1, MPI_INT, t->comm), "MPI_Allgather");
      t->me = std::size_t(std::find(t->members.begin(), t->members.end(), rank_) - t->members.begin());
      t->lay_out([&](int q) { return derived_block(fine + 1, q); });
    }
    transitions_[std::size_t(fine)] = std::move(t);
  }
  for (int s = 0; s < d.final_stage(); ++s) {
    const int step = 1 << s;
    const bool mine = rx_ % step == 0 && ry_ % step == 0;
    check(MPI_Comm_split(cart_, mine ? ry_ : MPI_UNDEFINED, rx_, &row_comms_[std::size_t(s)]), "MPI_Comm_split");
    check(MPI_Comm_split(cart_, mine ? rx_ : MPI_UNDEFINED, ry_, &col_comms_[std::size_t(s)]), "MPI_Comm_split");
  }
}

MPI_Comm MpiBackend::line_comm(int level, bool x_lines) {
  const std::size_t s = std::size_t(decomposition_->stage_of(level));
  return x_lines ? row_comms_[s] : col_comms_[s];
}

Field& MpiBackend::fold_part(int coarse) {
  Field& part = fold_parts_[std::size_t(coarse)];
  const auto& [xr, yr] = transition(coarse - 1).parts[transition(coarse - 1).me];
  if (!part.data()) part = Field(GridShape{xr.size(), yr.size()});
  return part;
}

std::pair<IndexRange, IndexRange> MpiBackend::block_of(int level, int rank) const {
  int coords[2];
  MPI_Cart_coords(cart_, rank, 2, coords);
  return {decomposition_->x_range(level, coords[0]), decomposition_->y_range(level, coords[1])};
}

std::pair<IndexRange, IndexRange> MpiBackend::derived_block(int level, int rank) const {
  auto [x, y] = block_of(level - 1, rank);
  if (decomposition_->coarsening() == Coarsening::Full) x = coarser(x);
  return {x, coarser(y)};
}

}  // namespace kcycle
