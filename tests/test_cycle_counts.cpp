// The paper's closed forms (Propositions 2.2, 2.4, Lemma 2.9) against what cycles execute.
#include <gtest/gtest.h>

#include "kcycle/cpu_backend.hpp"
#include "kcycle/cycle_counts.hpp"
#include "kcycle/cycles.hpp"
#include "kcycle/multigrid.hpp"
#include "kcycle/problem.hpp"
#include "kcycle/relaxation_factor.hpp"

namespace kcycle {
namespace {

// Ops that only record: runs the very recursion of cycles.hpp without arithmetic, so the
// counts can be checked up to 14 levels, where a real finest grid has 2.7e8 unknowns.
struct RecordingOps {
  int levels;
  Trace trace;
  int coarsest() const { return levels; }
  int nu1() const { return 2; }
  int nu2() const { return 2; }
  void enter(int l, int c) { trace.push_back({OpKind::Call, std::int16_t(l), c}); }
  void coarse_solve(int l) { trace.push_back({OpKind::CoarseSolve, std::int16_t(l), 0}); }
  void relax(int l, OpKind k, int) { trace.push_back({k, std::int16_t(l), 0}); }
  void restrict_residual(int l) { trace.push_back({OpKind::Restrict, std::int16_t(l), 0}); }
  void zero_coarse(int l) { trace.push_back({OpKind::ZeroCoarse, std::int16_t(l), 0}); }
  void prolong_add(int l) { trace.push_back({OpKind::Prolong, std::int16_t(l), 0}); }
};

void expect_counts_match_formulas(const Trace& trace, int kappa, int n) {
  const auto calls = calls_per_level(trace, n);
  std::uint64_t total = 0;
  for (int l = 1; l <= n; ++l) {
    EXPECT_EQ(calls[std::size_t(l)], level_calls(kappa, l)) << "kappa=" << kappa << " n=" << n << " level=" << l;
    total += calls[std::size_t(l)];
  }
  EXPECT_EQ(total, total_calls(kappa, n)) << "kappa=" << kappa << " n=" << n;
  // Lemma 2.9: C(n-1, j) coarsest-level calls carry counter kappa - j.
  const int clamped = std::min(kappa, n);
  for (int j = 0; j < clamped; ++j) {
    std::uint64_t with_counter = 0;
    for (const TraceEvent& e : trace)
      if (e.kind == OpKind::Call && e.level == n && e.counter == clamped - j) ++with_counter;
    EXPECT_EQ(with_counter, coarsest_calls_with_counter(clamped, n, j)) << "kappa=" << kappa << " n=" << n << " j=" << j;
  }
}

TEST(CycleCounts, ClosedFormsAgreeWithKnownCycles) {
  for (int n = 1; n <= 14; ++n) {
    EXPECT_EQ(total_calls(1, n), std::uint64_t(n));                  // V: one call per level
    EXPECT_EQ(total_calls(2, n), std::uint64_t(n * (n + 1) / 2));    // F: l calls on level l
    EXPECT_EQ(total_calls(n, n), (std::uint64_t(1) << n) - 1);       // W: 2^n - 1
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
    for (int kappa = 1; kappa <= n + 1; ++kappa) {
      RecordingOps ops{n, {}};
      kappa_cycle(ops, 1, std::min(kappa, n));
      expect_counts_match_formulas(ops.trace, kappa, n);
    }
}

void check_solver_counts(MultigridSettings s, int max_levels) {
  // The real solver: arithmetic on every level, trace recorded by its executor, launches
  // counted by the backend as they are issued.
  for (int n = 1; n <= max_levels; ++n) {
    CpuBackend backend(2);
    s.levels = n;
    Multigrid<CpuBackend> mg(backend, s);
    fill_uniform_random(mg.level(1).v, 7);
    for (int kappa = 1; kappa <= n + 1; ++kappa) {
      Trace trace;
      backend.reset_launches();
      mg.cycle({CycleType::Kappa, kappa}, &trace);
      expect_counts_match_formulas(trace, kappa, n);
      const int per_call = mg.launches_per_call();
      EXPECT_EQ(backend.launches(), launches_per_cycle(std::min(kappa, n), n, per_call))
          << "kappa=" << kappa << " n=" << n << " smoother " << int(s.smoother);
      // Each traced relaxation is launches_per_relaxation launches, every other operation one.
      std::uint64_t launches = 0;
      for (const TraceEvent& e : trace)
        if (e.kind == OpKind::PreRelax || e.kind == OpKind::PostRelax) launches += launches_per_relaxation(s.smoother);
        else launches += e.kind != OpKind::Call;
      EXPECT_EQ(backend.launches(), launches);
    }
  }
}

TEST(CycleCounts, SolverTraceAndLaunchCounterMatchFormulas) {
  MultigridSettings s;
  s.tensor = rotated_anisotropic_tensor(1e-2, 30);
  s.omega = paper_jacobi_omega(1e-2, 30);
  check_solver_counts(s, 10);
}

TEST(CycleCounts, CountsStayExactForEverySmootherAndCoarsening) {
  for (Smoother sm : {Smoother::Jacobi, Smoother::GaussSeidel, Smoother::XZebra, Smoother::YZebra, Smoother::XYZebra})
    for (Coarsening c : {Coarsening::Full, Coarsening::SemiY})
      for (CoarseOperator op : {CoarseOperator::Rediscretized, CoarseOperator::Galerkin}) {
        MultigridSettings s;
        s.tensor = rotated_anisotropic_tensor(1e-3, 30);
        s.smoother = sm;
        s.coarsening = c;
        s.coarse_operator = op;
        check_solver_counts(s, 6);
      }
}

TEST(CycleCounts, WIsReachedAtKappaEqualsLevels) {
  // Corollary 2.5: the count grows with kappa until kappa = n, then stays 2^n - 1.
  const int n = 9;
  for (int kappa = 1; kappa < n; ++kappa) EXPECT_LT(total_calls(kappa, n), total_calls(kappa + 1, n));
  EXPECT_EQ(total_calls(n, n), total_calls(n + 5, n));
}

}  // namespace
}  // namespace kcycle
