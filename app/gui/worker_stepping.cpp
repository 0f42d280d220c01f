// The worker's iterations: a cycle at a time, or operation by operation while stepping
// (held at each operation the view asks for), at the speed asked for.
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
