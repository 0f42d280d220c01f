#pragma once
// Timing several kappas' solves against each other on a busy machine. One short solve's time
// varied by up to 30% between runs on the build machines, and the load drifts over seconds: a
// kappa timed while another process ran looked slower than one timed a second later. So the
// solves go round-robin (kappa 1, 2, ..., W, then again) and each kappa's median is kept: a
// burst of load falls on every kappa alike, not on the one being timed.
#include <functional>
#include <stop_token>
#include <vector>

#include "kcycle/solve/solve.hpp"
#include "kcycle/solve/solver_options.hpp"

namespace kcycle {

// Load on the build machines came in bursts of seconds: with three solves a kappa, a burst over
// two of them moved a median by up to 50% (10 levels, MGCG); five and a second each bound it.
struct RepeatPolicy {
  int min_repeats = 5;       // solves per kappa, at least
  double min_seconds = 1.0;  // and at least this long spent on each kappa ...
  int max_repeats = 15;      // ... up to this many solves
  // A kappa whose solves vary by more than this (summarize_timings' spread: the slowest tenth
  // over the fastest) gets more, up to
  // max_repeats and unsteady_seconds: the build VM's two-thread speed switched by 1.4-1.6x for
  // seconds at a time, and a median of five could fall in either speed.
  double unsteady_spread = 1.3;
  double unsteady_seconds = 3.0;
};

// Whether a kappa with `solves` solves so far, `seconds` spent on them, which varied `spread`,
// gets another.
bool wants_another_solve(const RepeatPolicy& policy, int solves, double seconds, double spread);

struct MedianSolve {
  SolveResult result;  // the solve of median total time, with its history (the visualizer pins it)
  int solves = 0;      // of how many
  double spread = 1;   // how their totals varied (summarize_timings)
};

// Solves `options` with each cycle in `kappas` round-robin until every one has its repeats;
// returns the median solve per kappa. `first` (optional): results already obtained, one per
// kappa, counted as each kappa's first solve. `after_each(kappa, solves)` after every solve.
// A stop requested on `stop` ends the solve under way after its iteration and throws
// CycleCancelled (a sweep at 10 levels would otherwise hold its caller for minutes).
std::vector<MedianSolve> median_of_interleaved_solves(const SolverOptions& options, const std::vector<int>& kappas,
                                                      const RepeatPolicy& policy = {},
                                                      const std::vector<SolveResult>& first = {},
                                                      const std::function<void(int, int)>& after_each = {},
                                                      std::stop_token stop = {});

}  // namespace kcycle
