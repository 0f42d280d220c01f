#pragma once
// Kappa tuning as the paper's Table 4.1 and Figure 4.1 do it: solve to the tolerance with
// each kappa at the same settings, and set the measured total times beside what the advisor
// predicted for each (its short probes and, for stand-alone cycles, the calibrated model).
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "kcycle/io/solver_options.hpp"
#include "kcycle/model/cost_model.hpp"

namespace kcycle {

struct KappaSweepRow {
  int kappa = 1;
  int iterations = 0;
  bool converged = false;
  double seconds_per_cycle = 0;        // median cycle-only time
  double seconds_total = 0;            // the iteration loop, norms included
  double predicted_seconds_total = 0;  // the advisor's prediction (NaN where it has none)
};

struct KappaSweep {
  std::vector<KappaSweepRow> rows;  // kappa = 1, 2, 3, 4, W
  int best_kappa = 1;               // the smallest measured total among the converged
};

// `progress(done, of, what)` after each solve (the GUI shows it).
KappaSweep sweep_kappa(const SolverOptions& options, const std::optional<Calibration>& calibration,
                       const std::function<void(int, int, const std::string&)>& progress = {});

// kappa,iterations,converged,seconds_per_cycle,seconds_total,predicted_seconds_total,best
std::string kappa_sweep_csv(const KappaSweep& sweep);

}  // namespace kcycle
