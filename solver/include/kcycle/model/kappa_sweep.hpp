#pragma once
// Kappa tuning as the paper's Table 4.1 and Figure 4.1 do it: solve to the tolerance with
// each kappa at the same settings, and set the measured total times beside what the advisor
// predicted for each. `kcycle advise --verify` and the visualizer's sweep both run this.
#include <functional>
#include <string>
#include <vector>

#include "kcycle/model/advisor.hpp"
#include "kcycle/solve/solve.hpp"
#include "kcycle/solve/solver_options.hpp"

namespace kcycle {

// What one kappa's solves measured: the median of its round-robin solves (interleaved_solves.hpp).
struct KappaSweepRow {
  int kappa = 1;
  int iterations = 0;
  bool converged = false;
  double seconds_per_cycle = 0;  // median cycle-only time
  double seconds_total = 0;      // the iteration loop, norms included
  int solves = 0;                // how many solves the median is of
  double spread = 1;             // how their totals varied (summarize_timings: slowest tenth over fastest)
  // The median solve's iterations and its monitored norm at the start (the error's where known,
  // else the residual's): a curve to compare, as the visualizer pins it.
  std::vector<IterationRecord> history;
  double initial_norm = 0;
};

struct KappaSweep {
  SolverOptions options;            // what was swept (each row's cycle aside)
  Advice advice;                    // the prediction, one candidate per row
  std::vector<KappaSweepRow> rows;  // kappa = 1, 2, 3, 4, W
  int best_kappa = 1;               // the smallest measured total among the converged
  // The recommendation's measured total over the best one's, minus 1 (0: it picked the fastest).
  double recommendation_excess() const;
  // The converged kappas whose median total is within the noise of the best one's, the best
  // first: within the larger of the two rows' uncertainty of a median, half their spread's
  // range over the root of their solves ((spread - 1) / (2 sqrt(solves))), and at least 1%. One
  // kappa alone: the fastest stands apart; more: they tie (a sweep crowned a kappa 0.45% ahead
  // while another's solves varied 2.7x).
  std::vector<int> tied_with_best() const;
  // How much slower the machine ran while verifying than while advising: the median over the
  // kappas of a measured iteration's time over what the probes measured it at then
  // (KappaPrediction::measured_price); NaN without prices. The advice takes its level of time
  // from those probes (the models give only each kappa's share of it), so an error common to
  // every kappa by this much is the machine's change, not the model's: the build VM's
  // two-thread speed switched by 1.4-1.6x for seconds at a time, one thread's by 2%.
  double machine_drift() const;
  // What the terminal and the visualizer say of the machine under the sweep: the kappa whose
  // solves varied most, where over `unsteady_spread`, and the drift, where over 10% (with the
  // error it alone makes in every kappa). Empty where the machine held steady.
  std::vector<std::string> machine_notes(double unsteady_spread = RepeatPolicy{}.unsteady_spread) const;
};

// `progress(done, of, what)` as the work goes on (the GUI shows it).
KappaSweep sweep_kappa(const SolverOptions& options, const AdvisorSettings& advisor,
                       const std::function<void(int, int, const std::string&)>& progress = {});

// kappa,iterations,converged,seconds_per_cycle,seconds_total,predicted_seconds_total,
// predicted_low,predicted_high,predicted_iterations,best,solves,spread
// (predicted_low/high: the iteration estimate's band times the predicted time per iteration;
// solves: how many the median is of; spread: how they varied)
std::string kappa_sweep_csv(const KappaSweep& sweep);

}  // namespace kcycle
