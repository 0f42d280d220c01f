#include "kcycle/model/level_cost_model.hpp"

#include <algorithm>
#include <cmath>

#include "kcycle/cycle/cycle_counts.hpp"

namespace kcycle {

double LevelCosts::cycle_seconds(int kappa, CoarsestCalls coarsest) const {
  const int k = std::min(kappa, levels);  // kappa >= levels: the W-cycle
  double seconds = 0;
  for (int l = 1; l <= levels; ++l)
    seconds += double(level_calls(k, l, levels, coarsest)) * seconds_per_call[std::size_t(l - 1)];
  return seconds;
}

std::optional<LevelCosts> level_costs(const Calibration& calibration, int levels) {
  std::vector<double> seconds(std::size_t(levels), 0.0), calls(std::size_t(levels), 0.0);
  bool any = false;
  for (const TimingSample& s : calibration.samples) {
    if (s.levels != levels || int(s.level_seconds.size()) != levels) continue;
    any = true;
    const int k = std::min(s.kappa, levels);
    for (int l = 1; l <= levels; ++l) {
      const double n = double(level_calls(k, l, levels, calibration.coarsest_calls));
      seconds[std::size_t(l - 1)] += s.level_seconds[std::size_t(l - 1)] * n;
      calls[std::size_t(l - 1)] += n;
    }
  }
  if (!any) return std::nullopt;
  LevelCosts costs{levels, std::vector<double>(std::size_t(levels), 0.0)};
  for (std::size_t k = 0; k < seconds.size(); ++k) costs.seconds_per_call[k] = seconds[k] / calls[k];
  return costs;
}

double paper_model_error(const Calibration& c, const TimingSample& s) {
  return s.seconds > 0 ? c.model.predict(s.launches, s.ops, s.messages) / s.seconds - 1.0 : NAN;
}

double level_model_error(const Calibration& c, const TimingSample& s) {
  const std::optional<LevelCosts> costs = level_costs(c, s.levels);
  return costs && s.median_seconds > 0 ? costs->cycle_seconds(s.kappa, c.coarsest_calls) / s.median_seconds - 1.0 : NAN;
}

ErrorRange error_range(const Calibration& c, double (*error)(const Calibration&, const TimingSample&)) {
  ErrorRange range;
  for (const TimingSample& s : c.samples) {
    const double e = error(c, s);
    if (!std::isfinite(e)) continue;
    range.low = range.cases == 0 ? e : std::min(range.low, e);
    range.high = range.cases == 0 ? e : std::max(range.high, e);
    ++range.cases;
  }
  return range;
}

}  // namespace kcycle
