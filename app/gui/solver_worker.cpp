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
    solver_run_ = std::make_shared<const ResolvedRun>(solver_->run());
  } catch (const std::exception& e) {
    error_ = e.what();
  }
  setting_up_.clear();
  publish(solver_ != nullptr, 1, -1, false);
  last_publish_ = Clock::now();
}

}  // namespace kcycle::gui
