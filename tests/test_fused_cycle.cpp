// The fused down pass (nu1 Jacobi sweeps, residual and restriction in one pass over memory)
// against the separate passes: bitwise the same iterate and the same logical trace, with the
// launches and bytes the model predicts for the passes actually issued.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "closed_forms.hpp"
#include "kcycle/backends/cpu/cpu_backend.hpp"
#include "kcycle/core/kernels.hpp"
#include "kcycle/core/problem.hpp"
#include "kcycle/core/relaxation_factor.hpp"
#include "kcycle/cycle/byte_model.hpp"
#include "kcycle/cycle/cycle_counts.hpp"
#include "kcycle/solve/multigrid.hpp"
#include "kcycle/solve/solver_options.hpp"

namespace kcycle {
namespace {

struct FusedRun {
  Trace trace;
  Field iterate;
  std::uint64_t launches = 0, bytes = 0;
};

FusedRun run(MultigridSettings s, bool fused, int kappa, int threads, int cycles = 2, const OpObserver* watch = nullptr,
             bool from_zero = false) {
  s.fused = fused;
  CpuBackend be(threads);
  Multigrid<CpuBackend> mg(be, s);
  fill_uniform_random(mg.level(1).v, 5);
  fill_uniform_random(mg.level(1).f, 6);
  FusedRun r;
  for (int c = 0; c < cycles; ++c) {
    be.reset_launches();
    if (from_zero)
      mg.cycle_from_zero({CycleType::Kappa, kappa}, CycleHooks{&r.trace, watch, {}, {}});
    else
      mg.cycle({CycleType::Kappa, kappa}, CycleHooks{&r.trace, watch, {}, {}});
  }
  r.launches = be.launches();  // of the last cycle
  r.bytes = be.bytes();
  r.iterate = mg.level(1).v;
  return r;
}

bool bitwise_equal(const Field& a, const Field& b) {
  return a.shape() == b.shape() && std::memcmp(a.data(), b.data(), a.values().size_bytes()) == 0;
}

MultigridSettings jacobi(int levels, Coarsening c, int nu1, int nu2) {
  MultigridSettings s;
  s.levels = levels;
  s.tensor = rotated_anisotropic_tensor(1e-3, 30);
  s.omega = paper_jacobi_omega(1e-3, 30);
  s.coarsening = c;
  s.coarse_operator = c == Coarsening::SemiY ? CoarseOperator::Galerkin : CoarseOperator::Rediscretized;
  s.nu1 = nu1;
  s.nu2 = nu2;
  return s;
}

TEST(FusedCycle, BitwiseTheUnfusedIterateForEveryCoarseningKappaAndSweepCount) {
  // 8 levels: the finest levels run on both threads (each recomputes its halo rows).
  for (Coarsening c : {Coarsening::Full, Coarsening::SemiY})
    for (auto [nu1, nu2] : {std::pair{1, 1}, {2, 2}, {3, 0}, {2, 1}})
      for (int kappa : {1, 2, 3, kKappaW})
        for (int threads : {1, 2}) {
          const MultigridSettings s = jacobi(c == Coarsening::Full ? 8 : 6, c, nu1, nu2);
          const FusedRun plain = run(s, false, kappa, threads), fused = run(s, true, kappa, threads);
          EXPECT_TRUE(bitwise_equal(plain.iterate, fused.iterate))
              << to_string(c) << " nu " << nu1 << "," << nu2 << " kappa " << kappa_to_string(kappa) << " threads "
              << threads;
          EXPECT_EQ(plain.trace, fused.trace) << "the trace keeps the logical operations";
          MultigridSettings f = s;
          f.fused = true;
          EXPECT_EQ(fused.launches,
                    launches_per_cycle(std::min(kappa, s.levels), s.levels, closed_form::launches_per_call(f)));
          EXPECT_LT(fused.launches, plain.launches);
          EXPECT_EQ(double(fused.bytes), cycle_bytes(f, kappa).implemented);
          EXPECT_LT(fused.bytes, plain.bytes);
        }
}

TEST(FusedCycle, FromAZeroIterateAsThePreconditionerBitwiseTheUnfusedOne) {
  // cycle_from_zero (MGCG's z = M r): fused, no pass zeroes the finest v or any coarse
  // correction; each first sweep starts from zero instead. The same iterate, trace and bytes.
  for (Coarsening c : {Coarsening::Full, Coarsening::SemiY})
    for (int kappa : {1, 2, 3, kKappaW}) {
      const MultigridSettings s = jacobi(c == Coarsening::Full ? 7 : 5, c, 2, 2);
      const FusedRun plain = run(s, false, kappa, 2, 1, nullptr, true);
      const FusedRun fused = run(s, true, kappa, 2, 1, nullptr, true);
      EXPECT_TRUE(bitwise_equal(plain.iterate, fused.iterate)) << to_string(c) << " kappa " << kappa_to_string(kappa);
      EXPECT_EQ(plain.trace, fused.trace);
      MultigridSettings f = s;
      f.fused = true;
      // The finest level's down pass also starts from zero: its v is not read (8 bytes a point).
      const double finest_v = 8.0 * double(level_shape(s.levels, 1, c).unknowns());
      EXPECT_EQ(double(fused.bytes), cycle_bytes(f, kappa).implemented - finest_v);
    }
}

// The CPU backend computes rows in SIMD blocks whose neighbours come from shuffles, and the
// rest point by point; both must be exactly the point bodies of kernels.hpp (what CUDA runs).
template <class T>
void expect_rows_are_the_point_bodies() {
  BasicCpuBackend<T> be(2);
  for (int n : {1, 7, 16, 17, 31, 33, 127, 130}) {  // every remainder of the SIMD width, 1 .. 2 blocks
    const GridShape shape{n, 9};
    const Stencil9 A = discretize(rotated_anisotropic_tensor(1e-3, 30), shape.hx(), shape.hy());
    const BasicStencil9<T> S = stencil_as<T>(A);
    Field hv(shape), hf(shape);
    fill_uniform_random(hv, 3);
    fill_uniform_random(hf, 4);
    BasicField<T> v = be.make_vector(shape), f = be.make_vector(shape), out = be.make_vector(shape),
                  r = be.make_vector(shape);
    be.upload(hv, v);
    be.upload(hf, f);
    be.jacobi(A, 0.8, v, f, out);
    be.residual(A, v, f, r);
    const T w = T(0.8 / A.center());
    for (int j = 1; j <= shape.ny; ++j)
      for (int i = 1; i <= n; ++i) {
        const T* rows[3] = {v.row(j - 1), v.row(j), v.row(j + 1)};
        ASSERT_EQ(out(i, j), kernels::jacobi(S, w, rows[0], rows[1], rows[2], f.row(j), i))
            << n << " " << i << "," << j;
        ASSERT_EQ(r(i, j), kernels::residual(S, rows[0], rows[1], rows[2], f.row(j), i)) << n << " " << i << "," << j;
      }
  }
}
TEST(VectorRows, AreExactlyThePointBodiesInDoubleAndFloat) {
  expect_rows_are_the_point_bodies<double>();
  expect_rows_are_the_point_bodies<float>();
}

// The fused passes in place (out = v, as the cycle runs them) against the separate sweeps,
// for thread blocks down to a row or two (each copies the rows of v beyond its edges first).
template <class T>
void expect_fused_passes_in_place_are_the_separate_operations() {
  for (GridShape shape : {GridShape{1023, 7}, GridShape{63, 127}, GridShape{127, 63}})
    for (int threads : {1, 2, 3, 5})
      for (int nu : {1, 2, 3}) {
        BasicCpuBackend<T> be(threads);
        const GridShape coarse{(shape.nx - 1) / 2, (shape.ny - 1) / 2};
        const Stencil9 A = discretize(rotated_anisotropic_tensor(1e-3, 30), shape.hx(), shape.hy());
        Field hv(shape), hf(shape), hc(coarse);
        fill_uniform_random(hv, 21);
        fill_uniform_random(hf, 22);
        fill_uniform_random(hc, 23);
        BasicField<T> f = be.make_vector(shape), vc = be.make_vector(coarse), v = be.make_vector(shape),
                      t = be.make_vector(shape), fc = be.make_vector(coarse), fc_in_place = be.make_vector(coarse);
        be.upload(hf, f);
        be.upload(hc, vc);
        const std::string what = std::to_string(shape.nx) + "x" + std::to_string(shape.ny) + " threads " +
                                 std::to_string(threads) + " nu " + std::to_string(nu);
        // Down: nu sweeps ping-ponging through t, then the restricted residual.
        BasicField<T> expected = be.make_vector(shape);
        be.upload(hv, expected);
        for (int k = 0; k < nu; ++k) {
          be.jacobi(A, 0.8, expected, f, t);
          std::swap(expected, t);
        }
        be.restrict_residual(A, expected, f, fc);
        be.upload(hv, v);
        be.jacobi_restrict_residual(A, 0.8, nu, v, f, v, fc_in_place, Coarsening::Full, false);
        EXPECT_EQ(0, std::memcmp(v.data(), expected.data(), v.values().size_bytes())) << "down, v: " << what;
        EXPECT_EQ(0, std::memcmp(fc.data(), fc_in_place.data(), fc.values().size_bytes())) << "down, fc: " << what;
        // Up: prolongation with the correction, then nu sweeps.
        be.upload(hv, expected);
        be.prolong_add(vc, expected);
        for (int k = 0; k < nu; ++k) {
          be.jacobi(A, 0.8, expected, f, t);
          std::swap(expected, t);
        }
        be.upload(hv, v);
        double f_dot_v = 0, v_norm2 = 0, residual2 = 0;
        be.prolong_add_jacobi(A, 0.8, nu, vc, v, f, v, Coarsening::Full, &f_dot_v, &v_norm2, &residual2);
        EXPECT_EQ(0, std::memcmp(v.data(), expected.data(), v.values().size_bytes())) << "up: " << what;
        // The sums of the iterate it writes, the residual's rows beside other blocks included.
        EXPECT_NEAR(f_dot_v / be.dot(f, expected), 1.0, 1e-12) << "up, (f, v): " << what;
        EXPECT_NEAR(v_norm2 / be.dot(expected, expected), 1.0, 1e-12) << "up, (v, v): " << what;
        EXPECT_NEAR(residual2 / be.residual_norm2(A, expected, f), 1.0, 1e-12) << "up, |f - A v|^2: " << what;
      }
}
TEST(FusedPasses, InPlaceAreBitwiseTheSeparateOperationsForAnyThreadCount) {
  expect_fused_passes_in_place_are_the_separate_operations<double>();
  expect_fused_passes_in_place_are_the_separate_operations<float>();
}

// The restriction that zeroes the coarse correction in its launch: bitwise restrict_residual's
// fc, and every value of vc zero, ring rows included, for thread blocks down to a coarse row.
TEST(FusedPasses, TheRestrictionThatZeroesIsTheTwoOperations) {
  for (GridShape shape : {GridShape{63, 127}, GridShape{127, 7}, GridShape{1023, 15}})
    for (Coarsening coarsening : {Coarsening::Full, Coarsening::SemiY})
      for (int threads : {1, 2, 3, 5}) {
        CpuBackend be(threads);
        const GridShape coarse{coarsening == Coarsening::Full ? (shape.nx - 1) / 2 : shape.nx, (shape.ny - 1) / 2};
        const Stencil9 A = discretize(rotated_anisotropic_tensor(1e-3, 30), shape.hx(), shape.hy());
        Field hv(shape), hf(shape), hc(coarse);
        fill_uniform_random(hv, 31);
        fill_uniform_random(hf, 32);
        fill_uniform_random(hc, 33);
        Field v = be.make_vector(shape), f = be.make_vector(shape), expected = be.make_vector(coarse),
              fc = be.make_vector(coarse), vc = be.make_vector(coarse);
        be.upload(hv, v);
        be.upload(hf, f);
        be.upload(hc, vc);
        std::fill(vc.row(0), vc.row(0) + vc.stride(), 1.0);  // the ring too
        be.restrict_residual(A, v, f, expected, coarsening);
        be.reset_launches();
        be.restrict_residual_and_zero(A, v, f, fc, vc, coarsening);
        const std::string what = std::to_string(shape.nx) + "x" + std::to_string(shape.ny) + " " +
                                 std::string(to_string(coarsening)) + " threads " + std::to_string(threads);
        EXPECT_EQ(be.launches(), 1u) << what;
        EXPECT_EQ(0, std::memcmp(fc.data(), expected.data(), fc.values().size_bytes())) << what;
        for (int j = 0; j <= coarse.ny + 1; ++j)
          for (int i = 0; i < vc.stride(); ++i) ASSERT_EQ(vc.row(j)[i], 0.0) << what << " at " << i << "," << j;
      }
}

TEST(FusedCycle, AWatchedCycleRunsEveryOperationOnItsOwn) {
  const MultigridSettings s = jacobi(5, Coarsening::Full, 2, 2);
  int seen = 0;
  const OpObserver watch = [&](const TraceEvent&) { ++seen; };
  const FusedRun watched = run(s, true, 2, 1, 1, &watch), plain = run(s, false, 2, 1, 1);
  EXPECT_EQ(watched.launches, plain.launches);
  EXPECT_TRUE(bitwise_equal(watched.iterate, plain.iterate));
  EXPECT_EQ(std::size_t(seen), plain.trace.size());
}

TEST(FusedCycle, PipelinedSweepsGiveBitwiseTheIterateOfSeparatePasses) {
  // Gauss-Seidel's colours and x-zebra's line parities run as one pass each; y-zebra stays two.
  // Every smoother's restriction zeroes the coarse correction in its launch.
  for (Smoother sm : {Smoother::GaussSeidel, Smoother::XZebra, Smoother::YZebra, Smoother::XYZebra})
    for (Coarsening c : {Coarsening::Full, Coarsening::SemiY})
      for (bool symmetric : {false, true})
        for (int kappa : {1, 2, 3, kKappaW})
          for (int threads : {1, 2}) {
            MultigridSettings s = jacobi(c == Coarsening::Full ? 7 : 6, c, 2, 1);
            s.smoother = sm;
            s.symmetric_smoothing = symmetric;
            const FusedRun plain = run(s, false, kappa, threads), fused = run(s, true, kappa, threads);
            const std::string what = std::string(to_string(sm)) + " " + std::string(to_string(c)) +
                                     (symmetric ? " symmetric" : "") + " kappa " + kappa_to_string(kappa) +
                                     " threads " + std::to_string(threads);
            EXPECT_TRUE(bitwise_equal(plain.iterate, fused.iterate)) << what;
            EXPECT_EQ(plain.trace, fused.trace) << what;
            MultigridSettings f = s;
            f.fused = true;
            EXPECT_EQ(fused.launches,
                      launches_per_cycle(std::min(kappa, s.levels), s.levels, closed_form::launches_per_call(f)))
                << what;
            EXPECT_EQ(double(fused.bytes), cycle_bytes(f, kappa).implemented) << what;
            EXPECT_EQ(double(plain.bytes), cycle_bytes(s, kappa).implemented) << what;
            // One launch a call less for the zeroing; more for the pipelined sweeps.
            const int k = std::min(kappa, s.levels);
            const std::uint64_t calls = total_calls(k, s.levels) - level_calls(k, s.levels);  // above the coarsest
            if (sm == Smoother::YZebra) {
              EXPECT_EQ(fused.launches, plain.launches - calls) << what;
            } else {
              EXPECT_LT(fused.launches, plain.launches - calls) << what;
            }
            // Gauss-Seidel's four colour passes re-read the neighbour rows; zebra's do not.
            if (sm == Smoother::GaussSeidel) {
              EXPECT_LT(fused.bytes, plain.bytes) << what;
            }
          }
}

// The wavefront's thread blocks copy the rows beyond their edges and recompute the passes
// there: bitwise the separate passes for any thread count, also with blocks thinner than the
// copied rows and grids of odd sizes.
template <class T>
void expect_pipelined_sweeps_are_the_separate_passes() {
  for (GridShape shape : {GridShape{1024, 5}, GridShape{70, 70}, GridShape{65, 131}, GridShape{33, 200}})
    for (int threads : {1, 2, 3, 4, 7})
      for (bool flag : {false, true}) {
        BasicCpuBackend<T> be(threads);
        const Stencil9 A = discretize(rotated_anisotropic_tensor(1e-3, 30), shape.hx(), shape.hy());
        const TridiagonalFactor line = TridiagonalFactor::constant(A.a[1][0], A.a[1][1], A.a[1][2], shape.nx);
        Field hv(shape), hf(shape);
        fill_uniform_random(hv, 11);
        fill_uniform_random(hf, 12);
        BasicField<T> f = be.make_vector(shape), separate = be.make_vector(shape), pipelined = be.make_vector(shape);
        be.upload(hf, f);
        const std::string what = std::to_string(shape.nx) + "x" + std::to_string(shape.ny) + " threads " +
                                 std::to_string(threads) + (flag ? " reverse/odd first" : "");
        be.upload(hv, separate);
        be.upload(hv, pipelined);
        be.gauss_seidel(A, separate, f, flag);
        be.gauss_seidel_pipelined(A, pipelined, f, flag);
        EXPECT_EQ(0, std::memcmp(separate.data(), pipelined.data(), separate.values().size_bytes()))
            << "Gauss-Seidel " << what;
        be.upload(hv, separate);
        be.upload(hv, pipelined);
        be.zebra_x(A, line, separate, f, flag);
        be.zebra_x_pipelined(A, line, pipelined, f, flag);
        EXPECT_EQ(0, std::memcmp(separate.data(), pipelined.data(), separate.values().size_bytes()))
            << "x-zebra " << what;
      }
}
TEST(PipelinedSweeps, BitwiseTheSeparatePassesForAnyThreadCountInDoubleAndFloat) {
  expect_pipelined_sweeps_are_the_separate_passes<double>();
  expect_pipelined_sweeps_are_the_separate_passes<float>();
}

}  // namespace
}  // namespace kcycle
