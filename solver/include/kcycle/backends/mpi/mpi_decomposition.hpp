#pragma once
// How the MPI backend splits a multigrid hierarchy over a px x py process grid: which points
// of each level a rank owns, and from which level on the coarse levels are gathered onto
// rank 0 (agglomeration). No MPI here: the arithmetic of the split, testable anywhere.
//
// A coarse point I belongs to the rank that owns fine point 2I. A block edge on the finest
// level sits at a multiple of 2^D in every coarsened direction, D the deepest level of the last
// stage it bounds a block in (of 2 where the direction does not coarsen), so on every level a
// block starts after an even global index: local index i and global index have the same
// parity, the coarse block of a fine block is [o/2 + 1, o_next/2], and the backend's loops
// (restriction reads 2I-1..2I+1, prolongation I = i/2) run unchanged on the block with a
// one-point ghost ring.
#include <array>
#include <cstdint>
#include <vector>

#include "kcycle/core/grid.hpp"

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

// Agglomeration runs in stages, folding 2 x 2 ranks into one (2 into 1 where a direction has
// one rank left) each time: stage s is held by the ranks whose grid coordinates are multiples
// of 2^s, each owning the blocks of its 2^s x 2^s ranks of stage 0. A stage keeps the levels on
// which its blocks still have min_points a side (it may keep none); the last stage is rank 0
// alone, with the coarsest levels and the coarsest level's exact solve.
class Decomposition {
 public:
  // min_points: the fewest points a rank keeps per split direction on a level of a stage with
  // more than one rank; below 2 counts as 2. Level 1 is always split over all ranks: throws
  // InvalidOptions when it cannot give every rank 2 points a direction.
  Decomposition(int levels, Coarsening coarsening, int px, int py, int min_points = 8);

  int levels() const { return levels_; }
  int px() const { return px_; }
  int py() const { return py_; }
  Coarsening coarsening() const { return coarsening_; }
  // The stage that holds `level`: 0 for the finest levels, final_stage() for those on rank 0
  // alone (0 with one rank).
  int stage_of(int level) const;
  int final_stage() const { return int(last_level_.size()); }
  // The deepest level of stage s < final_stage(); equal to the one before when s holds none.
  int last_level_of_stage(int s) const { return last_level_[std::size_t(s)]; }
  // Levels 1..distributed_levels() are split over all ranks (every level with one rank).
  int distributed_levels() const { return last_level_.empty() ? levels_ : last_level_.front(); }
  // Whether more than one rank holds parts of the level.
  bool distributed(int level) const { return stage_of(level) < final_stage(); }
  // Whether rank (rx, ry) holds a block of the level, and its grid step there (2^stage).
  int step(int level) const { return 1 << stage_of(level); }
  bool holds(int level, int rx, int ry) const { return rx % step(level) == 0 && ry % step(level) == 0; }
  // Ranks holding the level across x and down y.
  int ranks_across(int level) const { return (px_ + step(level) - 1) / step(level); }
  int ranks_down(int level) const { return (py_ + step(level) - 1) / step(level); }
  // The global shape of a level.
  GridShape global_shape(int level) const { return level_shape(levels_, level, coarsening_); }
  // The points of `level` that rank column rx (row ry) owns in x (y); empty where it holds none.
  IndexRange x_range(int level, int rx) const;
  IndexRange y_range(int level, int ry) const;
  // The owned block's shape (its interior; the ghost ring is around it).
  GridShape block_shape(int level, int rx, int ry) const {
    return holds(level, rx, ry) ? GridShape{x_range(level, rx).size(), y_range(level, ry).size()} : GridShape{0, 0};
  }
  // Which level a global shape is (0 if none).
  int level_of(GridShape shape) const;

 private:
  // Finest-level edges of `parts` blocks along `points`: edge r at a multiple of unit(r).
  template <class Unit>
  static std::vector<int> split(int points, int parts, Unit unit);
  std::vector<int> edges(int points, int parts, bool coarsens) const;
  // The smallest block of stage s on its deepest level, over the split directions.
  int smallest_block(int s) const;
  int levels_;
  Coarsening coarsening_;
  int px_, py_;
  std::vector<int> last_level_;         // by stage, below the final one
  std::vector<int> x_edges_, y_edges_;  // finest level: block r owns (edge[r], edge[r+1]]
};

// The process grid `ranks` ranks run on: ranks_x by ranks_y when both are given, one of them
// with the other making up the ranks, else the most nearly square pair with px >= py (what
// MPI_Dims_create picks in 2D; MpiBackend lays its ranks out by it, so the model's grid is the
// backend's). Throws InvalidOptions when the ranks do not fit.
std::array<int, 2> process_grid(int ranks, int ranks_x, int ranks_y);

}  // namespace kcycle
