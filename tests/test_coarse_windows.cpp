// The coarse forecast's first stage (coarse_forecast.hpp: solve_coarse_windows) runs the small
// hierarchies' solves side by side on a pool of std::jthreads; here so that the TSan preset,
// which builds this binary, runs that pool too.
#include <gtest/gtest.h>

#include <stop_token>
#include <vector>

#include "kcycle/cycle/cycle_counts.hpp"
#include "kcycle/cycle/multigrid_choices.hpp"
#include "kcycle/model/coarse_forecast.hpp"
#include "kcycle/solve/multigrid.hpp"
#include "kcycle/solve/solve.hpp"

namespace kcycle {
namespace {

// `o` once for each of the advisor's kappas.
std::vector<SolverOptions> every_kappa(const SolverOptions& o) {
  std::vector<SolverOptions> targets;
  for (const int kappa : kKappaCandidates) {
    targets.push_back(o);
    targets.back().cycle = {CycleType::Kappa, kappa};
  }
  return targets;
}

// The first stage side by side, one thread each: the same counts as one after the other, each
// cycle solved once at each level count, its set-up timed, and a stop requested ends it with
// CycleCancelled. A kappa between two that counted alike is not solved (sandwiched_solve): the
// forecasts' counts are still those of every kappa solved alone.
TEST(CoarseForecast, SolvesTheWindowsSideBySideWithTheSameCounts) {
  SolverOptions o;
  o.levels = 8;  // solves at 4, 5, 6 levels
  o.eps = 1e-4;
  o.angle_degrees = 45;
  o.smoother = Smoother::XYZebra;
  o.coarse_operator = CoarseOperator::Galerkin;
  const std::vector<SolverOptions> targets = every_kappa(o);
  CoarseSolves side_by_side;
  solve_coarse_windows(targets, {}, 2, side_by_side);
  // kappa = 1, 2 and 3 at 4, 5, 6 levels; kappa = 4 at 5 and 6 (at 4 levels it leaves kappa =
  // 3's iterates); W only at 6 (at 5 levels it leaves kappa = 4's): each from three random starts.
  ASSERT_EQ(forecast_seeds(o, {}), 3);
  EXPECT_EQ(side_by_side.size(), 3u * (3u * 3u + 2u + 1u));
  for (const CoarseSolve& s : side_by_side) {
    EXPECT_EQ(s.threads, 1);
    if (s.between) {
      EXPECT_EQ(s.seconds, 0) << "not run";
      continue;
    }
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
// At 5 levels kappa = 2 and the W-cycle (kappa = 4 there) count alike for MGCG (16 each): kappa = 3
// lies between them, takes their count unsolved, and is priced between them by its calls. It
// counts the same solved alone.
TEST(CoarseForecast, AKappaBetweenTwoThatCountAlikeIsNotSolved) {
  SolverOptions o;
  o.levels = 7;  // a budget of a solve: 3, 4, 5 levels
  apply(*find_preset("jacobi+cg"), o);
  const std::vector<SolverOptions> targets = every_kappa(o);
  CoarseSolves solved;
  solve_coarse_windows(targets, {}, 1, solved);
  const auto at = [&](int levels, int counter) {
    for (const CoarseSolve& s : solved)
      if (s.levels == levels && s.counter == counter) return s;
    ADD_FAILURE() << "no solve of counter " << counter << " at " << levels << " levels";
    return CoarseSolve{};
  };
  const CoarseSolve two = at(5, 2), three = at(5, 3), w = at(5, 4);
  ASSERT_EQ(two.iterations, w.iterations) << "the premise: kappa = 2 and W count alike at 5 levels";
  EXPECT_FALSE(two.between);
  EXPECT_FALSE(w.between);
  EXPECT_TRUE(three.between);
  EXPECT_EQ(three.iterations, two.iterations);
  const double along = double(total_calls(3, 5) - total_calls(2, 5)) / double(total_calls(4, 5) - total_calls(2, 5));
  EXPECT_DOUBLE_EQ(three.seconds_per_iteration,
                   two.seconds_per_iteration + along * (w.seconds_per_iteration - two.seconds_per_iteration));
  SolverOptions alone = targets[2];
  alone.levels = 5;
  EXPECT_EQ(solve(alone).iterations, int(three.iterations)) << "what kappa = 3 counts solved";
  const CoarseForecast f = forecast_from_coarse_solves(targets[2], {}, solved);
  EXPECT_NE(f.basis.find("at 5 levels not solved"), std::string::npos) << f.basis;
}

// Only between two solved alike: not where they count otherwise, nor where one is an estimate
// (a settled solve), nor where an end is missing.
TEST(CoarseForecast, ASandwichNeedsTwoSolvedEndsThatCountAlike) {
  SolverOptions three;
  three.levels = 6;
  three.cycle = {CycleType::Kappa, 3};
  const CoarseSolve two{6, 2, three.seed, 20, 1e-4, 1, 0.01, 0.001, true, 20};
  const CoarseSolve w{6, 5, three.seed, 20, 2e-4, 1, 0.02, 0.001, true, 20};
  ASSERT_TRUE(sandwiched_solve(three, {two, w}));
  EXPECT_FALSE(sandwiched_solve(three, {two})) << "no end above";
  EXPECT_FALSE(sandwiched_solve(three, {w})) << "no end below";
  CoarseSolve more = w;
  more.iterations = 19;
  EXPECT_FALSE(sandwiched_solve(three, {two, more})) << "counted otherwise";
  CoarseSolve settled = w;
  settled.ran = 12;  // its 20 an estimate after 12 iterations
  EXPECT_FALSE(sandwiched_solve(three, {two, settled})) << "an estimate is no end";
  CoarseSolve other_start = w;
  other_start.seed += 1;
  EXPECT_FALSE(sandwiched_solve(three, {two, other_start})) << "another start";
  // The nearest ends decide: kappa = 4 counted otherwise than kappa = 2, so kappa = 3 is not known.
  CoarseSolve four = w;
  four.counter = 4;
  four.iterations = 21;
  EXPECT_FALSE(sandwiched_solve(three, {two, four, w}));
}

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
