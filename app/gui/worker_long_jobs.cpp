// The worker's long jobs: a calibration and a kappa sweep, run on its thread in place of
// the solve, stoppable, publishing their progress.
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

}  // namespace kcycle::gui
