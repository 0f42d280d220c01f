// Issue 3: line relaxation, Galerkin coarse operators, semi-coarsening, the six presets.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "backend_under_test.hpp"
#include "kcycle/core/galerkin.hpp"
#include "kcycle/core/problem.hpp"
#include "kcycle/core/tridiagonal.hpp"
#include "kcycle/solve/solve.hpp"

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
  const double expected[3][3] = {
      {-1 / 16., -1 / 8., -1 / 16.}, {-1 / 8., 3 / 4., -1 / 8.}, {-1 / 16., -1 / 8., -1 / 16.}};
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

template <class Backend>
using OnEveryBackend = testing::OnEveryBackend<Backend>;
template <class Backend>
using LineSolve = OnEveryBackend<Backend>;
TYPED_TEST_SUITE(LineSolve, testing::Backends, testing::BackendName);

// The line solve the backends run (kernels::thomas_forward/backward over the factored line
// matrix): after one zebra sweep the lines solved last satisfy their equations exactly,
// since their neighbour lines did not change afterwards. The residual on those lines
// vanishes to rounding; on the lines solved first it does not.
TYPED_TEST(LineSolve, ZebraSweepsSolveTheirLinesExactly) {
  TypeParam be = this->make_backend();
  for (Coarsening c : {Coarsening::Full, Coarsening::SemiY})
    for (bool x_lines : {true, false}) {
      const int levels = 6;
      const GridShape shape = level_shape(levels, 2, c);  // a Galerkin level: 9 distinct entries
      const Stencil9 A = galerkin_coarse(discretize(rotated_anisotropic_tensor(1e-3, 30), 1.0 / 64, 1.0 / 64), c);
      auto v = be.make_vector(shape), f = be.make_vector(shape), r = be.make_vector(shape);
      testing::fill_random(be, v, 1);
      testing::fill_random(be, f, 2);
      be.fill(r, 0.0);
      if (x_lines)
        be.zebra_x(A, be.make_line_factor(TridiagonalFactor::constant(A.a[1][0], A.a[1][1], A.a[1][2], shape.nx)), v, f,
                   true);
      else
        be.zebra_y(A, be.make_line_factor(TridiagonalFactor::constant(A.a[0][1], A.a[1][1], A.a[2][1], shape.ny)), v, f,
                   true);
      be.residual(A, v, f, r);
      const std::vector<double> res = testing::host_values(be, r), fv = testing::host_values(be, f);
      double last_max = 0, first_max = 0, scale = 0;
      const int stride = shape.stride();
      for (int j = 1; j <= shape.ny; ++j)
        for (int i = 1; i <= shape.nx; ++i) {
          const double x = std::abs(res[std::size_t(j * stride + i)]);
          scale = std::max(scale, std::abs(fv[std::size_t(j * stride + i)]));
          const bool solved_last = (x_lines ? j : i) % 2 == 0;  // odd lines first, then even
          (solved_last ? last_max : first_max) = std::max(solved_last ? last_max : first_max, x);
        }
      EXPECT_LT(last_max, 1e-10 * scale) << (x_lines ? "x" : "y") << "-lines, " << to_string(c);
      EXPECT_GT(first_max, 1e-3 * scale) << "the first half-sweep's lines changed neighbours: not exact";
    }
}

template <class Backend>
SolverOptions options(int levels, double eps, double angle, Smoother smoother) {
  SolverOptions o = OnEveryBackend<Backend>::on_this_backend({});
  o.levels = levels;
  o.eps = eps;
  o.angle_degrees = angle;
  o.smoother = smoother;
  o.cycle = {CycleType::Kappa, 1};
  return o;
}

double asymptotic_factor(const SolveResult& r) {
  const auto& h = r.history;
  if (h.size() < 6) return r.mean_factor;
  return std::pow(h.back().error_norm / h[h.size() - 6].error_norm, 0.2);
}

template <class Backend>
using LineRelaxation = OnEveryBackend<Backend>;
TYPED_TEST_SUITE(LineRelaxation, testing::Backends, testing::BackendName);

TYPED_TEST(LineRelaxation, AlignedAnisotropyIsSolvedByLinesAlongIt) {
  // eps = 1e-5 along x (0 degrees): x-lines (and alternating lines) converge fast, point
  // smoothers stagnate; at 90 degrees the same holds for y-lines.
  struct Case {
    double angle;
    Smoother fast1, fast2, slow_line;
  };
  for (const Case c : {Case{0, Smoother::XZebra, Smoother::XYZebra, Smoother::YZebra},
                       Case{90, Smoother::YZebra, Smoother::XYZebra, Smoother::XZebra}}) {
    for (Smoother fast : {c.fast1, c.fast2}) {
      const SolveResult r = solve(options<TypeParam>(7, 1e-5, c.angle, fast));
      EXPECT_TRUE(r.converged()) << r.message;
      EXPECT_LT(r.mean_factor, 0.2) << "angle " << c.angle << " smoother " << to_string(fast);
    }
    for (Smoother slow : {Smoother::Jacobi, Smoother::GaussSeidel, c.slow_line}) {
      SolverOptions o = options<TypeParam>(7, 1e-5, c.angle, slow);
      o.max_iterations = 60;
      const SolveResult r = solve(o);
      EXPECT_FALSE(r.converged());
      EXPECT_GT(asymptotic_factor(r), 0.95) << "angle " << c.angle << " smoother " << to_string(slow);
    }
  }
}

TYPED_TEST(LineRelaxation, RedBlackGaussSeidelSmoothsPoisson) {
  const SolveResult r = solve(options<TypeParam>(7, 1.0, 0, Smoother::GaussSeidel));
  ASSERT_TRUE(r.converged()) << r.message;
  EXPECT_LT(asymptotic_factor(r), 0.1);  // GS-RB V(2,2) on Poisson; Jacobi V(2,2) gives 0.19
}

template <class Backend>
using SixSolvers = OnEveryBackend<Backend>;
TYPED_TEST_SUITE(SixSolvers, testing::Backends, testing::BackendName);

TYPED_TEST(SixSolvers, AllConvergeAt45DegreesAndMoreKappaMeansFewerCycles) {
  for (const Preset& p : presets()) {
    std::vector<int> iterations;
    for (int kappa : {1, 2, 3, 4, kKappaW}) {
      SolverOptions o = options<TypeParam>(7, 1e-5, 45, Smoother::Jacobi);
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
template <class Backend>
double work_per_unknown(Coarsening c, int kappa, int levels) {
  Backend be = OnEveryBackend<Backend>::make_backend();
  MultigridSettings s;
  s.levels = levels;
  s.tensor = rotated_anisotropic_tensor(1e-5, 45);
  s.smoother = Smoother::XZebra;
  s.coarsening = c;
  s.coarse_operator = CoarseOperator::Galerkin;
  // Every level launched: a coarse tail (CUDA's default) counts its levels as one pass of its
  // top level, so the points would not be the work done (the H100 run's increments were 0).
  s.coarse_tail_unknowns = 0;
  Multigrid<Backend> mg(be, s);
  be.reset_launches();
  mg.cycle({CycleType::Kappa, kappa});
  return double(be.points()) / double(mg.level(1).shape.unknowns());
}

template <class Backend>
using SemiCoarsening = OnEveryBackend<Backend>;
TYPED_TEST_SUITE(SemiCoarsening, testing::Backends, testing::BackendName);

TYPED_TEST(SemiCoarsening, WCycleWorkGrowsLikeNLogNWhileFixedKappaStaysLinear) {
  // With coarsening factor c = 1/2 every level of a W-cycle does about as much work as the
  // finest, so each added level adds a constant to the work per unknown: N log N. For a fixed
  // kappa the additions die out (the limit is f(kappa, 1/2) = 2 kappa times the work of a
  // call): linear in N. The same holds for the full-coarsening W-cycle (c = 1/4).
  auto increment = [](Coarsening c, int kappa, int n) {
    return work_per_unknown<TypeParam>(c, kappa, n) - work_per_unknown<TypeParam>(c, kappa, n - 1);
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

template <class Backend>
using Symmetry = OnEveryBackend<Backend>;
TYPED_TEST_SUITE(Symmetry, testing::Backends, testing::BackendName);

TYPED_TEST(Symmetry, VAndWAreSymmetricPreconditionersAndTheFCycleIsNot) {
  // <M r1, r2> = <r1, M r2> for the cycle as a preconditioner (zero initial guess), with the
  // adjoint post-smoothing; 1 < kappa < n is not symmetric (the paper, section 4).
  for (Smoother sm : {Smoother::Jacobi, Smoother::GaussSeidel, Smoother::XYZebra}) {
    TypeParam be = this->make_backend();
    MultigridSettings s;
    s.levels = 5;
    s.tensor = rotated_anisotropic_tensor(1e-2, 30);
    s.smoother = sm;
    s.omega = 0.8;
    s.coarse_operator = CoarseOperator::Galerkin;
    s.symmetric_smoothing = true;
    Multigrid<TypeParam> mg(be, s);
    const GridShape shape = mg.level(1).shape;
    auto r1 = be.make_vector(shape), r2 = be.make_vector(shape), z1 = be.make_vector(shape), z2 = be.make_vector(shape);
    auto asymmetry = [&](int kappa) {
      testing::fill_random(be, r1, 1);
      testing::fill_random(be, r2, 2);
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
