// The coarsest-call convention (MultigridSettings::coarsest_calls, --repeat-coarsest): the
// paper's count, where every coarse call into the coarsest level is made, against the authors'
// code, which makes only the first because it already solves exactly. Shown on the executed
// recursion (the calls dropped are exactly the repeats) and on the arithmetic (bit for bit the
// same iterate, on every backend under test).
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "backend_under_test.hpp"
#include "kcycle/core/relaxation_factor.hpp"
#include "kcycle/cycle/cycle_counts.hpp"
#include "kcycle/cycle/cycle_plan.hpp"
#include "kcycle/solve/multigrid.hpp"
#include "kcycle/solve/solve.hpp"

namespace kcycle {
namespace {

std::uint64_t calls_in(const Trace& trace) {
  return std::uint64_t(
      std::count_if(trace.begin(), trace.end(), [](const TraceEvent& e) { return e.kind == OpKind::Call; }));
}

// The paper's trace with every call into the coarsest level after the first of its caller
// dropped (the call and its exact solve): what the authors' convention should execute.
Trace without_repeated_coarsest_calls(const Trace& repeated, int n) {
  Trace out;
  int made = 0;  // calls into level n by the current call on level n - 1
  bool dropping = false;
  for (const TraceEvent& e : repeated) {
    if (e.kind == OpKind::Call && e.level == n - 1) made = 0;
    if (e.kind == OpKind::Call && e.level == n) dropping = ++made > 1;
    if (e.level == n && dropping) continue;
    out.push_back(e);
  }
  return out;
}

TEST(CoarsestCalls, AtNineLevelsTheAuthorsCodeMakes9_44_121_226_383Calls) {
  // The figures from the authors' code, against the paper's 9 / 45 / 129 / 255 / 511.
  const int n = 9;
  const int kappas[] = {1, 2, 3, 4, kKappaW};
  const std::uint64_t once[] = {9, 44, 121, 226, 383}, repeated[] = {9, 45, 129, 255, 511};
  for (int k = 0; k < 5; ++k) {
    const int kappa = std::min(kappas[k], n);
    EXPECT_EQ(total_calls(kappa, n, CoarsestCalls::Once), once[k]) << "kappa " << kappa;
    EXPECT_EQ(total_calls(kappa, n, CoarsestCalls::Repeated), repeated[k]) << "kappa " << kappa;
    EXPECT_EQ(calls_in(planned_cycle({CycleType::Kappa, kappas[k]}, n, 2, 2, CoarsestCalls::Once)), once[k]);
    EXPECT_EQ(calls_in(planned_cycle({CycleType::Kappa, kappas[k]}, n, 2, 2, CoarsestCalls::Repeated)), repeated[k]);
  }
}

TEST(CoarsestCalls, EverySchemeDropsExactlyTheRepeatedCoarsestCalls) {
  const CycleChoice choices[] = {{CycleType::Kappa, 1},       {CycleType::Kappa, 2}, {CycleType::Kappa, 3},
                                 {CycleType::Kappa, kKappaW}, {CycleType::Gamma, 1}, {CycleType::Gamma, 2},
                                 {CycleType::Gamma, 3},       {CycleType::F, 2}};
  for (int n = 1; n <= 8; ++n)
    for (const CycleChoice& choice : choices) {
      const Trace repeated = planned_cycle(choice, n, 2, 1, CoarsestCalls::Repeated);
      const Trace once = planned_cycle(choice, n, 2, 1, CoarsestCalls::Once);
      EXPECT_EQ(once, without_repeated_coarsest_calls(repeated, n))
          << "scheme " << int(choice.type) << " counter " << choice.counter << " n " << n;
      // One coarsest call per call on the level above it.
      const auto calls = calls_per_level(once, n);
      if (n > 1) {
        EXPECT_EQ(calls[std::size_t(n)], calls[std::size_t(n - 1)]);
      }
    }
}

TEST(CoarsestCalls, LaunchesPerCycleLoseOneCoarsestLaunchPerDroppedCall) {
  for (int n = 2; n <= 14; ++n)
    for (int kappa = 1; kappa <= n; ++kappa) {
      const std::uint64_t dropped = level_calls(kappa, n) - level_calls(kappa, n - 1);
      EXPECT_EQ(launches_per_cycle(kappa, n, 9, CoarsestCalls::Repeated) -
                    launches_per_cycle(kappa, n, 9, CoarsestCalls::Once),
                dropped);
      EXPECT_EQ(total_calls(kappa, n) - total_calls(kappa, n, CoarsestCalls::Once), dropped);
    }
  EXPECT_EQ(total_calls(1, 1, CoarsestCalls::Once), 1u) << "one level: the one call is the coarsest solve";
}

template <class Backend>
using CoarsestCallsOnBackend = testing::OnEveryBackend<Backend>;
TYPED_TEST_SUITE(CoarsestCallsOnBackend, testing::Backends, testing::BackendName);

// Three cycles from the same random start with the repeats made and skipped: the finest
// iterate is the same bit for bit, for every smoother, both coarsenings, fused passes on and
// off and the backend's coarse tail (the repeat solved the same equation again).
TYPED_TEST(CoarsestCallsOnBackend, TheIterateIsTheSameBitForBit) {
  using Backend = TypeParam;
  const CycleChoice choices[] = {{CycleType::Kappa, 2},
                                 {CycleType::Kappa, 3},
                                 {CycleType::Kappa, kKappaW},
                                 {CycleType::Gamma, 2},
                                 {CycleType::F, 2}};
  for (Smoother smoother : {Smoother::Jacobi, Smoother::GaussSeidel, Smoother::XZebra, Smoother::XYZebra})
    for (Coarsening coarsening : {Coarsening::Full, Coarsening::SemiY})
      for (bool fused : {false, true}) {
        MultigridSettings s;
        s.levels = 5;
        s.tensor = rotated_anisotropic_tensor(1e-2, 30);
        s.smoother = smoother;
        s.coarsening = coarsening;
        s.coarse_operator = CoarseOperator::Galerkin;
        s.omega = smoother == Smoother::Jacobi ? paper_jacobi_omega(1e-2, 30) : 1.0;
        s.fused = fused;
        for (const CycleChoice& choice : choices) {
          std::vector<double> finest[2];
          for (CoarsestCalls coarsest : {CoarsestCalls::Repeated, CoarsestCalls::Once}) {
            Backend backend = CoarsestCallsOnBackend<Backend>::make_backend();
            s.coarsest_calls = coarsest;
            Multigrid<Backend> mg(backend, s);
            testing::fill_random(backend, mg.level(1).v, 11);
            for (int c = 0; c < 3; ++c) mg.cycle(choice);
            finest[int(coarsest)] = testing::host_values(backend, mg.level(1).v);
          }
          EXPECT_EQ(finest[0], finest[1])
              << "smoother " << int(smoother) << " coarsening " << int(coarsening) << " fused " << fused << " scheme "
              << int(choice.type) << " counter " << choice.counter;
        }
      }
}

// Hence kappa = levels - 1 leaves the W-cycle's iterate bit for bit (its only missing calls are
// repeats into the coarsest level), kappa = levels - 2 does not: same_iterates_counter, on which
// the advisor's coarse solves are shared.
TYPED_TEST(CoarsestCallsOnBackend, KappaOneBelowTheLevelsLeavesTheWCyclesIterate) {
  using Backend = TypeParam;
  for (int levels = 3; levels <= 6; ++levels) {
    MultigridSettings s;
    s.levels = levels;
    s.tensor = rotated_anisotropic_tensor(1e-2, 30);
    s.smoother = Smoother::XYZebra;
    s.coarse_operator = CoarseOperator::Galerkin;
    const auto finest_after_three = [&](int kappa) {
      Backend backend = CoarsestCallsOnBackend<Backend>::make_backend();
      Multigrid<Backend> mg(backend, s);
      testing::fill_random(backend, mg.level(1).v, 11);
      for (int c = 0; c < 3; ++c) mg.cycle({CycleType::Kappa, kappa});
      return testing::host_values(backend, mg.level(1).v);
    };
    const std::vector<double> w = finest_after_three(kKappaW);
    EXPECT_EQ(finest_after_three(levels - 1), w) << levels << " levels";
    EXPECT_NE(finest_after_three(levels - 2), w) << levels << " levels";
    EXPECT_EQ(same_iterates_counter(kKappaW, levels), levels - 1);
    EXPECT_EQ(same_iterates_counter(levels - 1, levels), levels - 1);
    EXPECT_EQ(same_iterates_counter(levels - 2, levels), levels - 2);
  }
  EXPECT_EQ(same_iterates_counter(3, 1), 1) << "one level: every cycle is the coarsest solve";
}

// A whole solve, stand-alone and MGCG, through the library's front door: the same iterations
// and the same final norms either way.
TYPED_TEST(CoarsestCallsOnBackend, SolvesConvergeTheSameWay) {
  for (SolverKind solver : {SolverKind::Multigrid, SolverKind::PCG}) {
    SolverOptions o = CoarsestCallsOnBackend<TypeParam>::on_this_backend({});
    o.levels = 6;
    o.eps = 1e-3;
    o.angle_degrees = 30;
    o.cycle = {CycleType::Kappa, 3};
    o.solver = solver;
    SolveResult result[2];
    for (CoarsestCalls coarsest : {CoarsestCalls::Repeated, CoarsestCalls::Once}) {
      o.coarsest_calls = coarsest;
      result[int(coarsest)] = solve(o);
    }
    EXPECT_TRUE(result[0].converged());
    EXPECT_EQ(result[0].iterations, result[1].iterations) << "solver " << int(solver);
    ASSERT_EQ(result[0].history.size(), result[1].history.size());
    for (std::size_t k = 0; k < result[0].history.size(); ++k)
      EXPECT_EQ(result[0].history[k].error_norm, result[1].history[k].error_norm) << "solver " << int(solver);
  }
}

}  // namespace
}  // namespace kcycle
