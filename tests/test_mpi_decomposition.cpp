// The MPI backend's split of a hierarchy over a process grid (no MPI needed): on every level
// the blocks of the ranks of its agglomeration stage tile it and start after even indices (so
// restriction and prolongation run unchanged on a block), each stage keeps min_points a side
// on its levels and folds 2 x 2 ranks into one, and the coarsest levels go to rank 0.
#include <gtest/gtest.h>

#include <stdexcept>

#include "kcycle/backends/mpi/mpi_decomposition.hpp"

namespace kcycle {
namespace {

// The blocks of the ranks holding `level` along one direction (every step-th rank): they tile
// it, each has 2 points at least where they are several, and where the direction coarsens each starts after an even
// index.
void expect_tiles(const Decomposition& d, int level, bool x, int parts, int points, bool coarsens) {
  int next = 1;
  const int step = d.step(level);
  for (int r = 0; r < parts; ++r) {
    const IndexRange range = x ? d.x_range(level, r) : d.y_range(level, r);
    if (r % step != 0) {
      EXPECT_EQ(range.size(), 0) << "rank " << r << " holds nothing of level " << level;
      continue;
    }
    EXPECT_EQ(range.first, next) << "level " << level << ", block " << r;
    if (d.distributed(level)) {
      EXPECT_GE(range.size(), 2) << "level " << level << ", block " << r;
    }
    if (coarsens) {
      EXPECT_EQ((range.first - 1) % 2, 0) << "a block starts after an even index: level " << level;
    }
    next = range.last + 1;
  }
  EXPECT_EQ(next, points + 1) << "level " << level;
}

TEST(Decomposition, EveryLevelIsTiledByTheRanksOfItsStage) {
  for (Coarsening c : {Coarsening::Full, Coarsening::SemiY})
    for (int levels : {4, 6, 9})
      for (auto [px, py] : {std::pair{1, 1}, {2, 1}, {1, 2}, {2, 2}, {3, 1}, {1, 4}, {4, 1}, {4, 4}, {3, 5}, {8, 8}}) {
        if (levels == 4 && px * py >= 16) continue;  // too many ranks for 15 x 15 points
        const Decomposition d(levels, c, px, py, 4);
        if (px * py == 1) {
          EXPECT_EQ(d.distributed_levels(), levels);
          EXPECT_EQ(d.final_stage(), 0);
          continue;
        }
        EXPECT_GE(d.distributed_levels(), 1);
        EXPECT_EQ(d.stage_of(1), 0);
        EXPECT_EQ(d.stage_of(levels), d.final_stage()) << "the coarsest level's solve runs on rank 0";
        for (int l = 1; l <= levels; ++l) {
          if (l > 1) {
            EXPECT_GE(d.stage_of(l), d.stage_of(l - 1));
          }
          const GridShape g = d.global_shape(l);
          expect_tiles(d, l, true, px, g.nx, c == Coarsening::Full);
          expect_tiles(d, l, false, py, g.ny, true);
          if (!d.distributed(l)) {
            EXPECT_EQ(d.block_shape(l, 0, 0), g) << "rank 0 holds all of level " << l;
          }
        }
      }
}

TEST(Decomposition, EachStageKeepsMinPointsPerRankAndFoldsTwoByTwo) {
  const int levels = 9;
  for (int min_points : {2, 4, 8, 16, 32}) {
    const Decomposition d(levels, Coarsening::Full, 4, 4, min_points);
    for (int s = 0; s < d.final_stage(); ++s) {
      const int deepest = d.last_level_of_stage(s);
      if (s > 0 && deepest == d.last_level_of_stage(s - 1)) continue;  // a stage without levels
      EXPECT_EQ(d.stage_of(deepest), s);
      for (int r = 0; r < 4; r += 1 << s) {
        EXPECT_GE(d.x_range(deepest, r).size(), min_points) << min_points << ", stage " << s;
        EXPECT_GE(d.y_range(deepest, r).size(), min_points) << min_points << ", stage " << s;
      }
    }
    if (min_points >= 4) {  // (below 2 counts as 2)
      const Decomposition deeper(levels, Coarsening::Full, 4, 4, min_points / 2);
      EXPECT_GT(deeper.distributed_levels(), d.distributed_levels())
          << "halving min_points splits a level more: " << min_points;
    }
  }
  // 4 x 4 ranks, 9 levels, 8 points a side: 16 ranks, then 4 (2 x 2), then rank 0.
  const Decomposition d(levels, Coarsening::Full, 4, 4, 8);
  ASSERT_EQ(d.final_stage(), 2);
  const int first = d.distributed_levels(), second = d.last_level_of_stage(1);
  EXPECT_EQ(first, 4);   // 511 / 4 = 128 points a rank on level 1, 16 on level 4
  EXPECT_EQ(second, 5);  // 2 x 2 ranks: 16 points a rank on level 5
  EXPECT_EQ(d.ranks_across(second), 2);
  EXPECT_TRUE(d.holds(second, 2, 2));
  EXPECT_FALSE(d.holds(second, 1, 0));
  EXPECT_EQ(d.block_shape(second, 0, 0), (GridShape{16, 16}));  // of 31 x 31
  EXPECT_EQ(d.block_shape(second, 2, 2), (GridShape{15, 15}));
}

TEST(Decomposition, TooManyRanksForTheGridAreRefused) {
  EXPECT_THROW(Decomposition(3, Coarsening::Full, 8, 1), std::invalid_argument);
  EXPECT_NO_THROW(Decomposition(3, Coarsening::Full, 2, 1));
  EXPECT_EQ(Decomposition(5, Coarsening::Full, 2, 2).level_of(GridShape{7, 7}), 3);
  EXPECT_EQ(Decomposition(5, Coarsening::Full, 2, 2).level_of(GridShape{8, 8}), 0);
}

}  // namespace
}  // namespace kcycle
