// The discrete operators: stencil, transfers, coarsest-level solver, damping factors.
#include <gtest/gtest.h>

#include <cmath>

#include "kcycle/backends/cpu/cpu_backend.hpp"
#include "kcycle/core/banded_lu.hpp"
#include "kcycle/core/kernels.hpp"
#include "kcycle/core/problem.hpp"
#include "kcycle/core/relaxation_factor.hpp"

namespace kcycle {
namespace {

TEST(Stencil, IsotropicCaseIsTheFivePointLaplacian) {
  for (double angle : {0.0, 17.0, 45.0, 90.0}) {
    const Stencil9 s = rotated_anisotropic_stencil(1.0, angle);
    const double expected[3][3] = {{0, -1, 0}, {-1, 4, -1}, {0, -1, 0}};
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) EXPECT_NEAR(s.a[r][c], expected[r][c], 1e-15) << angle;
  }
}

TEST(Stencil, MatchesThePapersTableAt45Degrees) {
  const double eps = 1e-4, C = std::sqrt(0.5), S = std::sqrt(0.5);
  const Stencil9 s = rotated_anisotropic_stencil(eps, 45);
  EXPECT_NEAR(s.a[2][0], 0.5 * (1 - eps) * C * S, 1e-15);   // north-west
  EXPECT_NEAR(s.a[2][2], -0.5 * (1 - eps) * C * S, 1e-15);  // north-east
  EXPECT_NEAR(s.a[1][1], 2 * (1 + eps), 1e-15);
  EXPECT_NEAR(s.a[2][1], -(eps * C * C + S * S), 1e-15);
  double row_sum = 0;
  for (auto& r : s.a)
    for (double v : r) row_sum += v;
  EXPECT_NEAR(row_sum, 0.0, 1e-14);
}

TEST(Stencil, StrongCouplingIsAlongXAtZeroDegrees) {
  const Stencil9 s = rotated_anisotropic_stencil(1e-5, 0);
  EXPECT_NEAR(s.a[1][0], -1.0, 1e-15);   // west: strong
  EXPECT_NEAR(s.a[0][1], -1e-5, 1e-15);  // south: weak
}

TEST(Stencil, ExactOnQuadraticsWithMixedTerm) {
  // The 9-point stencil differentiates quadratics exactly: -kxx u_xx - kyy u_yy - 2 kxy u_xy.
  const double eps = 0.01, angle = 30, h = 0.125;
  const DiffusionTensor K = rotated_anisotropic_tensor(eps, angle);
  const Stencil9 A = scaled(rotated_anisotropic_stencil(eps, angle), 1 / (h * h));
  auto u = [](double x, double y) { return 3 * x * x - 2 * x * y + 5 * y * y + x - y; };
  const double expected = -K.kxx * 6 - K.kyy * 10 - 2 * K.kxy * (-2);
  double rows[3][3];
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) rows[dy + 1][dx + 1] = u(0.5 + dx * h, 0.25 + dy * h);
  EXPECT_NEAR(kernels::apply_stencil(A, rows[0], rows[1], rows[2], 1), expected, 1e-9);
}

// <R r, v_c> * scale == <r, P v_c> for random r and v_c: R is P^T / scale.
void expect_restriction_is_scaled_transpose(GridShape fine, GridShape coarse, Coarsening c, double scale) {
  CpuBackend be(1);
  Field r = be.make_vector(fine), vc = be.make_vector(coarse), fc = be.make_vector(coarse), pv = be.make_vector(fine),
        zero = be.make_vector(fine);
  fill_uniform_random(r, 3);
  fill_uniform_random(vc, 4);
  // Restriction of r: A = 0 stencil and v = 0 make restrict_residual restrict f = r.
  be.restrict_residual(Stencil9{}, zero, r, fc, c);
  be.prolong_add(vc, pv, c);
  double lhs = 0, rhs = 0;
  for (int j = 1; j <= coarse.ny; ++j)
    for (int i = 1; i <= coarse.nx; ++i) lhs += fc(i, j) * vc(i, j);
  for (int j = 1; j <= fine.ny; ++j)
    for (int i = 1; i <= fine.nx; ++i) rhs += r(i, j) * pv(i, j);
  EXPECT_NEAR(scale * lhs, rhs, 1e-12 * std::abs(rhs));
}

TEST(Transfers, FullWeightingIsAQuarterOfBilinearTransposed) {
  expect_restriction_is_scaled_transpose({15, 15}, {7, 7}, Coarsening::Full, 4.0);
}

TEST(Transfers, SemiCoarseningRestrictionIsHalfTheTranspose) {
  expect_restriction_is_scaled_transpose({9, 15}, {9, 7}, Coarsening::SemiY, 2.0);
}

TEST(Transfers, BilinearIsExactOnBilinearFunctions) {
  CpuBackend be(1);
  const GridShape fine{15, 15}, coarse{7, 7};
  Field vc = be.make_vector(coarse), v = be.make_vector(fine);
  // Coarse values of a bilinear function, ring included: every fine value must match it.
  auto u = [](double x, double y) { return 1 + 2 * x + 3 * y + 4 * x * y; };
  for (int J = 0; J <= 8; ++J)
    for (int I = 0; I <= 8; ++I) vc(I, J) = u(I / 8.0, J / 8.0);
  be.prolong_add(vc, v);
  for (int j = 1; j <= 15; ++j)
    for (int i = 1; i <= 15; ++i) EXPECT_NEAR(v(i, j), u(i / 16.0, j / 16.0), 1e-14) << i << "," << j;
}

TEST(CoarseSolver, BandedLUSolvesTheLevelMatrix) {
  for (GridShape shape : {GridShape{1, 1}, GridShape{3, 3}, GridShape{7, 7}, GridShape{31, 1}}) {
    CpuBackend be(1);
    const Stencil9 A = scaled(rotated_anisotropic_stencil(1e-3, 37), 64.0);
    Field x = be.make_vector(shape), f = be.make_vector(shape), y = be.make_vector(shape);
    fill_uniform_random(x, 11);
    be.apply(A, x, f);
    BandedLU lu(A, shape);
    lu.solve(f, y);
    for (int j = 1; j <= shape.ny; ++j)
      for (int i = 1; i <= shape.nx; ++i) EXPECT_NEAR(y(i, j), x(i, j), 1e-9);
  }
}

TEST(Damping, PapersFormula) {
  EXPECT_NEAR(paper_jacobi_omega(1.0, 0), 0.8, 1e-15);
  EXPECT_NEAR(paper_jacobi_omega(1.0, 45), 0.8, 1e-15);
  EXPECT_NEAR(paper_jacobi_omega(1e-4, 45), 0.8722, 5e-5);
}

TEST(Damping, FourierAnalysisOfThePoissonStencil) {
  // Classical result: damped Jacobi on the 5-point Laplacian, omega = 4/5, mu = 3/5.
  const FourierOmega lfa = lfa_jacobi_omega(rotated_anisotropic_stencil(1.0, 0));
  EXPECT_NEAR(lfa.omega, 0.8, 1e-12);
  EXPECT_NEAR(lfa.smoothing_factor, 0.6, 1e-12);
  EXPECT_NEAR(jacobi_smoothing_factor(rotated_anisotropic_stencil(1.0, 0), 1.0), 1.0, 1e-12);
}

TEST(Damping, FourierOmegaMinimizesTheSmoothingFactor) {
  const Stencil9 s = rotated_anisotropic_stencil(1e-4, 45);
  const FourierOmega best = lfa_jacobi_omega(s);
  for (double d : {-0.02, 0.02}) EXPECT_GT(jacobi_smoothing_factor(s, best.omega + d), best.smoothing_factor);
  EXPECT_LT(best.smoothing_factor, 1.0);
}

}  // namespace
}  // namespace kcycle

namespace kcycle {
namespace {

// A field not made yet is 0 x 0, no level's shape: the one level of a 1-level hierarchy (1 x 1)
// is allocated before anything is copied into it (issue 13: the CUDA backend copied to a null
// pointer when the default shape was 1 x 1).
TEST(Field, ANewFieldHasNoLevelsShape) {
  const Field none;
  EXPECT_EQ(none.shape().nx, 0);
  EXPECT_EQ(none.shape().ny, 0);
  EXPECT_TRUE(none.values().empty());
  EXPECT_FALSE(none.shape() == level_shape(1, 1, Coarsening::Full));
  Field one(GridShape{1, 1}), host;
  one(1, 1) = 3.0;
  CpuBackend cpu(1);
  cpu.download(one, host);
  ASSERT_NE(host.data(), nullptr);
  EXPECT_EQ(host(1, 1), 3.0);
}

}  // namespace
}  // namespace kcycle
