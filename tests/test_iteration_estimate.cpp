// The advisor's iteration estimate (iteration_estimate.hpp) on errors of known spectrum: the
// norm of e_k = sum_i a_i lambda_i^k, whose factors rise toward lambda_max as the slow modes take
// over. The estimate's rho must converge on lambda_max and its count on the true one.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kcycle/model/iteration_estimate.hpp"

namespace kcycle {
namespace {

struct Spectrum {
  std::vector<double> lambda, weight;
  double norm(int k) const {
    double s = 0;
    for (std::size_t i = 0; i < lambda.size(); ++i) s += weight[i] * weight[i] * std::pow(lambda[i], 2.0 * k);
    return std::sqrt(s);
  }
  // The records of the first `k` iterations (error norm and factor each).
  std::vector<IterationRecord> history(int k) const {
    std::vector<IterationRecord> h;
    for (int j = 1; j <= k; ++j) {
      IterationRecord r;
      r.iteration = j;
      r.error_norm = norm(j);
      r.factor = norm(j) / norm(j - 1);
      h.push_back(r);
    }
    return h;
  }
  // The first iteration whose norm has fallen by `reduction`.
  int iterations_to(double reduction) const {
    int k = 0;
    while (norm(k) > reduction * norm(0)) ++k;
    return k;
  }
};

// Many modes up to 0.97, dense near the top as a multigrid cycle's are (a random initial error
// holds them all): the factors creep toward 0.97 as the faster ones die.
Spectrum dense_spectrum() {
  Spectrum s;
  for (int i = 1; i <= 400; ++i) {
    s.lambda.push_back(0.97 * std::sqrt(double(i) / 400.0));
    s.weight.push_back(1.0);
  }
  return s;
}

TEST(IterationEstimate, ConvergesOnTheLargestEigenvalueAndTheTrueCount) {
  const Spectrum s = dense_spectrum();
  const double tol = 1e-8;
  const int truth = s.iterations_to(tol);
  double previous_gap = 1;
  for (int probe : {40, 80, 160, 320}) {
    const std::vector<IterationRecord> h = s.history(probe);
    const IterationEstimate e = estimate_iterations(h, tol / (s.norm(probe) / s.norm(0)));
    const double gap = std::abs(e.rho - 0.97);
    EXPECT_LE(gap, previous_gap) << "probe " << probe << ": rho " << e.rho;
    previous_gap = gap;
    if (probe >= 160) {
      EXPECT_TRUE(e.extrapolated) << probe;
      EXPECT_NEAR(e.rho, 0.97, 2e-3) << "probe " << probe;
      EXPECT_NEAR(e.iterations / truth, 1.0, 0.03) << "probe " << probe << ": " << e.iterations << " vs " << truth;
    }
    EXPECT_LE(e.low, e.iterations);
    EXPECT_GE(e.high, e.iterations);
  }
}

// Two modes: the factors approach the larger geometrically, exactly the model's form after the
// first few iterations, so Aitken's extrapolation lands on it.
TEST(IterationEstimate, TwoModesAreExtrapolatedExactly) {
  const Spectrum s{{0.9, 0.5}, {1.0, 30.0}};
  const std::vector<IterationRecord> h = s.history(24);
  const IterationEstimate e = estimate_iterations(h, 1e-10 / (s.norm(24) / s.norm(0)));
  EXPECT_NEAR(e.rho, 0.9, 1e-6);
  EXPECT_NEAR(e.iterations, s.iterations_to(1e-10), 1.0);
}

// Factors still rising steeply extrapolate to a limit at or above 1, which is not a factor of a
// converging cycle (a probe stopped near the tolerance, where the factors jump): the recent mean
// is rho, and the count is finite. It read 1e9 iterations, which a forecast fitted.
TEST(IterationEstimate, ARiseExtrapolatedToOneOrMoreFallsBackOnTheRecentMean) {
  const std::vector<double> factors = {0.70, 0.72, 0.74, 0.80, 0.82, 0.86, 0.90, 0.95, 0.99};
  std::vector<IterationRecord> h;
  double norm = 1;
  for (const double q : factors) {
    IterationRecord r;
    r.factor = q;
    norm *= q;
    r.error_norm = norm;
    h.push_back(r);
  }
  // k = 9, d = 2: q(5), q(7), q(9) = 0.82, 0.90, 0.99 rise by 0.08 then 0.09 (ratio >= 1), and
  // with 0.95 in place of 0.99 by 0.08 then 0.05 (limit 0.95 + 0.05 * 0.625 / 0.375 = 1.033).
  for (const double end : {0.99, 0.95}) {
    h.back().factor = end;
    h[7].factor = end == 0.95 ? 0.93 : 0.95;
    const IterationEstimate e = estimate_iterations(h, 1e-6);
    EXPECT_FALSE(e.extrapolated) << end;
    EXPECT_LT(e.rho, 1.0) << end;
    double logs = 0;
    for (std::size_t i = 4; i < h.size(); ++i) logs += std::log(h[i].factor);  // q(5)..q(9)
    EXPECT_NEAR(e.rho, std::exp(logs / 5), 1e-12) << end;
    EXPECT_LT(e.iterations, 1000.0) << end;
  }
}

// Factors that go up and down (CG's) are not extrapolated: their recent geometric mean is rho.
TEST(IterationEstimate, OscillatingFactorsUseTheirRecentMean) {
  std::vector<IterationRecord> h;
  double norm = 1;
  for (int j = 1; j <= 40; ++j) {
    IterationRecord r;
    r.factor = j % 2 ? 0.5 : 0.8;
    norm *= r.factor;
    r.error_norm = norm;
    h.push_back(r);
  }
  const IterationEstimate e = estimate_iterations(h, 1e-6);
  EXPECT_FALSE(e.extrapolated);
  EXPECT_NEAR(e.rho, std::sqrt(0.4), 1e-12);
  EXPECT_NEAR(e.iterations, 40 + std::ceil(std::log(1e-6) / std::log(std::sqrt(0.4))), 1.0);
}

}  // namespace
}  // namespace kcycle
