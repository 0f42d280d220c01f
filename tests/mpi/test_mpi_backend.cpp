// The MPI backend against the serial CPU backend, on every rank of an mpirun (the CTest
// entries run 1 to 4 ranks on several process grids): kappa-cycles with every smoother give
// bitwise the serial iterate, the trace and launch counts are the serial ones, the halo exchanges and
// collectives per level are the closed form's, and agglomeration at any threshold changes
// nothing. KCYCLE_MPI_GRID=PXxPY picks the process grid (default: MPI_Dims_create's).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "../closed_forms.hpp"
#include "kcycle/backends/cpu/cpu_backend.hpp"
#include "kcycle/backends/mpi/mpi_backend.hpp"
#include "kcycle/backends/mpi/mpi_runtime.hpp"
#include "kcycle/core/problem.hpp"
#include "kcycle/cycle/cycle_counts.hpp"
#include "kcycle/model/distributed_model.hpp"
#include "kcycle/model/run_clock.hpp"
#include "kcycle/solve/iterative_solver.hpp"
#include "kcycle/solve/multigrid.hpp"
#include "kcycle/solve/solver_options.hpp"

namespace kcycle {
namespace {

// The process grid the test run asks for (KCYCLE_MPI_GRID=2x2), or {0, 0}: MPI's choice.
std::pair<int, int> requested_grid() {
  const char* g = std::getenv("KCYCLE_MPI_GRID");
  int px = 0, py = 0;
  if (g && std::sscanf(g, "%dx%d", &px, &py) == 2) return {px, py};
  return {0, 0};
}

MultigridSettings jacobi_settings(int levels, Coarsening coarsening, CoarseOperator op) {
  MultigridSettings s;
  s.levels = levels;
  s.tensor = rotated_anisotropic_tensor(1e-2, 30);
  s.coarsening = coarsening;
  s.coarse_operator = op;
  s.smoother = Smoother::Jacobi;
  s.omega = 0.8;
  s.nu1 = 2;
  s.nu2 = 1;
  s.fused = false;
  return s;
}

// The same random iterate and right-hand side on every rank (seeded).
void fill_problem(Field& v, Field& f) {
  fill_uniform_random(v, 11);
  fill_uniform_random(f, 12);
}

struct CycleRun {
  Field v;  // the finest iterate after the cycles, gathered
  Trace trace;
  std::uint64_t launches = 0;
};

// Cycles on an already split (or serial) hierarchy: the iterate, trace and launch count.
template <class Backend>
CycleRun run_cycles(Backend& backend, const MultigridSettings& s, CycleChoice choice, int cycles) {
  Multigrid<Backend> mg(backend, s);
  Field v(mg.level(1).shape), f(mg.level(1).shape);
  fill_problem(v, f);
  backend.upload(v, mg.level(1).v);
  backend.upload(f, mg.level(1).f);
  CycleRun r;
  backend.reset_launches();
  for (int c = 0; c < cycles; ++c) mg.cycle(choice, &r.trace);
  r.launches = backend.launches();
  backend.download(mg.level(1).v, r.v);
  return r;
}

CycleRun serial(const MultigridSettings& s, CycleChoice choice, int cycles) {
  CpuBackend cpu(1);
  return run_cycles(cpu, s, choice, cycles);
}

CycleRun distributed(MpiBackend& mpi, const MultigridSettings& s, CycleChoice choice, int cycles, int min_points = 8) {
  mpi.distribute(s.levels, s.coarsening, min_points);
  mpi.reset_comm_stats();
  return run_cycles(mpi, s, choice, cycles);
}

bool bitwise_equal(const Field& a, const Field& b) {
  if (!(a.shape() == b.shape())) return false;
  for (int j = 1; j <= a.shape().ny; ++j)
    for (int i = 1; i <= a.shape().nx; ++i)
      if (a(i, j) != b(i, j)) return false;
  return true;
}

std::unique_ptr<MpiBackend> backend() {
  const auto [px, py] = requested_grid();
  return std::make_unique<MpiBackend>(ExecutionTarget{BackendKind::Cpu, 1, false}, MPI_COMM_WORLD, px, py);
}

TEST(MpiBackend, JacobiCyclesEqualTheSerialIterateBitwise) {
  auto mpi = backend();
  for (Coarsening c : {Coarsening::Full, Coarsening::SemiY})
    for (CoarseOperator op : {CoarseOperator::Rediscretized, CoarseOperator::Galerkin})
      for (int kappa : {1, 2, 3, kKappaW}) {
        const MultigridSettings s = jacobi_settings(6, c, op);
        const CycleChoice choice{CycleType::Kappa, kappa};
        const CycleRun a = serial(s, choice, 2), b = distributed(*mpi, s, choice, 2);
        const std::string what = std::string(to_string(c)) + ", " + std::string(to_string(op)) + ", kappa " +
                                 kappa_to_string(kappa) + ", " + std::to_string(mpi->px()) + "x" +
                                 std::to_string(mpi->py()) + " ranks";
        EXPECT_TRUE(bitwise_equal(a.v, b.v)) << what;
        EXPECT_EQ(a.trace, b.trace) << what;
        EXPECT_EQ(a.launches, b.launches) << what;
      }
}

// Gauss-Seidel refreshes the ghosts before each colour; the zebra sweeps solve a line on its
// block or, where it crosses ranks, whole on one rank after a transpose: all bitwise serial.
TEST(MpiBackend, EverySmootherGivesTheSerialIterateBitwise) {
  auto mpi = backend();
  struct Case {
    Smoother smoother;
    Coarsening coarsening;
  };
  for (const Case& k : {Case{Smoother::GaussSeidel, Coarsening::Full}, Case{Smoother::GaussSeidel, Coarsening::SemiY},
                        Case{Smoother::XZebra, Coarsening::SemiY}, Case{Smoother::XZebra, Coarsening::Full},
                        Case{Smoother::YZebra, Coarsening::Full}, Case{Smoother::XYZebra, Coarsening::Full}})
    for (int kappa : {1, 2, 3, kKappaW}) {
      MultigridSettings s = jacobi_settings(6, k.coarsening, CoarseOperator::Galerkin);
      s.smoother = k.smoother;
      s.nu1 = 1;
      s.nu2 = 2;  // an odd number: the xy-zebra's alternation and the reverse Gauss-Seidel sweep
      s.symmetric_smoothing = k.smoother == Smoother::GaussSeidel;
      const CycleChoice choice{CycleType::Kappa, kappa};
      const CycleRun a = serial(s, choice, 2), b = distributed(*mpi, s, choice, 2);
      const std::string what = std::string(to_string(k.smoother)) + ", " + std::string(to_string(k.coarsening)) +
                               ", kappa " + kappa_to_string(kappa) + ", " + std::to_string(mpi->px()) + "x" +
                               std::to_string(mpi->py()) + " ranks";
      EXPECT_TRUE(bitwise_equal(a.v, b.v)) << what;
      EXPECT_EQ(a.trace, b.trace) << what;
      EXPECT_EQ(a.launches, b.launches) << what;
    }
}

// The coarsest level called once a call: bitwise serial. The Krylov-accelerated cycle: its dot
// products sum over the ranks in another order, so the iterate is serial's to rounding, and its
// decisions (which second calls run) the same.
TEST(MpiBackend, TheCoarsestCallConventionAndTheKrylovStepsAgreeWithSerial) {
  auto mpi = backend();
  for (int kappa : {2, 3, kKappaW}) {
    MultigridSettings s = jacobi_settings(6, Coarsening::Full, CoarseOperator::Rediscretized);
    s.tensor = rotated_anisotropic_tensor(1e-4, 0);  // the second calls have work left
    const std::string what = "kappa " + kappa_to_string(kappa) + ", " + std::to_string(mpi->px()) + "x" +
                             std::to_string(mpi->py()) + " ranks";
    s.coarsest_calls = CoarsestCalls::Once;
    const CycleChoice choice{CycleType::Kappa, kappa};
    const CycleRun a = serial(s, choice, 3), b = distributed(*mpi, s, choice, 3);
    EXPECT_TRUE(bitwise_equal(a.v, b.v)) << "once: " << what;
    EXPECT_EQ(a.trace, b.trace) << "once: " << what;
    s.coarsest_calls = CoarsestCalls::Repeated;
    s.coarse_krylov = true;
    const CycleRun c = serial(s, choice, 3), d = distributed(*mpi, s, choice, 3);
    EXPECT_EQ(c.trace, d.trace) << "krylov: " << what;
    EXPECT_NE(std::count(c.trace.begin(), c.trace.end(), TraceEvent{OpKind::KrylovCombine, 3, 0}), 0) << what;
    double diff = 0, norm = 0;
    for (int j = 1; j <= c.v.shape().ny; ++j)
      for (int i = 1; i <= c.v.shape().nx; ++i)
        diff = std::max(diff, std::abs(c.v(i, j) - d.v(i, j))), norm = std::max(norm, std::abs(c.v(i, j)));
    EXPECT_LT(diff, 1e-10 * norm) << "krylov: " << what;
  }
}

TEST(MpiBackend, AgglomerationAtAnyThresholdGivesTheSameIterate) {
  auto mpi = backend();
  const MultigridSettings s = jacobi_settings(7, Coarsening::Full, CoarseOperator::Galerkin);
  const CycleChoice choice{CycleType::Kappa, 3};
  const CycleRun reference = serial(s, choice, 2);
  int folded_in_steps = 0;  // thresholds with a stage between all ranks and rank 0 alone
  for (int min_points : {2, 4, 8, 16, 1000}) {
    const CycleRun r = distributed(*mpi, s, choice, 2, min_points);
    const Decomposition& d = mpi->decomposition();
    for (int stage = 1; stage < d.final_stage(); ++stage)
      if (d.last_level_of_stage(stage) > d.last_level_of_stage(stage - 1)) {
        ++folded_in_steps;
        break;
      }
    EXPECT_TRUE(bitwise_equal(reference.v, r.v))
        << "min_points " << min_points << ": " << d.distributed_levels() << " levels on all ranks";
  }
  if (mpi->px() >= 4 || mpi->py() >= 4) {  // (3 x 1: the folded pair is no smaller than the single block)
    EXPECT_GT(folded_in_steps, 0) << "no intermediate stage was tested";
  }
}

TEST(MpiBackend, ExchangesAndCollectivesPerLevelAreTheClosedForm) {
  auto mpi = backend();
  const int n = 6;
  for (Smoother smoother : {Smoother::Jacobi, Smoother::GaussSeidel, Smoother::XYZebra})
    for (int kappa : {1, 2, 3, kKappaW}) {
      MultigridSettings s = jacobi_settings(n, Coarsening::Full, CoarseOperator::Rediscretized);
      s.smoother = smoother;
      distributed(*mpi, s, {CycleType::Kappa, kappa}, 1);
      const Decomposition& d = mpi->decomposition();
      const int k = std::min(kappa, n);
      // A relaxation phase's exchanges (one before each of its passes: a Jacobi sweep, a
      // Gauss-Seidel colour, a zebra parity), and its line transposes' all-to-alls (two for
      // each parity of a line direction that crosses ranks).
      const auto phase_exchanges = [&](int sweeps, bool x_first) {
        return closed_form::phase_launches(s, sweeps, x_first);
      };
      int l = 1;  // the level the transposes are counted for
      const auto phase_transposes = [&](int sweeps, bool x_first) {
        if (smoother != Smoother::XYZebra) return 0;
        const int x = alternating_x_sweeps(sweeps, x_first);
        return 4 * (x * (d.ranks_across(l) > 1) + (sweeps - x) * (d.ranks_down(l) > 1));
      };
      const std::uint64_t per_call_exchanges =
          std::uint64_t(phase_exchanges(s.nu1, true) + phase_exchanges(s.nu2, !s.symmetric_smoothing) + 2);
      for (l = 1; l <= n; ++l) {
        const std::uint64_t per_call_transposes =
            std::uint64_t(phase_transposes(s.nu1, true) + phase_transposes(s.nu2, !s.symmetric_smoothing));
        const CommStats& c = mpi->comm_stats()[std::size_t(l)];
        std::uint64_t exchanges = 0, collectives = 0;
        if (d.distributed(l) && d.holds(l, mpi->rx(), mpi->ry())) {
          // Each call above the coarsest: its relaxation passes, and the restriction exchanges v
          // and r; each call one level up prolongs from here after exchanging v.
          if (l < n) exchanges += level_calls(k, l) * per_call_exchanges;
          if (l > 1) exchanges += level_calls(k, l - 1);
          if (l < n) collectives += level_calls(k, l) * per_call_transposes;
        }
        // A level held by fewer ranks than the one above: one gather (restriction) and one
        // scatter (prolongation) per call on the level above, for each rank holding that one.
        if (l > 1 && d.stage_of(l) > d.stage_of(l - 1) && d.holds(l - 1, mpi->rx(), mpi->ry()))
          collectives += 2 * level_calls(k, l - 1);
        const std::string what =
            std::string(to_string(smoother)) + ", kappa " + kappa_to_string(kappa) + ", level " + std::to_string(l);
        EXPECT_EQ(c.exchanges, exchanges) << what;
        EXPECT_EQ(c.collectives, collectives) << what;
        // Every exchange sends one message to each neighbour (up to 8, corners included).
        if (c.exchanges > 0 && smoother != Smoother::XYZebra) {
          EXPECT_EQ(c.messages % c.exchanges, 0u);
          EXPECT_LE(c.messages / c.exchanges, 8u);
        }
      }
    }
}

// The cost model's counts (distributed_model.hpp, closed forms) are what the ranks count: per
// level, the busiest rank's messages, and the exchanges and collectives, for every smoother.
TEST(MpiBackend, TheModelsCountsAreTheBusiestRanksCounts) {
  auto mpi = backend();
  for (Smoother smoother :
       {Smoother::Jacobi, Smoother::GaussSeidel, Smoother::XZebra, Smoother::YZebra, Smoother::XYZebra})
    for (Coarsening coarsening : {Coarsening::Full, Coarsening::SemiY})
      for (int kappa : {1, 2, 3, kKappaW}) {
        MultigridSettings s = jacobi_settings(6, coarsening, CoarseOperator::Galerkin);
        s.smoother = smoother;
        distributed(*mpi, s, {CycleType::Kappa, kappa}, 1);
        const std::vector<LevelCommCounts> model = distributed_cycle_counts(s, kappa, mpi->decomposition());
        for (int l = 1; l <= s.levels; ++l) {
          const CommStats& c = mpi->comm_stats()[std::size_t(l)];
          std::uint64_t most[3] = {c.messages, c.exchanges, c.collectives};
          MPI_Allreduce(MPI_IN_PLACE, most, 3, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
          const LevelCommCounts& m = model[std::size_t(l)];
          const std::string what = std::string(to_string(smoother)) + ", " + std::string(to_string(coarsening)) +
                                   ", kappa " + kappa_to_string(kappa) + ", level " + std::to_string(l);
          EXPECT_EQ(double(most[0]), m.messages) << what;
          EXPECT_EQ(double(most[1]), m.exchanges) << what;
          EXPECT_EQ(double(most[2]), m.collectives) << what;
        }
      }
}

TEST(MpiBackend, UploadThenDownloadGivesTheFieldBackOnEveryRank) {
  auto mpi = backend();
  mpi->distribute(5, Coarsening::Full);
  for (int l = 1; l <= 5; ++l) {
    const GridShape g = mpi->decomposition().global_shape(l);
    Field host(g), back;
    fill_uniform_random(host, std::uint64_t(l));
    MpiBackend::Vector x = mpi->make_vector(g);
    mpi->upload(host, x);
    mpi->download(x, back);
    EXPECT_TRUE(bitwise_equal(host, back)) << "level " << l;
  }
}

TEST(MpiBackend, DotProductsSumOverAllRanks) {
  auto mpi = backend();
  mpi->distribute(6, Coarsening::Full);
  const GridShape g = mpi->decomposition().global_shape(1);
  Field a(g), b(g);
  fill_uniform_random(a, 3);
  fill_uniform_random(b, 4);
  CpuBackend cpu(1);
  const double expected = cpu.dot(a, b);
  MpiBackend::Vector x = mpi->make_vector(g), y = mpi->make_vector(g);
  mpi->upload(a, x);
  mpi->upload(b, y);
  EXPECT_NEAR(mpi->dot(x, y), expected, 1e-12 * std::abs(expected));
}

// Every rank's `mine`, in rank order, on every rank.
std::vector<double> from_every_rank(double mine) {
  std::vector<double> all(static_cast<std::size_t>(mpi_ranks()));
  MPI_Allgather(&mine, 1, MPI_DOUBLE, all.data(), 1, MPI_DOUBLE, MPI_COMM_WORLD);
  return all;
}

// A solve's times decide how long an advice probes: were they each rank's own, one rank could
// end a probe while another stepped on, and both would wait in different collectives.
TEST(MpiBackend, ASolvesTimesAreTheSlowestRanksOnEveryRank) {
  SolverOptions o;
  o.levels = 5;
  o.backend = BackendKind::Mpi;
  o.threads = 1;
  o.max_iterations = 6;
  IterativeSolver solver(o, make_problem(o));
  while (solver.running()) {
    // The last rank comes late to every step: the others wait for its halos.
    if (mpi_rank() == mpi_ranks() - 1) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    solver.step();
  }
  const SolveResult r = solver.result();
  ASSERT_EQ(r.history.size(), 6u);
  for (const double mine : {r.seconds_setup, r.seconds_total, r.seconds_per_iteration, r.seconds_per_cycle})
    for (const double theirs : from_every_rank(mine)) EXPECT_EQ(theirs, mine);
  for (const IterationRecord& h : r.history)
    for (const double theirs : from_every_rank(h.seconds)) EXPECT_EQ(theirs, h.seconds) << "iteration " << h.iteration;
  if (mpi_ranks() > 1) EXPECT_GE(r.seconds_per_cycle, 0.002) << "the waiting ranks' time, not the late one's";
}

TEST(MpiBackend, TheRunClockReadsTheSlowestRanksTimeOnEveryRank) {
  SolverOptions o;
  o.backend = BackendKind::Mpi;
  const RunClock clock(o);
  std::this_thread::sleep_for(std::chrono::milliseconds(20 * mpi_rank()));
  const double seconds = clock.seconds();
  for (const double theirs : from_every_rank(seconds)) EXPECT_EQ(theirs, seconds);
  EXPECT_GE(seconds, 0.020 * (mpi_ranks() - 1));
}

}  // namespace
}  // namespace kcycle

int main(int argc, char** argv) {
  kcycle::start_mpi();  // finalized at exit
  ::testing::InitGoogleTest(&argc, argv);
  // Only rank 0 prints the report; every rank's failures still fail the run (its exit code).
  if (kcycle::mpi_rank() != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  return RUN_ALL_TESTS();
}
