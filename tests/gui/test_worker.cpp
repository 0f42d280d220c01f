// The worker hand-off on its own (no GL): run under ThreadSanitizer as well. The UI side
// reads snapshots while changing parameters as fast as it can.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <mutex>
#include <stdexcept>
#include <string_view>
#include <thread>

#include "calibration_cache.hpp"
#include "field_sizes.hpp"
#include "kcycle/solve/execution_target.hpp"
#include "kcycle/solve/resolved_run.hpp"
#include "solver_worker.hpp"

namespace kcycle::gui {
namespace {

SolverOptions small() {
  SolverOptions o;
  o.levels = 5;
  o.eps = 1e-2;
  o.cycle = {CycleType::Kappa, 2};
  o.max_iterations = 100000;
  o.tolerance = 1e-12;
  return o;
}

template <class Pred>
bool wait_for(const SolverWorker& w, Pred pred, double seconds = 30) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < until) {
    if (pred(*w.snapshot())) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return false;
}

// Until the worker holds, stepping, after operation `position` of the cycle.
bool holds_at(const SolverWorker& w, int position) {
  return wait_for(w, [&](const Snapshot& s) { return s.stepping && s.trace_position == position && s.field; });
}

// Asks the worker to draw `view`, without the Fourier inset (no test here looks at it).
void show(SolverWorker& w, ViewRequest view) {
  view.spectrum = false;
  w.set_view(view);
}

TEST(Worker, PublishesSnapshotsAndRestartsOnChange) {
  SolverWorker w(small(), 1);
  ASSERT_TRUE(wait_for(w, [](const Snapshot& s) { return s.history.size() >= 3 && s.field; }));
  SolverOptions o = small();
  o.levels = 6;
  const auto generation = w.set_options(o);
  ASSERT_TRUE(wait_for(w, [&](const Snapshot& s) { return s.generation == generation && s.history.size() >= 2; }));
  const auto snap = w.snapshot();
  EXPECT_EQ(snap->options.levels, 6);
  EXPECT_EQ(snap->field->nx, 63);
  ASSERT_TRUE(snap->cycle_trace);
  EXPECT_FALSE(snap->cycle_trace->empty());
}

TEST(Worker, RefusedParametersComeBackAsAnError) {
  SolverWorker w(small(), 1);
  SolverOptions o = small();
  o.eps = -1;
  const auto generation = w.set_options(o);
  ASSERT_TRUE(wait_for(w, [&](const Snapshot& s) { return s.generation == generation && !s.error.empty(); }));
  EXPECT_NE(w.snapshot()->error.find("eps must be in (0, 1]"), std::string::npos);
}

TEST(Worker, StepsOneOperationAtATime) {
  SolverWorker w(small(), 1, false);
  w.step_operation();
  ASSERT_TRUE(holds_at(w, 1));
  w.step_operation();
  ASSERT_TRUE(holds_at(w, 2));
  w.run();
  ASSERT_TRUE(wait_for(w, [](const Snapshot& s) { return !s.stepping && s.history.size() >= 2; }));
}

TEST(Worker, StepsAskedForBeforeTheWorkerWakesEachStopWhereTheirOwnKindSays) {
  // Ctrl+PageDown, Shift+PageDown, Ctrl+PageDown, faster than the worker takes them: the
  // cycle stops at its first call, then the sweep after it, then the second call, not at
  // three calls (each queued step keeps its own kind of stop; a busy machine queues them).
  SolverWorker w(small(), 1, false);
  w.step_cycle();
  ASSERT_TRUE(wait_for(w, [](const Snapshot& s) { return s.history.size() == 1 && !s.running && s.cycle_trace; }));
  const Trace& trace = *w.snapshot()->cycle_trace;
  ASSERT_EQ(trace.front().kind, OpKind::Call);
  std::size_t second_call = 1;
  while (second_call < trace.size() && trace[second_call].kind != OpKind::Call) ++second_call;
  ASSERT_LT(second_call, trace.size());
  ASSERT_EQ(trace[1].kind, OpKind::PreRelax) << "the first call's first sweep follows it";
  w.step_operation(SolverWorker::StepTo::Call);
  w.step_operation(SolverWorker::StepTo::Relaxation);
  w.step_operation(SolverWorker::StepTo::Call);
  const int expected = int(second_call) + 1;  // positions count from 1
  ASSERT_TRUE(holds_at(w, expected)) << "at operation " << w.snapshot()->trace_position << ", not " << expected;
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(w.snapshot()->trace_position, expected) << "and holds there";
}

TEST(Worker, StepBackReplaysToTheOperationBeforeWithTheSameField) {
  // Two cycles and three operations in; back one: the worker replays to operation 2 of cycle 3,
  // and the picture is the one operation 2 showed on the way forward.
  SolverWorker w(small(), 1, false);
  for (int k = 0; k < 2; ++k) w.step_cycle();
  ASSERT_TRUE(wait_for(w, [](const Snapshot& s) { return s.history.size() == 2 && !s.running; }));
  w.step_operation();
  w.step_operation();
  ASSERT_TRUE(holds_at(w, 2));
  const auto at_two = w.snapshot();
  w.step_operation();
  ASSERT_TRUE(holds_at(w, 3));
  const auto at_three = w.snapshot();
  w.step_back();
  ASSERT_TRUE(wait_for(w, [&](const Snapshot& s) {
    return s.generation > at_three->generation && s.stepping && s.trace_position == 2;
  }));
  const auto back = w.snapshot();
  EXPECT_EQ(back->history.size(), 2u) << "two whole cycles replayed";
  ASSERT_TRUE(back->field && at_two->field && at_three->field);
  EXPECT_EQ(back->field->values, at_two->field->values);
  EXPECT_NE(at_three->field->values, at_two->field->values) << "operation 3 (a relaxation) changed it";
}

TEST(Worker, AfterARestrictionTheFieldIsTheCoarseRightHandSide) {
  // Operation 4 of a 5-level cycle restricts level 1's residual to level 2. The picture must be
  // that right-hand side (full weighting of the residual picture at operation 3), not level
  // 2's correction (zero in the first cycle, the last cycle's leftover after it).
  SolverWorker w(small(), 1, false);
  ViewRequest residual;
  residual.residual = true;
  show(w, residual);
  w.step_cycle();  // from the second cycle on, level 2's correction is not zero
  ASSERT_TRUE(wait_for(w, [](const Snapshot& s) { return s.history.size() == 1 && !s.running; }));
  for (int k = 0; k < 3; ++k) w.step_operation();
  ASSERT_TRUE(holds_at(w, 3));
  const auto at_three = w.snapshot();
  ASSERT_EQ(at_three->field->level, 1);
  ASSERT_EQ(at_three->field->view, FieldView::Residual);
  w.step_operation();
  ASSERT_TRUE(holds_at(w, 4));
  const auto at_four = w.snapshot();
  ASSERT_EQ((*at_four->cycle_trace)[3].kind, OpKind::Restrict);
  const FieldImage& fine = *at_three->field;
  const FieldImage& coarse = *at_four->field;
  EXPECT_EQ(coarse.level, 2);
  EXPECT_EQ(coarse.view, FieldView::RightHandSide);
  ASSERT_EQ(coarse.nx, 15);
  ASSERT_EQ(fine.nx, 31);
  const auto r = [&](int i, int j) {  // the fine residual, zero on the boundary ring
    return i < 1 || j < 1 || i > fine.nx || j > fine.ny ? 0.0
                                                        : double(fine.values[std::size_t((j - 1) * fine.nx + (i - 1))]);
  };
  double worst = 0, largest = 0;
  for (int J = 1; J <= coarse.ny; ++J)
    for (int I = 1; I <= coarse.nx; ++I) {
      const int i = 2 * I, j = 2 * J;
      const double weighted = (r(i - 1, j - 1) + r(i + 1, j - 1) + r(i - 1, j + 1) + r(i + 1, j + 1) +
                               2 * (r(i, j - 1) + r(i, j + 1) + r(i - 1, j) + r(i + 1, j)) + 4 * r(i, j)) /
                              16;
      const double shown = coarse.values[std::size_t((J - 1) * coarse.nx + (I - 1))];
      worst = std::max(worst, std::abs(shown - weighted));
      largest = std::max(largest, std::abs(weighted));
    }
  ASSERT_GT(largest, 0.0);
  EXPECT_LE(worst, 1e-5 * largest) << "the restricted residual";
}

TEST(Worker, OnACoarseLevelTheFinestErrorAsTheCycleLeftItComesAlong) {
  // Operation 3 of a 5-level cycle is level 1's last pre-sweep, 4 its restriction: from there on,
  // while the cycle is on coarse levels, the snapshot carries level 1's error as operation 3
  // left it, bit for bit; before, none.
  SolverWorker w(small(), 1, false);
  show(w, ViewRequest{});
  for (int k = 0; k < 3; ++k) w.step_operation();
  ASSERT_TRUE(holds_at(w, 3));
  const auto at_three = w.snapshot();
  ASSERT_EQ(at_three->field->level, 1);
  EXPECT_FALSE(at_three->finest_left) << "the cycle has not left level 1 yet";
  for (int k = 0; k < 3; ++k) w.step_operation();
  ASSERT_TRUE(holds_at(w, 6));
  const auto at_six = w.snapshot();
  ASSERT_GT(at_six->field->level, 1);
  ASSERT_TRUE(at_six->finest_left);
  EXPECT_EQ(at_six->finest_left->level, 1);
  EXPECT_EQ(at_six->finest_left->values, at_three->field->values);
}

TEST(Worker, AtAProlongationTheBeforePictureIsTheFieldBeforeTheCoarseGridCorrection) {
  // Smoothing and coarse-grid correction as the two halves they are: at level 1's prolongation
  // the "before" picture is level 1 as the pre-smoothing left it (operation 3 of a 5-level
  // cycle), and the picture now differs from it by the correction.
  SolverWorker w(small(), 1, false);
  ViewRequest view;
  view.before_after = true;
  show(w, view);
  for (int k = 0; k < 3; ++k) w.step_operation();
  ASSERT_TRUE(holds_at(w, 3));
  const auto smoothed = w.snapshot();
  ASSERT_EQ(smoothed->field->level, 1);
  // On to level 1's prolongation: the cycle's last one.
  int position = 3;
  for (;;) {
    w.step_operation();
    ++position;
    ASSERT_TRUE(holds_at(w, position));
    const TraceEvent& e = (*w.snapshot()->cycle_trace)[std::size_t(position - 1)];
    if (e.kind == OpKind::Prolong && e.level == 1) break;
    ASSERT_LT(position, 500);
  }
  const auto corrected = w.snapshot();
  ASSERT_TRUE(corrected->phase_before);
  EXPECT_EQ(corrected->phase_before->level, 1);
  EXPECT_EQ(corrected->phase_before->values, smoothed->field->values);
  EXPECT_EQ(corrected->field->level, 1);
  EXPECT_NE(corrected->field->values, smoothed->field->values);
}

// The solves a worker made: the first throws mid-solve as the CUDA backend does on a device
// error (a std::runtime_error "CUDA: ...") at its third `where` ("cycle" or "picture"). Before
// the worker caught it, this ended the process.
struct FirstSolveFails {
  std::vector<BackendKind> asked;  // the backend each solve was made for
  std::mutex m;
  SolverFactory factory(std::string_view where) {
    return [this, where](const SolverOptions& o) {
      auto solver = std::make_unique<IterativeSolver>(o, make_problem(o));
      std::lock_guard lock(m);
      if (asked.empty())
        solver->inject_fault([where, calls = 0](std::string_view operation) mutable {
          if (operation == where && ++calls == 3)
            throw std::runtime_error("CUDA: " + std::string(where) + ": an illegal memory access was encountered");
        });
      asked.push_back(o.backend);
      return solver;
    };
  }
};

SolverOptions small_on(BackendKind backend) {
  SolverOptions o = small();
  o.backend = backend;
  return o;
}

TEST(Worker, ABackendErrorInACycleFallsBackToTheCpuAndSaysWhy) {
  FirstSolveFails made;
  const SolverOptions o = small_on(BackendKind::Auto);
  SolverWorker w(o, 1, true, made.factory("cycle"));
  ASSERT_TRUE(wait_for(w, [](const Snapshot& s) {
    return s.backend_note.find("illegal memory access") != std::string::npos && s.history.size() >= 3;
  })) << w.snapshot()->backend_note;
  const auto snap = w.snapshot();
  EXPECT_NE(snap->backend_note.find("solving on the CPU instead"), std::string::npos) << snap->backend_note;
  ASSERT_TRUE(snap->run);
  EXPECT_EQ(snap->run->target.backend, BackendKind::Cpu);
  EXPECT_TRUE(snap->error.empty()) << snap->error;
  EXPECT_EQ(snap->options.backend, BackendKind::Cpu);
  {
    std::lock_guard lock(made.m);
    ASSERT_EQ(made.asked.size(), 2u);
    EXPECT_EQ(made.asked[0], BackendKind::Auto);
    EXPECT_EQ(made.asked[1], BackendKind::Cpu);
  }
  // New parameters are a fresh start: the note goes (auto's own note, if any, stays).
  const auto generation = w.set_options(o);
  ASSERT_TRUE(wait_for(w, [&](const Snapshot& s) {
    return s.generation == generation && s.history.size() >= 2 && s.backend_note.find("failed") == std::string::npos;
  })) << w.snapshot()->backend_note;
}

TEST(Worker, ABackendErrorWhileDrawingFallsBackToo) {
  FirstSolveFails made;
  const SolverOptions o = small_on(BackendKind::Auto);
  SolverWorker w(o, 1, true, made.factory("picture"));
  ASSERT_TRUE(wait_for(w, [](const Snapshot& s) {
    return s.backend_note.find("picture: an illegal memory access") != std::string::npos && s.history.size() >= 2;
  })) << w.snapshot()->backend_note;
  ASSERT_TRUE(w.snapshot()->run);
  EXPECT_EQ(w.snapshot()->run->target.backend, BackendKind::Cpu);
}

TEST(Worker, ACpuSolveThatFailsSaysWhyAndTakesNewParameters) {
  FirstSolveFails made;
  const SolverOptions o = small_on(BackendKind::Cpu);
  SolverWorker w(o, 1, true, made.factory("cycle"));
  ASSERT_TRUE(wait_for(w, [](const Snapshot& s) { return !s.error.empty(); }));
  const auto failed = w.snapshot();
  EXPECT_NE(failed->error.find("cpu backend failed: CUDA: cycle: an illegal memory access"), std::string::npos)
      << failed->error;
  EXPECT_EQ(failed->error.find("instead"), std::string::npos) << "nothing to fall back to";
  const auto generation = w.set_options(o);
  ASSERT_TRUE(wait_for(w, [&](const Snapshot& s) {
    return s.generation == generation && s.error.empty() && s.history.size() >= 2;
  })) << w.snapshot()->error;
}

TEST(Worker, FiveHundredRapidChangesWhileReading) {
  SolverWorker w(small(), 1);
  std::uint64_t last = 0;
  for (int k = 0; k < 500; ++k) {
    SolverOptions o = small();
    o.levels = 3 + k % 5;
    o.cycle = {CycleType::Kappa, 1 + k % 4};
    o.smoother = k % 3 == 0 ? Smoother::XYZebra : Smoother::Jacobi;
    o.solver = k % 7 == 0 ? SolverKind::PCG : SolverKind::Multigrid;
    last = w.set_options(o);
    if (k % 50 == 0) w.step_operation();
    if (k % 50 == 25) w.run();
    const auto s = w.snapshot();  // read while the worker writes
    if (s->field) EXPECT_EQ(s->field->values.size(), std::size_t(s->field->nx) * std::size_t(s->field->ny));
  }
  w.run();
  ASSERT_TRUE(wait_for(w, [&](const Snapshot& s) { return s.generation == last && s.history.size() >= 1; }));
}

// The worker shows a calibration handed to it with its next snapshot. A frame that still sees
// the snapshot from before is no "first start with nothing cached": it must not start timing.
TEST(CalibrationCacheHandOver, ACachedCalibrationNotYetShownIsNoReasonToCalibrate) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "kcycle_worker_cache_test";
  std::filesystem::remove_all(dir);
  CalibrationCache cache(dir, /*auto_calibrate=*/true);
  const SolverOptions options = small();
  const MultigridSettings as_run = resolve(options, BackendKind::Cpu).settings;
  Calibration cached;
  cached.smoother = std::string(to_string(as_run.smoother));
  cached.coarsening = std::string(to_string(as_run.coarsening));
  cached.backend = "cpu";
  cached.threads = 1;
  cached.fused = CycleSchedule::per_call(as_run, kAsResolved).fuses_any();
  cached.model = {1e-6, 1e-9};
  std::filesystem::create_directories(dir);
  save_calibration(cached, cache.file_for(cached.smoother, cached.coarsening, "cpu", 1, cached.fused).string());

  SolverWorker worker(options, 1, /*start_running=*/false);
  Snapshot before;  // what the frames see until the worker publishes again
  before.options = options;
  before.run = std::make_shared<const ResolvedRun>(resolve(options, BackendKind::Cpu));  // the CPU
  before.threads = 1;
  UiState ui;
  cache.update(ui, worker, before);
  EXPECT_NE(ui.notice.find("calibration from the cache"), std::string::npos) << ui.notice;
  cache.update(ui, worker, before);
  EXPECT_EQ(ui.notice.find("first start"), std::string::npos) << ui.notice;
  ASSERT_TRUE(wait_for(worker, [](const Snapshot& s) { return s.calibration != nullptr; }));
  const auto shown = worker.snapshot();
  EXPECT_FALSE(shown->calibrating);
  EXPECT_EQ(shown->calibration->model.alpha, 1e-6);
  cache.update(ui, worker, *shown);  // it fits: nothing more to do
  EXPECT_EQ(ui.notice.find("first start"), std::string::npos) << ui.notice;
  std::filesystem::remove_all(dir);
}

// Issue 13: CUDA at 127^2, the CPU at 255^2 (a host upload: the texture alone grows), CUDA at
// 255^2. The pixel buffer is still 127^2 and must be reallocated; sizing it by the texture
// skipped that, the write failed its size check and interop stayed off for the rest of the run.
TEST(FieldSizes, ThePixelBufferFollowsTheDeviceImagesNotTheTexture) {
  FieldSizes sizes;
  EXPECT_TRUE(sizes.buffer_realloc(127, 127, false));  // CUDA at 127^2
  sizes.buffer_sized(127, 127);
  sizes.texture_sized(127, 127);
  EXPECT_FALSE(sizes.buffer_realloc(127, 127, true));
  EXPECT_TRUE(sizes.texture_resize(255, 255));  // the CPU at 255^2, from the host
  sizes.texture_sized(255, 255);
  EXPECT_TRUE(sizes.buffer_realloc(255, 255, true)) << "CUDA at 255^2 needs a 255^2 buffer";
  sizes.buffer_sized(255, 255);
  EXPECT_FALSE(sizes.texture_resize(255, 255));
  EXPECT_FALSE(sizes.buffer_realloc(255, 255, true));
  EXPECT_TRUE(sizes.buffer_realloc(255, 255, false)) << "unregistered: register again";
}

}  // namespace
}  // namespace kcycle::gui

namespace kcycle::gui {
namespace {

// When a picture's floats come to the host: always on a host backend; on the GPU only when
// something shows them, at once for a new view or a paused solver, else at most every 0.25 s.
TEST(HostCopyRule, CopiesOnlyWhatTheHostShowsAndThrottlesWhileRunning) {
  const HostCopyRule copy;  // (on_device, host_draws, wanted, running, since_last, same_view)
  EXPECT_TRUE(copy(false, false, false, true, 0.0, true)) << "a host backend draws in host memory anyway";
  EXPECT_TRUE(copy(true, true, false, true, 0.0, true)) << "interop cannot draw it: every picture";
  EXPECT_FALSE(copy(true, false, false, false, 10.0, false)) << "nothing on the host shows it";
  EXPECT_TRUE(copy(true, false, true, false, 0.0, true)) << "paused or stepping: every picture";
  EXPECT_TRUE(copy(true, false, true, true, 0.0, false)) << "another level or quantity: at once";
  EXPECT_FALSE(copy(true, false, true, true, 0.1, true)) << "running: not 0.1 s after the last copy";
  EXPECT_TRUE(copy(true, false, true, true, 0.25, true));
}

// The picture's range comes without its floats (the colour scale of a picture kept on the GPU),
// and equals the range of the floats when they are copied.
TEST(LevelPicture, ItsRangeNeedsNoHostCopy) {
  IterativeSolver solver(small(), make_problem(small()));
  solver.step();
  for (int level : {1, 3})
    for (FieldView view : {FieldView::Iterate, FieldView::Residual, FieldView::RightHandSide}) {
      if (level == 1 && view == FieldView::RightHandSide) continue;  // problem 0: f = 0 on the finest level
      std::vector<float> values;
      const IterativeSolver::LevelPicture with = solver.level_device_image(level, view, &values);
      const IterativeSolver::LevelPicture without = solver.level_device_image(level, view, nullptr);
      ASSERT_EQ(values.size(), solver.level_shape(level).unknowns());
      EXPECT_EQ(with.min, *std::min_element(values.begin(), values.end()));
      EXPECT_EQ(with.max, *std::max_element(values.begin(), values.end()));
      EXPECT_EQ(without.min, with.min);
      EXPECT_EQ(without.max, with.max);
      EXPECT_LT(with.min, with.max);
      EXPECT_FALSE(solver.pictures_on_device());
      EXPECT_EQ(with.device, nullptr);
    }
}

}  // namespace
}  // namespace kcycle::gui
