// The MPI backend's split of a hierarchy over a process grid (no MPI needed): blocks tile
// every distributed level, start after even indices (so restriction and prolongation run
// unchanged on a block), keep min_points a side down to the last distributed level, and the
// levels below go to rank 0.
#include <gtest/gtest.h>

#include <stdexcept>

#include "kcycle/mpi_decomposition.hpp"

namespace kcycle {
namespace {

// coarsens: the direction halves level by level (not x under semi-coarsening), so its blocks
// must start after an even index.
void expect_tiles(const Decomposition& d, int level, bool x, int parts, int points, bool coarsens) {
  int next = 1;
  for (int r = 0; r < parts; ++r) {
    const IndexRange range = x ? d.x_range(level, r) : d.y_range(level, r);
    EXPECT_EQ(range.first, next) << "level " << level << ", block " << r;
    EXPECT_GE(range.size(), 2) << "level " << level << ", block " << r;
    if (coarsens) {
      EXPECT_EQ((range.first - 1) % 2, 0) << "a block starts after an even index: level " << level;
    }
    next = range.last + 1;
  }
  EXPECT_EQ(next, points + 1) << "level " << level;
}

TEST(Decomposition, BlocksTileEveryDistributedLevelAndStartAfterEvenIndices) {
  for (Coarsening c : {Coarsening::Full, Coarsening::SemiY})
    for (int levels : {4, 6, 9})
      for (auto [px, py] : {std::pair{1, 1}, {2, 1}, {1, 2}, {2, 2}, {3, 1}, {1, 4}, {4, 4}, {3, 5}}) {
        const Decomposition d(levels, c, px, py, 4);
        const int D = d.distributed_levels();
        if (px * py == 1) {
          EXPECT_EQ(D, levels);
          continue;
        }
        EXPECT_GE(D, 1);
        EXPECT_LT(D, levels) << "the coarsest level's solve runs on rank 0";
        for (int l = 1; l <= D; ++l) {
          const GridShape g = d.global_shape(l);
          if (px > 1) expect_tiles(d, l, true, px, g.nx, c == Coarsening::Full);
          if (py > 1) expect_tiles(d, l, false, py, g.ny, true);
        }
        for (int l = D + 1; l <= levels; ++l) {  // gathered: rank 0 holds all of it
          EXPECT_EQ(d.block_shape(l, 0, 0), d.global_shape(l));
          if (px > 1) {
            EXPECT_EQ(d.x_range(l, 1).size(), 0);
          }
        }
      }
}

TEST(Decomposition, TheLastDistributedLevelKeepsMinPointsPerRankAndTheNextWouldNot) {
  const int levels = 9;
  for (int min_points : {2, 4, 8, 16, 32}) {
    const Decomposition d(levels, Coarsening::Full, 2, 2, min_points);
    const int D = d.distributed_levels();
    if (D > 1) {
      for (int r = 0; r < 2; ++r) {
        EXPECT_GE(d.x_range(D, r).size(), min_points) << min_points;
        EXPECT_GE(d.y_range(D, r).size(), min_points) << min_points;
      }
    }
    if (D + 1 < levels && min_points >= 4) {  // (below 2 counts as 2)
      const Decomposition deeper(levels, Coarsening::Full, 2, 2, min_points / 2);
      EXPECT_GT(deeper.distributed_levels(), D) << "halving min_points distributes a level more: " << min_points;
    }
  }
}

TEST(Decomposition, TooManyRanksForTheGridAreRefused) {
  EXPECT_THROW(Decomposition(3, Coarsening::Full, 8, 1), std::invalid_argument);
  EXPECT_NO_THROW(Decomposition(3, Coarsening::Full, 2, 1));
  EXPECT_EQ(Decomposition(5, Coarsening::Full, 2, 2).level_of(GridShape{7, 7}), 3);
  EXPECT_EQ(Decomposition(5, Coarsening::Full, 2, 2).level_of(GridShape{8, 8}), 0);
}

}  // namespace
}  // namespace kcycle
