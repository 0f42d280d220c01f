// Parallel cyclic reduction (the GPU's x-line solver) on the host, through the same combine
// body the GPU kernel runs: it must solve the line systems Thomas solves, to rounding.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "barrier_team.hpp"
#include "kcycle/backends/cpu/cpu_backend.hpp"
#include "kcycle/core/cyclic_reduction.hpp"
#include "kcycle/core/kernels.hpp"
#include "kcycle/core/problem.hpp"
#include "kcycle/core/stencil.hpp"
#include "kcycle/core/tridiagonal.hpp"
#include "line_solve_rounding.hpp"

namespace kcycle {
namespace {

std::vector<double> thomas_solve(const TridiagonalFactor& f, std::vector<double> d) {
  const int n = f.size();
  double previous = 0.0;
  for (int k = 0; k < n; ++k)
    previous = d[std::size_t(k)] = kernels::thomas_forward(d[std::size_t(k)], f.lower()[k], previous, f.inv_denom()[k]);
  double next = 0.0;
  for (int k = n - 1; k >= 0; --k)
    next = d[std::size_t(k)] = kernels::thomas_backward(d[std::size_t(k)], f.cprime()[k], next);
  return d;
}

// The backward error max |A x - d| / (max_k (|a_k| + |b_k| + |c_k|) max |x|) for the matrix of f.
double backward_error(const TridiagonalFactor& f, const std::vector<double>& x, const std::vector<double>& d) {
  const int n = f.size();
  double worst = 0.0, row_norm = 0.0, x_max = 0.0;
  for (int k = 0; k < n; ++k) {
    const double Ax = f.diag()[k] * x[std::size_t(k)] + (k > 0 ? f.lower()[k] * x[std::size_t(k - 1)] : 0.0) +
                      (k + 1 < n ? f.upper()[k] * x[std::size_t(k + 1)] : 0.0);
    worst = std::max(worst, std::abs(Ax - d[std::size_t(k)]));
    row_norm = std::max(row_norm, std::abs(f.diag()[k]) + std::abs(f.lower()[k]) + std::abs(f.upper()[k]));
    x_max = std::max(x_max, std::abs(x[std::size_t(k)]));
  }
  return worst / (row_norm * x_max);
}

double relative_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double diff = 0.0, scale = 0.0;
  for (std::size_t k = 0; k < a.size(); ++k) {
    diff = std::max(diff, std::abs(a[k] - b[k]));
    scale = std::max(scale, std::abs(a[k]));
  }
  return diff / scale;
}

std::vector<double> random_values(int n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> d(static_cast<std::size_t>(n));
  for (double& x : d) x = u(gen);
  return d;
}

TEST(CyclicReduction, SolvesThePapersXLinesAsThomasDoes) {
  for (double eps : {1e-4, 1e-2, 1.0})
    for (double angle : {0.0, 30.0, 45.0, 90.0})
      for (int n : {1, 2, 3, 5, 8, 63, 64, 255, 1023, 4095}) {
        const Stencil9 A = rotated_anisotropic_stencil(eps, angle);
        const TridiagonalFactor x_line = TridiagonalFactor::constant(A.a[1][0], A.a[1][1], A.a[1][2], n);
        const PcrFactor pcr(x_line);
        EXPECT_EQ(1 << pcr.steps() >= n, true);
        EXPECT_LT(1 << pcr.steps(), 2 * std::max(n, 1));
        const std::vector<double> d = random_values(n, unsigned(n));
        std::vector<double> x = d;
        pcr_solve(pcr, x.data());
        EXPECT_LE(relative_difference(thomas_solve(x_line, d), x),
                  testing::line_solve_rounding(A.a[1][0], A.a[1][1], A.a[1][2], n))
            << "eps " << eps << " angle " << angle << " n " << n;
        EXPECT_LE(backward_error(x_line, x, d), 1e-15) << "eps " << eps << " angle " << angle << " n " << n;
      }
}

TEST(CyclicReduction, SolvesLinesWhoseRowsDiffer) {
  const int n = 777;
  std::vector<double> lower = random_values(n, 1), upper = random_values(n, 2), diag(lower.size());
  for (int k = 0; k < n; ++k)
    diag[std::size_t(k)] = 2.5 + std::abs(lower[std::size_t(k)]) + std::abs(upper[std::size_t(k)]);
  const TridiagonalFactor matrix(lower, diag, upper);
  const std::vector<double> d = random_values(n, 3);
  std::vector<double> x = d;
  pcr_solve(PcrFactor(matrix), x.data());
  EXPECT_LE(relative_difference(thomas_solve(matrix, d), x), 1e-12);
  EXPECT_LE(backward_error(matrix, x, d), 1e-15);
}

// The GPU kernel's body (level::pcr_x_line, one block per row) on teams of threads: the odd rows
// of a level solved as Thomas solves them (CpuBackend::zebra_x_lines), and bitwise the same for
// every team size.
TEST(CyclicReduction, ATeamSolvesTheRowsOfALevelAsThomasDoes) {
  const GridShape shape = full_coarsening_shape(7, 1);
  const Stencil9 A = discretize(rotated_anisotropic_tensor(1e-4, 30), shape.hx(), shape.hy());
  const TridiagonalFactor x_line = TridiagonalFactor::constant(A.a[1][0], A.a[1][1], A.a[1][2], shape.nx);
  const PcrFactor pcr(x_line);
  Field v0(shape), f(shape);
  fill_uniform_random(v0, 3);
  fill_uniform_random(f, 4);
  Field thomas = v0;
  CpuBackend cpu(1);
  cpu.zebra_x_lines(A, x_line, thomas, f, 1);
  std::vector<Field> by_team;
  for (int threads : {1, 3, 8}) {
    Field v = v0;
    std::vector<double> buffers(2 * std::size_t(shape.nx));  // the block's shared memory
    testing::run_as_team(threads, [&](const testing::BarrierTeam& team) {
      for (int j = 1; j <= shape.ny; j += 2)
        level::pcr_x_line(team, A, level::pcr_view(pcr), v.data(), f.data(), shape.nx, shape.stride(), j,
                          buffers.data());
    });
    double diff = 0, scale = 0;
    for (std::size_t k = 0; k < v.values().size(); ++k) {
      diff = std::max(diff, std::abs(v.values()[k] - thomas.values()[k]));
      scale = std::max(scale, std::abs(thomas.values()[k]));
    }
    EXPECT_LE(diff / scale, testing::x_line_rounding(A, shape.nx)) << threads << " threads";
    by_team.push_back(std::move(v));
  }
  for (std::size_t k = 1; k < by_team.size(); ++k) EXPECT_EQ(by_team[0].values().size(), by_team[k].values().size());
  for (std::size_t k = 1; k < by_team.size(); ++k)
    EXPECT_TRUE(std::equal(by_team[0].values().begin(), by_team[0].values().end(), by_team[k].values().begin()))
        << "team " << k;
}

}  // namespace
}  // namespace kcycle
