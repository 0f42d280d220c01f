// CG's Lanczos coefficients (lanczos_spectrum.hpp) on operators of known spectrum: plain CG on
// a diagonal matrix, whose eigenvalues are its entries. The Ritz extremes must approach the
// true ones from inside and equal them once CG has seen every eigenvalue; the Chebyshev bound
// must bound what CG took; and the iteration estimate built on them must bracket the count.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "kcycle/model/iteration_estimate.hpp"
#include "kcycle/model/lanczos_spectrum.hpp"

namespace kcycle {
namespace {

// CG on diag(lambda) x = b from x = 0, the A-norm of the error monitored (as the solver
// monitors |e|): each iteration's record with its factor, alpha and beta.
struct DiagonalCg {
  std::vector<IterationRecord> history;
  double initial = 0;

  DiagonalCg(const std::vector<double>& lambda, const std::vector<double>& exact, int iterations) {
    const std::size_t n = lambda.size();
    std::vector<double> x(n, 0.0), r(n), p(n);
    const auto energy = [&] {
      double s = 0;
      for (std::size_t i = 0; i < n; ++i) s += lambda[i] * (exact[i] - x[i]) * (exact[i] - x[i]);
      return std::sqrt(s);
    };
    for (std::size_t i = 0; i < n; ++i) r[i] = p[i] = lambda[i] * exact[i];
    double rr = 0;
    for (double v : r) rr += v * v;
    initial = energy();
    double previous = initial;
    for (int k = 1; k <= iterations && rr > 0; ++k) {
      double pAp = 0;
      for (std::size_t i = 0; i < n; ++i) pAp += p[i] * lambda[i] * p[i];
      const double alpha = rr / pAp;
      double rr_new = 0;
      for (std::size_t i = 0; i < n; ++i) {
        x[i] += alpha * p[i];
        r[i] -= alpha * lambda[i] * p[i];
        rr_new += r[i] * r[i];
      }
      const double beta = rr_new / rr;
      rr = rr_new;
      for (std::size_t i = 0; i < n; ++i) p[i] = r[i] + beta * p[i];
      IterationRecord rec;
      rec.iteration = k;
      rec.error_norm = energy();
      rec.factor = rec.error_norm / previous;
      rec.cg_alpha = alpha;
      rec.cg_beta = beta;
      previous = rec.error_norm;
      history.push_back(rec);
    }
  }
  std::optional<RitzExtremes> ritz(int k) const {
    std::vector<double> alpha, beta;
    for (int j = 0; j < k; ++j) alpha.push_back(history[std::size_t(j)].cg_alpha);
    for (int j = 0; j + 1 < k; ++j) beta.push_back(history[std::size_t(j)].cg_beta);
    return lanczos_extremes(alpha, beta);
  }
  int iterations_to(double reduction) const {
    for (const IterationRecord& r : history)
      if (r.error_norm <= reduction * initial) return r.iteration;
    return -1;
  }
};

std::vector<double> random_vector(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> v(n);
  for (double& x : v) x = u(rng);
  return v;
}

TEST(LanczosSpectrum, RitzExtremesReachTheTrueOnesFromInside) {
  // Eight eigenvalues 1..8: after eight iterations T_8 is similar to the operator itself.
  const std::vector<double> lambda{1, 2, 3, 4, 5, 6, 7, 8};
  const DiagonalCg cg(lambda, random_vector(lambda.size(), 1), 8);
  ASSERT_EQ(cg.history.size(), 8u);
  double previous_min = INFINITY, previous_max = 0;
  for (int k = 1; k <= 8; ++k) {
    const std::optional<RitzExtremes> e = cg.ritz(k);
    ASSERT_TRUE(e) << k;
    EXPECT_GE(e->lambda_min, 1.0 - 1e-9) << k;  // interlacing: inside the spectrum
    EXPECT_LE(e->lambda_max, 8.0 + 1e-9) << k;
    EXPECT_LE(e->lambda_min, previous_min + 1e-9) << k;  // and moving outward
    EXPECT_GE(e->lambda_max, previous_max - 1e-9) << k;
    previous_min = e->lambda_min, previous_max = e->lambda_max;
  }
  EXPECT_NEAR(previous_min, 1.0, 1e-8);
  EXPECT_NEAR(previous_max, 8.0, 1e-8);
}

TEST(LanczosSpectrum, ConditionNumberOfADenseSpectrumAndTheChebyshevBound) {
  // 2000 eigenvalues spread over [0.01, 1]: condition 100, as a preconditioned operator's.
  std::vector<double> lambda;
  for (int i = 0; i < 2000; ++i) lambda.push_back(0.01 + 0.99 * std::pow(i / 1999.0, 2.0));
  const DiagonalCg cg(lambda, random_vector(lambda.size(), 2), 200);
  const std::optional<RitzExtremes> e = cg.ritz(60);
  ASSERT_TRUE(e);
  EXPECT_NEAR(e->condition(), 100.0, 3.0) << "60 iterations find the extremes of a dense spectrum";
  // The bound at the true condition number bounds what CG took (its A-norm error).
  const double tol = 1e-8;
  const int took = cg.iterations_to(tol);
  ASSERT_GT(took, 0);
  EXPECT_EQ(cg_iteration_bound(100.0, tol), 96.0);  // log(tol / 2) / log(9 / 11), rounded up
  EXPECT_LE(took, cg_iteration_bound(100.0, tol));
  EXPECT_GT(took, 0.5 * cg_iteration_bound(100.0, tol)) << "nor is it loose on a dense spectrum";
}

TEST(LanczosSpectrum, TheCgEstimateBracketsTheCountAndSettlesOnIt) {
  // A multigrid-preconditioned operator's spectrum as MGCG's Ritz values showed it at 10
  // levels: up to 1, dense toward its smallest eigenvalue (the slowly converging smooth
  // modes), condition 200. CG speeds up as it goes: the recent rate overestimates what is
  // left; the Ritz values' condition number is still growing: their Chebyshev bound falls short.
  std::vector<double> lambda;
  for (int i = 0; i < 3000; ++i) lambda.push_back(0.005 + 0.995 * std::pow(i / 2999.0, 2.0));
  const DiagonalCg cg(lambda, random_vector(lambda.size(), 3), 400);
  const double tol = 1e-8;
  const int truth = cg.iterations_to(tol);
  ASSERT_GT(truth, 40);
  for (int k : {truth / 3, truth / 2, 3 * truth / 4}) {
    const std::vector<IterationRecord> h(cg.history.begin(), cg.history.begin() + k);
    const IterationEstimate e = estimate_iterations(h, tol * cg.initial / h.back().error_norm);
    EXPECT_LE(e.low, truth) << "after " << k << " of " << truth;
    EXPECT_GE(e.high, truth) << "after " << k << " of " << truth;
    EXPECT_NEAR(e.iterations, truth, 0.1 * truth) << "after " << k;
    if (k >= truth / 2) {
      EXPECT_LE(e.high - e.low, 0.1 * truth) << "narrow from half way, after " << k;
    }
  }
}

}  // namespace
}  // namespace kcycle
