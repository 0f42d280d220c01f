#pragma once
// The kappa advisor: for each candidate kappa, a short probe solve estimates the convergence
// factor; the calibration (its per-level costs, else the paper's alpha/beta model) or the
// probe's own timing gives the time per cycle; their product predicts the time to the
// tolerance, and the fastest kappa is recommended.
#include <optional>
#include <string>
#include <vector>

#include "kcycle/io/solver_options.hpp"
#include "kcycle/model/cost_model.hpp"

namespace kcycle {

struct KappaPrediction {
  int kappa = 1;
  int probe_iterations = 0;
  double factor = 0;           // asymptotic factor extrapolated from the probe
  double probe_reduction = 0;  // what the probe achieved
  bool converged_in_probe = false;
  double predicted_iterations = 0;  // to reach options.tolerance
  double seconds_per_iteration = 0;
  double predicted_seconds = 0;  // predicted_iterations * seconds_per_iteration
};

// Where the advice's time per iteration comes from.
enum class TimeSource {
  Probe,       // the probes' own median time per iteration
  LevelCosts,  // the calibration's per-level costs at this level count (level_cost_model.hpp)
  PaperModel,  // the calibration's alpha/beta model (and lambda on a process grid)
};
const char* to_string(TimeSource source);

struct Advice {
  std::vector<KappaPrediction> candidates;
  int recommended_kappa = 1;
  TimeSource time_source = TimeSource::Probe;
  std::string time_note;  // which model gave the time per iteration, and why that one
};

struct AdvisorSettings {
  std::vector<int> kappas = {1, 2, 3, 4, kKappaW};
  int probe_iterations = 40;               // cycles (or CG iterations) per probe
  std::optional<Calibration> calibration;  // stand-alone cycles only; CG adds vector work
};

// Runs the probes (each a real solve limited to probe_iterations) and predicts.
Advice advise(const SolverOptions& options, const AdvisorSettings& settings = {});

}  // namespace kcycle
