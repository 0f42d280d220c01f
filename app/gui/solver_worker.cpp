#include "solver_worker.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "kcycle/core/kernels.hpp"
#include "kcycle/model/timing.hpp"
#include "kcycle/solve/enum_names.hpp"
#include "kcycle/solve/execution_target.hpp"
#include "kcycle/solve/iterative_solver.hpp"
#include "kcycle/solve/resolved_run.hpp"

namespace kcycle::gui {

namespace {

using Clock = std::chrono::steady_clock;

}  // namespace

SolverWorker::SolverWorker(const SolverOptions& initial, int threads, bool start_running, SolverFactory make_solver)
    : options_(initial),
      mode_(start_running ? Mode::Running : Mode::Paused),
      threads_(threads),
      make_solver_(make_solver ? std::move(make_solver) : [](const SolverOptions& o) {
        return std::make_unique<IterativeSolver>(o, make_problem(o));
      }) {
  options_.threads = threads;
  options_.max_iterations = std::max(options_.max_iterations, 1);
  latest_ = std::make_shared<Snapshot>();
  thread_ = std::thread([this] { loop(); });
}

SolverWorker::~SolverWorker() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
    cancel_run_locked();
  }
  wake_.notify_all();
  thread_.join();
}

std::uint64_t SolverWorker::set_options(const SolverOptions& options) {
  std::lock_guard lock(mutex_);
  options_ = options;
  options_.threads = threads_;
  cancel_run_locked();
  wake_.notify_all();
  return generation_;
}

void SolverWorker::set_view(const ViewRequest& view) {
  std::lock_guard lock(mutex_);
  view_ = view;
  wake_.notify_all();
}

void SolverWorker::run() {
  std::lock_guard lock(mutex_);
  mode_ = Mode::Running;
  unpublished_ = true;
  wake_.notify_all();
}

void SolverWorker::pause() {
  std::lock_guard lock(mutex_);
  // Autoplay pauses where it is, inside the cycle, ready for the next single step.
  mode_ = mode_ == Mode::Autoplay ? Mode::StepOperation : Mode::Paused;
  pending_steps_.clear();
  unpublished_ = true;
  wake_.notify_all();
}

void SolverWorker::step_cycle() {
  std::lock_guard lock(mutex_);
  mode_ = Mode::StepCycle;
  pending_steps_.push_back(StepTo::Operation);  // a whole cycle: only the count matters
  wake_.notify_all();
}

void SolverWorker::step_operation(StepTo to) {
  std::lock_guard lock(mutex_);
  mode_ = Mode::StepOperation;
  pending_steps_.push_back(to);
  wake_.notify_all();
}

SolverWorker::StepTo SolverWorker::next_stop_locked() const {
  return pending_steps_.empty() ? StepTo::Operation : pending_steps_.front();
}

void SolverWorker::step_back() {
  std::lock_guard lock(mutex_);
  if (replay_in_flight_) {  // latest_ is not yet where that replay goes: go on from there
    ++queued_backs_;
    return;
  }
  step_back_locked();
}

void SolverWorker::replay_done_locked() {
  replay_in_flight_ = false;
  if (queued_backs_ == 0) return;
  --queued_backs_;
  step_back_locked();
}

void SolverWorker::step_back_locked() {
  if (!latest_ || !latest_->error.empty()) {
    queued_backs_ = 0;
    return;
  }
  const int cycles = int(latest_->history.size());
  ReplayTo to{cycles, latest_->stepping ? latest_->trace_position - 1 : -1};
  if (to.operations < 0) {  // between cycles: back into the last one, before its last operation
    if (cycles == 0 || !latest_->cycle_trace) return;
    to = {cycles - 1, int(latest_->cycle_trace->size()) - 1};
  }
  replay_requested_ = to;
  replay_in_flight_ = true;
  mode_ = Mode::StepOperation;
  pending_steps_.clear();
  cancel_run_locked();
  wake_.notify_all();
}

void SolverWorker::autoplay(double operations_per_second) {
  std::lock_guard lock(mutex_);
  autoplay_rate_ = std::max(0.0, operations_per_second);
  // Stopping autoplay holds the cycle at the operation it reached.
  mode_ = autoplay_rate_ > 0 ? Mode::Autoplay : Mode::StepOperation;
  pending_steps_.clear();
  unpublished_ = true;
  wake_.notify_all();
}

std::uint64_t SolverWorker::reset() {
  std::lock_guard lock(mutex_);
  cancel_run_locked();
  wake_.notify_all();
  return generation_;
}

void SolverWorker::set_speed(double cycles_per_second) {
  std::lock_guard lock(mutex_);
  speed_ = std::max(0.0, cycles_per_second);
  wake_.notify_all();
}

void SolverWorker::calibrate(int max_levels) {
  std::lock_guard lock(mutex_);
  calibrate_levels_ = max_levels;
  cancel_run_locked();  // the sweep uses the machine; the solve restarts afterwards
  wake_.notify_all();
}

void SolverWorker::sweep_kappa(int solves) {
  std::lock_guard lock(mutex_);
  sweep_requested_ = true;
  sweep_solves_ = solves;
  cancel_run_locked();  // the sweep uses the machine; the solve restarts afterwards
  wake_.notify_all();
}

void SolverWorker::stop_sweep() {
  std::lock_guard lock(mutex_);
  if (!sweeping_ && !sweep_requested_) return;
  sweep_requested_ = false;
  cancel_run_locked();  // the sweep's solves stop at their next iteration
  wake_.notify_all();
}

void SolverWorker::set_calibration(std::shared_ptr<const Calibration> calibration) {
  std::lock_guard lock(mutex_);
  calibration_ = std::move(calibration);
  unpublished_ = true;  // the idle worker shows it at once
  wake_.notify_all();
}

std::shared_ptr<const Snapshot> SolverWorker::snapshot() const {
  std::lock_guard lock(mutex_);
  return latest_;
}

void SolverWorker::cancel_run_locked() {
  restart_ = true;
  ++generation_;
  run_stop_.request_stop();  // the running cycle stops at its next call
}

bool SolverWorker::interrupted_locked() const { return stop_ || restart_ || generation_ != running_generation_; }

std::shared_ptr<const FieldImage> SolverWorker::capture(int level, bool running, std::optional<FieldView> shown) {
  auto image = std::make_shared<FieldImage>();
  ViewRequest view;
  {
    std::lock_guard lock(mutex_);
    view = view_;
  }
  level = std::clamp(level, 1, solver_->levels());
  const GridShape shape = solver_->level_shape(level);
  image->level = level;
  image->view = shown.value_or(view.residual ? FieldView::Residual : FieldView::Iterate);
  image->nx = shape.nx;
  image->ny = shape.ny;
  // Finest level: the error u - u_exact (the iterate itself for problem 0). Coarser levels:
  // the correction v being computed there. Or the residual f - A v of that level. On the
  // CUDA backend a kernel draws it on the device (for interop); its floats come to the host
  // only as HostCopyRule says.
  const std::array<int, 4> what{level, shape.nx, shape.ny, int(image->view)};
  const auto now = Clock::now();
  const bool on_device = device_images_ && solver_->pictures_on_device();
  const bool copy =
      HostCopyRule{}(on_device, view.host_draws, view.spectrum || view.host_values || view.before_after, running,
                     std::chrono::duration<double>(now - last_host_copy_).count(), what == last_host_view_);
  const IterativeSolver::LevelPicture picture =
      solver_->level_device_image(level, image->view, copy ? &image->values : nullptr);
  image->device = on_device ? picture.device : nullptr;
  image->min = picture.min;
  image->max = picture.max;
  if (copy) last_host_copy_ = now, last_host_view_ = what;
  if (view.spectrum && copy) image->spectrum = spectrum_(image->values, image->nx, image->ny);
  image->version = ++field_version_;
  return image;
}

void SolverWorker::publish(bool with_field, int field_level, int trace_position, bool stepping,
                           std::optional<FieldView> shown) {
  auto s = std::make_shared<Snapshot>();
  std::shared_ptr<const FieldImage> field;
  bool running;
  {
    std::lock_guard lock(mutex_);
    running = mode_ == Mode::Running;
  }
  if (solver_ && with_field) field = capture(field_level, running, shown);
  {
    std::lock_guard lock(mutex_);
    s->generation = running_generation_;
    s->options = options_;
    s->running = mode_ == Mode::Running;
    s->autoplay = mode_ == Mode::Autoplay ? autoplay_rate_ : 0.0;
    s->calibration = calibration_;
    s->compare_calibration = compare_calibration_;
    s->calibrating = calibrating_;
    s->calibration_note = calibration_note_;
    s->calibration_progress = calibration_progress_;
    s->kappa_sweep = kappa_sweep_;
    s->kappa_sweeps = kappa_sweeps_;
    s->sweeping = sweeping_;
    s->sweep_note = sweep_note_;
    s->field = field ? field : latest_->field;
  }
  s->error = error_;
  s->setting_up = setting_up_;
  // The predictions without solving, made on their own thread (asked for once per run and
  // calibration; shown once they are there: the result wakes the worker).
  if (s->error.empty() && s->setting_up.empty() &&
      (predictions_generation_ != s->generation || predictions_calibration_ != s->calibration)) {
    predictions_generation_ = s->generation;
    predictions_calibration_ = s->calibration;
    predictions_.request(s->generation, s->options, s->calibration);
  }
  if (const auto p = predictions_.latest(); p && p->generation == s->generation && p->calibration == s->calibration) {
    s->lfa_prediction = p->lfa;
    s->lfa_maps = p->lfa_maps;
    s->predicted_kappas = p->kappas;
    s->predicted_kappas_note = p->kappas_note;
  }
  if (!setting_up_.empty()) s->field = nullptr;  // the old run's picture is not this one's
  s->threads = threads_;
  if (solver_) {
    s->target = solver_->target();
    s->backend_note = solver_->backend_note();
  }
  if (!failure_note_.empty()) s->backend_note = failure_note_;
  s->stepping = stepping;
  if (stepping) s->phase_before = phase_before_, s->finest_left = finest_left_;
  s->trace_position = trace_position;
  s->cycle_trace = last_trace_;
  if (solver_) {
    const SolveResult r = solver_->result(false);
    s->status = r.status;
    s->message = r.message;
    s->history = history_;
    s->initial_error = r.initial_error;
    s->initial_residual = r.initial_residual;
    s->options = solver_->options();
  } else {
    // Being set up, the run has not started (nor stopped: a script's wait-done waits on).
    s->status = setting_up_.empty() ? SolveStatus::Cancelled : SolveStatus::Running;
    s->message = setting_up_.empty() ? error_ : setting_up_;
  }
  if (!recent_seconds_.empty()) {
    const TimingSpread recent = summarize_timings(recent_seconds_);
    s->seconds_per_cycle = recent.median;
    s->fastest_seconds_per_cycle = recent.fastest;
    s->cycle_time_spread = recent.spread;
  }
  std::lock_guard lock(mutex_);
  latest_ = std::move(s);
}

void SolverWorker::publish_idle() {
  ViewRequest view;
  {
    std::lock_guard lock(mutex_);
    view = view_;
  }
  publish(true, view.level, -1, false);
  last_publish_ = Clock::now();
}

void SolverWorker::loop() {
  last_publish_ = Clock::now() - std::chrono::seconds(1);
  for (;;) {
    const Work work = next_work();
    if (work.kind == Work::Stop) {
      solver_.reset();
      retired_pictures_.clear();
      return;
    }
    try {
      if (work.kind == Work::Rebuild) {
        if (work.calibrate_levels > 0) run_calibration(work.options, work.calibrate_levels);
        // A stopped sweep was stopped by a new request (parameters, Reset, closing): the next
        // work is that, not a set-up for the parameters it replaced (seconds at 12 levels).
        if (work.sweep_kappa && !run_kappa_sweep(work.options, work.sweep_solves, work.stop)) continue;
        rebuild(work.options);
        replaying_ = work.replay.value_or(ReplayTo{});
      } else if (work.kind == Work::Publish) {
        publish_idle();
      } else {
        iterate();
      }
    } catch (const std::exception& e) {
      backend_failed(e);
    }
    std::erase_if(retired_pictures_, [](const auto& p) { return p.use_count() == 1; });
  }
}

void SolverWorker::retire_solver() {
  if (!solver_) return;
  const auto pictures = solver_->device_pictures();
  retired_pictures_.insert(retired_pictures_.end(), pictures.begin(), pictures.end());
  solver_.reset();
}

void SolverWorker::backend_failed(const std::exception& e) {
  const std::string backend = solver_ ? std::string(to_string(solver_->target().backend)) : "the";
  SolverOptions options;
  {
    std::lock_guard lock(mutex_);
    options = options_;
  }
  // Whatever the device's state now, this solve is over. One not asked to run on the CPU
  // starts again there; one that was shows why it stopped and waits for new parameters.
  const bool fall_back = options.backend != BackendKind::Cpu;
  failure_note_ = backend + " backend failed: " + e.what() + (fall_back ? "; solving on the CPU instead" : "");
  retire_solver();
  if (fall_back) {
    options.backend = BackendKind::Cpu;
    std::lock_guard lock(mutex_);
    options_ = options;
    cancel_run_locked();  // next_work() rebuilds on the CPU
    failure_generation_ = generation_;
    return;
  }
  error_ = failure_note_;
  try {
    publish(false, 1, -1, false);
  } catch (const std::exception&) {  // nothing of the failed solve is left to draw
  }
}

SolverWorker::Work SolverWorker::next_work() {
  std::unique_lock lock(mutex_);
  for (;;) {
    if (stop_) return {Work::Stop, {}, 0, false, 0, {}, {}};
    if (restart_) {
      restart_ = false;
      running_generation_ = generation_;
      run_stop_ = std::stop_source();
      Work work{Work::Rebuild, options_,          calibrate_levels_,    sweep_requested_,
                sweep_solves_, replay_requested_, run_stop_.get_token()};
      // No replay (new parameters, Reset), or one back to the very start (nothing to run, and
      // nothing before it): no step back waits on it.
      if (!replay_requested_ || (replay_requested_->cycles == 0 && replay_requested_->operations <= 0))
        replay_in_flight_ = false, queued_backs_ = 0;
      replay_requested_.reset();
      calibrate_levels_ = 0;
      calibrating_ = work.calibrate_levels > 0;
      sweep_requested_ = false;
      sweeping_ = work.sweep_kappa;
      return work;
    }
    const bool replaying = replaying_.cycles > 0 || replaying_.operations > 0;
    if (solver_ && solver_->running() &&
        (mode_ == Mode::Running || mode_ == Mode::Autoplay || !pending_steps_.empty() || replaying))
      return {};
    if (unpublished_) {
      unpublished_ = false;
      return {Work::Publish, {}, 0, false, 0, {}, {}};
    }
    wake_.wait_for(lock, std::chrono::milliseconds(50));
  }
}

void SolverWorker::run_calibration(const SolverOptions& options, int max_levels) {
  CalibrationSweep sweep;
  sweep.min_levels = 3;
  sweep.max_levels = max_levels;
  ResolvedRun run;
  try {
    run = resolve(options);
  } catch (const std::exception&) {
    run = resolve(options, BackendKind::Cpu);  // the solve after it reports why
  }
  run.target.threads = threads_;
  sweep.target = run.target;
  sweep.policy.min_seconds = 0.05;
  std::string note;
  std::shared_ptr<const Calibration> result;
  const int cases = (max_levels - sweep.min_levels + 1) * 5;  // kappa = 1, 2, 3, 4, W per level count
  int done = 0;
  auto progress = [&](const TimingSample& s) {  // shown while the sweep runs
    {
      std::lock_guard lock(mutex_);
      ++done;
      calibration_progress_ = double(done) / double(cases);
      calibration_note_ = "timed " + std::to_string(done) + " of " + std::to_string(cases) +
                          " cases (last: " + std::to_string(s.levels) + " levels, kappa=" + kappa_to_string(s.kappa) +
                          ")";
    }
    publish(false, 1, -1, false);
  };
  try {
    {
      std::lock_guard lock(mutex_);
      calibration_progress_ = 0.0;
      calibration_note_ = "timed 0 of " + std::to_string(cases) + " cases";
    }
    publish(false, 1, -1, false);
    result = std::make_shared<Calibration>(kcycle::calibrate(run.settings, sweep, progress));
    note = "calibrated on levels 3.." + std::to_string(max_levels);
  } catch (const std::exception& e) {
    note = std::string("calibration failed: ") + e.what();
  }
  std::lock_guard lock(mutex_);
  // A calibration of another backend (say CUDA with graphs, then without) stays beside the
  // new one, so the time plot compares the two models.
  if (result && calibration_ && calibration_->backend != result->backend) compare_calibration_ = calibration_;
  if (result) calibration_ = result;
  calibrating_ = false;
  calibration_note_ = note;
}

bool SolverWorker::run_kappa_sweep(const SolverOptions& options, int solves, std::stop_token stop) {
  // The calibration in use prices the cycles only if it was made for this cycle, backend and
  // thread count; else the probes do, and the table says why.
  AdvisorSettings advisor;
  advisor.stop = stop;
  if (solves > 0) advisor.repeats = {solves, 0.0, solves};
  std::string mismatch;
  {
    std::lock_guard lock(mutex_);
    if (calibration_) {
      ResolvedRun run;
      try {
        run = resolve(options);
      } catch (const std::exception&) {
        run = resolve(options, BackendKind::Cpu);  // the solve reports why
      }
      run.target.threads = threads_;
      mismatch = calibration_mismatch(*calibration_, run.settings, describe(run.target), threads_);
      if (mismatch.empty()) advisor.calibration = *calibration_;
    }
  }
  auto progress = [&](int done, int of, const std::string& what) {
    {
      std::lock_guard lock(mutex_);
      sweep_note_ = std::to_string(done) + " of " + std::to_string(of) + ": " + what;
    }
    publish(false, 1, -1, false);
  };
  std::shared_ptr<const KappaSweep> result;
  std::string note;
  bool stopped = false;
  try {
    KappaSweep sweep = kcycle::sweep_kappa(options, advisor, progress);
    if (!mismatch.empty())
      sweep.advice.time_note += " (the calibration in use was left out: " + mismatch + "; press Calibrate)";
    result = std::make_shared<KappaSweep>(std::move(sweep));
  } catch (const CycleCancelled&) {
    stopped = true;
    note = "kappa sweep stopped before its end: nothing measured is kept";
  } catch (const std::exception& e) {
    note = std::string("kappa sweep failed: ") + e.what();
  }
  std::lock_guard lock(mutex_);
  if (result) kappa_sweep_ = result;
  if (!stopped) ++kappa_sweeps_;  // a script waiting for this sweep's rows keeps waiting
  sweeping_ = false;
  sweep_note_ = note;
  return !stopped;
}

void SolverWorker::rebuild(const SolverOptions& options) {
  if (running_generation_ != failure_generation_) failure_note_.clear();  // new parameters: a fresh start
  retire_solver();
  history_ = {};
  last_trace_.reset();
  phase_start_candidate_.reset();
  phase_before_.reset();
  correction_start_.clear();
  finest_left_.reset();
  recent_seconds_.clear();
  error_.clear();
  // A hierarchy of millions of unknowns takes seconds to build (20-30 s at 13 levels): say so
  // at once rather than showing the old run. Small ones are built within a frame: no flash.
  if (options.levels >= kAnnouncedSetUpLevels && options.levels <= 16) {
    const double side = double((1 << options.levels) - 1);
    char note[160];
    std::snprintf(note, sizeof note, "setting up %d levels: %.1fM unknowns on the finest grid", options.levels,
                  side * side / 1e6);
    setting_up_ = note;
    publish(false, 1, -1, false);
  }
  try {
    solver_ = make_solver_(options);
  } catch (const std::exception& e) {
    error_ = e.what();
  }
  setting_up_.clear();
  publish(solver_ != nullptr, 1, -1, false);
  last_publish_ = Clock::now();
}

namespace {

// Whether a step to `to` stops after operation e.
bool stops_at(SolverWorker::StepTo to, const TraceEvent& e) {
  switch (to) {
    case SolverWorker::StepTo::Operation: return true;
    case SolverWorker::StepTo::Relaxation: return e.kind == OpKind::PreRelax || e.kind == OpKind::PostRelax;
    case SolverWorker::StepTo::Call: return e.kind == OpKind::Call;
  }
  return true;
}

// The first sweep of a relaxation phase: the operation before it is the call entry (pre) or
// the prolongation (post) on the same level, never a sweep.
bool starts_phase(const Trace& trace) {
  const TraceEvent& e = trace.back();
  if (e.kind != OpKind::PreRelax && e.kind != OpKind::PostRelax) return false;
  return trace.size() < 2 || trace[trace.size() - 2].kind != e.kind;
}

}  // namespace

void SolverWorker::hold_operation(const TraceEvent& e, const std::shared_ptr<Trace>& trace, int position,
                                  const ViewRequest& view, bool hold, bool replay_done) {
  std::unique_lock lock(mutex_);
  if (interrupted_locked()) throw CycleCancelled();
  const Mode mode = mode_;
  if (mode != Mode::StepOperation && mode != Mode::Autoplay) return;  // "run" or "cycle" pressed meanwhile: go on
  const bool stop_here = mode == Mode::Autoplay || stops_at(next_stop_locked(), e);
  lock.unlock();
  // Before/after: a relaxation phase starts from the field the call entry (pre-smoothing) or
  // the prolongation (post-smoothing) just left on its level; the coarse-grid correction (shown
  // at its prolongation) from the field its restriction found there, after the pre-smoothing.
  // The finest level's error as the cycle leaves it for the coarse levels, whose pictures show it
  // small beside theirs.
  if (view.follow_cycle && e.kind == OpKind::Restrict && e.level == 1) finest_left_ = capture(1);
  if (view.before_after) {
    if (e.kind == OpKind::Restrict) {
      correction_start_.resize(std::max(correction_start_.size(), std::size_t(e.level) + 1));
      correction_start_[std::size_t(e.level)] = capture(e.level);
    }
    if (e.kind == OpKind::Prolong && std::size_t(e.level) < correction_start_.size())
      phase_before_ = correction_start_[std::size_t(e.level)];
    if (e.kind == OpKind::Call || e.kind == OpKind::Prolong)
      phase_start_candidate_ = capture(e.level);
    else if (starts_phase(*trace))
      phase_before_ = phase_start_candidate_;
  }
  if (!stop_here || !hold) return;
  last_trace_ = std::make_shared<Trace>(*trace);
  // A restriction writes the coarse level's right-hand side: that is what it shows (its
  // correction is still last cycle's, or zero).
  const bool restricted = view.follow_cycle && e.kind == OpKind::Restrict;
  publish(true, view.follow_cycle ? level_written(e) : view.level, position, true,
          restricted ? std::optional(FieldView::RightHandSide) : std::nullopt);
  lock.lock();
  if (replay_done) replay_done_locked();  // a queued step back cancels this hold at once
  if (mode == Mode::Autoplay) {           // wait out this operation's time slot, or a change of mode or rate
    const double rate = autoplay_rate_;
    wake_.wait_for(lock, std::chrono::duration<double>(1.0 / rate),
                   [&] { return interrupted_locked() || mode_ != Mode::Autoplay || autoplay_rate_ != rate; });
  } else {
    if (!pending_steps_.empty()) pending_steps_.pop_front();
    wake_.wait(lock, [&] { return interrupted_locked() || !pending_steps_.empty() || mode_ != Mode::StepOperation; });
  }
  if (interrupted_locked()) throw CycleCancelled();
}

void SolverWorker::iterate() {
  Mode mode;
  double speed;
  ViewRequest view;
  std::stop_token stop;
  {
    std::lock_guard lock(mutex_);
    mode = mode_;
    speed = speed_;
    view = view_;
    stop = run_stop_.get_token();
  }
  auto trace = std::make_shared<Trace>();
  int position = 0;
  // A replay's whole cycles run unwatched and unpublished; then its last cycle passes the
  // operations before the one it holds at.
  const bool replayed_cycle = replaying_.cycles > 0;
  if (replayed_cycle) --replaying_.cycles;
  // Only a cycle stepped operation by operation is watched; every other one runs unobserved.
  OpObserver watch;
  if (!replayed_cycle && (mode == Mode::StepOperation || mode == Mode::Autoplay))
    watch = [&](const TraceEvent& e) {
      const bool replay_done = replaying_.operations > 0 && position + 1 >= replaying_.operations;
      const bool hold = ++position >= replaying_.operations;
      if (hold) replaying_.operations = 0;
      hold_operation(e, trace, position, view, hold, replay_done);
    };
  const auto t0 = Clock::now();
  try {
    history_.push_back(solver_->step({trace.get(), &watch, stop, {}}));
  } catch (const CycleCancelled&) {
    return;  // a restart or stop is pending; next_work() picks it up
  }
  recent_seconds_.push_back(history_.back().seconds);
  if (recent_seconds_.size() > 21) recent_seconds_.erase(recent_seconds_.begin());
  last_trace_ = trace;
  {
    std::lock_guard lock(mutex_);
    // The cycle's end is a step of its own, except for a step on to the next sweep or call,
    // which goes on into the next cycle.
    const bool ends_step =
        mode_ == Mode::StepCycle || (mode_ == Mode::StepOperation && next_stop_locked() == StepTo::Operation);
    if (ends_step && !pending_steps_.empty()) pending_steps_.pop_front();
  }
  const bool replay_goes_on = replaying_.cycles > 0 || replaying_.operations > 0;
  const bool due = !replay_goes_on && (Clock::now() - last_publish_ > std::chrono::milliseconds(15) ||
                                       mode != Mode::Running || !solver_->running());
  if (due) {
    publish(true, view.level, -1, false);
    last_publish_ = Clock::now();
    if (replayed_cycle && !replay_goes_on) {  // a replay to the end of a cycle is there
      std::lock_guard lock(mutex_);
      replay_done_locked();
    }
  } else {
    std::lock_guard lock(mutex_);
    unpublished_ = true;
  }
  if (!replayed_cycle) throttle(t0, speed);
}

void SolverWorker::throttle(Clock::time_point cycle_start, double speed) {
  if (speed <= 0) return;  // as fast as possible
  // Teaching speed: wait out the rest of this cycle's time slot.
  const auto slot = std::chrono::duration<double>(1.0 / speed);
  std::unique_lock lock(mutex_);
  wake_.wait_until(lock, cycle_start + std::chrono::duration_cast<Clock::duration>(slot),
                   [&] { return interrupted_locked() || speed_ != speed; });
}

}  // namespace kcycle::gui
