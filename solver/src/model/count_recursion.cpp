#include "kcycle/model/count_recursion.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "kcycle/core/least_squares_line.hpp"
#include "kcycle/cycle/cycle_counts.hpp"

namespace kcycle {

double coarse_calls_count(double same, double less) { return less > 0 ? same * less / (same + less) : same; }

std::optional<CountRecursion> fit_count_recursion(const std::vector<double>& coarse,
                                                  const std::vector<double>& counts) {
  const std::optional<Line> line = least_squares_line(coarse, counts);
  if (!line || !(line->slope > 0)) return std::nullopt;
  return CountRecursion{line->intercept, line->slope};
}

namespace {

// The solve's count of `f` at `levels`; 0 where it holds none.
double solved_at(const CoarseForecast& f, int levels) {
  for (std::size_t j = 0; j < f.levels.size(); ++j)
    if (!f.probed[j] && f.levels[j] == levels) return f.iterations[j];
  return 0;
}

int last_solved_level(const CoarseForecast& f) {
  int last = 0;
  for (std::size_t j = 0; j < f.levels.size(); ++j)
    if (!f.probed[j]) last = std::max(last, f.levels[j]);
  return last;
}

// The level of f's probe; 0 where it has none.
int probe_level(const CoarseForecast& f) {
  if (!has_probe(f)) return 0;
  for (std::size_t j = f.levels.size(); j-- > 0;)
    if (f.probed[j]) return f.levels[j];
  return 0;
}

double probe_count(const CoarseForecast& f) {
  for (std::size_t j = f.levels.size(); j-- > 0;)
    if (f.probed[j]) return f.iterations[j];
  return 0;
}

// What the kappa-cycle with `counter` counts on a hierarchy of `levels`, from a forecast whose
// kappa leaves the same iterates there (same_iterates_counter: any counter >= levels - 1 leaves
// the W-cycle's); 0 where none does.
double count_of(const std::vector<CoarseForecast>& forecasts, const std::vector<int>& kappas, int counter, int levels) {
  for (std::size_t j = 0; j < forecasts.size(); ++j)
    if (forecasts[j].converged && same_iterates_counter(kappas[j], levels) == same_iterates_counter(counter, levels))
      if (const double n = solved_at(forecasts[j], levels); n > 0) return n;
  return 0;
}

// H of `kappa` at `levels`: its two coarse calls' solved counts one level down; 0 where one is missing.
double coarse_calls_at(const std::vector<CoarseForecast>& forecasts, const std::vector<int>& kappas, int kappa,
                       int levels) {
  const double same = count_of(forecasts, kappas, kappa, levels - 1);
  if (same <= 0 || kappa == 1) return same;
  const double less = count_of(forecasts, kappas, kappa - 1, levels - 1);
  return less > 0 ? coarse_calls_count(same, less) : 0;
}

}  // namespace

std::vector<Placement> place_by_recursion(std::vector<CoarseForecast>& forecasts, const std::vector<int>& kappas,
                                          const SolverOptions& target) {
  std::vector<Placement> placement(forecasts.size(), Placement::Unavailable);
  const std::vector<CoarseForecast> before = forecasts;  // the anchors: probes, not placed points
  const auto usable = [&](std::size_t j) { return before[j].converged && !before[j].levels.empty(); };
  int top = 0;  // the last solved level
  for (std::size_t j = 0; j < before.size(); ++j)
    if (usable(j)) top = std::max(top, last_solved_level(before[j]));
  const int at = top + 1;  // where the points go: the probes' level one above the solves
  if (top == 0 || at >= target.levels) return placement;
  std::vector<double> coarse, counts;
  for (std::size_t j = 0; j < before.size(); ++j) {
    const double h = usable(j) ? coarse_calls_at(before, kappas, kappas[j], top) : 0;
    const double n = usable(j) ? solved_at(before[j], top) : 0;
    if (h > 0 && n > 0) coarse.push_back(h), counts.push_back(n);
  }
  const std::optional<CountRecursion> fitted = fit_count_recursion(coarse, counts);
  if (!fitted) return placement;
  const double c = fitted->c;
  const auto h_at = [&](std::size_t j) { return coarse_calls_at(before, kappas, kappas[j], at); };
  std::vector<std::size_t> anchors;
  bool probes_elsewhere = false;
  for (std::size_t j = 0; j < before.size(); ++j)
    if (usable(j) && has_probe(before[j])) {
      if (probe_level(before[j]) == at && h_at(j) > 0)
        anchors.push_back(j);
      else
        probes_elsewhere = true;
    }
  if (anchors.empty() && probes_elsewhere) return placement;  // the probes two levels above: scaled instead
  // a at `at`: the kappas' own counts there (a probe's, or their solves' fit), less c H,
  // averaged; not the V-cycle's, at the far end of H.
  double a = 0;
  int averaged = 0;
  for (std::size_t j = 0; j < before.size(); ++j)
    if (usable(j) && kappas[j] != 1 && h_at(j) > 0) {
      const bool probed_here = has_probe(before[j]) && probe_level(before[j]) == at;
      const double own = probed_here ? probe_count(before[j]) : forecast_iterations_at(before[j], target, at);
      a += own - c * h_at(j), ++averaged;
    }
  a /= std::max(averaged, 1);
  char text[320];
  for (std::size_t k = 0; k < forecasts.size(); ++k) {
    CoarseForecast& f = forecasts[k];
    if (!usable(k) || has_probe(before[k])) continue;
    const double h = h_at(k);
    if (h <= 0 || solved_at(before[k], top) <= 0) continue;  // Unavailable
    if (kappas[k] == 1) {
      placement[k] = Placement::OwnFit;
      f.basis += "; its own fit (the recursion places no V-cycle)";
      continue;
    }
    const auto nearest = std::min_element(anchors.begin(), anchors.end(), [&](std::size_t x, std::size_t y) {
      return std::abs(h_at(x) - h) < std::abs(h_at(y) - h);
    });
    const bool alike =
        nearest != anchors.end() && h_at(*nearest) / h <= kAlikeCounts && h_at(*nearest) / h >= 1 / kAlikeCounts;
    double count = 0;
    if (alike) {
      const std::size_t q = *nearest;
      count = probe_count(before[q]) + c * (h - h_at(q));
      std::snprintf(
          text, sizeof text,
          "; at %d levels placed by the recursion beside kappa=%s's probe: %.0f + %.3g x (%.3g - %.3g) = %.0f "
          "(c from the solves at %d levels)",
          at, kappa_to_string(kappas[q]).c_str(), probe_count(before[q]), c, h, h_at(q), count, top);
    } else {  // no probe, or none alike: the level's a (k's own count among those averaged)
      count = a + c * h;
      char why[160] = "";
      if (nearest != anchors.end())
        std::snprintf(why, sizeof why, "; kappa=%s's probe, the nearest, has coarse calls counting %.3g to its %.3g",
                      kappa_to_string(kappas[*nearest]).c_str(), h_at(*nearest), h);
      std::snprintf(text, sizeof text,
                    "; at %d levels placed by the recursion: %.1f + %.3g x %.3g = %.0f (a from the kappas' own counts "
                    "there, c from their solves at %d levels%s)",
                    at, a, c, h, count, top, why);
    }
    count = std::max(count, solved_at(before[k], top));
    add_point_nearer(f, target, at, count, 0.0);
    f.placed = true;
    placement[k] = Placement::Placed;
    f.basis += text;
    f.basis += " (fitted through the last two solves and it)";
  }
  return placement;
}

int fit_growing_counts(std::vector<CoarseForecast>& forecasts, const SolverOptions& target) {
  const bool mgcg = target.solver != SolverKind::Multigrid;
  const auto last_at = [](const CoarseForecast& f, int levels) {  // f's count at `levels`, any point; 0 if none
    for (std::size_t j = 0; j < f.levels.size(); ++j)
      if (f.levels[j] == levels) return f.iterations[j];
    return 0.0;
  };
  const std::vector<CoarseForecast> before = forecasts;  // the fewest counts as they were
  int refitted = 0;
  char text[160];
  for (CoarseForecast& f : forecasts) {
    if (!f.converged || f.levels.empty() || f.growing) continue;
    const int m = f.levels.back();
    double fewest = std::numeric_limits<double>::infinity();
    for (const CoarseForecast& other : before)
      if (other.converged && last_at(other, m) > 0) fewest = std::min(fewest, last_at(other, m));
    const double ratio = f.iterations.back() / fewest;
    if (!(ratio > kWLikeCounts)) continue;
    fit_as_growing(f, target);
    std::snprintf(text, sizeof text, "; fitted %s (%.0f at %d levels, %.3gx the fewest there: still growing)",
                  mgcg ? "log-linearly alone, in levels^0.75," : "in the level", f.iterations.back(), m, ratio);
    f.basis += text;
    ++refitted;
  }
  return refitted;
}

}  // namespace kcycle
