// The coarse tail (coarse_tail.hpp) on the CPU: the same host-and-device code the CUDA
// backend runs in one thread block, here on one thread (CpuBackend::coarse_tail) and on a
// team of threads meeting at a std::barrier (barrier_team.hpp).
// It must give the per-level path's iterate, keep the trace, and count one launch per tail.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "barrier_team.hpp"
#include "closed_forms.hpp"
#include "kcycle/backends/cpu/cpu_backend.hpp"
#include "kcycle/core/problem.hpp"
#include "kcycle/core/relaxation_factor.hpp"
#include "kcycle/cycle/coarse_tail.hpp"
#include "kcycle/cycle/cycle_counts.hpp"
#include "kcycle/solve/multigrid.hpp"
#include "kcycle/solve/solver_options.hpp"

namespace kcycle {
namespace {

struct TailRun {
  Trace trace;
  Field iterate;
  std::vector<Field> levels;   // every level's v after the cycles (what the visualizer draws)
  std::uint64_t launches = 0;  // of the last cycle
  int tail_first = 0;
};

MultigridSettings settings_for(Smoother smoother, Coarsening c, std::size_t tail) {
  MultigridSettings s;
  s.levels = c == Coarsening::Full ? 7 : 6;
  s.tensor = rotated_anisotropic_tensor(1e-3, 30);
  s.smoother = smoother;
  s.omega = smoother == Smoother::Jacobi ? paper_jacobi_omega(1e-3, 30) : 1.0;
  s.coarsening = c;
  s.coarse_operator = CoarseOperator::Galerkin;
  s.coarse_tail_unknowns = tail;
  return s;
}

TailRun run(const MultigridSettings& s, CycleChoice choice, int cycles = 2, const OpObserver* watch = nullptr) {
  CpuBackend be(1);
  Multigrid<CpuBackend> mg(be, s);
  fill_uniform_random(mg.level(1).v, 5);
  fill_uniform_random(mg.level(1).f, 6);
  TailRun r;
  for (int c = 0; c < cycles; ++c) {
    be.reset_launches();
    mg.cycle(choice, CycleHooks{&r.trace, watch, {}, {}});
  }
  r.launches = be.launches();
  r.iterate = mg.level(1).v;
  for (int l = 1; l <= mg.levels(); ++l) r.levels.push_back(mg.level(l).v);
  r.tail_first = mg.coarse_tail_first();
  return r;
}

// max |a - b| / max |a|.
double relative_difference(const Field& a, const Field& b) {
  double diff = 0, scale = 0;
  for (std::size_t k = 0; k < a.values().size(); ++k) {
    diff = std::max(diff, std::abs(a.values()[k] - b.values()[k]));
    scale = std::max(scale, std::abs(a.values()[k]));
  }
  return diff / scale;
}

constexpr Smoother kSmoothers[] = {Smoother::Jacobi, Smoother::GaussSeidel, Smoother::XZebra, Smoother::YZebra,
                                   Smoother::XYZebra};
constexpr std::size_t kTail = 300;  // levels of at most 300 unknowns: 15^2 and coarser (full coarsening)

TEST(CoarseTail, GivesThePerLevelIterateForEverySmootherCoarseningAndKappa) {
  for (Smoother smoother : kSmoothers)
    for (Coarsening c : {Coarsening::Full, Coarsening::SemiY}) {
      if (c == Coarsening::SemiY && smoother != Smoother::XZebra) continue;  // the paper's semi-coarsening solver
      for (int kappa : {1, 2, 3, kKappaW}) {
        const MultigridSettings with = settings_for(smoother, c, c == Coarsening::Full ? kTail : 127 * 4);
        MultigridSettings without = with;
        without.coarse_tail_unknowns = 0;
        const TailRun tail = run(with, {CycleType::Kappa, kappa}), plain = run(without, {CycleType::Kappa, kappa});
        const std::string what =
            std::string(enum_name(smoother)) + " " + std::string(to_string(c)) + " kappa " + kappa_to_string(kappa);
        ASSERT_GT(tail.tail_first, 1) << what;
        ASSERT_LT(tail.tail_first, with.levels - 1) << what << ": the tail spans at least three levels";
        EXPECT_LE(relative_difference(plain.iterate, tail.iterate), 1e-12) << what;
        EXPECT_EQ(plain.trace, tail.trace) << what << ": the trace keeps the logical operations";
        // One launch stands for the whole tail: the hierarchy launches like one whose coarsest
        // level is the tail's top.
        EXPECT_EQ(tail.launches, launches_per_cycle(std::min(kappa, with.levels), tail.tail_first,
                                                    closed_form::launches_per_call(with)))
            << what;
        EXPECT_LT(tail.launches, plain.launches) << what;
      }
    }
}

TEST(CoarseTail, RunsTheGammaAndFSchemesAndOddJacobiSweepCounts) {
  for (CycleChoice choice : {CycleChoice{CycleType::Gamma, 2}, CycleChoice{CycleType::F, 2}})
    for (auto [nu1, nu2] : {std::pair{1, 2}, {2, 1}, {0, 1}, {3, 3}}) {
      MultigridSettings with = settings_for(Smoother::Jacobi, Coarsening::Full, kTail);
      with.nu1 = nu1;
      with.nu2 = nu2;
      MultigridSettings without = with;
      without.coarse_tail_unknowns = 0;
      const TailRun tail = run(with, choice), plain = run(without, choice);
      EXPECT_LE(relative_difference(plain.iterate, tail.iterate), 1e-12) << nu1 << "," << nu2;
      EXPECT_EQ(plain.trace, tail.trace);
      // Inside the tail too, each level's v is its iterate, not Jacobi's other buffer.
      ASSERT_GT(tail.tail_first, 0);
      for (int l = tail.tail_first; l < int(tail.levels.size()); ++l)  // the coarsest is solved, not swept
        EXPECT_LE(relative_difference(plain.levels[std::size_t(l) - 1], tail.levels[std::size_t(l) - 1]), 1e-12)
            << "level " << l << ", nu " << nu1 << "," << nu2;
    }
}

TEST(CoarseTail, SymmetricSmoothingAndFusedPassesAboveIt) {
  for (Smoother smoother : kSmoothers) {
    MultigridSettings with = settings_for(smoother, Coarsening::Full, kTail);
    with.symmetric_smoothing = true;
    with.fused = true;  // Jacobi: the fused down pass leaves the tail's top uncleared (zero_first)
    MultigridSettings without = with;
    without.coarse_tail_unknowns = 0;
    const TailRun tail = run(with, {CycleType::Kappa, 2}, 3), plain = run(without, {CycleType::Kappa, 2}, 3);
    EXPECT_LE(relative_difference(plain.iterate, tail.iterate), 1e-12) << enum_name(smoother);
  }
}

TEST(CoarseTail, AWatchedCycleRunsEveryOperationOnItsOwn) {
  const MultigridSettings s = settings_for(Smoother::GaussSeidel, Coarsening::Full, kTail);
  int seen = 0;
  const OpObserver watch = [&](const TraceEvent&) { ++seen; };
  const TailRun watched = run(s, {CycleType::Kappa, 2}, 1, &watch);
  EXPECT_EQ(std::size_t(seen), watched.trace.size()) << "the observer sees the tail's operations one by one";
  EXPECT_EQ(watched.launches, launches_per_cycle(2, s.levels, closed_form::launches_per_call(s)));
}

TEST(CoarseTail, NoTailWhereNoLevelIsSmallEnoughOrOnlyTheCoarsestIs) {
  MultigridSettings s = settings_for(Smoother::Jacobi, Coarsening::Full, 0);
  CpuBackend be(1);
  EXPECT_EQ(Multigrid<CpuBackend>(be, s).coarse_tail_first(), 0) << "0: off";
  s.coarse_tail_unknowns = 1;  // only the coarsest level (1 unknown): nothing to gain
  EXPECT_EQ(Multigrid<CpuBackend>(be, s).coarse_tail_first(), 0);
  s.coarse_tail_unknowns = 9;  // 3^2 and the coarsest
  EXPECT_EQ(Multigrid<CpuBackend>(be, s).coarse_tail_first(), s.levels - 1);
  s.coarse_tail_unknowns = 1u << 20;  // everything: the whole cycle is one launch
  EXPECT_EQ(Multigrid<CpuBackend>(be, s).coarse_tail_first(), 1);
  MultigridSettings cpu_default = s;
  cpu_default.coarse_tail_unknowns.reset();
  EXPECT_EQ(Multigrid<CpuBackend>(be, cpu_default).settings().coarse_tail_unknowns, CpuBackend::kCoarseTailUnknowns);
}

TEST(CoarseTail, ATeamOfThreadsGivesBitwiseTheOneThreadResult) {
  for (Smoother smoother : kSmoothers)
    for (int kappa : {1, 3}) {
      const MultigridSettings s = settings_for(smoother, Coarsening::Full, 0);
      const int first = 3;
      std::vector<Field> results;
      for (int threads : {1, 3, 8}) {
        CpuBackend be(1);
        Multigrid<CpuBackend> mg(be, s);
        fill_uniform_random(mg.level(first).f, 7);
        fill_uniform_random(mg.level(first).v, 8);
        CoarseTail shared = mg.coarse_tail(first, CycleType::Kappa, kappa);
        testing::run_as_team(threads, [&](const testing::BarrierTeam& team) { run_coarse_tail(team, shared); });
        results.push_back(mg.level(first).v);
      }
      for (std::size_t k = 1; k < results.size(); ++k)
        EXPECT_EQ(0, std::memcmp(results[0].data(), results[k].data(), results[0].values().size_bytes()))
            << enum_name(smoother) << " kappa " << kappa << ": team " << k;
    }
}

}  // namespace
}  // namespace kcycle
