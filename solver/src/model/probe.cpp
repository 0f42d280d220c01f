#include "kcycle/model/probe.hpp"

#include <cmath>
#include <vector>

#include "kcycle/model/run_clock.hpp"
#include "kcycle/solve/iterative_solver.hpp"

namespace kcycle {

namespace {

// One probe's solve, stepped from outside. The estimate is checked every 10th iteration from
// min_iterations on: its band within +-band and the estimate moved by at most `drift` over the
// last 20 iterations (the slowest components may take over late: the 9-level V-cycle's estimate
// still creeps up 1% every 20 cycles at 200). Where the rest of the solve would take under
// solve_below_seconds, it simply solves.
class SteppedProbe {
 public:
  SteppedProbe(const SolverOptions& options, const ProbeSettings& settings)
      : options_(options), settings_(settings), solver_(options, make_problem(options)) {}

  bool running() const { return running_ && solver_.running(); }

  // One iteration; `seconds` is what the probe's clock reads after it (the max_seconds cap).
  void step(double seconds) {
    solver_.step();
    const int k = int(solver_.history().size());
    if (k >= settings_.max_iterations) return stop();
    if (k >= 2 && std::isfinite(settings_.max_seconds) && seconds > settings_.max_seconds) return stop();
    if (k < settings_.min_iterations || k % 10 != 0) return;
    const IterationEstimate estimate = estimate_iterations(solver_.history(), remaining());
    estimates_.push_back(estimate.iterations);
    const std::size_t n = estimates_.size();
    const bool steady =
        n >= 3 && std::abs(estimates_[n - 1] - estimates_[n - 3]) <= settings_.drift * estimates_[n - 1];
    const double rest_seconds = (estimate.iterations - k) * solver_.result(false).seconds_per_iteration;
    if (steady && estimate.settled(settings_.band) && rest_seconds > settings_.solve_below_seconds) stop();
  }

  ProbeResult finish() const {
    ProbeResult out{solver_.result(), {}};
    const SolveResult& r = out.solve;
    if (r.converged())
      out.estimate = {double(r.iterations), double(r.iterations), double(r.iterations), r.mean_factor, false};
    else
      out.estimate = estimate_iterations(r.history, remaining());
    return out;
  }

 private:
  void stop() { running_ = false; }
  // The factor the monitored norm has still to fall by.
  double remaining() const {
    const SolveResult r = solver_.result(false);
    const double reduction = r.monitor == Monitor::Error ? r.error_reduction : r.residual_reduction;
    return options_.tolerance / reduction;
  }

  SolverOptions options_;
  ProbeSettings settings_;
  IterativeSolver solver_;
  std::vector<double> estimates_;  // at every 10th iteration from min_iterations on
  bool running_ = true;
};

}  // namespace

SolveResult probe_solve(const SolverOptions& options, const ProbeSettings& settings, IterationEstimate& estimate,
                        std::stop_token stop) {
  const RunClock clock(options);
  SteppedProbe probe(options, settings);
  while (probe.running()) {
    probe.step(clock.seconds());
    if (stop.stop_requested()) throw CycleCancelled();
  }
  ProbeResult r = probe.finish();
  estimate = r.estimate;
  return std::move(r.solve);
}

// A turn's iterations: the estimates are checked every 10th, and a hierarchy stays in the caches
// for the iterations after its first (a turn of one iteration each put jacobi 8's prices 22 %
// over the calibration's, the solves' own).
constexpr int kIterationsATurn = 10;

std::vector<ProbeResult> probe_in_turns(const std::vector<SolverOptions>& options, const ProbeSettings& settings,
                                        std::stop_token stop) {
  std::vector<ProbeResult> results;
  ProbeSettings each = settings;
  each.max_seconds = std::numeric_limits<double>::infinity();
  std::vector<std::unique_ptr<SteppedProbe>> probes;
  for (const SolverOptions& o : options) probes.push_back(std::make_unique<SteppedProbe>(o, each));
  for (bool any = true; any;) {
    any = false;
    for (auto& probe : probes)
      for (int i = 0; i < kIterationsATurn && probe->running(); ++i) {
        probe->step(0);
        if (stop.stop_requested()) throw CycleCancelled();
        any = true;
      }
  }
  for (const auto& probe : probes) results.push_back(probe->finish());
  return results;
}

}  // namespace kcycle
