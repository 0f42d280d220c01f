#include "kcycle/model/probe.hpp"

#include <cmath>
#include <vector>

#include "kcycle/model/run_clock.hpp"
#include "kcycle/solve/iterative_solver.hpp"

namespace kcycle {

// The estimate is checked every 10th iteration from min_iterations on: its band within +-band
// and the estimate moved by at most `drift` over the last 20 iterations (the slowest components
// may take over late: the 9-level V-cycle's estimate still creeps up 1% every 20 cycles at
// 200). Where the rest of the solve would take under solve_below_seconds, it simply solves.
SolveResult probe_solve(const SolverOptions& options, const ProbeSettings& settings, IterationEstimate& estimate,
                        std::stop_token stop) {
  const RunClock clock(options);
  IterativeSolver solver(options, make_problem(options));
  const auto remaining = [&] {
    const SolveResult r = solver.result(false);
    const double reduction = r.monitor == Monitor::Error ? r.error_reduction : r.residual_reduction;
    return options.tolerance / reduction;
  };
  std::vector<double> estimates;  // at every 10th iteration from min_iterations on
  while (solver.running()) {
    solver.step();
    if (stop.stop_requested()) throw CycleCancelled();
    const int k = int(solver.history().size());
    if (k >= settings.max_iterations) break;
    if (k >= 2 && std::isfinite(settings.max_seconds) && clock.seconds() > settings.max_seconds) break;
    if (k < settings.min_iterations || k % 10 != 0) continue;
    estimate = estimate_iterations(solver.history(), remaining());
    estimates.push_back(estimate.iterations);
    const std::size_t n = estimates.size();
    const bool steady = n >= 3 && std::abs(estimates[n - 1] - estimates[n - 3]) <= settings.drift * estimates[n - 1];
    const double rest_seconds = (estimate.iterations - k) * solver.result(false).seconds_per_iteration;
    if (steady && estimate.settled(settings.band) && rest_seconds > settings.solve_below_seconds) break;
  }
  const SolveResult r = solver.result();
  if (r.converged())
    estimate = {double(r.iterations), double(r.iterations), double(r.iterations), r.mean_factor, false};
  else
    estimate = estimate_iterations(r.history, remaining());
  return r;
}

}  // namespace kcycle
