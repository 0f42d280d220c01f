#pragma once
// How the MPI backend splits a multigrid hierarchy over a px x py process grid: which points
// of each level a rank owns, and from which level on the coarse levels are gathered onto
// rank 0 (agglomeration). No MPI here: the arithmetic of the split, testable anywhere.
//
// A coarse point I belongs to the rank that owns fine point 2I. Block edges on the finest
// level sit at multiples of 2^D in every coarsened direction (D = distributed levels), so on
// every distributed level a block starts after an even global index: local index i and global
// index have the same parity, the coarse block of a fine block is [o/2 + 1, o_next/2], and the
// backend's loops (restriction reads 2I-1..2I+1, prolongation I = i/2) run unchanged on the
// block with a one-point ghost ring.
#include <cstdint>
#include <vector>

#include "kcycle/grid.hpp"

namespace kcycle {

// What a level's communication cost: the model's per-message term counts these.
struct CommStats {
  std::uint64_t exchanges = 0;    // halo exchange rounds
  std::uint64_t messages = 0;     // messages sent: halo messages, and the parts of the line transposes
  std::uint64_t bytes = 0;        // bytes sent in them
  std::uint64_t collectives = 0;  // gathers, broadcasts, reductions and the line transposes' all-to-alls
};

// Global interior indices [first, last], 1-based; empty when last < first.
struct IndexRange {
  int first = 1, last = 0;
  int size() const { return last >= first ? last - first + 1 : 0; }
  friend bool operator==(const IndexRange&, const IndexRange&) = default;
};

class Decomposition {
 public:
  // min_points: the fewest points a rank keeps per split direction on a distributed level;
  // coarser levels are gathered onto rank 0. Throws std::invalid_argument when even the
  // finest level cannot give every rank 2 points a direction (min_points below 2 counts as 2).
  Decomposition(int levels, Coarsening coarsening, int px, int py, int min_points = 8);

  int levels() const { return levels_; }
  int px() const { return px_; }
  int py() const { return py_; }
  Coarsening coarsening() const { return coarsening_; }
  // Levels 1..distributed_levels() are split over all ranks; the rest live on rank 0. With one
  // rank every level is "distributed" (nothing is gathered).
  int distributed_levels() const { return distributed_; }
  bool distributed(int level) const { return level <= distributed_; }
  // The global shape of a level.
  GridShape global_shape(int level) const { return level_shape(levels_, level, coarsening_); }
  // The points of `level` that rank column rx (row ry) owns in x (y).
  IndexRange x_range(int level, int rx) const;
  IndexRange y_range(int level, int ry) const;
  // The owned block's shape (its interior; the ghost ring is around it).
  GridShape block_shape(int level, int rx, int ry) const {
    return {x_range(level, rx).size(), y_range(level, ry).size()};
  }
  // Which level a global shape is (0 if none).
  int level_of(GridShape shape) const;

 private:
  static std::vector<int> split(int points, int parts, int unit);  // parts+1 block edges
  int levels_;
  Coarsening coarsening_;
  int px_, py_;
  int distributed_ = 1;
  std::vector<int> x_edges_, y_edges_;  // finest level: block r owns (edge[r], edge[r+1]]
};

}  // namespace kcycle
