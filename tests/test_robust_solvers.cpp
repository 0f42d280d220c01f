// Issue 3: line relaxation, Galerkin coarse operators, semi-coarsening, the six presets.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "kcycle/cpu_backend.hpp"
#include "kcycle/galerkin.hpp"
#include "kcycle/problem.hpp"
#include "kcycle/solve.hpp"
#include "kcycle/tridiagonal.hpp"

namespace kcycle {
namespace {

bool point_symmetric(const Stencil9& s, double tol) {
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c)
      if (std::abs(s.a[r][c] - s.a[2 - r][2 - c]) > tol * std::abs(s.center())) return false;
  return true;
}

double row_sum(const Stencil9& s) {
  double sum = 0;
  for (auto& r : s.a)
    for (double v : r) sum += v;
  return sum;
}

TEST(Galerkin, PoissonGivesTheKnownStencil) {
  // R A P of the 5-point Laplacian (h = 1) with full weighting and bilinear interpolation:
  // (1/4) [-1/4 -1/2 -1/4; -1/2 3 -1/2; -1/4 -1/2 -1/4], i.e. 1/H^2 with H = 2.
  const Stencil9 c = galerkin_coarse(rotated_anisotropic_stencil(1.0, 0), Coarsening::Full);
  const double expected[3][3] = {{-1 / 16., -1 / 8., -1 / 16.}, {-1 / 8., 3 / 4., -1 / 8.}, {-1 / 16., -1 / 8., -1 / 16.}};
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(c.a[r][k], expected[r][k], 1e-15);
  // Semi-coarsening in y: A_x (x) R_y P_y + I (x) R_y A_y P_y with R_y P_y = [1/8 3/4 1/8].
  const Stencil9 s = galerkin_coarse(rotated_anisotropic_stencil(1.0, 0), Coarsening::SemiY);
  const double semi[3][3] = {{-1 / 8., 0, -1 / 8.}, {-3 / 4., 2, -3 / 4.}, {-1 / 8., 0, -1 / 8.}};
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(s.a[r][k], semi[r][k], 1e-15);
}

TEST(Galerkin, SymmetricWithVanishingRowSumsOnEveryLevel) {
  for (Coarsening c : {Coarsening::Full, Coarsening::SemiY})
    for (double angle : {10.0, 45.0, 80.0}) {
      Stencil9 A = rotated_anisotropic_stencil(1e-5, angle);
      // Rounding is relative to the finest stencil's entries, which every level carries.
      const double scale = 2 * A.center();
      for (int level = 0; level < 8; ++level) {
        A = galerkin_coarse(A, c);
        EXPECT_TRUE(point_symmetric(A, 1e-12)) << "level " << level;
        EXPECT_NEAR(row_sum(A), 0.0, 1e-15 * scale) << "level " << level;
        EXPECT_GT(A.center(), 0.0);
      }
    }
}

TEST(LineSolver, MatchesDenseEliminationOnRandomSystems) {
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int n : {1, 2, 5, 17, 64}) {
    std::vector<double> lower(n), diag(n), upper(n), rhs(n);
    for (int k = 0; k < n; ++k) {
      lower[k] = u(rng);
      upper[k] = u(rng);
      diag[k] = 2.5 + u(rng);  // diagonally dominant: no pivoting needed
      rhs[k] = u(rng);
    }
    // Dense Gaussian elimination with partial pivoting as the reference.
    std::vector<std::vector<double>> M(n, std::vector<double>(n + 1, 0.0));
    for (int k = 0; k < n; ++k) {
      if (k > 0) M[k][k - 1] = lower[k];
      M[k][k] = diag[k];
      if (k + 1 < n) M[k][k + 1] = upper[k];
      M[k][n] = rhs[k];
    }
    for (int c = 0; c < n; ++c) {
      int p = c;
      for (int r = c + 1; r < n; ++r)
        if (std::abs(M[r][c]) > std::abs(M[p][c])) p = r;
      std::swap(M[c], M[p]);
      for (int r = c + 1; r < n; ++r) {
        const double m = M[r][c] / M[c][c];
        for (int k = c; k <= n; ++k) M[r][k] -= m * M[c][k];
      }
    }
    std::vector<double> x(n);
    for (int r = n - 1; r >= 0; --r) {
      double s = M[r][n];
      for (int k = r + 1; k < n; ++k) s -= M[r][k] * x[k];
      x[r] = s / M[r][r];
    }
    // The line solver, in place and with a stride, as the y-lines use it.
    std::vector<double> strided(std::size_t(3 * n), -7.0);
    for (int k = 0; k < n; ++k) strided[std::size_t(3 * k)] = rhs[k];
    TridiagonalFactor(lower, diag, upper).solve(strided.data(), 3);
    for (int k = 0; k < n; ++k) EXPECT_NEAR(strided[std::size_t(3 * k)], x[k], 1e-12) << "n=" << n << " k=" << k;
  }
}

SolverOptions options(int levels, double eps, double angle, Smoother smoother) {
  SolverOptions o;
  o.levels = levels;
  o.eps = eps;
  o.angle_degrees = angle;
  o.smoother = smoother;
  o.cycle = {CycleType::Kappa, 1};
  o.threads = 2;
  return o;
}

double asymptotic_factor(const SolveResult& r) {
  const auto& h = r.history;
  if (h.size() < 6) return r.mean_factor;
  return std::pow(h.back().error_norm / h[h.size() - 6].error_norm, 0.2);
}

TEST(LineRelaxation, AlignedAnisotropyIsSolvedByLinesAlongIt) {
  // eps = 1e-5 along x (0 degrees): x-lines (and alternating lines) converge fast, point
  // smoothers stagnate; at 90 degrees the same holds for y-lines.
  struct Case {
    double angle;
    Smoother fast1, fast2, slow_line;
  };
  for (const Case c : {Case{0, Smoother::XZebra, Smoother::XYZebra, Smoother::YZebra},
                       Case{90, Smoother::YZebra, Smoother::XYZebra, Smoother::XZebra}}) {
    for (Smoother fast : {c.fast1, c.fast2}) {
      const SolveResult r = solve(options(7, 1e-5, c.angle, fast));
      EXPECT_TRUE(r.converged()) << r.message;
      EXPECT_LT(r.mean_factor, 0.2) << "angle " << c.angle << " smoother " << to_string(fast);
    }
    for (Smoother slow : {Smoother::Jacobi, Smoother::GaussSeidel, c.slow_line}) {
      SolverOptions o = options(7, 1e-5, c.angle, slow);
      o.max_iterations = 60;
      const SolveResult r = solve(o);
      EXPECT_FALSE(r.converged());
      EXPECT_GT(asymptotic_factor(r), 0.95) << "angle " << c.angle << " smoother " << to_string(slow);
    }
  }
}

TEST(LineRelaxation, RedBlackGaussSeidelSmoothsPoisson) {
  const SolveResult r = solve(options(7, 1.0, 0, Smoother::GaussSeidel));
  ASSERT_TRUE(r.converged()) << r.message;
  EXPECT_LT(asymptotic_factor(r), 0.1);  // GS-RB V(2,2) on Poisson; Jacobi V(2,2) gives 0.19
}

TEST(SixSolvers, AllConvergeAt45DegreesAndMoreKappaMeansFewerCycles) {
  for (const Preset& p : presets()) {
    std::vector<int> iterations;
    for (int kappa : {1, 2, 3, 4, kKappaW}) {
      SolverOptions o = options(7, 1e-5, 45, Smoother::Jacobi);
      apply(p, o);
      o.cycle = {CycleType::Kappa, kappa};
      const SolveResult r = solve(o);
      ASSERT_TRUE(r.converged()) << p.name << " kappa=" << kappa_to_string(kappa) << ": " << r.message;
      EXPECT_LE(r.error_reduction, 1e-8);
      iterations.push_back(r.iterations);
    }
    for (std::size_t k = 1; k < iterations.size(); ++k)
      EXPECT_LE(iterations[k], iterations[k - 1]) << p.name << " kappa index " << k;
    EXPECT_LT(iterations.back(), iterations.front()) << p.name;
  }
}

// Points processed per cycle, divided by the finest level's unknowns.
double work_per_unknown(Coarsening c, int kappa, int levels) {
  CpuBackend be(2);
  MultigridSettings s;
  s.levels = levels;
  s.tensor = rotated_anisotropic_tensor(1e-5, 45);
  s.smoother = Smoother::XZebra;
  s.coarsening = c;
  s.coarse_operator = CoarseOperator::Galerkin;
  Multigrid<CpuBackend> mg(be, s);
  be.reset_launches();
  mg.cycle({CycleType::Kappa, kappa});
  return double(be.points()) / double(mg.level(1).shape.unknowns());
}

TEST(SemiCoarsening, WCycleWorkGrowsLikeNLogNWhileFixedKappaStaysLinear) {
  // With coarsening factor c = 1/2 every level of a W-cycle does about as much work as the
  // finest, so each added level adds a constant to the work per unknown: N log N. For a fixed
  // kappa the additions die out (the limit is f(kappa, 1/2) = 2 kappa times the work of a
  // call): linear in N. The same holds for the full-coarsening W-cycle (c = 1/4).
  auto increment = [](Coarsening c, int kappa, int n) {
    return work_per_unknown(c, kappa, n) - work_per_unknown(c, kappa, n - 1);
  };
  const double w6 = increment(Coarsening::SemiY, kKappaW, 6), w10 = increment(Coarsening::SemiY, kKappaW, 10);
  EXPECT_GT(w10, 0.9 * w6) << "semi-coarsened W: constant increments";
  EXPECT_GT(w10, 1.0);
  for (int kappa : {1, 2, 3}) {
    const double k6 = increment(Coarsening::SemiY, kappa, 6), k10 = increment(Coarsening::SemiY, kappa, 10);
    EXPECT_LT(k10, 0.6 * k6) << "kappa " << kappa << ": increments must die out";
  }
  EXPECT_LT(increment(Coarsening::Full, kKappaW, 10), 0.25 * increment(Coarsening::Full, kKappaW, 6));
}

TEST(Symmetry, VAndWAreSymmetricPreconditionersAndTheFCycleIsNot) {
  // <M r1, r2> = <r1, M r2> for the cycle as a preconditioner (zero initial guess), with the
  // adjoint post-smoothing; 1 < kappa < n is not symmetric (the paper, section 4).
  for (Smoother sm : {Smoother::Jacobi, Smoother::GaussSeidel, Smoother::XYZebra}) {
    CpuBackend be(2);
    MultigridSettings s;
    s.levels = 5;
    s.tensor = rotated_anisotropic_tensor(1e-2, 30);
    s.smoother = sm;
    s.omega = 0.8;
    s.coarse_operator = CoarseOperator::Galerkin;
    s.symmetric_smoothing = true;
    Multigrid<CpuBackend> mg(be, s);
    const GridShape shape = mg.level(1).shape;
    Field r1 = be.make_vector(shape), r2 = be.make_vector(shape), z1 = be.make_vector(shape),
          z2 = be.make_vector(shape);
    auto asymmetry = [&](int kappa) {
      fill_uniform_random(r1, 1);
      fill_uniform_random(r2, 2);
      mg.precondition(r1, z1, {CycleType::Kappa, kappa});
      mg.precondition(r2, z2, {CycleType::Kappa, kappa});
      const double a = be.dot(z1, r2), b = be.dot(r1, z2);
      return std::abs(a - b) / std::abs(a);
    };
    EXPECT_LT(asymmetry(1), 1e-12) << to_string(sm);
    EXPECT_LT(asymmetry(kKappaW), 1e-12) << to_string(sm);
    EXPECT_GT(asymmetry(2), 1e-6) << to_string(sm);
  }
}

}  // namespace
}  // namespace kcycle
