// The CPU backend's thread team: every chunk of a pass runs once and the pass ends only when all
// are done, also with a member stalled as the OS stalls a descheduled thread; and whole solves
// on 2, 3 and 8 workers give bitwise the iterate of one, for every smoother, coarsening, kappa,
// precision and solver. Also built under TSan (kcycle_team_tests).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "kcycle/backends/cpu/available_cores.hpp"
#include "kcycle/backends/cpu/cpu_backend.hpp"
#include "kcycle/backends/cpu/thread_team.hpp"
#include "kcycle/core/problem.hpp"
#include "kcycle/core/relaxation_factor.hpp"
#include "kcycle/cycle/cycle_counts.hpp"
#include "kcycle/model/timing.hpp"
#include "kcycle/solve/iterative_solver.hpp"
#include "kcycle/solve/multigrid.hpp"
#include "kcycle/solve/solve.hpp"

namespace kcycle {
namespace {

using namespace std::chrono_literals;

// Tests of the team's threads: no solo spells, however busy the machine running the tests is
// (ctest -j2). ThreadTeam reads this when it is made.
void always_a_team() { setenv("KCYCLE_TEAM_ADAPTIVE", "0", 1); }

TEST(ThreadTeam, RunsEveryChunkOnceAndEndsAfterTheLast) {
  for (int threads : {1, 2, 3, 8}) {
    ThreadTeam team(threads);
    std::mt19937 random(threads);
    for (int pass = 0; pass < 2000; ++pass) {
      const int chunks = int(random() % 40);
      std::vector<int> runs(std::size_t(chunks), 0);  // plain ints: the pass's end must publish them
      std::atomic<int> bad_member{0};
      team.run(chunks, [&](int c, int member) {
        if (member < 0 || member >= threads) bad_member = 1;
        ++runs[std::size_t(c)];
      });
      for (int c = 0; c < chunks; ++c) ASSERT_EQ(runs[std::size_t(c)], 1) << threads << " threads, chunk " << c;
      ASSERT_EQ(bad_member.load(), 0);
    }
  }
}

TEST(ThreadTeam, OneChunkOrATeamOfOneRunsOnTheCallerWithoutWakingAnyone) {
  ThreadTeam team(4);
  const std::thread::id caller = std::this_thread::get_id();
  bool on_caller = false;
  team.run(1, [&](int, int member) { on_caller = member == 0 && std::this_thread::get_id() == caller; });
  EXPECT_TRUE(on_caller);
  EXPECT_EQ(team.stats().team_passes, 0u);
  EXPECT_EQ(team.stats().inline_passes, 1u);
}

TEST(ThreadTeam, AStalledWorkerDelaysAPassByItsOwnChunkOnly) {
  always_a_team();
  ThreadTeam team(2);
  // Member 1 sleeps 200 ms before each chunk it claims, as a thread the OS has descheduled.
  std::atomic<bool> worker_claimed{false};
  std::chrono::steady_clock::time_point claimed_at;  // written before the flag, read after the pass
  team.set_chunk_hook([&](int member, int) {
    if (member != 1) return;
    claimed_at = std::chrono::steady_clock::now();
    worker_claimed = true;
    std::this_thread::sleep_for(200ms);
  });
  const int chunks = 64;
  std::vector<int> value(chunks, 0);
  team.run(chunks, [&](int c, int member) {
    // The caller lets the worker claim one first, however late a loaded machine wakes it.
    if (member == 0)
      for (int k = 0; k < 5000 && !worker_claimed; ++k) std::this_thread::sleep_for(1ms);
    std::this_thread::sleep_for(1ms);
    value[std::size_t(c)] = c * c;
  });
  const auto took_from_the_stall = std::chrono::steady_clock::now() - claimed_at;
  for (int c = 0; c < chunks; ++c) EXPECT_EQ(value[std::size_t(c)], c * c);
  // The caller ran every chunk but the one the stalled worker held: the pass ended one stall
  // after the worker's claim, not the 32 a static split in halves would have waited for.
  ASSERT_TRUE(worker_claimed);
  EXPECT_EQ(team.stats().worker_chunks, 1u);
  EXPECT_LT(took_from_the_stall, 2 * 200ms);
}

TEST(ThreadTeam, ACallerThatSleepsIsWokenByTheWorkerFinishingTheLastChunk) {
  always_a_team();
  ThreadTeam team(2, TeamSpin{std::chrono::microseconds(50), std::chrono::microseconds(0)});
  std::atomic<bool> worker_has_one{false};
  // The worker holds its chunk 20 ms; the caller, out of chunks, sleeps until it is done.
  team.set_chunk_hook([&](int member, int) {
    if (member == 1) {
      worker_has_one = true;
      std::this_thread::sleep_for(20ms);
    }
  });
  for (int pass = 0; pass < 5; ++pass) {
    std::vector<int> value(2, 0);
    team.run(2, [&](int c, int member) {
      if (member == 0)  // let the worker claim the other chunk
        for (int k = 0; k < 1000 && !worker_has_one; ++k) std::this_thread::sleep_for(1ms);
      value[std::size_t(c)] = c + 1;
    });
    EXPECT_EQ(value[0], 1);
    EXPECT_EQ(value[1], 2);
    worker_has_one = false;
  }
  EXPECT_GE(team.stats().caller_sleeps, 1u);
}

// A worker that stalls (as a descheduled thread does) makes the team slower than its caller
// alone: the caller then runs the next passes alone, with the same results.
TEST(ThreadTeam, GoesSoloWhenAStalledWorkerMakesItSlowerThanTheCallerAlone) {
  unsetenv("KCYCLE_TEAM_ADAPTIVE");
  ThreadTeam team(2);
  // The cores count as free whatever else this machine runs: the stall is the only loss, and
  // the load alone never makes the team go solo (the next test covers that).
  team.set_load_probe([] { return false; });
  team.set_chunk_hook([](int member, int) {
    if (member == 1) std::this_thread::sleep_for(5ms);
  });
  for (int pass = 0; pass < 200; ++pass) {
    std::vector<int> value(8, 0);
    team.run(8, [&](int c, int) {
      std::this_thread::sleep_for(20us);
      value[std::size_t(c)] = c + pass;
    });
    for (int c = 0; c < 8; ++c) ASSERT_EQ(value[std::size_t(c)], c + pass);
  }
  EXPECT_GE(team.stats().solo_spells, 1u);
  EXPECT_GT(team.stats().solo_passes, 0u);
  EXPECT_GE(team.stats().worker_chunks, 1u) << "the worker stalled at least once before the team went alone";
  always_a_team();
}

// Other processes on the workers' cores (as /proc/stat's procs_running shows them): the team
// runs its first pass alone, stays alone while they run, and is a team again once they stop.
TEST(ThreadTeam, RunsAloneWhileOtherProcessesTakeTheCoresAndRejoinsAfter) {
  unsetenv("KCYCLE_TEAM_ADAPTIVE");
  ThreadTeam team(2);
  std::atomic<bool> busy{true};
  team.set_load_probe([&] { return busy.load(); });
  auto passes = [&](int count) {
    for (int pass = 0; pass < count; ++pass) {
      std::vector<int> value(8, 0);
      team.run(8, [&](int c, int) {
        std::this_thread::sleep_for(20us);
        value[std::size_t(c)] = c + pass;
      });
      for (int c = 0; c < 8; ++c) ASSERT_EQ(value[std::size_t(c)], c + pass);
    }
  };
  passes(1);
  EXPECT_EQ(team.stats().solo_spells, 1u) << "a team made on a busy machine starts alone";
  EXPECT_EQ(team.stats().solo_passes, 1u);
  EXPECT_EQ(team.stats().team_passes, 0u);
  // Past the first spell (2 ms), still busy: alone again, never a team pass.
  const auto until = std::chrono::steady_clock::now() + 60ms;
  while (std::chrono::steady_clock::now() < until) passes(1);
  EXPECT_GE(team.stats().solo_spells, 2u);
  EXPECT_EQ(team.stats().team_passes, 0u);
  // Free again: once the spell in force ends (at most 128 ms by now), the passes are team passes.
  busy = false;
  std::this_thread::sleep_for(200ms);
  team.reset_stats();
  passes(20);
  // (A loss on a loaded test machine may still send it alone for a spell of its own.)
  EXPECT_GT(team.stats().team_passes, 0u) << "the team never rejoined once the cores were free";
  EXPECT_EQ(team.stats().team_passes + team.stats().solo_passes, 20u);
  always_a_team();
}

// The synchronisation points of a cycle, as kcycle bench prints them: two per fused call (the
// down and the up pass, their halo copies chained to them) on the levels from 63^2, none on
// the coarser ones, which run on the caller alone.
TEST(ThreadTeam, AFusedJacobiCallIsTwoSynchronisationPointsFrom63Squared) {
  always_a_team();
  MultigridSettings s;
  s.levels = 7;  // 127^2, 63^2, then 31^2 and coarser
  s.tensor = rotated_anisotropic_tensor(1e-4, 45);
  s.omega = paper_jacobi_omega(1e-4, 45);
  s.fused = true;
  TimingPolicy quick;
  quick.min_seconds = 0;
  quick.min_repetitions = 1;
  for (int kappa : {1, 3}) {
    const CycleTiming t = time_cycle(s, {CycleType::Kappa, kappa}, ExecutionTarget{BackendKind::Cpu, 2}, quick);
    ASSERT_EQ(t.team_passes.size(), 8u);
    for (int l = 1; l <= 7; ++l)
      EXPECT_EQ(t.team_passes[std::size_t(l)], l <= 2 ? 2 * std::uint64_t(level_calls(kappa, l)) : 0u)
          << "kappa " << kappa << " level " << l;
  }
}

// procs_running counts the caller and the team's workers that are awake (spinning for a pass):
// they are the team's, not other processes. Before, a team just made (its workers spinning)
// judged the cores taken and ran its first 20 ms alone on a quiet machine: a 7-level solve's
// 250 cycles took 57 instead of 37 us each.
TEST(AvailableCores, TheTeamsOwnAwakeWorkersAreNoOtherProcess) {
  // Two cores, a team of two.
  EXPECT_FALSE(others_take_team_cores(1, 0, 2, 2)) << "the caller alone";
  EXPECT_FALSE(others_take_team_cores(2, 1, 2, 2)) << "the caller and its spinning worker";
  EXPECT_TRUE(others_take_team_cores(2, 0, 2, 2)) << "the worker sleeps: the second thread is another process's";
  EXPECT_TRUE(others_take_team_cores(3, 1, 2, 2));
  // Four cores, a team of two: two other threads fit beside it, a third does not.
  EXPECT_FALSE(others_take_team_cores(4, 1, 2, 4));
  EXPECT_FALSE(others_take_team_cores(3, 0, 2, 4));
  EXPECT_TRUE(others_take_team_cores(4, 0, 2, 4));
  EXPECT_FALSE(others_take_team_cores(-1, 0, 2, 2)) << "the system does not say: try the team";
  EXPECT_FALSE(others_take_team_cores(1, 3, 4, 4)) << "more awake than counted (racing reads) is none";
}

TEST(AvailableCores, ReadsCgroupQuotas) {
  EXPECT_EQ(quota_cores("max 100000"), std::nullopt);
  EXPECT_EQ(quota_cores("200000 100000"), 2);
  EXPECT_EQ(quota_cores("150000 100000"), 2);  // 1.5 cores: two threads, each busy 75 %
  EXPECT_EQ(quota_cores("50000 100000"), 1);
  EXPECT_EQ(quota_cores("garbage"), std::nullopt);
  EXPECT_EQ(quota_cores(-1, 100000), std::nullopt);
  EXPECT_EQ(quota_cores(400000, 100000), 4);
  EXPECT_GE(available_cores(), 1);
  EXPECT_TRUE(runnable_threads() == -1 || runnable_threads() >= 1) << "this thread runs";
  EXPECT_LE(available_cores(), int(std::max(1u, std::thread::hardware_concurrency())));
}

bool bitwise_equal(const Field& a, const Field& b) {
  return a.shape() == b.shape() && std::memcmp(a.data(), b.data(), a.values().size_bytes()) == 0;
}

// A solve's iterate after a few iterations on `threads` workers.
Field iterate_after(SolverOptions o, int threads, int iterations) {
  always_a_team();
  o.threads = threads;
  IterativeSolver solver(o, make_problem(o));
  for (int k = 0; k < iterations; ++k) solver.step();
  return solver.iterate();
}

// Every preset (each smoother and coarsening, stand-alone and MGCG: CG's sums steer its
// iterate), kappa 1, 2, 3 and W, fused and not, double and mixed.
TEST(ThreadTeam, SolvesGiveBitwiseTheIterateOfOneThreadOnTwoThreeAndEightWorkers) {
  // The presets' smoothers and coarsenings, and the two smoothers no preset uses alone.
  std::vector<Preset> cases(presets().begin(), presets().end());
  cases.push_back(
      {"gs-rb", Smoother::GaussSeidel, Coarsening::Full, CoarseOperator::Rediscretized, SolverKind::Multigrid, ""});
  cases.push_back({"yzebra", Smoother::YZebra, Coarsening::Full, CoarseOperator::Galerkin, SolverKind::PCG, ""});
  for (const Preset& preset : cases)
    for (int kappa : {1, 2, 3, kKappaW})
      for (bool fused : {true, false}) {
        SolverOptions o;
        apply(preset, o);
        o.levels = 7;  // 127^2: the finest level runs on the team
        o.cycle = {CycleType::Kappa, kappa};
        o.fused = fused;
        if (preset.smoother == Smoother::Jacobi && fused) o.precision = Precision::Mixed;
        const Field one = iterate_after(o, 1, 3);
        for (int threads : {2, 3, 8})
          EXPECT_TRUE(bitwise_equal(one, iterate_after(o, threads, 3)))
              << preset.name << " kappa " << kappa << (fused ? " fused" : "") << " threads " << threads;
      }
}

// A pass whose workers stall (here every third chunk they take, for 2 ms) still completes with
// the right result: bitwise the iterate of one thread.
TEST(ThreadTeam, CyclesWithAStalledWorkerGiveBitwiseTheIterateOfOneThread) {
  for (Smoother smoother : {Smoother::Jacobi, Smoother::GaussSeidel, Smoother::XZebra, Smoother::YZebra}) {
    MultigridSettings s;
    s.levels = 8;
    s.tensor = rotated_anisotropic_tensor(1e-3, 30);
    s.omega = paper_jacobi_omega(1e-3, 30);
    s.smoother = smoother;
    s.fused = true;
    auto iterate = [&](int threads, bool stall) {
      always_a_team();
      CpuBackend be(threads);
      std::atomic<int> taken{0};
      std::atomic<bool> worker_took_one{false};
      if (stall)
        be.team()->set_chunk_hook([&](int member, int) {
          if (member != 0) {
            worker_took_one = true;
            if (++taken % 3 == 0) std::this_thread::sleep_for(2ms);
          } else {  // wait (up to 2 ms) until a worker is in, so that one is
            const auto until = std::chrono::steady_clock::now() + 2ms;
            while (!worker_took_one && std::chrono::steady_clock::now() < until) std::this_thread::yield();
            worker_took_one = false;
          }
        });
      Multigrid<CpuBackend> mg(be, s);
      fill_uniform_random(mg.level(1).v, 5);
      fill_uniform_random(mg.level(1).f, 6);
      for (int c = 0; c < 2; ++c) mg.cycle({CycleType::Kappa, 3});
      if (stall) {
        EXPECT_GE(taken.load(), 3) << "the worker took no chunk to stall on";
      }
      return Field(mg.level(1).v);
    };
    const Field one = iterate(1, false);
    EXPECT_TRUE(bitwise_equal(one, iterate(2, true))) << to_string(smoother);
    EXPECT_TRUE(bitwise_equal(one, iterate(3, true))) << to_string(smoother);
  }
}

}  // namespace
}  // namespace kcycle
