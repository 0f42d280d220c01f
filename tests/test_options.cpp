// Bad input is refused with a message that names the parameter.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "kcycle/solve/solve.hpp"

namespace kcycle {
namespace {

void expect_rejected(const std::function<void(SolverOptions&)>& change, const std::string& mention) {
  SolverOptions o;
  change(o);
  try {
    validate(o);
    ADD_FAILURE() << "accepted; expected a message about " << mention;
  } catch (const InvalidOptions& e) {
    EXPECT_NE(std::string(e.what()).find(mention), std::string::npos) << e.what();
  }
}

TEST(Options, DefaultsAreValid) { EXPECT_NO_THROW(validate(SolverOptions{})); }

TEST(Options, BadValuesAreRejected) {
  expect_rejected([](SolverOptions& o) { o.eps = 0; }, "eps ");
  expect_rejected([](SolverOptions& o) { o.eps = -1; }, "eps ");
  expect_rejected([](SolverOptions& o) { o.eps = 1.5; }, "eps ");
  expect_rejected([](SolverOptions& o) { o.eps = NAN; }, "eps ");
  expect_rejected([](SolverOptions& o) { o.angle_degrees = INFINITY; }, "angle ");
  expect_rejected([](SolverOptions& o) { o.cycle.counter = 0; }, "kappa ");
  expect_rejected(
      [](SolverOptions& o) {
        o.nu1 = 0;
        o.nu2 = 0;
      },
      "nu1 + nu2");
  expect_rejected([](SolverOptions& o) { o.nu1 = -1; }, "nu1 ");
  expect_rejected([](SolverOptions& o) { o.levels = 0; }, "levels ");
  expect_rejected([](SolverOptions& o) { o.levels = 40; }, "levels ");
  expect_rejected(
      [](SolverOptions& o) {
        o.omega_mode = OmegaMode::Fixed;
        o.omega = 2.5;
      },
      "omega ");
  expect_rejected([](SolverOptions& o) { o.tolerance = 2; }, "tol ");
  expect_rejected([](SolverOptions& o) { o.max_iterations = 0; }, "max-iter ");
  expect_rejected([](SolverOptions& o) { o.threads = -2; }, "threads ");
}

TEST(Options, EveryBoundOfTheTableIsChecked) {
  expect_rejected([](SolverOptions& o) { o.nu1 = kMaxSweeps + 1; }, "nu1 must be an integer from 0 to 1000");
  expect_rejected([](SolverOptions& o) { o.nu2 = kMaxSweeps + 1; }, "nu2 must be an integer from 0 to 1000");
  expect_rejected([](SolverOptions& o) { o.cycle = {CycleType::Gamma, kMaxGamma + 1}; }, "gamma must be an integer");
  expect_rejected([](SolverOptions& o) { o.max_iterations = kMaxIterations + 1; }, "max-iter ");
  expect_rejected([](SolverOptions& o) { o.threads = max_solver_threads() + 1; }, "per hardware thread");
  expect_rejected([](SolverOptions& o) { o.ranks_x = kMaxRanksPerSide + 1; }, "ranks-x ");
  SolverOptions at_the_bounds;
  at_the_bounds.nu1 = at_the_bounds.nu2 = kMaxSweeps;
  at_the_bounds.levels = 5;
  at_the_bounds.threads = max_solver_threads();
  EXPECT_NO_THROW(validate(at_the_bounds));
}

// One cycle's work in closed form: levelCalls (or gamma^(l-1)) calls of each level, each
// visiting the level's unknowns once per sweep plus twice for the transfers.
TEST(Options, TheWorkEstimateIsTheClosedForm) {
  SolverOptions o;
  o.levels = 3;  // 49, 9 and 1 unknowns
  o.nu1 = o.nu2 = 1;
  o.cycle = {CycleType::Kappa, 1};
  CycleWorkEstimate w = cycle_work_estimate(o);
  EXPECT_EQ(w.calls, 3);
  EXPECT_EQ(w.coarsest_calls, 1);
  EXPECT_EQ(w.point_updates, 4 * (49 + 9 + 1));
  o.cycle = {CycleType::Gamma, 2};  // 1, 2, 4 calls
  w = cycle_work_estimate(o);
  EXPECT_EQ(w.calls, 7);
  EXPECT_EQ(w.point_updates, 4 * (49 + 2 * 9 + 4 * 1));
  o.cycle = {CycleType::F, 2};  // Algorithm 2 makes kappa = 2's calls: 1, 2, 3
  EXPECT_EQ(cycle_work_estimate(o).calls, 6);
  o.smoother = Smoother::XYZebra;  // an x and a y sweep each: 2 + 2 passes and the transfers
  o.cycle = {CycleType::Kappa, 1};
  EXPECT_EQ(cycle_work_estimate(o).point_updates, 6 * (49 + 9 + 1));
  EXPECT_DOUBLE_EQ(cycle_work_estimate(o).seconds, 3 * 6 * kFastLaunchSeconds + 6 * 59 * kFastUpdateSeconds);
  // gamma = 30 at 9 levels: 30^8 calls of the coarsest level, refused with its counts.
  expect_rejected(
      [](SolverOptions& x) {
        x.levels = 9;
        x.cycle = {CycleType::Gamma, 30};
      },
      "one gamma=30 cycle at 9 levels");
}

TEST(Options, LevelsBeyondTheMachinesMemoryAreRejected) {
  // 16 levels of MGCG on problem 1 (x, u*, r, p, z, the hierarchy): about 3e11 bytes.
  const auto big = [](SolverOptions& x) {
    x.levels = kMaxLevels;
    x.solver = SolverKind::PCG;
    x.problem = ProblemKind::Manufactured;
  };
  SolverOptions o;
  big(o);
  const auto have = available_memory_bytes();
  ASSERT_TRUE(have.has_value());
  ASSERT_GT(estimated_memory_bytes(o), *have) << "test assumes a machine with < 280 GB free";
  expect_rejected(big, "memory");
}

TEST(Options, SolveValidatesToo) {
  SolverOptions o;
  o.eps = 0;
  EXPECT_THROW(solve(o), InvalidOptions);
}

TEST(Options, KappaParsing) {
  EXPECT_EQ(parse_kappa("3"), 3);
  EXPECT_EQ(parse_kappa("W"), kKappaW);
  EXPECT_EQ(parse_kappa("inf"), kKappaW);
  EXPECT_FALSE(parse_kappa("0"));
  EXPECT_FALSE(parse_kappa("-1"));
  EXPECT_FALSE(parse_kappa("3x"));
  EXPECT_FALSE(parse_kappa(""));
  EXPECT_EQ(kappa_to_string(kKappaW), "W");
}

}  // namespace
}  // namespace kcycle
