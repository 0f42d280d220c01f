#pragma once
// A probe: a solve stepped only until the estimate of its iterations to the tolerance has
// settled (iteration_estimate.hpp), or it converged (then the count is exact). The advisor
// probes at the target size; the coarse forecast probes one or two levels below it.
#include <limits>
#include <memory>
#include <stop_token>
#include <vector>

#include "kcycle/model/iteration_estimate.hpp"
#include "kcycle/solve/solve.hpp"
#include "kcycle/solve/solver_options.hpp"

namespace kcycle {

struct ProbeSettings {
  // At least min_iterations, then on until the estimate's band is within +-band of it and the
  // estimate moved by at most `drift` over 20 iterations; at most max_iterations.
  int min_iterations = 40;
  int max_iterations = 600;
  double band = 0.05, drift = 0.005;
  // Where the rest of the solve would take under this many seconds, it simply solves: exact.
  double solve_below_seconds = 1.0;
  // A hard cap on the probe's time (a budget's share): it stops with its estimate then.
  double max_seconds = std::numeric_limits<double>::infinity();
};

// Runs the probe and returns its solve; `estimate` holds the iterations to the tolerance
// (exact where it converged). Throws CycleCancelled when `stop` is requested.
SolveResult probe_solve(const SolverOptions& options, const ProbeSettings& settings, IterationEstimate& estimate,
                        std::stop_token stop = {});

// A probe's solve and what it estimated.
struct ProbeResult {
  SolveResult solve;
  IterationEstimate estimate;
};

// Several probes stepped in turns, ten iterations of each running one before the next of any, so
// that their times share the machine's moments: on this 2-core VM one kappa's median cycle
// measured 0.34 ms in one probe and 0.49 ms in the next, more than the 5-10 % between the
// kappas a near-tie is about. Each stops by its own settings, but for max_seconds: no clock
// stops a probe here, so that a slower machine (or a sanitizer) changes what the turns take, not
// what they count. One result per options, in their order.
std::vector<ProbeResult> probe_in_turns(const std::vector<SolverOptions>& options, const ProbeSettings& settings,
                                        std::stop_token stop = {});

}  // namespace kcycle
