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

// A count as the recursion takes it (of) and back (count): as it is, or squared for CG
// (recursion_scale).
struct RecursionScale {
  bool squared = false;
  double of(double count) const { return squared ? count * count : count; }
  double count(double value) const { return squared ? std::sqrt(std::max(value, 0.0)) : value; }
};

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

// H of `kappa` at `levels`, on `scale`: its two coarse calls' solved counts one level down; 0 where
// one is missing.
double coarse_calls_at(const std::vector<CoarseForecast>& forecasts, const std::vector<int>& kappas, int kappa,
                       int levels, RecursionScale scale) {
  const double same = count_of(forecasts, kappas, kappa, levels - 1);
  if (same <= 0 || kappa == 1) return scale.of(same);
  const double less = count_of(forecasts, kappas, kappa - 1, levels - 1);
  return less > 0 ? coarse_calls_count(scale.of(same), scale.of(less)) : 0;
}

// What the recursion is a line in: a stand-alone count; CG's count squared.
RecursionScale recursion_scale(const SolverOptions& target) { return {target.solver != SolverKind::Multigrid}; }

// The line through every kappa's solves at the last level solved (`top`, set here), on `scale`,
// each kappa's H from the solves one level down; none where it cannot be fitted.
std::optional<CountRecursion> fit_at_the_last_solves(const std::vector<CoarseForecast>& forecasts,
                                                     const std::vector<int>& kappas, RecursionScale scale, int& top) {
  const auto usable = [&](std::size_t j) { return forecasts[j].converged && !forecasts[j].levels.empty(); };
  top = 0;
  for (std::size_t j = 0; j < forecasts.size(); ++j)
    if (usable(j)) top = std::max(top, last_solved_level(forecasts[j]));
  if (top == 0) return std::nullopt;
  std::vector<double> coarse, counts;
  for (std::size_t j = 0; j < forecasts.size(); ++j) {
    const double h = usable(j) ? coarse_calls_at(forecasts, kappas, kappas[j], top, scale) : 0;
    const double n = usable(j) ? solved_at(forecasts[j], top) : 0;
    if (h > 0 && n > 0) coarse.push_back(h), counts.push_back(scale.of(n));
  }
  return fit_count_recursion(coarse, counts);
}

}  // namespace

std::vector<Placement> place_by_recursion(std::vector<CoarseForecast>& forecasts, const std::vector<int>& kappas,
                                          const SolverOptions& target) {
  std::vector<Placement> placement(forecasts.size(), Placement::Unavailable);
  const RecursionScale scale = recursion_scale(target);
  const std::vector<CoarseForecast> before = forecasts;  // the anchors: probes, not placed points
  const auto usable = [&](std::size_t j) { return before[j].converged && !before[j].levels.empty(); };
  int top = 0;  // the last solved level
  const std::optional<CountRecursion> fitted = fit_at_the_last_solves(before, kappas, scale, top);
  const int at = top + 1;  // where the points go: the probes' level one above the solves
  if (!fitted || at >= target.levels) return placement;
  const double c = fitted->c;
  const auto h_at = [&](std::size_t j) { return coarse_calls_at(before, kappas, kappas[j], at, scale); };
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
      a += scale.of(own) - c * h_at(j), ++averaged;
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
    const double apart = nearest == anchors.end() ? 0 : scale.count(h_at(*nearest)) / scale.count(h);  // as counts
    const bool alike = nearest != anchors.end() && apart <= kAlikeCounts && apart >= 1 / kAlikeCounts;
    // CG's counts are placed as their squares and the text shows them so: sqrt(N_q^2 + ...).
    const char* open = scale.squared ? "sqrt(" : "";
    const char* close = scale.squared ? ")" : "";
    const char* squared = scale.squared ? "^2" : "";
    double count = 0;
    if (alike) {
      const std::size_t q = *nearest;
      count = scale.count(scale.of(probe_count(before[q])) + c * (h - h_at(q)));
      std::snprintf(text, sizeof text,
                    "; at %d levels placed by the recursion%s beside kappa=%s's probe: %s%.0f%s + %.3g x (%.3g - "
                    "%.3g)%s = %.0f (c from the solves at %d levels)",
                    at, scale.squared ? " in CG's counts squared" : "", kappa_to_string(kappas[q]).c_str(), open,
                    probe_count(before[q]), squared, c, h, h_at(q), close, count, top);
    } else {  // no probe, or none alike: the level's a (k's own count among those averaged)
      count = scale.count(a + c * h);
      char why[160] = "";
      if (nearest != anchors.end())
        std::snprintf(why, sizeof why, "; kappa=%s's probe, the nearest, has coarse calls counting %.3g to its %.3g",
                      kappa_to_string(kappas[*nearest]).c_str(), scale.count(h_at(*nearest)), scale.count(h));
      std::snprintf(text, sizeof text,
                    "; at %d levels placed by the recursion%s: %s%.1f + %.3g x %.3g%s = %.0f (a from the kappas' own "
                    "counts there, c from their solves at %d levels%s)",
                    at, scale.squared ? " in CG's counts squared" : "", open, a, c, h, close, count, top, why);
    }
    count = std::max(count, solved_at(before[k], top));
    add_point_nearer(f, target, at, count, 0.0);
    f.placed = true;
    placement[k] = Placement::Placed;
    f.basis += text;
    f.basis += fitted_through(f, target);
  }
  return placement;
}

int place_at_target_by_recursion(std::vector<CoarseForecast>& forecasts, const std::vector<int>& kappas,
                                 const SolverOptions& target) {
  const RecursionScale scale = recursion_scale(target);
  for (const CoarseForecast& f : forecasts)
    if (!f.converged || f.levels.empty()) return 0;
  int top = 0;
  const std::optional<CountRecursion> fitted = fit_at_the_last_solves(forecasts, kappas, scale, top);
  const int below = target.levels - 1;
  if (!fitted || top >= below) return 0;
  const double c = fitted->c;
  // Each kappa's count one level below the target: its point there (a probe's or a placed one),
  // else its fit's.
  std::vector<double> count_below(forecasts.size());
  for (std::size_t j = 0; j < forecasts.size(); ++j) {
    const CoarseForecast& f = forecasts[j];
    SolverOptions at = target;
    at.cycle = {CycleType::Kappa, kappas[j]};
    count_below[j] = f.levels.back() == below ? f.iterations.back() : forecast_iterations_at(f, at, below);
  }
  const auto count_of_counter = [&](int counter) {  // a kappa leaving the same iterates there
    for (std::size_t j = 0; j < forecasts.size(); ++j)
      if (same_iterates_counter(kappas[j], below) == same_iterates_counter(counter, below)) return count_below[j];
    return 0.0;
  };
  const auto coarse_calls = [&](int kappa) {  // H at the target
    const double same = count_of_counter(kappa);
    const double less = kappa == 1 ? 0 : count_of_counter(kappa - 1);
    return same > 0 && (kappa == 1 || less > 0) ? coarse_calls_count(scale.of(same), scale.of(less)) : 0;
  };
  double fewest = std::numeric_limits<double>::infinity();
  for (const CoarseForecast& f : forecasts) fewest = std::min(fewest, f.iterations_at_target);
  const auto w_like = [&](std::size_t j) { return forecasts[j].iterations_at_target <= kWLikeCounts * fewest; };
  // a at the target: the W-like kappas' own forecasts there, less c H.
  double a = 0;
  int averaged = 0;
  for (std::size_t j = 0; j < forecasts.size(); ++j)
    if (kappas[j] != 1 && w_like(j) && coarse_calls(kappas[j]) > 0)
      a += scale.of(forecasts[j].iterations_at_target) - c * coarse_calls(kappas[j]), ++averaged;
  if (averaged == 0) return 0;
  a /= averaged;
  // Stand-alone the W-like kappas (two or more) are spread about their own mean by their H; for
  // MGCG the growing ones are placed.
  const bool spread = !scale.squared;
  if (spread && averaged < 2) return 0;
  int placed = 0;
  char text[240];
  for (std::size_t j = 0; j < forecasts.size(); ++j) {
    CoarseForecast& f = forecasts[j];
    const double h = coarse_calls(kappas[j]);
    if (kappas[j] == 1 || w_like(j) != spread || h <= 0) continue;
    const double count = spread ? a + c * h : std::max(scale.count(a + c * h), fewest);
    if (spread)
      std::snprintf(text, sizeof text,
                    "; at the target spread by the recursion: %.0f + %.3g x %.3g = %.0f (a from the W-like kappas' "
                    "forecasts there, H from the counts at %d levels; its own fit said %.0f)",
                    a, c, h, count, below, f.iterations_at_target);
    else
      std::snprintf(text, sizeof text,
                    "; at the target placed by the recursion in CG's counts squared: sqrt(%.0f + %.3g x %.3g) = %.0f "
                    "(a from the W-like kappas' forecasts there, H from the counts at %d levels; its own fit said "
                    "%.0f)",
                    a, c, h, count, below, f.iterations_at_target);
    const double scaled = count / f.iterations_at_target;  // the band moves with it
    f.iterations_at_target = count;
    f.low *= scaled;
    f.high *= scaled;
    f.basis += text;
    ++placed;
  }
  return placed;
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
