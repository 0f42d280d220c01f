// Cancelling apart from watching, and the per-level counters: what a cycle does when its
// stop token fires, that a watcher's time is not cycle time, and that the per-level
// figures add up to the paper's counts and to the backend's launch counter.
#include <gtest/gtest.h>

#include <atomic>

#include <chrono>
#include <thread>

#include "closed_forms.hpp"
#include "kcycle/backends/cpu/cpu_backend.hpp"
#include "kcycle/core/problem.hpp"
#include "kcycle/core/relaxation_factor.hpp"
#include "kcycle/cycle/cycle_counts.hpp"
#include "kcycle/solve/image_pool.hpp"
#include "kcycle/solve/iterative_solver.hpp"
#include "kcycle/solve/multigrid.hpp"

namespace kcycle {
namespace {

MultigridSettings settings(int levels) {
  MultigridSettings s;
  s.levels = levels;
  s.tensor = rotated_anisotropic_tensor(1e-3, 30);
  s.omega = paper_jacobi_omega(1e-3, 30);
  return s;
}

TEST(Cancel, AStopRequestedBeforeTheCycleRunsNothing) {
  CpuBackend backend(1);
  Multigrid<CpuBackend> mg(backend, settings(5));
  std::stop_source stop;
  stop.request_stop();
  Trace trace;
  backend.reset_launches();
  EXPECT_THROW(mg.cycle({CycleType::Kappa, 3}, CycleHooks{&trace, nullptr, stop.get_token(), {}}), CycleCancelled);
  EXPECT_TRUE(trace.empty());
  EXPECT_EQ(backend.launches(), 0u);
}

TEST(Cancel, AStopMidCycleEndsItAtTheNextCall) {
  // The stop is requested while the first pre-relaxation runs (from another "thread": the
  // observer stands in for the UI). The cycle goes on to the next call's entry, no further.
  CpuBackend backend(1);
  Multigrid<CpuBackend> mg(backend, settings(6));
  std::stop_source stop;
  Trace trace;
  const OpObserver request_at_first_relaxation = [&](const TraceEvent& e) {
    if (e.kind == OpKind::PreRelax) stop.request_stop();
  };
  EXPECT_THROW(
      mg.cycle({CycleType::Kappa, kKappaW}, CycleHooks{&trace, &request_at_first_relaxation, stop.get_token(), {}}),
      CycleCancelled);
  // Call(1), nu1 pre-relaxations, restriction, zeroing: then the call on level 2 refuses.
  const std::size_t expected = 1 + std::size_t(mg.settings().nu1) + 2;
  ASSERT_EQ(trace.size(), expected);
  EXPECT_EQ(trace.back().kind, OpKind::ZeroCoarse);
  for (const TraceEvent& e : trace) EXPECT_EQ(e.level, 1);
}

TEST(Cancel, AnUntriggeredTokenChangesNothing) {
  CpuBackend a(1), b(1);
  Multigrid<CpuBackend> with(a, settings(5)), without(b, settings(5));
  fill_uniform_random(with.level(1).v, 3);
  fill_uniform_random(without.level(1).v, 3);
  std::stop_source stop;
  Trace t1, t2;
  with.cycle({CycleType::Kappa, 2}, CycleHooks{&t1, nullptr, stop.get_token(), {}});
  without.cycle({CycleType::Kappa, 2}, &t2);
  EXPECT_EQ(t1, t2);
  const auto x = with.level(1).v.values(), y = without.level(1).v.values();
  EXPECT_TRUE(std::equal(x.begin(), x.end(), y.begin()));
}

TEST(Cancel, TheSolverReportsACancelledCycle) {
  SolverOptions o;
  o.levels = 5;
  o.threads = 1;
  IterativeSolver solver(o, make_problem(o));
  solver.step();
  std::stop_source stop;
  stop.request_stop();
  EXPECT_THROW(solver.step({nullptr, nullptr, stop.get_token(), {}}), CycleCancelled);
  EXPECT_EQ(solver.status(), SolveStatus::Cancelled);
  EXPECT_EQ(solver.history().size(), 1u);
}

TEST(Watch, TheTimeAWatcherHoldsAnOperationIsNotCycleTime) {
  SolverOptions o;
  o.levels = 4;  // a cycle takes well under a millisecond
  o.threads = 1;
  IterativeSolver solver(o, make_problem(o));
  int seen = 0;
  const OpObserver slow_watcher = [&](const TraceEvent&) {
    if (++seen <= 4) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  };
  const IterationRecord rec = solver.step({nullptr, &slow_watcher, {}, {}});
  EXPECT_GT(seen, 4);
  EXPECT_LT(rec.seconds, 0.1) << "the 200 ms the watcher held were counted as cycle time";
  EXPECT_GE(rec.seconds, 0.0);
}

TEST(LevelStats, CallsAndLaunchesPerLevelMatchThePaperAndTheCounter) {
  for (Smoother sm : {Smoother::Jacobi, Smoother::GaussSeidel, Smoother::XYZebra}) {
    for (int kappa : {1, 2, 3, kKappaW}) {
      const int n = 6;
      MultigridSettings s = settings(n);
      s.smoother = sm;
      CpuBackend backend(1);
      Multigrid<CpuBackend> mg(backend, s);
      mg.set_level_timing(true);
      backend.reset_launches();
      mg.cycle({CycleType::Kappa, kappa});
      std::uint64_t launches = 0;
      const int k = std::min(kappa, n);
      for (int l = 1; l <= n; ++l) {
        const LevelStats& st = mg.level(l).stats;
        EXPECT_EQ(st.calls, level_calls(k, l)) << "level " << l;
        // Above the coarsest level every call is launches_per_call launches; there one.
        const std::uint64_t per_call = l < n ? std::uint64_t(closed_form::launches_per_call(mg.settings())) : 1;
        EXPECT_EQ(st.launches, st.calls * per_call) << "level " << l << " smoother " << int(sm);
        launches += st.launches;
        if (l < n) {
          EXPECT_GT(st.seconds[std::size_t(Phase::Relax)], 0.0);
          EXPECT_EQ(st.seconds[std::size_t(Phase::CoarseSolve)], 0.0);
        } else {
          EXPECT_GT(st.seconds[std::size_t(Phase::CoarseSolve)], 0.0);
          EXPECT_EQ(st.seconds[std::size_t(Phase::Relax)], 0.0);
        }
      }
      EXPECT_EQ(launches, backend.launches());
      EXPECT_EQ(launches, launches_per_cycle(k, n, closed_form::launches_per_call(mg.settings())));
    }
  }
}

TEST(LevelStats, StayEmptyUnlessAskedFor) {
  CpuBackend backend(1);
  Multigrid<CpuBackend> mg(backend, settings(4));
  mg.cycle({CycleType::Kappa, 2});
  for (int l = 1; l <= 4; ++l) {
    EXPECT_EQ(mg.level(l).stats.calls, 0u);
    EXPECT_EQ(mg.level(l).stats.total_seconds(), 0.0);
  }
}

}  // namespace
}  // namespace kcycle

namespace kcycle {
namespace {

// A CPU backend that "records" cycles the way the CUDA backend does with graphs: it keeps the
// signatures it was asked to record and the owners it was told to forget.
class RecordingCpuBackend : public CpuBackend {
 public:
  using CpuBackend::CpuBackend;
  bool graphs() const { return true; }
  template <class Body>
  void run_as_graph(const CycleSignature& key, Body&& body) {
    recorded.push_back(key);
    body();
  }
  std::uint64_t new_recording_owner() { return ++owners; }
  void forget_recordings(std::uint64_t owner) { forgotten.push_back(owner); }
  std::vector<CycleSignature> recorded;
  std::vector<std::uint64_t> forgotten;
  std::uint64_t owners = 0;
};
static_assert(RecordsCycles<RecordingCpuBackend>);

// Issue 13: recordings were keyed by buffer addresses alone, so a second hierarchy of the same
// sizes whose buffers landed where the first one's were would replay the first one's graph
// (its stencils, its freed line factors and LU). Now each hierarchy has its own owner number
// in the key, and its recordings go with it.
TEST(CycleRecording, ASecondHierarchyNeverReplaysTheFirstsRecording) {
  RecordingCpuBackend backend(1);
  MultigridSettings s;
  s.levels = 4;
  s.tensor = rotated_anisotropic_tensor(1e-2, 30);
  s.smoother = Smoother::XYZebra;
  CycleSignature first;
  {
    Multigrid<RecordingCpuBackend> a(backend, s);
    a.cycle({CycleType::Kappa, 2});
    ASSERT_EQ(backend.recorded.size(), 1u);
    first = backend.recorded.back();
  }
  ASSERT_EQ(backend.forgotten.size(), 1u) << "the first hierarchy's recordings go with it";
  EXPECT_EQ(backend.forgotten.front(), first.front());
  s.tensor = rotated_anisotropic_tensor(0.5, 30);  // other stencils, same sizes
  Multigrid<RecordingCpuBackend> b(backend, s);
  b.cycle({CycleType::Kappa, 2});
  ASSERT_EQ(backend.recorded.size(), 2u);
  EXPECT_NE(backend.recorded.back(), first) << "even where the buffers' addresses repeat";
  EXPECT_NE(backend.recorded.back().front(), first.front());
}

}  // namespace
}  // namespace kcycle

namespace kcycle {
namespace {

// Issue 13: every publish of the CUDA backend's picture allocated a device buffer (and its
// reader freed it on the GUI thread). The pool hands a level's picture out again once no reader
// holds it: one allocation while readers let go, two while one holds a picture.
TEST(ImagePool, APublishAllocatesNothingOnceALevelHasItsPictures) {
  ImagePool<std::vector<float>> pool;
  const auto make = [] { return new std::vector<float>(63 * 63); };
  for (int k = 0; k < 100; ++k) {
    const std::shared_ptr<std::vector<float>> picture = pool.acquire(1, make);
    (*picture)[0] = float(k);
  }
  EXPECT_EQ(pool.made(), 1u);
  std::shared_ptr<const std::vector<float>> held = pool.acquire(1, make);  // a snapshot keeps it
  const auto other = pool.acquire(1, make);
  EXPECT_NE(other.get(), held.get()) << "a picture a reader holds is never written";
  EXPECT_EQ(pool.made(), 2u);
  held.reset();
  for (int k = 0; k < 100; ++k) pool.acquire(1, make);
  EXPECT_EQ(pool.made(), 2u);
  pool.acquire(2, make);  // another level, its own picture
  EXPECT_EQ(pool.made(), 3u);
  EXPECT_EQ(pool.all().size(), 3u) << "every picture made, to outlive the pool";
}

// Issue 29: interop's copy into the pixel buffer runs on the device after the UI thread has
// let go of the picture; reusing it then tore the frame. A picture whose reader's fence is
// not done is not handed out again, even with no reader holding it.
struct FencedPicture {
  std::vector<float> values = std::vector<float>(63 * 63);
  ReadFences readers;
};
struct TestFence final : ReadFence {
  std::atomic<bool> finished{false};
  bool done() const override { return finished; }
};

TEST(ImagePool, APictureIsNotWrittenAgainBeforeItsReadersCopyHasFinished) {
  ImagePool<FencedPicture> pool;
  const auto make = [] { return new FencedPicture; };
  const FencedPicture* first = nullptr;
  auto copy = std::make_shared<TestFence>();
  {
    std::shared_ptr<const FencedPicture> shown = pool.acquire(1, make);  // published, drawn
    first = shown.get();
    shown->readers.read_until(copy);  // the interop copy, still running
  }                                   // the UI let go of it
  const std::shared_ptr<FencedPicture> next = pool.acquire(1, make);
  EXPECT_NE(next.get(), first) << "the picture was handed out while its copy still read it";
  EXPECT_EQ(pool.made(), 2u);
  copy->finished = true;
  EXPECT_EQ(pool.acquire(1, make).get(), first) << "once the copy has finished, it is reused";
  EXPECT_EQ(pool.made(), 2u);
}

}  // namespace
}  // namespace kcycle
