#include "kcycle/model/interleaved_solves.hpp"
#include "kcycle/model/timing.hpp"

#include "kcycle/solve/multigrid.hpp"

#include <algorithm>
#include <stdexcept>

namespace kcycle {

bool wants_another_solve(const RepeatPolicy& policy, int solves, double seconds, double spread) {
  if (solves < policy.min_repeats) return true;
  if (solves >= policy.max_repeats) return false;
  return seconds < policy.min_seconds || (seconds < policy.unsteady_seconds && spread > policy.unsteady_spread);
}

std::vector<MedianSolve> median_of_interleaved_solves(const SolverOptions& options, const std::vector<int>& kappas,
                                                      const RepeatPolicy& policy, const std::vector<SolveResult>& first,
                                                      const std::function<void(int, int)>& after_each,
                                                      std::stop_token stop) {
  if (!first.empty() && first.size() != kappas.size())
    throw std::invalid_argument("median_of_interleaved_solves: one first result per kappa");
  std::vector<std::vector<SolveResult>> runs(kappas.size());
  std::vector<double> spent(kappas.size(), 0.0);
  for (std::size_t k = 0; k < first.size(); ++k) {
    runs[k].push_back(first[k]);
    spent[k] = first[k].seconds_total;
  }
  const auto spread = [&](std::size_t k) {
    std::vector<double> totals;
    for (const SolveResult& r : runs[k]) totals.push_back(r.seconds_total);
    return summarize_timings(std::move(totals)).spread;
  };
  const auto wants_more = [&](std::size_t k) {
    return wants_another_solve(policy, int(runs[k].size()), spent[k], runs[k].empty() ? 1.0 : spread(k));
  };
  for (bool any = true; any;) {  // one round: every kappa that wants another solve gets one
    any = false;
    for (std::size_t k = 0; k < kappas.size(); ++k) {
      if (!wants_more(k)) continue;
      SolverOptions o = options;
      o.cycle = {CycleType::Kappa, kappas[k]};
      SolveResult r =
          stop.stop_possible() ? solve(o, [&](const IterationRecord&) { return !stop.stop_requested(); }) : solve(o);
      if (stop.stop_requested()) throw CycleCancelled();
      spent[k] += r.seconds_total;
      runs[k].push_back(std::move(r));
      if (after_each) after_each(kappas[k], int(runs[k].size()));
      any = true;
    }
  }
  std::vector<MedianSolve> medians;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    std::vector<SolveResult>& r = runs[k];
    const double varied = spread(k);
    const auto middle = r.begin() + std::ptrdiff_t(r.size() / 2);
    std::nth_element(r.begin(), middle, r.end(),
                     [](const SolveResult& a, const SolveResult& b) { return a.seconds_total < b.seconds_total; });
    medians.push_back({std::move(*middle), int(r.size()), varied});
  }
  return medians;
}

}  // namespace kcycle
