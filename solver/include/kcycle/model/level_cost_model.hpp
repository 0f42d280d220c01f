#pragma once
// The measured side of the run-time model: a cycle's time as the sum over its levels of the
// calls it makes there times what a call there costs,
//   t(kappa, n) = sum_l levelCalls(kappa, l) c_l(n),
// with c_l(n) the seconds per call on level l of an n-level hierarchy that the calibration's
// per-level timers measured (LevelStats, on the passes a normal cycle runs: a coarse tail's
// time is on its top level). One cost per level follows the caches, which the paper's single
// beta cannot: a level in L2 costs what it costs there, one in DRAM what it costs there. The
// paper's alpha/beta model stays beside it (cost_model.hpp).
#include <optional>
#include <vector>

#include "kcycle/model/cost_model.hpp"

namespace kcycle {

// The costs of an n-level hierarchy: each level's seconds per call, pooled over the kappas timed
// at n (each level's seconds over its calls, so the kappa that calls a level most weighs most).
struct LevelCosts {
  int levels = 0;
  std::vector<double> seconds_per_call;  // index l - 1
  // t(kappa, n) for this hierarchy, its coarsest level's calls made as `coarsest` says.
  double cycle_seconds(int kappa, CoarsestCalls coarsest = CoarsestCalls::Repeated) const;
};

// The costs at `levels` from the calibration's samples there that carry per-level timings, or
// nothing (none timed at that level count, or an older file).
std::optional<LevelCosts> level_costs(const Calibration& calibration, int levels);

// Each model's relative error (predicted - measured) / measured on one of the calibration's
// samples: the paper's against the fastest repetition it was fitted to, the per-level one
// against the median cycle (what a solve's cycles take); NaN where a model has no prediction.
double paper_model_error(const Calibration& calibration, const TimingSample& sample);
double level_model_error(const Calibration& calibration, const TimingSample& sample);

// The lowest and highest of an error over the calibration's samples (NaN: none).
struct ErrorRange {
  double low = 0, high = 0;
  int cases = 0;
};
ErrorRange error_range(const Calibration& calibration, double (*error)(const Calibration&, const TimingSample&));

}  // namespace kcycle
