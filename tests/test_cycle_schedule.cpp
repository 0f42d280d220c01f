// The cycle's schedule (cycle_schedule.hpp): its launches against the closed forms it replaces,
// its modes, and that the executor runs what it plans, counted by the backend level by level.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "closed_forms.hpp"
#include "kcycle/backends/cpu/cpu_backend.hpp"
#include "kcycle/core/problem.hpp"
#include "kcycle/cycle/cycle_counts.hpp"
#include "kcycle/cycle/cycle_schedule.hpp"
#include "kcycle/solve/iterative_solver.hpp"
#include "kcycle/solve/multigrid.hpp"
#include "kcycle/solve/resolved_run.hpp"
#include "kcycle/solve/solver_options.hpp"

using namespace kcycle;

namespace {

constexpr Smoother kSmoothers[] = {Smoother::Jacobi, Smoother::GaussSeidel, Smoother::XZebra, Smoother::YZebra,
                                   Smoother::XYZebra};

MultigridSettings settings(int levels, Smoother smoother, bool fused, int nu1, int nu2, bool symmetric) {
  MultigridSettings s;
  s.levels = levels;
  s.tensor = rotated_anisotropic_tensor(1e-2, 30.0);
  s.smoother = smoother;
  s.coarsening = smoother == Smoother::XZebra ? Coarsening::SemiY : Coarsening::Full;
  s.fused = fused;
  s.nu1 = nu1;
  s.nu2 = nu2;
  s.symmetric_smoothing = symmetric;
  return s;
}

}  // namespace

// The fold over the planned passes equals MultigridSettings' closed form, for every smoother,
// sweep count and order, fused or not; the coarsest level is its one exact solve.
TEST(CycleSchedule, LaunchesPerCallEqualTheClosedForm) {
  for (Smoother sm : kSmoothers)
    for (bool fused : {false, true})
      for (int nu1 = 0; nu1 <= 3; ++nu1)
        for (int nu2 = 0; nu2 <= 3; ++nu2)
          for (bool symmetric : {false, true}) {
            const MultigridSettings s = settings(5, sm, fused, nu1, nu2, symmetric);
            const CycleSchedule normal = CycleSchedule::plan(s, {true, false}, CycleMode::Normal);
            MultigridSettings unfused = s;
            unfused.fused = false;
            const CycleSchedule watched = CycleSchedule::plan(s, {true, false}, CycleMode::Watched);
            for (int l = 1; l < s.levels; ++l) {
              EXPECT_EQ(normal.launches_per_call(l), closed_form::launches_per_call(s))
                  << "smoother " << int(sm) << " fused " << fused << " nu " << nu1 << "," << nu2;
              // Watched cycles run every operation on its own.
              EXPECT_EQ(watched.launches_per_call(l), closed_form::launches_per_call(unfused));
            }
            EXPECT_EQ(normal.launches_per_call(s.levels), 1);
            EXPECT_EQ(normal.sweep_launches(1),
                      (closed_form::fuses_down(s) ? 0 : closed_form::phase_launches(s, nu1, true)) +
                          (closed_form::fuses_up(s) ? 0 : closed_form::phase_launches(s, nu2, !symmetric)));
            // The closed form calls a pipelining smoother fused even with no sweep to pipeline.
            if (nu1 > 0 && nu2 > 0) {
              EXPECT_EQ(normal.fuses_any(), closed_form::fuses_any(s));
            }
            // The paper's table 3.3: launches_per_call totalCalls(kappa, n-1) + levelCalls(kappa, n).
            for (int kappa : {1, 2, 3, kKappaW})
              EXPECT_EQ(normal.launches_per_cycle(kappa),
                        launches_per_cycle(std::min(kappa, s.levels), s.levels, closed_form::launches_per_call(s)));
          }
}

// A backend without the fused passes runs every operation on its own, whatever the settings ask.
TEST(CycleSchedule, WithoutTheCapabilityNothingFuses) {
  const MultigridSettings s = settings(4, Smoother::Jacobi, true, 2, 2, false);
  const CycleSchedule plan = CycleSchedule::plan(s, {false, false}, CycleMode::Normal);
  for (int l = 1; l < s.levels; ++l) {
    EXPECT_FALSE(plan.level(l).fused_down);
    EXPECT_FALSE(plan.level(l).fused_up);
    EXPECT_EQ(plan.launches_per_call(l), 2 + 3 + 2);
  }
  EXPECT_FALSE(plan.zero_start_in_first_pass());
}

// The pass kinds' table: each kind's row names it and says what a backend needs to run it, and a
// schedule planned for more than a backend has names the first pass that backend could not run
// (Multigrid refuses such a schedule instead of skipping the pass).
TEST(CycleSchedule, NamesThePassABackendWithoutTheCapabilityCouldNotRun) {
  for (const PassKindTraits& row : kPassKinds) EXPECT_GT(std::string(row.name).size(), 3u);
  EXPECT_EQ(pass_kind_traits(PassKind::ZeroCoarse).phase, Phase::Restrict);  // zeroing counts as restriction
  EXPECT_EQ(pass_kind_traits(PassKind::FusedUp).needs, PassNeeds::FusedPasses);

  const MultigridSettings jacobi = settings(5, Smoother::Jacobi, true, 2, 2, false);
  const CycleSchedule fused = CycleSchedule::plan(jacobi, {true, false}, CycleMode::Normal);
  EXPECT_EQ(fused.first_pass_beyond({true, false}), nullptr);
  const Pass* beyond = fused.first_pass_beyond({false, false});
  ASSERT_NE(beyond, nullptr);
  EXPECT_EQ(beyond->kind, PassKind::FusedDown);
  EXPECT_EQ(CycleSchedule::plan(jacobi, {false, false}, CycleMode::Normal).first_pass_beyond({false, false}), nullptr);

  const CycleSchedule pipelined =
      CycleSchedule::plan(settings(5, Smoother::GaussSeidel, true, 2, 2, false), {true, false}, CycleMode::Normal);
  ASSERT_NE(pipelined.first_pass_beyond({false, true}), nullptr);
  EXPECT_EQ(pipelined.first_pass_beyond({false, true})->kind, PassKind::PipelinedSweep);

  MultigridSettings tailed = settings(9, Smoother::Jacobi, false, 2, 2, false);
  tailed.coarse_tail_unknowns = 4096;
  const CycleSchedule tail = CycleSchedule::plan(tailed, {false, true}, CycleMode::Normal);
  ASSERT_NE(tail.first_pass_beyond({true, false}), nullptr);
  EXPECT_EQ(tail.first_pass_beyond({true, false})->kind, PassKind::CoarseTail);
  EXPECT_STREQ(pass_kind_name(tail.first_pass_beyond({true, false})->kind), "coarse tail (this level and below)");
}

// The coarse tail: the levels from its top down are one launch a call at the top, none below;
// a watched cycle has none, a timed one times it as one launch.
TEST(CycleSchedule, TheCoarseTailIsOneLaunchAtItsTop) {
  MultigridSettings s = settings(9, Smoother::Jacobi, false, 2, 2, false);
  s.coarse_tail_unknowns = 4096;
  const CycleSchedule plan = CycleSchedule::plan(s, {false, true}, CycleMode::Normal);
  const int top = plan.tail_top();
  ASSERT_EQ(top, closed_form::coarse_tail_top(s));
  // 9 levels: level 4 is 63^2 = 3969 unknowns, the first of at most 4096 (level 3 is 127^2).
  ASSERT_EQ(top, 4);
  for (int l = 1; l <= s.levels; ++l) {
    EXPECT_EQ(plan.level(l).in_tail, l >= top) << "level " << l;
    const int expected = l < top ? closed_form::launches_per_call(s) : l == top ? 1 : 0;
    EXPECT_EQ(plan.launches_per_call(l), expected) << "level " << l;
  }
  // With a tail the hierarchy launches like one whose coarsest level is the tail's top.
  for (int kappa : {1, 2, 3, kKappaW})
    EXPECT_EQ(plan.launches_per_cycle(kappa),
              launches_per_cycle(std::min(kappa, s.levels), closed_form::launched_levels(s),
                                 closed_form::launches_per_call(s)));
  // Watched, each operation runs on its own; timed, the tail is timed as the one launch it is.
  const CycleSchedule watched = CycleSchedule::plan(s, {false, true}, CycleMode::Watched);
  EXPECT_EQ(watched.tail_top(), 0);
  for (int l = 1; l <= s.levels; ++l) EXPECT_FALSE(watched.level(l).in_tail);
  const CycleSchedule timed = CycleSchedule::plan(s, {false, true}, CycleMode::Timed);
  EXPECT_EQ(timed.tail_top(), top);
  for (int l = 1; l <= s.levels; ++l) EXPECT_EQ(timed.launches_per_call(l), plan.launches_per_call(l));
}

// What the executor runs is what the schedule plans: the backend's launches per level, counted
// while levels are timed, are levelCalls times the timed schedule's launches per call.
TEST(CycleSchedule, TheExecutorRunsWhatItPlans) {
  for (Smoother sm : kSmoothers)
    for (bool fused : {false, true})
      for (int kappa : {1, 3, kKappaW}) {
        const int n = 5;
        const MultigridSettings s = settings(n, sm, fused, 2, 1, false);
        CpuBackend backend(1);
        Multigrid<CpuBackend> mg(backend, s);
        const CycleSchedule& plan = mg.schedule(CycleMode::Timed);
        mg.set_level_timing(true);
        mg.cycle({CycleType::Kappa, kappa});
        for (int l = 1; l <= n; ++l) {
          const LevelStats& st = mg.level(l).stats;
          EXPECT_EQ(st.calls, level_calls(std::min(kappa, n), l));
          EXPECT_EQ(st.launches, st.calls * std::uint64_t(plan.launches_per_call(l)))
              << "level " << l << " smoother " << int(sm) << " fused " << fused << " kappa " << kappa;
        }
      }
}

// The iterate's sums come from one pass, planned once: the finest level's fused up pass (the
// cycle's last), in normal and timed cycles, never watched ones. A cycle asked for them writes
// the sums of the iterate it ends with there, and leaves them alone where no pass yields them.
TEST(CycleSchedule, OnlyTheFinestUpPassYieldsTheIteratesSums) {
  for (Smoother sm : kSmoothers)
    for (bool fused : {false, true})
      for (int nu2 : {0, 1, 2})
        for (CycleMode mode : {CycleMode::Normal, CycleMode::Watched, CycleMode::Timed}) {
          const MultigridSettings s = settings(7, sm, fused, 2, nu2, false);  // 127 rows: 4 blocks on 2 threads
          const std::string what = "smoother " + std::to_string(int(sm)) + " fused " + std::to_string(fused) + " nu2 " +
                                   std::to_string(nu2) + " mode " + std::to_string(int(mode));
          const CycleSchedule plan = CycleSchedule::plan(s, {true, false}, mode);
          const bool expected = sm == Smoother::Jacobi && fused && nu2 > 0 && mode != CycleMode::Watched;
          ASSERT_EQ(plan.sums_pass() != nullptr, expected) << what;
          int yielding = 0;
          for (int l = 1; l <= s.levels; ++l)
            for (const auto* passes : {&plan.level(l).down, &plan.level(l).up})
              for (const Pass& p : *passes) yielding += p.yields_sums;
          EXPECT_EQ(yielding, expected ? 1 : 0) << what;
          if (expected) {
            EXPECT_EQ(plan.sums_pass()->kind, PassKind::FusedUp) << what;
          }
          if (mode == CycleMode::Watched) continue;
          CpuBackend backend(2);
          Multigrid<CpuBackend> mg(backend, s);
          mg.set_level_timing(mode == CycleMode::Timed);
          Field start(mg.level(1).shape), rhs(mg.level(1).shape);
          fill_uniform_random(start, 3);
          fill_uniform_random(rhs, 4);
          backend.upload(start, mg.level(1).v);
          backend.upload(rhs, mg.level(1).f);
          double f_dot_v = NAN, v_norm2 = NAN, residual2 = NAN;
          CycleHooks hooks;
          hooks.sums = {&f_dot_v, &v_norm2, &residual2};
          ASSERT_EQ(&mg.schedule_for(hooks), &mg.schedule(mode)) << what;
          mg.cycle({CycleType::Kappa, 2}, hooks);
          const auto& fine = mg.level(1);
          if (!expected) {
            EXPECT_TRUE(std::isnan(f_dot_v) && std::isnan(v_norm2) && std::isnan(residual2)) << what;
            continue;
          }
          EXPECT_NEAR(f_dot_v / backend.dot(fine.f, fine.v), 1.0, 1e-12) << what;
          EXPECT_NEAR(v_norm2 / backend.dot(fine.v, fine.v), 1.0, 1e-12) << what;
          EXPECT_NEAR(residual2 / backend.residual_norm2(fine.A, fine.v, fine.f), 1.0, 1e-12) << what;
        }
}

// Timing levels times what normally runs: with a coarse tail the timed cycle runs the same
// passes (bitwise the same iterate, the same launches), the tail's one launch and its time on
// its top level, the levels below it counting calls only.
TEST(CycleSchedule, ATimedCycleTimesTheCoarseTailAsItsOneLaunch) {
  MultigridSettings s = settings(9, Smoother::GaussSeidel, true, 2, 1, false);
  s.coarse_tail_unknowns = 4096;
  CpuBackend normal_backend(1), timed_backend(1);
  Multigrid<CpuBackend> normal(normal_backend, s), timed(timed_backend, s);
  for (Multigrid<CpuBackend>* mg : {&normal, &timed}) {
    fill_uniform_random(mg->level(1).v, 5);
    fill_uniform_random(mg->level(1).f, 6);
  }
  timed.set_level_timing(true);
  const int kappa = 2, top = timed.schedule(CycleMode::Timed).tail_top();
  ASSERT_EQ(top, 4);
  normal_backend.reset_launches();
  timed_backend.reset_launches();
  normal.cycle({CycleType::Kappa, kappa});
  timed.cycle({CycleType::Kappa, kappa});
  const Field& a = normal.level(1).v;
  const Field& b = timed.level(1).v;
  EXPECT_EQ(0, std::memcmp(a.data(), b.data(), a.values().size_bytes())) << "timing changed the iterate";
  EXPECT_EQ(timed_backend.launches(), normal_backend.launches());
  std::uint64_t launches = 0;
  for (int l = 1; l <= s.levels; ++l) {
    const LevelStats& st = timed.level(l).stats;
    EXPECT_EQ(st.calls, level_calls(kappa, l)) << "level " << l;
    launches += st.launches;
    const double tail_seconds = st.seconds[std::size_t(Phase::CoarseTail)];
    if (l < top) {
      EXPECT_GT(st.seconds[std::size_t(Phase::Relax)], 0.0) << "level " << l;
      EXPECT_EQ(tail_seconds, 0.0) << "level " << l;
    } else if (l == top) {
      EXPECT_EQ(st.launches, st.calls) << "one launch a call";
      EXPECT_GT(tail_seconds, 0.0);
      EXPECT_EQ(st.total_seconds(), tail_seconds);
    } else {
      EXPECT_EQ(st.launches, 0u) << "level " << l;
      EXPECT_EQ(st.total_seconds(), 0.0) << "level " << l;
    }
  }
  EXPECT_EQ(launches, timed_backend.launches());
}

// The schedule says what a fast cycle does, in words.
TEST(CycleSchedule, DescribesThePasses) {
  const CycleSchedule fused =
      CycleSchedule::plan(settings(3, Smoother::Jacobi, true, 2, 2, false), {true, false}, CycleMode::Normal);
  const std::string text = fused.describe();
  EXPECT_NE(text.find("level 1: down [one pass: 2 sweeps + residual + restriction]  up [one pass: prolongation + 2 "
                      "sweeps + norms]  2 launches a call"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("level 2: down [one pass: 2 sweeps + residual + restriction]  up [one pass: prolongation + 2 "
                      "sweeps]  2 launches a call"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("level 3: down [exact solve]  1 launch a call"), std::string::npos) << text;
  const CycleSchedule gs =
      CycleSchedule::plan(settings(3, Smoother::GaussSeidel, false, 2, 1, false), {true, false}, CycleMode::Normal);
  EXPECT_NE(gs.describe().find("down [2 sweeps, residual + restriction, zero coarse correction]  up [prolongation, "
                               "sweep]  15 launches a call"),
            std::string::npos)
      << gs.describe();
}

// Whether --fused changes anything is the planner's answer (the visualizer shows its checkbox
// then): on the CPU the fused Jacobi passes, the pipelined Gauss-Seidel and x-zebra sweeps, and for
// every smoother the restriction that zeroes the coarse correction in its pass (y-zebra: 10
// launches a call instead of 11); nothing on a backend without them.
TEST(CycleSchedule, FusingAppliesWhereThePlannerFusesAPass) {
  SolverOptions o;
  o.levels = 6;
  const auto applies = [&](Smoother smoother, SolverKind solver, BackendKind on) {
    o.smoother = smoother;
    o.coarsening = smoother == Smoother::XZebra ? Coarsening::SemiY : Coarsening::Full;
    o.solver = solver;
    return resolve(o, on).fusing_applies;
  };
  EXPECT_TRUE(applies(Smoother::Jacobi, SolverKind::Multigrid, BackendKind::Cpu));
  EXPECT_TRUE(applies(Smoother::GaussSeidel, SolverKind::Multigrid, BackendKind::Cpu));
  EXPECT_TRUE(applies(Smoother::XZebra, SolverKind::Multigrid, BackendKind::Cpu));
  EXPECT_TRUE(applies(Smoother::YZebra, SolverKind::Multigrid, BackendKind::Cpu));
  EXPECT_TRUE(applies(Smoother::YZebra, SolverKind::PCG, BackendKind::Cpu));
#if KCYCLE_HAVE_MPI
  EXPECT_FALSE(applies(Smoother::Jacobi, SolverKind::Multigrid, BackendKind::Mpi));
#endif
#if KCYCLE_HAVE_CUDA
  EXPECT_FALSE(applies(Smoother::Jacobi, SolverKind::PCG, BackendKind::Cuda));
#endif
}

// MGCG's own passes are planned like the cycle's: two passes where the backend has them, the
// passes fused and the finest grid out of cache (CpuBackend::kTwoPassCgUnknowns: 2047^2 and up),
// else the textbook's; and the solver runs what the plan says (q = A p held or not).
TEST(CgStepPlan, TwoPassWhereTheBackendHasItAndTheGridLeavesTheCache) {
  SolverOptions o;
  o.solver = SolverKind::PCG;
  const auto plan = [&](int levels, bool fused, BackendKind on) {
    o.levels = levels;
    o.fused = fused;
    return resolve(o, on).cg_step;
  };
  EXPECT_FALSE(plan(10, true, BackendKind::Cpu).two_pass);  // 1023^2 unknowns: in cache
  EXPECT_TRUE(plan(11, true, BackendKind::Cpu).two_pass);   // 2047^2
  EXPECT_FALSE(plan(11, false, BackendKind::Cpu).two_pass);
  EXPECT_FALSE(CgStepPlan::plan(multigrid_settings(o), Capabilities{}, false).two_pass);  // no such passes
#if KCYCLE_HAVE_CUDA
  EXPECT_FALSE(plan(11, true, BackendKind::Cuda).two_pass);
#endif
  // Two passes and (r, z) where the cycle does not sum it; the textbook's four and (r, z);
  // flexible CG one more.
  EXPECT_EQ(plan(11, true, BackendKind::Cpu).passes().size(), 3u);
  EXPECT_EQ(plan(10, true, BackendKind::Cpu).passes().size(), 5u);
  o.solver = SolverKind::FCG;
  EXPECT_EQ(plan(11, true, BackendKind::Cpu).passes().size(), 4u);
  EXPECT_TRUE(plan(11, true, BackendKind::Cpu).flexible);

  o.solver = SolverKind::PCG;
  o.threads = 1;
  for (int levels : {10, 11}) {
    o.levels = levels;
    o.fused = true;
    const IterativeSolver solver(o, make_problem(o));
    const auto held = solver.held_arrays();
    const bool stores_Ap =
        std::any_of(held.begin(), held.end(), [](const HeldArray& a) { return a.purpose == "CG q = A p"; });
    EXPECT_EQ(stores_Ap, !solver.run().cg_step.two_pass) << levels << " levels";
    EXPECT_EQ(solver.run().cg_step.two_pass, levels == 11);
  }
}
