// The coarse forecast's first stage (coarse_forecast.hpp: solve_coarse_windows) runs the small
// hierarchies' solves side by side on a pool of std::jthreads; here so that the TSan preset,
// which builds this binary, runs that pool too.
#include <gtest/gtest.h>

#include <stop_token>
#include <vector>

#include "kcycle/cycle/multigrid_choices.hpp"
#include "kcycle/model/coarse_forecast.hpp"
#include "kcycle/solve/multigrid.hpp"

namespace kcycle {
namespace {

// The first stage side by side, one thread each: the same counts as one after the other, each
// cycle solved once at each level count, its set-up timed, and a stop requested ends it with
// CycleCancelled.
TEST(CoarseForecast, SolvesTheWindowsSideBySideWithTheSameCounts) {
  SolverOptions o;
  o.levels = 8;  // solves at 4, 5, 6 levels
  o.eps = 1e-4;
  o.angle_degrees = 45;
  o.smoother = Smoother::XYZebra;
  o.coarse_operator = CoarseOperator::Galerkin;
  std::vector<SolverOptions> targets;
  for (const int kappa : kKappaCandidates) {
    targets.push_back(o);
    targets.back().cycle = {CycleType::Kappa, kappa};
  }
  CoarseSolves side_by_side;
  solve_coarse_windows(targets, {}, 2, side_by_side);
  // kappa = 1, 2 and 3 at 4, 5, 6 levels; kappa = 4 at 5 and 6 (at 4 levels it leaves kappa =
  // 3's iterates); W only at 6 (at 5 levels it leaves kappa = 4's): each from three random starts.
  ASSERT_EQ(forecast_seeds(o, {}), 3);
  EXPECT_EQ(side_by_side.size(), 3u * (3u * 3u + 2u + 1u));
  for (const CoarseSolve& s : side_by_side) {
    EXPECT_EQ(s.threads, 1);
    EXPECT_GT(s.setup_seconds, 0);  // its hierarchy built, part of its time (a probe's plan prices it)
    EXPECT_LT(s.setup_seconds, s.seconds);
  }
  for (const SolverOptions& target : targets) {
    const CoarseForecast shared = forecast_from_coarse_solves(target, {}, side_by_side);
    const CoarseForecast alone = forecast_from_coarse_solves(target, {});
    EXPECT_EQ(shared.iterations, alone.iterations) << "kappa " << target.cycle.counter;
  }
  EXPECT_EQ(side_by_side.size(), 36u) << "nothing solved again";
  std::stop_source stop;
  stop.request_stop();
  CoarseSolves none;
  EXPECT_THROW(solve_coarse_windows(targets, {}, 2, none, stop.get_token()), CycleCancelled);
}

// Side by side only where the window's deepest hierarchy has kSideBySideFromLevels levels: below
// it a second thread's start costs as much as the stage (coarse_forecast.hpp).
TEST(CoarseForecast, SolvesSideBySideOnlyFromWindowsOfSixLevels) {
  SolverOptions o;
  o.levels = 7;  // a budget of a solve: 3, 4, 5 levels
  EXPECT_EQ(coarse_forecast_levels(o, {}).back(), 5);
  EXPECT_FALSE(side_by_side_pays(o, {}));
  o.levels = 8;  // 4, 5, 6
  EXPECT_TRUE(side_by_side_pays(o, {}));
  CoarseForecastSettings tenth;
  tenth.budget = 0.1;  // three levels ahead: 3, 4, 5
  EXPECT_FALSE(side_by_side_pays(o, tenth));
  o.levels = 11;  // the default budget there is a tenth: 6, 7, 8
  EXPECT_EQ(coarse_forecast_levels(o, {}).back(), 8);
  EXPECT_TRUE(side_by_side_pays(o, {}));
  o.levels = 4;  // no window at all
  EXPECT_FALSE(side_by_side_pays(o, {}));
}

}  // namespace
}  // namespace kcycle
