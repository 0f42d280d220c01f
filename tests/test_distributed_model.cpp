// The cost model on a process grid (distributed_model.hpp), where it needs no MPI: on one rank
// it is the paper's model; the W-cycle's messages grow like its calls (2^n) and the kappa-cycles'
// like a polynomial; weak scaling to 4096 ranks folds the coarse levels onto fewer ranks stage by
// stage. The counts
// themselves are checked against real ranks in tests/mpi (TheModelsCountsAreTheBusiestRanksCounts).
#include <gtest/gtest.h>

#include "closed_forms.hpp"
#include "kcycle/core/stencil.hpp"
#include "kcycle/model/distributed_model.hpp"
#include "kcycle/solve/solver_options.hpp"

namespace kcycle {
namespace {

MultigridSettings settings(int levels) {
  MultigridSettings s;
  s.levels = levels;
  s.tensor = rotated_anisotropic_tensor(1e-4, 45);
  s.nu1 = s.nu2 = 2;
  return s;
}

TEST(DistributedModel, OnOneRankItIsThePapersModel) {
  const CostModel model{2e-6, 1e-9, 5e-6};
  for (int kappa : {1, 2, 3, 4, kKappaW}) {
    const MultigridSettings s = settings(8);
    const Decomposition one(8, Coarsening::Full, 1, 1);
    const DistributedCycleCost c = distributed_cycle_cost(s, kappa, one, model);
    EXPECT_EQ(c.ops, cycle_ops(kappa, 8, Coarsening::Full));
    EXPECT_EQ(c.launches, cycle_launches(kappa, 8, closed_form::launches_per_call(s)));
    EXPECT_EQ(c.messages, 0.0);
    EXPECT_DOUBLE_EQ(c.seconds, model.predict(c.launches, c.ops));
  }
}

TEST(DistributedModel, MessagesGrowLikeTheCallsOnTheSplitLevels) {
  // 4 x 4 ranks, 9 levels: the W-cycle visits the split levels 2^(l-1) times, kappa = 1 once.
  const Decomposition d(9, Coarsening::Full, 4, 4);
  double previous = 0;
  for (int kappa : {1, 2, 3, 4}) {
    const DistributedCycleCost c = distributed_cycle_cost(settings(9), kappa, d, {});
    EXPECT_GT(c.messages, previous) << kappa_to_string(kappa);
    previous = c.messages;
  }
  // levelCalls(kappa, l) = 2^(l-1) for l <= kappa: where only levels 1..4 are split (2 x 2
  // ranks, 8 levels, 8 points a rank and side) kappa = 4 already sends what the W-cycle sends;
  // only rank 0's levels tell them apart. On 4 x 4 ranks the 2 x 2 stage splits level 5 too.
  const Decomposition four(8, Coarsening::Full, 2, 2, 8);
  ASSERT_EQ(four.distributed_levels(), 4);
  ASSERT_EQ(four.final_stage(), 1);
  const DistributedCycleCost k4 = distributed_cycle_cost(settings(8), 4, four, {}),
                             w = distributed_cycle_cost(settings(8), kKappaW, four, {});
  EXPECT_EQ(w.messages, k4.messages);
  EXPECT_GT(w.ops, k4.ops);
  ASSERT_EQ(d.last_level_of_stage(1), 5);
  EXPECT_GT(distributed_cycle_cost(settings(9), kKappaW, d, {}).messages,
            distributed_cycle_cost(settings(9), 4, d, {}).messages);
  // Level 1 of a V-cycle: nu1 + nu2 sweeps and the restriction's two exchanges; an interior
  // rank of a 4 x 4 grid has 8 neighbours.
  const auto v = distributed_cycle_counts(settings(9), 1, d);
  EXPECT_EQ(v[1].exchanges, 2 + 2 + 2);
  EXPECT_EQ(v[1].messages, 8 * 6);
  EXPECT_EQ(v[2].exchanges, 6 + 1);  // and one before the prolongation to level 1
}

TEST(DistributedModel, TheProcessGridIsMpisChoiceOrTheOneAskedFor) {
  EXPECT_EQ(process_grid(4, 0, 0), (std::array{2, 2}));
  EXPECT_EQ(process_grid(8, 0, 0), (std::array{4, 2}));
  EXPECT_EQ(process_grid(6, 0, 0), (std::array{3, 2}));
  EXPECT_EQ(process_grid(3, 0, 0), (std::array{3, 1}));
  EXPECT_EQ(process_grid(4, 1, 0), (std::array{1, 4}));
  EXPECT_EQ(process_grid(4, 0, 1), (std::array{4, 1}));
  EXPECT_EQ(process_grid(6, 2, 3), (std::array{2, 3}));
  EXPECT_THROW(process_grid(4, 3, 0), InvalidOptions);
  EXPECT_THROW(process_grid(4, 3, 1), InvalidOptions);
}

TEST(DistributedModel, WeakScalingTo4096RanksFoldsTheCoarseLevelsStepByStep) {
  const CostModel work_only{0, 1e-9, 0};
  const auto points = weak_scaling_prediction(settings(8), 1, work_only, 4096);
  ASSERT_EQ(points.size(), 7u);  // 1, 4, 16, ..., 4096 ranks
  EXPECT_EQ(points.front().efficiency, 1.0);
  for (std::size_t k = 0; k < points.size(); ++k) {
    EXPECT_EQ(points[k].ranks, 1 << (2 * k));
    EXPECT_EQ(points[k].levels, 8 + int(k));
    EXPECT_LE(points[k].efficiency, 1.0);
  }
  // The levels split over all ranks stay those where a block keeps 8 points a side: the same
  // for every P > 1. Below them 2 x 2 ranks fold into one, stage by stage, so rank 0 alone gets
  // only levels of fewer than 32 points a side, however many ranks there are; each stage still
  // adds work and messages, so efficiency falls slowly.
  for (std::size_t k = 1; k < points.size(); ++k) {
    EXPECT_EQ(points[k].distributed_levels, points[1].distributed_levels);
    if (k > 1) {
      EXPECT_LT(points[k].efficiency, points[k - 1].efficiency);
    }
    const Decomposition d(points[k].levels, Coarsening::Full, points[k].px, points[k].py);
    int first_alone = 1;
    while (d.distributed(first_alone)) ++first_alone;
    EXPECT_LT(d.global_shape(first_alone).nx, 32) << points[k].ranks << " ranks";
  }
  // The W-cycle visits the coarse levels exponentially often: it scales worst.
  const auto w = weak_scaling_prediction(settings(8), kKappaW, work_only, 4096);
  EXPECT_LT(w.back().efficiency, points.back().efficiency);
}

}  // namespace
}  // namespace kcycle
