// Convergence as the paper and multigrid theory predict, and the stopping statuses.
#include <gtest/gtest.h>

#include <cmath>

#include "backend_under_test.hpp"
#include "kcycle/solve/solve.hpp"

namespace kcycle {
namespace {

template <class Backend>
SolverOptions jacobi_options(int levels, double eps, double angle, int kappa) {
  SolverOptions o = testing::OnEveryBackend<Backend>::on_this_backend({});
  o.levels = levels;
  o.eps = eps;
  o.angle_degrees = angle;
  o.cycle = {CycleType::Kappa, kappa};
  return o;
}

template <class Backend>
using Convergence = testing::OnEveryBackend<Backend>;
TYPED_TEST_SUITE(Convergence, testing::Backends, testing::BackendName);
template <class Backend>
using Stopping = testing::OnEveryBackend<Backend>;
TYPED_TEST_SUITE(Stopping, testing::Backends, testing::BackendName);
template <class Backend>
using Problem = testing::OnEveryBackend<Backend>;
TYPED_TEST_SUITE(Problem, testing::Backends, testing::BackendName);

TYPED_TEST(Convergence, PoissonVCycleFactorIsSmallAndIndependentOfLevels) {
  double lo = 1, hi = 0;
  for (int n = 4; n <= 9; ++n) {
    SolverOptions o = jacobi_options<TypeParam>(n, 1.0, 0.0, 1);
    const SolveResult r = solve(o);
    ASSERT_TRUE(r.converged()) << r.message;
    // The asymptotic factor: the geometric mean over the last five cycles.
    const auto& h = r.history;
    ASSERT_GE(h.size(), 6u);
    const double asymptotic = std::pow(h.back().error_norm / h[h.size() - 6].error_norm, 0.2);
    lo = std::min(lo, asymptotic);
    hi = std::max(hi, asymptotic);
    EXPECT_LT(asymptotic, 0.2) << "levels " << n;
  }
  EXPECT_LT(hi - lo, 0.05) << "V(2,2) factor should not depend on the level count";
}

TYPED_TEST(Convergence, ManufacturedSolutionIsSecondOrder) {
  double previous = 0;
  for (int n = 4; n <= 8; ++n) {
    SolverOptions o = jacobi_options<TypeParam>(n, 0.1, 30, 2);
    o.problem = ProblemKind::Manufactured;
    o.tolerance = 1e-11;
    const SolveResult r = solve(o);
    ASSERT_TRUE(r.converged()) << r.message;
    if (previous > 0) {
      const double ratio = previous / r.final_error;  // h halves: error / 4
      EXPECT_NEAR(ratio, 4.0, 0.3) << "levels " << n;
    }
    previous = r.final_error;
  }
}

TYPED_TEST(Convergence, StrongAnisotropyMoreKappaFewerCycles) {
  // The paper's Table 4.1 setting (eps = 1e-4, 45 degrees, Jacobi(2,2)) at 8 levels.
  std::vector<int> cycles;
  for (int kappa : {1, 2, 3, 4, kKappaW}) {
    const SolveResult r = solve(jacobi_options<TypeParam>(8, 1e-4, 45, kappa));
    ASSERT_TRUE(r.converged()) << "kappa=" << kappa_to_string(kappa) << ": " << r.message;
    cycles.push_back(r.iterations);
  }
  EXPECT_GT(cycles[0], cycles[1]);
  EXPECT_GT(cycles[1], cycles[2]);
  EXPECT_GE(cycles[2], cycles[3]);
  EXPECT_GE(cycles[3], cycles[4]);
  EXPECT_GT(cycles[0], 2 * cycles[4]) << "the V-cycle should need far more cycles than W";
}

TYPED_TEST(Convergence, MGCGNeedsFarFewerIterations) {
  for (int kappa : {1, 2, 3, kKappaW}) {
    SolverOptions o = jacobi_options<TypeParam>(8, 1e-4, 45, kappa);
    const SolveResult standalone = solve(o);
    for (SolverKind k : {SolverKind::PCG, SolverKind::FCG}) {
      o.solver = k;
      const SolveResult cg = solve(o);
      ASSERT_TRUE(cg.converged()) << cg.message;
      EXPECT_LT(3 * cg.iterations, standalone.iterations) << "kappa=" << kappa;
    }
    o.solver = SolverKind::Multigrid;
  }
}

TYPED_TEST(Stopping, DivergenceIsDetected) {
  SolverOptions o = jacobi_options<TypeParam>(6, 1.0, 0, 1);
  o.omega_mode = OmegaMode::Fixed;
  o.omega = 1.95;  // amplifies the highest frequencies by |1 - 1.95 * 2| = 2.9
  const SolveResult r = solve(o);
  EXPECT_EQ(r.status, SolveStatus::Diverged) << r.message;
  EXPECT_LT(r.iterations, 100);
}

TYPED_TEST(Stopping, NaNIsDetected) {
  SolverOptions o = jacobi_options<TypeParam>(5, 1.0, 0, 1);
  const GridShape fine = full_coarsening_shape(5, 1);
  const Stencil9 A = scaled(rotated_anisotropic_stencil(1.0, 0), 1.0 / (fine.hx() * fine.hx()));
  const DiscreteProblem p = problem_from_functions(
      fine, A, [](double x, double y) { return (x == 0.5 && y == 0.5) ? NAN : 1.0; },
      [](double, double) { return 0.0; });
  const SolveResult r = solve(o, p);
  EXPECT_EQ(r.status, SolveStatus::NotANumber) << r.message;
  EXPECT_LE(r.iterations, 1);
}

TYPED_TEST(Stopping, IterationLimitAndCancel) {
  SolverOptions o = jacobi_options<TypeParam>(6, 1e-4, 45, 1);
  o.max_iterations = 3;
  SolveResult r = solve(o);
  EXPECT_EQ(r.status, SolveStatus::MaxIterations);
  EXPECT_EQ(r.iterations, 3);
  o.max_iterations = 1000;
  r = solve(o, [](const IterationRecord& rec) { return rec.iteration < 5; });
  EXPECT_EQ(r.status, SolveStatus::Cancelled);
  EXPECT_EQ(r.iterations, 5);
}

TYPED_TEST(Problem, BoundaryValuesAreHonoured) {
  // u = 1 + x + 2y is harmonic and bilinear, so the 9-point discretization is exact: a solve
  // with g = u on the boundary and f = 0 must reproduce u to solver tolerance.
  SolverOptions o = jacobi_options<TypeParam>(6, 0.3, 20, 2);
  o.tolerance = 1e-12;
  const GridShape fine = full_coarsening_shape(6, 1);
  const Stencil9 A = scaled(rotated_anisotropic_stencil(0.3, 20), 1.0 / (fine.hx() * fine.hx()));
  auto u = [](double x, double y) { return 1 + x + 2 * y; };
  const DiscreteProblem p = problem_from_functions(
      fine, A, [](double, double) { return 0.0; }, u, u);
  const SolveResult r = solve(o, p);
  ASSERT_TRUE(r.converged()) << r.message;
  EXPECT_LT(r.final_error, 1e-9);
}

TYPED_TEST(Problem, ZeroMeanStartHasBothSignsAndConvergesLikeProblemZero) {
  SolverOptions o = jacobi_options<TypeParam>(6, 1e-2, 45, 2);
  o.problem = ProblemKind::ZeroMeanRandomError;
  const DiscreteProblem p = make_problem(o);
  const GridShape s = p.initial_guess.shape();
  double sum = 0, lo = 0, hi = 0;
  for (int j = 1; j <= s.ny; ++j)
    for (int i = 1; i <= s.nx; ++i) {
      const double v = p.initial_guess(i, j);
      sum += v;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  EXPECT_NEAR(sum / double(s.unknowns()), 0.0, 1e-14);
  EXPECT_LT(lo, -0.9);
  EXPECT_GT(hi, 0.9);
  EXPECT_TRUE(p.exact_is_zero);
  const SolveResult r = solve(o);
  ASSERT_TRUE(r.converged()) << r.message;
  o.problem = ProblemKind::RandomError;
  const SolveResult r0 = solve(o);
  // The same operator and factor; the start lacks problem 0's smooth mean, so the relative
  // tolerance takes a few cycles more or less.
  EXPECT_NEAR(double(r.iterations), double(r0.iterations), 0.1 * r0.iterations + 2.0);
}

}  // namespace
}  // namespace kcycle
