// The paper's closed forms (Propositions 2.2, 2.4, Lemma 2.9) against what cycles execute.
#include <gtest/gtest.h>

#include <algorithm>

#include "backend_under_test.hpp"
#include "closed_forms.hpp"
#include "kcycle/core/problem.hpp"
#include "kcycle/core/relaxation_factor.hpp"
#include "kcycle/cycle/cycle_counts.hpp"
#include "kcycle/cycle/cycle_plan.hpp"
#include "kcycle/cycle/cycles.hpp"
#include "kcycle/solve/multigrid.hpp"

namespace kcycle {
namespace {

void expect_counts_match_formulas(const Trace& trace, int kappa, int n,
                                  CoarsestCalls coarsest = CoarsestCalls::Repeated) {
  const auto calls = calls_per_level(trace, n);
  std::uint64_t total = 0;
  for (int l = 1; l <= n; ++l) {
    EXPECT_EQ(calls[std::size_t(l)], level_calls(kappa, l, n, coarsest))
        << "kappa=" << kappa << " n=" << n << " level=" << l;
    total += calls[std::size_t(l)];
  }
  EXPECT_EQ(total, total_calls(kappa, n, coarsest)) << "kappa=" << kappa << " n=" << n;
  // Lemma 2.9: C(n-1, j) coarsest-level calls carry counter kappa - j (j < min(kappa, n):
  // for kappa >= n, unclamped, every path down is allowed and no counter reaches 0).
  std::uint64_t at_coarsest = 0;
  for (int j = 0; j < std::min(kappa, n); ++j) {
    std::uint64_t with_counter = 0;
    for (const TraceEvent& e : trace)
      if (e.kind == OpKind::Call && e.level == n && e.counter == kappa - j) ++with_counter;
    EXPECT_EQ(with_counter, coarsest_calls_with_counter(std::min(kappa, n), n, j, coarsest))
        << "kappa=" << kappa << " n=" << n << " j=" << j;
    at_coarsest += with_counter;
  }
  EXPECT_EQ(at_coarsest, calls[std::size_t(n)]) << "every coarsest call has one of these counters";
}

TEST(CycleCounts, ClosedFormsAgreeWithKnownCycles) {
  for (int n = 1; n <= 14; ++n) {
    EXPECT_EQ(total_calls(1, n), std::uint64_t(n));                // V: one call per level
    EXPECT_EQ(total_calls(2, n), std::uint64_t(n * (n + 1) / 2));  // F: l calls on level l
    EXPECT_EQ(total_calls(n, n), (std::uint64_t(1) << n) - 1);     // W: 2^n - 1
    for (int l = 1; l <= n; ++l) {
      EXPECT_EQ(level_calls(2, l), std::uint64_t(l));
      EXPECT_EQ(level_calls(n, l), std::uint64_t(1) << (l - 1));
    }
  }
  EXPECT_EQ(total_calls(3, 10), 10u + 45u + 120u);
  EXPECT_EQ(level_calls(3, 5), 1u + 4u + 6u);
  EXPECT_EQ(binomial(14, 7), 3432u);
}

TEST(CycleCounts, RecursionMatchesFormulasUpTo14Levels) {
  for (int n = 1; n <= 14; ++n)
    for (int kappa = 1; kappa <= n + 2; ++kappa)
      for (CoarsestCalls coarsest : {CoarsestCalls::Repeated, CoarsestCalls::Once}) {
        // planned_cycle: the recursion without arithmetic, up to 14 levels (2.7e8 unknowns).
        expect_counts_match_formulas(planned_cycle({CycleType::Kappa, kappa}, n, 2, 2, coarsest), kappa, n, coarsest);
      }
}

template <class Backend>
void check_solver_counts(MultigridSettings s, int max_levels) {
  // The real solver: arithmetic on every level, trace recorded by its executor, launches
  // counted by the backend as they are issued.
  for (int n = 1; n <= max_levels; ++n) {
    Backend backend = testing::OnEveryBackend<Backend>::make_backend();
    s.levels = n;
    Multigrid<Backend> mg(backend, s);
    testing::fill_random(backend, mg.level(1).v, 7);
    for (int kappa = 1; kappa <= n + 1; ++kappa) {
      Trace trace;
      backend.reset_launches();
      mg.cycle({CycleType::Kappa, kappa}, &trace);
      expect_counts_match_formulas(trace, kappa, n, s.coarsest_calls);
      EXPECT_EQ(trace, planned_cycle({CycleType::Kappa, kappa}, n, s.nu1, s.nu2, s.coarsest_calls))
          << "the plan the visualizer draws is what ran: kappa=" << kappa << " n=" << n;
      // A backend's coarse tail (CUDA's by default) launches like a hierarchy ending at its top
      // (whose calls are all made: it is not the coarsest level).
      const int launched = closed_form::launched_levels(mg.settings());
      EXPECT_EQ(backend.launches(),
                launches_per_cycle(std::min(kappa, n), launched, closed_form::launches_per_call(mg.settings()),
                                   launched == n ? s.coarsest_calls : CoarsestCalls::Repeated))
          << "kappa=" << kappa << " n=" << n << " smoother " << int(s.smoother);
      // Each traced relaxation is launches_per_relaxation launches, every other operation one;
      // each call entering a coarse tail is one, and nothing within it is another.
      const int tail = mg.coarse_tail_first();
      std::uint64_t launches = 0;
      for (const TraceEvent& e : trace)
        if (tail > 0 && e.level >= tail)
          launches += e.kind == OpKind::Call && e.level == tail;
        else if (e.kind == OpKind::PreRelax || e.kind == OpKind::PostRelax)
          launches += launches_per_relaxation(s.smoother);
        else
          launches += e.kind != OpKind::Call;
      EXPECT_EQ(backend.launches(), launches);
      EXPECT_EQ(mg.schedule(CycleMode::Normal).launches_per_cycle(kappa), launches) << "the planner's count";
    }
  }
}

template <class Backend>
using SolverCounts = testing::OnEveryBackend<Backend>;
TYPED_TEST_SUITE(SolverCounts, testing::Backends, testing::BackendName);

TYPED_TEST(SolverCounts, TraceAndLaunchCounterMatchFormulas) {
  MultigridSettings s;
  s.tensor = rotated_anisotropic_tensor(1e-2, 30);
  s.omega = paper_jacobi_omega(1e-2, 30);
  check_solver_counts<TypeParam>(s, 10);
  s.coarsest_calls = CoarsestCalls::Once;
  check_solver_counts<TypeParam>(s, 10);
}

TYPED_TEST(SolverCounts, StayExactForEverySmootherAndCoarsening) {
  for (Smoother sm : {Smoother::Jacobi, Smoother::GaussSeidel, Smoother::XZebra, Smoother::YZebra, Smoother::XYZebra})
    for (Coarsening c : {Coarsening::Full, Coarsening::SemiY})
      for (CoarseOperator op : {CoarseOperator::Rediscretized, CoarseOperator::Galerkin}) {
        MultigridSettings s;
        s.tensor = rotated_anisotropic_tensor(1e-3, 30);
        s.smoother = sm;
        s.coarsening = c;
        s.coarse_operator = op;
        check_solver_counts<TypeParam>(s, 6);
        s.coarsest_calls = CoarsestCalls::Once;
        check_solver_counts<TypeParam>(s, 6);
      }
}

TEST(CycleCounts, WIsReachedAtKappaEqualsLevels) {
  // Corollary 2.5 on the executed recursion, unclamped: the calls grow with kappa until
  // kappa = n, then the executed cycle no longer changes (only the counters it carries).
  const int n = 9;
  auto run = [&](int kappa) {
    Trace trace = planned_cycle({CycleType::Kappa, kappa}, n, 2, 2);
    for (TraceEvent& e : trace) e.counter = 0;
    return trace;
  };
  auto calls = [](const Trace& t) {
    return std::count_if(t.begin(), t.end(), [](const TraceEvent& e) { return e.kind == OpKind::Call; });
  };
  for (int kappa = 1; kappa < n; ++kappa) EXPECT_LT(calls(run(kappa)), calls(run(kappa + 1))) << "kappa " << kappa;
  const Trace w = run(n);
  EXPECT_EQ(calls(w), (1 << n) - 1);
  for (int kappa : {n + 1, n + 5, 1000, kKappaW}) EXPECT_EQ(run(kappa), w) << "kappa " << kappa;
}

}  // namespace
}  // namespace kcycle
