// The fused vector operations (apply with a dot, axpy with a norm, the residual's norm) against
// the unfused sequences they replace, on every backend; and the norms a CG solve reports now
// that they come out of its own passes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

#include "backend_under_test.hpp"
#include "closed_forms.hpp"
#include "kcycle/core/problem.hpp"
#include "kcycle/cycle/byte_model.hpp"
#include "kcycle/cycle/cycle_counts.hpp"
#include "kcycle/solve/iterative_solver.hpp"
#include "kcycle/solve/krylov.hpp"
#include "kcycle/solve/mixed_precision.hpp"
#include "kcycle/solve/solve.hpp"
#include "small_mgcg_case.hpp"

namespace kcycle {
namespace {

template <class Backend>
using FusedVectorOps = testing::OnEveryBackend<Backend>;
TYPED_TEST_SUITE(FusedVectorOps, testing::Backends, testing::BackendName);

void expect_relative(double fused, double unfused, const char* what) {
  EXPECT_NEAR(fused / unfused, 1.0, 1e-13) << what << ": " << fused << " vs " << unfused;
}

TYPED_TEST(FusedVectorOps, EqualTheSequencesTheyReplace) {
  using testing::fill_random;
  using testing::host_values;
  TypeParam be = this->make_backend();
  for (GridShape shape : {GridShape{127, 127}, GridShape{63, 31}, GridShape{1, 1}}) {
    const Stencil9 A = scaled(rotated_anisotropic_stencil(1e-3, 30), 1.0 / (shape.hx() * shape.hx()));
    auto random = [&](std::uint64_t seed) {
      auto v = be.make_vector(shape);
      fill_random(be, v, seed);
      return v;
    };
    const auto p = random(1), f = random(2), x = random(3), exact = random(4);
    auto q_fused = be.make_vector(shape), q = be.make_vector(shape);

    be.reset_launches();
    const double pq_fused = be.apply_dot(A, p, q_fused);
    EXPECT_EQ(be.bytes(), pass_bytes::apply_dot(shape));
    be.apply(A, p, q);
    EXPECT_EQ(host_values(be, q_fused), host_values(be, q)) << "apply_dot writes A p bitwise";
    expect_relative(pq_fused, be.dot(p, q), "apply_dot");

    for (const auto* minus : {static_cast<decltype(&exact)>(nullptr), &exact}) {
      auto y_fused = random(5), y = random(5), diff = be.make_vector(shape);
      be.reset_launches();
      const double norm2 = be.axpy_norm2(-0.7, x, y_fused, minus);
      EXPECT_EQ(be.bytes(), pass_bytes::axpy_norm2(shape, minus != nullptr));
      be.axpy(-0.7, x, y);
      EXPECT_EQ(host_values(be, y_fused), host_values(be, y)) << "axpy_norm2 updates y bitwise";
      be.copy(y, diff);
      if (minus) be.axpy(-1.0, *minus, diff);
      expect_relative(norm2, be.dot(diff, diff), minus ? "axpy_norm2 with minus" : "axpy_norm2");
    }

    auto r = be.make_vector(shape);
    be.reset_launches();
    const double rr = be.residual_norm2(A, x, f);
    EXPECT_EQ(be.bytes(), pass_bytes::residual_norm2(shape));
    be.residual(A, x, f, r);
    expect_relative(rr, be.dot(r, r), "residual_norm2");
  }
}

// MGCG's two passes against the operations they replace: p, x, r and r's rounding bitwise,
// the sums up to their order. A p is recomputed where needed, never stored; each thread block
// of xpay_energy recomputes the new direction's row beyond its edges.
TEST(FusedVectorOps, TwoPassCgIsTheSequenceItReplacesForAnyThreadCount) {
  for (GridShape shape : {GridShape{1023, 7}, GridShape{127, 127}, GridShape{63, 31}, GridShape{1, 1}})
    for (int threads : {1, 2, 3, 5}) {
      CpuBackend be(threads);
      FloatCpuBackend fbe(threads);
      const Stencil9 A = scaled(rotated_anisotropic_stencil(1e-3, 30), 1.0 / (shape.hx() * shape.hx()));
      const std::string what =
          std::to_string(shape.nx) + "x" + std::to_string(shape.ny) + " threads " + std::to_string(threads);
      auto same = [](const auto& a, const auto& b) {
        return 0 == std::memcmp(a.data(), b.data(), a.values().size_bytes());
      };
      Field z(shape), p(shape), p_fused(shape), q(shape), exact(shape);
      fill_uniform_random(z, 1);
      fill_uniform_random(p, 2);
      fill_uniform_random(exact, 3);
      be.copy(p, p_fused);
      be.reset_launches();
      const double pAp_fused = be.xpay_energy(A, z, -0.37, p_fused);
      EXPECT_EQ(be.launches(), 1u);
      EXPECT_EQ(be.bytes(), pass_bytes::xpay_energy(shape));
      be.xpay(z, -0.37, p);
      const double pAp = be.apply_dot(A, p, q);
      EXPECT_TRUE(same(p, p_fused)) << "p: " << what;
      EXPECT_NEAR(pAp_fused / pAp, 1.0, 1e-13) << what;

      for (bool with_exact : {false, true})
        for (bool rounding : {false, true}) {
          const std::string case_ = what + (with_exact ? " exact" : "") + (rounding ? " rounded" : "");
          Field x(shape), r(shape);
          fill_uniform_random(x, 4);
          fill_uniform_random(r, 5);
          Field x_fused = x, r_fused = r;
          FloatField rounded = fbe.make_vector(shape), rounded_apart = fbe.make_vector(shape);
          const Field* e = with_exact ? &exact : nullptr;
          be.reset_launches();
          const auto norms = be.update_x_and_r(0.3, A, p, x_fused, r_fused, e, rounding ? &rounded : nullptr);
          EXPECT_EQ(be.launches(), 1u);
          EXPECT_EQ(be.bytes(), pass_bytes::update_x_and_r(shape, with_exact) + (rounding ? 4 * shape.unknowns() : 0))
              << case_;
          const double error2 = be.axpy_norm2(0.3, p, x, e);
          be.apply(A, p, q);
          const double residual2 = be.axpy_norm2(-0.3, q, r, nullptr);
          fbe.assign(r, rounded_apart);
          EXPECT_TRUE(same(x, x_fused)) << "x: " << case_;
          EXPECT_TRUE(same(r, r_fused)) << "r: " << case_;
          EXPECT_TRUE(!rounding || same(rounded, rounded_apart)) << "rounded r: " << case_;
          EXPECT_NEAR(norms.error2 / error2, 1.0, 1e-13) << case_;
          EXPECT_NEAR(norms.residual2 / residual2, 1.0, 1e-13) << case_;
        }

      be.apply(A, p, q);
      EXPECT_NEAR(be.dot_apply(z, A, p) / be.dot(q, z), 1.0, 1e-13) << "dot_apply: " << what;
    }
}

// MGCG and refinement read a mixed-precision hierarchy's correction z in float where the cycle
// left it: each operation that takes z in float writes bitwise what it writes for z widened to
// double, and counts 4 bytes a point for z instead of 8. Its sums equal to rounding: the
// vectorizer groups a row's products into lanes differently when they come from floats (each
// call's order is fixed; the iterates do not depend on it, see FusedCg.*).
TEST(FusedVectorOps, ReadAFloatCorrectionAsItsWideningToDouble) {
  const GridShape shape{255, 127};
  const std::uint64_t n = shape.unknowns();
  const Stencil9 A = discretize(rotated_anisotropic_tensor(1e-2, 30), shape.hx(), shape.hy());
  for (int threads : {1, 2, 3}) {
    CpuBackend be(threads);
    FloatCpuBackend fbe(threads);
    Field source(shape), r(shape), p0(shape);
    fill_uniform_random(source, 3);
    fill_uniform_random(r, 4);
    fill_uniform_random(p0, 5);
    FloatField z = fbe.make_vector(shape);
    fbe.upload(source, z);
    Field widened = be.make_vector(shape);
    be.assign(z, widened);
    const std::string what = std::to_string(threads) + " threads";

    Field p_float = p0, p_double = p0;
    be.reset_launches();
    const double pAp_float = be.xpay_energy(A, z, 0.7, p_float);
    EXPECT_EQ(be.bytes(), 20 * n) << what;
    const double pAp_double = be.xpay_energy(A, widened, 0.7, p_double);
    EXPECT_EQ(pAp_float, pAp_double) << what;
    EXPECT_EQ(0, std::memcmp(p_float.data(), p_double.data(), p0.values().size_bytes())) << what;
    EXPECT_NEAR(be.dot_apply(z, A, p0) / be.dot_apply(widened, A, p0), 1.0, 1e-14) << what;

    p_float = p0, p_double = p0;
    be.reset_launches();
    be.xpay(z, -0.3, p_float);
    EXPECT_EQ(be.bytes(), 20 * n) << what;
    be.xpay(widened, -0.3, p_double);
    EXPECT_EQ(0, std::memcmp(p_float.data(), p_double.data(), p0.values().size_bytes())) << what;

    be.reset_launches();
    EXPECT_NEAR(be.dot(r, z) / be.dot(r, widened), 1.0, 1e-14) << what;
    EXPECT_EQ(be.bytes(), (12 + 16) * n) << what;

    Field x_float = p0, x_double = p0;
    be.reset_launches();
    const double x2_float = be.axpy_norm2(1.0, z, x_float, &r);
    EXPECT_EQ(be.bytes(), 28 * n) << what;
    const double x2_double = be.axpy_norm2(1.0, widened, x_double, &r);
    EXPECT_EQ(0, std::memcmp(x_float.data(), x_double.data(), p0.values().size_bytes())) << what;
    EXPECT_NEAR(x2_float / x2_double, 1.0, 1e-14) << what;
  }
}

// The true residual |f - A x| (h-scaled) of an iterate, computed on `be`: the backend the solve
// ran on, so that its arithmetic is the solve's (a GPU's stencil and reduction round otherwise
// than the CPU's: at a residual 1e-10 of the first, 1e-5 relative on an H100).
template <class Backend>
double true_residual(Backend& be, const IterativeSolver& solver) {
  const Field x = solver.iterate();
  const DiscreteProblem p = make_problem(solver.options());  // the solver keeps only its own copy
  const GridShape s = x.shape();
  const Stencil9 A =
      discretize(rotated_anisotropic_tensor(solver.options().eps, solver.options().angle_degrees), s.hx(), s.hy());
  auto xv = be.make_vector(s), fv = be.make_vector(s);
  be.upload(x, xv);
  be.upload(p.rhs, fv);
  return std::sqrt(s.hx() * s.hy() * be.residual_norm2(A, xv, fv));
}

TYPED_TEST(FusedVectorOps, CgReportsItsRecursiveResidualAndEndsOnTheTrueOne) {
  for (SolverKind kind : {SolverKind::PCG, SolverKind::FCG})
    for (ProblemKind problem : {ProblemKind::RandomError, ProblemKind::Manufactured}) {
      SolverOptions o = this->on_this_backend({});
      o.levels = 6;
      o.solver = kind;
      o.problem = problem;
      o.cycle = {CycleType::Kappa, 2};
      o.tolerance = 1e-10;
      IterativeSolver solver(o, make_problem(o));
      TypeParam be = this->make_backend();
      for (int k = 0; k < 3 && solver.running(); ++k) {
        const IterationRecord& rec = solver.step();
        // r is updated recursively: f - A x up to rounding while the residual is large.
        EXPECT_NEAR(rec.residual_norm / true_residual(be, solver), 1.0, 1e-8) << "iteration " << rec.iteration;
      }
      while (solver.running()) solver.step();
      const SolveResult result = solver.result(false);
      ASSERT_EQ(result.status, SolveStatus::Converged) << result.message;
      // The reported final residual is f - A x of the final iterate, computed.
      EXPECT_NEAR(result.final_residual / true_residual(be, solver), 1.0, 1e-12);
      if (problem == ProblemKind::Manufactured) {
        EXPECT_LE(result.residual_reduction, o.tolerance);
      }
    }
}

TEST(FusedCg, TakesRzFromTheCyclesLastPass) {
  // Fused, the finest up pass of the preconditioning cycle also sums (r, z): CG issues one
  // pass fewer per iteration and converges the same (the sum is only ordered differently).
  SolveResult results[2];
  for (bool fused : {false, true}) {
    SolverOptions o;
    o.levels = 7;
    o.threads = 2;
    o.solver = SolverKind::PCG;
    o.cycle = {CycleType::Kappa, 3};
    o.fused = fused;
    results[fused] = solve(o);
    ASSERT_TRUE(results[fused].converged()) << results[fused].message;
    const MultigridSettings s = multigrid_settings(o);
    // The cycle, then xpay, apply_dot and two axpy_norm2 (a grid this small stays in cache:
    // no two-pass CG); unfused also the zeroing of the finest v and (r, z), which the fused
    // cycle folds into its first and last pass.
    const std::uint64_t cg_passes = fused ? 4 : 6;
    EXPECT_EQ(results[fused].launches_per_iteration,
              launches_per_cycle(3, o.levels, closed_form::launches_per_call(s)) + cg_passes)
        << "fused " << fused;
  }
  EXPECT_EQ(results[0].iterations, results[1].iterations);
  EXPECT_NEAR(results[1].final_error / results[0].final_error, 1.0, 1e-6);
}

// The same hierarchy (fused cycle) under CG with its two passes (A p recomputed) and under CG
// with the passes it replaces (q = A p stored): bitwise the same iterates, in double and with a
// float hierarchy, standard and flexible.
TEST(FusedCg, TwoPassIteratesAreBitwiseThoseWithAStoredAp) {
  const testing::SmallMgcgCase c;
  for (bool flexible : {false, true})
    for (bool mixed : {false, true}) {
      std::vector<Field> iterates;
      std::vector<double> launches;
      for (bool two_pass : {true, false}) {
        CpuBackend be(2);
        FloatCpuBackend fbe(2);
        Field x = c.problem.initial_guess;
        auto run = [&](auto& M) {
          auto cg = c.mgcg(be, M, x, flexible, two_pass);
          for (int k = 0; k < 6; ++k) {
            be.reset_launches();
            ASSERT_EQ(cg.step(), StepResult::Ok);
          }
          launches.push_back(double(be.launches()));
        };
        if (mixed) {
          MixedPrecisionCycle cycle(be, fbe, c.settings);
          run(cycle);
        } else {
          Multigrid<CpuBackend> mg(be, c.settings);
          run(mg);
        }
        iterates.push_back(std::move(x));
      }
      const std::string what = std::string(flexible ? "flexible" : "standard") + (mixed ? ", mixed" : ", double");
      EXPECT_EQ(0, std::memcmp(iterates[0].data(), iterates[1].data(), iterates[0].values().size_bytes())) << what;
      EXPECT_LT(launches[0], launches[1]) << what;
    }
}

TEST(FusedStandAlone, TakesItsNormsFromTheCyclesLastPass) {
  // Fused, the finest up pass sums |v| (the error: the exact solution is zero) and |f - A v|
  // of the iterate it writes: no norm passes.
  SolveResult results[2];
  for (bool fused : {false, true}) {
    SolverOptions o;
    o.levels = 7;
    o.threads = 2;
    o.cycle = {CycleType::Kappa, 2};
    o.fused = fused;
    results[fused] = solve(o);
    ASSERT_TRUE(results[fused].converged()) << results[fused].message;
    const MultigridSettings s = multigrid_settings(o);
    const std::uint64_t norm_passes = fused ? 0 : 2;  // unfused: dot(v, v) and residual_norm2
    EXPECT_EQ(results[fused].launches_per_iteration,
              launches_per_cycle(2, o.levels, closed_form::launches_per_call(s)) + norm_passes)
        << "fused " << fused;
  }
  ASSERT_EQ(results[0].iterations, results[1].iterations);
  ASSERT_EQ(results[0].history.size(), results[1].history.size());
  for (std::size_t k = 0; k < results[0].history.size(); ++k) {  // the same iterates, sums in another order
    const IterationRecord &plain = results[0].history[k], &fused = results[1].history[k];
    EXPECT_NEAR(fused.error_norm / plain.error_norm, 1.0, 1e-12) << "iteration " << plain.iteration;
    EXPECT_NEAR(fused.residual_norm / plain.residual_norm, 1.0, 1e-12) << "iteration " << plain.iteration;
  }
}

// Every record is complete when step() returns it, fused or not, in both precisions (mixed:
// the refinement step ends with the new x's residual, the next step's right-hand side), and
// the norms are those of the unfused solve, whose passes compute them on their own.
TEST(FusedStandAlone, EveryRecordIsCompleteWhenStepReturnsIt) {
  for (Precision precision : {Precision::Double, Precision::Mixed}) {
    SolverOptions o;
    o.levels = 6;
    o.threads = 2;
    o.cycle = {CycleType::Kappa, 2};
    o.precision = precision;
    SolverOptions unfused = o;
    unfused.fused = false;
    IterativeSolver fused_solver(o, make_problem(o)), plain_solver(unfused, make_problem(unfused));
    while (fused_solver.running() && plain_solver.running()) {
      const IterationRecord fused = fused_solver.step(), plain = plain_solver.step();
      ASSERT_TRUE(std::isfinite(fused.residual_norm)) << to_string(precision) << " record " << fused.iteration;
      EXPECT_NEAR(fused.residual_norm / plain.residual_norm, 1.0, 1e-12)
          << to_string(precision) << " record " << fused.iteration;
      EXPECT_NEAR(fused.error_norm / plain.error_norm, 1.0, 1e-12)
          << to_string(precision) << " record " << fused.iteration;
    }
    EXPECT_EQ(fused_solver.status(), SolveStatus::Converged) << to_string(precision);
    EXPECT_EQ(fused_solver.history().size(), plain_solver.history().size()) << to_string(precision);
  }
}

// A watched step runs every operation on its own (no sums pass): its norms take passes of
// their own, and the records before and after it are as complete as the unwatched ones.
TEST(FusedStandAlone, AWatchedStepBetweenFusedStepsKeepsEveryRecordComplete) {
  SolverOptions o;
  o.levels = 6;
  o.threads = 2;
  o.cycle = {CycleType::Kappa, 2};
  SolverOptions unfused = o;
  unfused.fused = false;
  IterativeSolver plain_solver(unfused, make_problem(unfused));
  IterativeSolver solver(o, make_problem(o));
  int seen = 0;
  const OpObserver watch = [&](const TraceEvent&) { ++seen; };
  std::vector<IterationRecord> records;
  records.push_back(solver.step());
  records.push_back(solver.step(CycleHooks{nullptr, &watch, {}, {}}));
  records.push_back(solver.step());
  EXPECT_GT(seen, 0);
  for (const IterationRecord& rec : records) {
    const IterationRecord plain = plain_solver.step();
    EXPECT_NEAR(rec.residual_norm / plain.residual_norm, 1.0, 1e-12) << "record " << rec.iteration;
    EXPECT_NEAR(rec.error_norm / plain.error_norm, 1.0, 1e-12) << "record " << rec.iteration;
  }
}

}  // namespace
}  // namespace kcycle
