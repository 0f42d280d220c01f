// The worker's snapshots: the field captured for the GUI and the immutable state it
// publishes each cycle (or operation, while stepping), which the panels read.
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
    s->run = solver_run_;
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

}  // namespace kcycle::gui
