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

TEST(Options, LevelsBeyondTheMachinesMemoryAreRejected) {
  SolverOptions o;
  o.levels = kMaxLevels;  // 16 levels: about 4.5e11 bytes
  const auto have = available_memory_bytes();
  ASSERT_TRUE(have.has_value());
  ASSERT_GT(estimated_memory_bytes(o), *have) << "test assumes a machine with < 450 GB free";
  expect_rejected([](SolverOptions& x) { x.levels = kMaxLevels; }, "memory");
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
