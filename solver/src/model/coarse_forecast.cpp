#include "kcycle/model/coarse_forecast.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <exception>
#include <limits>
#include <mutex>
#include <thread>
#include <utility>

#include "kcycle/core/least_squares_line.hpp"
#include "kcycle/core/medians.hpp"
#include "kcycle/cycle/cycle_counts.hpp"
#include "kcycle/model/run_clock.hpp"
#include "kcycle/solve/iterative_solver.hpp"
#include "kcycle/solve/solve.hpp"

namespace kcycle {

namespace {

// The log-linear fit's abscissa: the level count to kSlowingFitPower where that fit alone must
// bend (a stand-alone count that slows; an MGCG count still growing), else the level count (a
// stand-alone count still growing; MGCG's slowing counts, bent by the mean with the linear fit).
double abscissa(const CoarseForecast& f, int level, bool mgcg) {
  const bool bent = mgcg ? f.growing : !f.growing;
  return bent ? std::pow(double(level), kSlowingFitPower) : double(level);
}

// The least-squares line through a forecast's points [first, last], each mapped by `point`
// (its level's abscissa, and its count or the count's logarithm); their levels are distinct.
template <class Point>
Line line_through(std::size_t first, std::size_t last, Point point) {
  std::vector<double> xs, ys;
  for (std::size_t k = first; k <= last; ++k) {
    const auto [x, y] = point(k);
    xs.push_back(x), ys.push_back(y);
  }
  return least_squares_line(xs, ys).value_or(Line{ys.back(), 0});  // one level: flat
}

// log(iterations) at level n from the least-squares line through the points [first, last].
double log_linear_at(const CoarseForecast& f, std::size_t first, std::size_t last, int n, bool mgcg) {
  const Line line = line_through(first, last, [&](std::size_t k) {
    return std::pair{abscissa(f, f.levels[k], mgcg), std::log(std::max(f.iterations[k], 1.0))};
  });
  return std::exp(line.at(abscissa(f, n, mgcg)));
}

// iterations at level n from the least-squares line through the points [first, last].
double linear_at(const CoarseForecast& f, std::size_t first, std::size_t last, int n) {
  return line_through(first, last,
                      [&](std::size_t k) {
                        return std::pair{double(f.levels[k]), f.iterations[k]};
                      })
      .at(n);
}

// The forecast of one fit. MGCG's counts grow linearly in the level for kappa >= 2 (CG's count
// goes as the square root of a condition number growing about as n^2) and geometrically for
// the V-cycle: the geometric mean of the linear and log-linear fits holds both (docs/model.md,
// "A fit for the MGCG rows": 29 of 30 MGCG counts within 15% at 11-12 levels from n-5..n-3,
// the log-linear fit alone 24), except a count still growing (`growing`: the V-cycle's, well above
// the W-cycle's), which takes the log-linear fit alone, in levels^kSlowingFitPower (docs/model.md,
// "MGCG's V-cycle": on the 3-seed cache from three solves two levels below, 35 of 36 V-cycle
// counts within 15 % against 30; three below, 22 of 27 against 8). Stand-alone counts keep the
// log-linear fit, which does better there.
double forecast_at(const CoarseForecast& f, std::size_t first, std::size_t last, int n, bool mgcg) {
  const double log_linear = log_linear_at(f, first, last, n, mgcg);
  if (!mgcg || f.growing) return log_linear;
  const double linear = linear_at(f, first, last, n);
  return linear > 0 ? std::sqrt(log_linear * linear) : log_linear;
}

// Fits the points from `first` on and evaluates at the target; the band is the lines through
// the first two and the last two of them, and the fit.
void fit(CoarseForecast& f, const SolverOptions& target, std::size_t first) {
  const std::size_t k = f.levels.size() - 1;
  const bool mgcg = target.solver != SolverKind::Multigrid;
  f.iterations_at_target = forecast_at(f, first, k, target.levels, mgcg);
  const double early = forecast_at(f, first, first + 1, target.levels, mgcg);
  const double late = forecast_at(f, k - 1, k, target.levels, mgcg);
  f.low = std::min({f.iterations_at_target, early, late});
  f.high = std::max({f.iterations_at_target, early, late});
}

// The first point the fit takes: the first solve, or, once a probe was added, the second-last
// solve, so that the fit runs through the last two solves and the probe (docs/model.md: from n-4,
// n-3 and n-1 levels 15 of 15 stand-alone counts within 15% at 9-11 levels with the n-1 count
// off by 3%). Below kDeepFromLevels a stand-alone count keeps every point
// (fit_takes_every_point).
std::size_t solves_before_a_probe(const CoarseForecast& f) {
  std::size_t solves = 0;
  while (solves < f.probed.size() && !f.probed[solves]) ++solves;
  return solves;
}

std::size_t first_fitted(const CoarseForecast& f, const SolverOptions& target) {
  const std::size_t solves = solves_before_a_probe(f);
  const bool probed = solves < f.probed.size();
  return probed && solves >= 2 && !fit_takes_every_point(f, target) ? solves - 2 : 0;
}
void refit(CoarseForecast& f, const SolverOptions& target) { fit(f, target, first_fitted(f, target)); }

std::string count_text(double iterations) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0f", iterations);
  return text;
}

// With a budget of a whole solve the window may end two levels below the target (its solves
// cost 0.3-0.7 of the fastest kappa's solve); with a tenth of one, three (0.07-0.08).
int ahead_of(const SolverOptions& target, const CoarseForecastSettings& settings) {
  if (settings.ahead > 0) return settings.ahead;
  return forecast_budget(target, settings) >= 0.5 ? 2 : 3;
}

int first_level(const SolverOptions& target, const CoarseForecastSettings& settings) {
  return std::max(target.levels - ahead_of(target, settings) - settings.window + 1, settings.min_levels);
}

}  // namespace

std::vector<int> coarse_forecast_levels(const SolverOptions& target, const CoarseForecastSettings& settings) {
  std::vector<int> levels;
  for (int m = first_level(target, settings); m <= target.levels - ahead_of(target, settings); ++m) levels.push_back(m);
  return levels;
}

bool coarse_forecast_fits(const SolverOptions& target, const CoarseForecastSettings& settings) {
  return settings.window >= 2 && coarse_forecast_levels(target, settings).size() >= 2;
}

int coarse_forecast_min_levels(const SolverOptions& target, const CoarseForecastSettings& settings) {
  return settings.min_levels + 1 + ahead_of(target, settings);
}

bool side_by_side_pays(const SolverOptions& target, const CoarseForecastSettings& settings) {
  const std::vector<int> levels = coarse_forecast_levels(target, settings);
  return !levels.empty() && levels.back() >= kSideBySideFromLevels;
}

double forecast_budget(const SolverOptions& target, const CoarseForecastSettings& settings) {
  if (settings.budget > 0) return settings.budget;
  return target.levels >= kDeepFromLevels ? kDeepForecastBudget : kShallowForecastBudget;
}

int forecast_seeds(const SolverOptions& target, const CoarseForecastSettings& settings) {
  if (settings.seeds > 0) return settings.seeds;
  const bool random_start =
      target.problem == ProblemKind::RandomError || target.problem == ProblemKind::ZeroMeanRandomError;
  return random_start && forecast_budget(target, settings) >= 0.5 ? 3 : 1;
}

namespace {

// The counter whose iterates a kappa-cycle leaves at its level count (same_iterates_counter:
// kappa >= levels - 1 leaves the W-cycle's); 0 for another cycle type, whose solves are not shared.
int counter_of(const SolverOptions& coarse) {
  return coarse.cycle.type == CycleType::Kappa ? same_iterates_counter(coarse.cycle.counter, coarse.levels) : 0;
}

const CoarseSolve* find_solve(const SolverOptions& coarse, const CoarseSolves& solved) {
  if (counter_of(coarse) == 0) return nullptr;
  for (const CoarseSolve& s : solved)
    if (s.levels == coarse.levels && s.counter == counter_of(coarse) && s.seed == coarse.seed) return &s;
  return nullptr;
}

}  // namespace

std::optional<CoarseSolve> sandwiched_solve(const SolverOptions& coarse, const CoarseSolves& solved) {
  const int counter = counter_of(coarse);
  if (counter == 0) return std::nullopt;
  const CoarseSolve *below = nullptr, *above = nullptr;
  for (const CoarseSolve& s : solved) {
    if (s.levels != coarse.levels || s.seed != coarse.seed || s.counter == 0 || s.between) continue;
    if (s.counter < counter && (!below || s.counter > below->counter)) below = &s;
    if (s.counter > counter && (!above || s.counter < above->counter)) above = &s;
  }
  const auto counted = [](const CoarseSolve* s) { return s && s->converged && s->ran >= s->iterations; };
  if (!counted(below) || !counted(above) || below->iterations != above->iterations) return std::nullopt;
  const auto calls = [&](int c) { return double(total_calls(c, coarse.levels)); };
  const double along = (calls(counter) - calls(below->counter)) / (calls(above->counter) - calls(below->counter));
  CoarseSolve s = *below;
  s.counter = counter;
  s.seconds_per_iteration =
      below->seconds_per_iteration + along * (above->seconds_per_iteration - below->seconds_per_iteration);
  s.seconds = s.setup_seconds = 0;
  s.between = true;
  return s;
}

namespace {

// Whether `coarse` is a solve that settles (settle_deepest): the window's deepest, of a
// stand-alone cycle.
bool settles(const SolverOptions& coarse, const SolverOptions& target, const CoarseForecastSettings& settings) {
  return settings.settle_deepest && target.solver == SolverKind::Multigrid &&
         coarse.levels == coarse_forecast_levels(target, settings).back();
}

// Solves `coarse` to the tolerance, or (settle) until its count's estimate has settled;
// `stopped` is polled after every iteration of a solve, `stop` by a probe.
template <class Stopped>
CoarseSolve solve_coarse(const SolverOptions& coarse, bool settle, std::stop_token stop, Stopped stopped) {
  const RunClock started(coarse);
  if (settle) {
    ProbeSettings until_settled;
    until_settled.min_iterations = kFewestProbeIterations;
    until_settled.max_iterations = coarse.max_iterations;
    until_settled.solve_below_seconds = 0;  // its estimate is the point: no finishing for exactness
    IterationEstimate estimate;
    const SolveResult r = probe_solve(coarse, until_settled, estimate, stop);
    const bool counted = r.converged() || (estimate.rho < 1.0 && std::isfinite(estimate.iterations));
    return {coarse.levels,       counter_of(coarse),      coarse.seed,
            estimate.iterations, r.seconds_per_iteration, coarse.threads,
            started.seconds(),   r.seconds_setup,         counted,
            r.iterations};
  }
  IterativeSolver solver(coarse, make_problem(coarse));
  const double setup = started.seconds();
  while (solver.running()) {
    solver.step();
    if (stopped()) throw CycleCancelled();
  }
  const SolveResult r = solver.result(false);
  return {coarse.levels,  counter_of(coarse), coarse.seed, double(r.iterations), r.seconds_per_iteration,
          coarse.threads, started.seconds(),  setup,       r.converged(),        r.iterations};
}

// The solve of `coarse` that `solved` holds, or a new one added to it.
CoarseSolve coarse_solve(const SolverOptions& coarse, bool settle, CoarseSolves& solved, std::stop_token stop) {
  if (const CoarseSolve* s = find_solve(coarse, solved)) return *s;
  solved.push_back(solve_coarse(coarse, settle, stop, [&] { return stop.stop_requested(); }));
  return solved.back();
}

}  // namespace

CoarseForecast forecast_from_coarse_solves(const SolverOptions& target, const CoarseForecastSettings& settings,
                                           std::stop_token stop) {
  CoarseSolves own;
  return forecast_from_coarse_solves(target, settings, own, stop);
}

CoarseForecast forecast_from_coarse_solves(const SolverOptions& target, const CoarseForecastSettings& settings,
                                           CoarseSolves& solved, std::stop_token stop) {
  if (!coarse_forecast_fits(target, settings))
    throw InvalidOptions("a forecast from coarser solves needs at least " +
                         std::to_string(coarse_forecast_min_levels(target, settings)) + " levels (got " +
                         std::to_string(target.levels) + ")");
  CoarseForecast f;
  std::string estimated, between;  // between: the levels whose count was sandwiched_solve's
  const int seeds = forecast_seeds(target, settings);
  for (const int levels : coarse_forecast_levels(target, settings)) {
    SolverOptions coarse = target;
    coarse.levels = levels;
    std::vector<CoarseSolve> runs;  // one per seed: target.seed, target.seed + 1, ...
    for (int j = 0; j < seeds; ++j) {
      coarse.seed = target.seed + std::uint64_t(j);
      runs.push_back(coarse_solve(coarse, settles(coarse, target, settings), solved, stop));
    }
    std::vector<double> counts;
    for (const CoarseSolve& s : runs) {
      counts.push_back(s.iterations);
      f.converged = f.converged && s.converged;
      f.seconds += s.seconds;
    }
    f.levels.push_back(levels);
    f.iterations.push_back(median(counts));
    // The target seed's, as it ran (one thread where side by side): a probe on all the target's
    // threads runs no slower, so the iterations this price promises fit its share (docs/model.md).
    f.seconds_per_iteration.push_back(runs.front().seconds_per_iteration);
    f.probed.push_back(false);
    if (runs.front().between) between += (between.empty() ? "" : ", ") + std::to_string(levels);
    if (runs.front().ran < runs.front().iterations)
      estimated = " (the " + std::to_string(levels) + "-level count estimated once it settled, after " +
                  std::to_string(runs.front().ran) + " iterations)";
  }
  fit(f, target, 0);
  const std::size_t k = f.levels.size() - 1;
  f.basis = "solves at ";
  for (std::size_t j = 0; j <= k; ++j) f.basis += std::to_string(f.levels[j]) + (j < k ? ", " : " levels: ");
  for (std::size_t j = 0; j <= k; ++j) f.basis += count_text(f.iterations[j]) + (j < k ? ", " : " iterations");
  f.basis += estimated;
  if (!between.empty())
    f.basis += " (at " + between + " levels not solved: the kappas below and above it there counted alike)";
  if (seeds > 1) f.basis += " (each the median of " + std::to_string(seeds) + " random starts)";
  if (target.solver != SolverKind::Multigrid) f.basis += " (CG: the geometric mean of the linear and log-linear fits)";
  if (!f.converged) f.basis += " (not all converged: no forecast)";
  return f;
}

bool take_seed_medians(CoarseForecast& f, const SolverOptions& target, const CoarseSolves& solved) {
  std::vector<double> medians(f.levels.size());  // all first: a point without its starts changes nothing
  std::size_t starts = 0;
  std::string counts;
  for (std::size_t j = 0; j < f.levels.size(); ++j) {
    if (f.probed[j]) continue;
    SolverOptions coarse = target;
    coarse.levels = f.levels[j];
    std::vector<double> seen;
    for (coarse.seed = target.seed;; ++coarse.seed) {
      const CoarseSolve* s = find_solve(coarse, solved);
      if (!s || !s->converged) break;
      seen.push_back(s->iterations);
    }
    if (seen.size() < 2) return false;  // the target's seed alone: nothing to take
    starts = starts == 0 ? seen.size() : std::min(starts, seen.size());
    medians[j] = median(seen);
    counts += (counts.empty() ? "" : ", ") + count_text(medians[j]);
  }
  for (std::size_t j = 0; j < f.levels.size(); ++j)
    if (!f.probed[j]) f.iterations[j] = medians[j];
  f.basis += "; the solves then the median of " + std::to_string(starts) + " random starts: " + counts;
  refit(f, target);
  return true;
}

void solve_coarse_windows(const std::vector<SolverOptions>& targets, const CoarseForecastSettings& settings,
                          int concurrently, CoarseSolves& solved, std::stop_token stop) {
  struct Run {
    SolverOptions coarse;
    bool settle = false;  // settles(coarse, its target, settings)
  };
  std::vector<Run> runs;  // what is not solved yet, once each
  const auto held = [&](const SolverOptions& coarse) {
    const auto same = [&](const Run& run) {
      const SolverOptions& r = run.coarse;
      return r.levels == coarse.levels && counter_of(r) == counter_of(coarse) && r.seed == coarse.seed;
    };
    return find_solve(coarse, solved) || (counter_of(coarse) != 0 && std::any_of(runs.begin(), runs.end(), same));
  };
  for (const SolverOptions& target : targets) {
    if (!coarse_forecast_fits(target, settings)) continue;
    for (const int levels : coarse_forecast_levels(target, settings))
      for (int j = 0; j < forecast_seeds(target, settings); ++j) {
        SolverOptions coarse = target;
        coarse.levels = levels;
        coarse.seed = target.seed + std::uint64_t(j);
        if (concurrently > 1) coarse.threads = 1;
        if (!held(coarse)) runs.push_back({coarse, settles(coarse, target, settings)});
      }
  }
  // Deepest first; on one hierarchy and start, by counter: the ends before what lies between.
  std::stable_sort(runs.begin(), runs.end(), [](const Run& a, const Run& b) {
    return a.coarse.levels != b.coarse.levels ? a.coarse.levels > b.coarse.levels
                                              : counter_of(a.coarse) < counter_of(b.coarse);
  });
  const auto on_one_hierarchy = [](const SolverOptions& a, const SolverOptions& b) {
    return a.levels == b.levels && a.seed == b.seed && counter_of(a) != 0 && counter_of(b) != 0;
  };
  // A run between two others of its hierarchy waits for them (unless it settles: an estimate's
  // count is no end to compare).
  std::vector<Run> ends, between;
  for (const Run& run : runs) {
    bool below = false, above = false;
    const auto see = [&](const SolverOptions& other) {
      if (!on_one_hierarchy(run.coarse, other)) return;
      below = below || counter_of(other) < counter_of(run.coarse);
      above = above || counter_of(other) > counter_of(run.coarse);
    };
    for (const Run& other : runs) see(other.coarse);
    (below && above && !run.settle ? between : ends).push_back(run);
  }
  const auto solve_all = [&](const std::vector<Run>& these) {
    std::vector<CoarseSolve> done(these.size());
    std::atomic<std::size_t> next{0};
    std::atomic<bool> failed{false};
    std::exception_ptr error;
    std::mutex error_mutex;
    const auto work = [&] {
      const auto stopped = [&] { return stop.stop_requested() || failed.load(); };
      for (std::size_t j = next++; j < these.size() && !stopped(); j = next++) {
        try {
          done[j] = solve_coarse(these[j].coarse, these[j].settle, stop, stopped);
        } catch (...) {
          const std::lock_guard lock(error_mutex);
          if (!error) error = std::current_exception();
          failed = true;
        }
      }
    };
    {
      std::vector<std::jthread> team;
      for (int t = 1; t < std::min<int>(concurrently, int(these.size())); ++t) team.emplace_back(work);
      work();
    }  // joined
    if (error) std::rethrow_exception(error);
    if (stop.stop_requested()) throw CycleCancelled();
    solved.insert(solved.end(), done.begin(), done.end());
  };
  solve_all(ends);
  // Then, round by round, what the ends settle; of the rest, the lowest counter of each
  // hierarchy runs (it may settle the next).
  while (!between.empty()) {
    std::vector<Run> now, later;
    for (const Run& run : between) {
      if (const std::optional<CoarseSolve> s = sandwiched_solve(run.coarse, solved)) {
        solved.push_back(*s);
        continue;
      }
      const bool first_left = std::none_of(
          now.begin(), now.end(), [&](const Run& other) { return on_one_hierarchy(run.coarse, other.coarse); });
      (first_left ? now : later).push_back(run);
    }
    solve_all(now);
    between = std::move(later);
  }
}

namespace {

// The counts of the solves (not the probes), coarsest first.
std::vector<double> solved_counts(const CoarseForecast& f, std::vector<int>& levels) {
  std::vector<double> counts;
  for (std::size_t j = 0; j < f.levels.size(); ++j)
    if (!f.probed[j]) levels.push_back(f.levels[j]), counts.push_back(f.iterations[j]);
  return counts;
}

}  // namespace

// Below kDeepFromLevels the window's three solves and the point at n-1 are four levels in a row,
// and a random start's luck at one of them (every stand-alone preset dips at 7 levels: jacobi's
// kappa = 2 counts 87, 126, 212 at 6-8) tilts a line through three points more than one through
// four. On solved counts at 7-10 levels, with each fit's own abscissa, the mean error falls from
// 8.5 to 6.8 % for the counts still growing and from 7.3 to 6.5 % for the W-like ones
// (docs/model.md). From 11 levels the growth slows (jacobi 12), and older points overstate it.
bool fit_takes_every_point(const CoarseForecast& f, const SolverOptions& target) {
  const bool stand_alone = target.solver == SolverKind::Multigrid;
  return stand_alone && target.levels < kDeepFromLevels && solves_before_a_probe(f) < f.probed.size();
}

std::string fitted_through(const CoarseForecast& f, const SolverOptions& target) {
  return fit_takes_every_point(f, target) ? " (fitted through every solve and it)"
                                          : " (fitted through the last two solves and it)";
}

bool has_probe(const CoarseForecast& f) {
  return !f.placed && std::find(f.probed.begin(), f.probed.end(), true) != f.probed.end();
}

void fit_as_growing(CoarseForecast& f, const SolverOptions& target) {
  f.growing = true;
  refit(f, target);
}

void add_point_nearer(CoarseForecast& f, const SolverOptions& target, int levels, double iterations,
                      double seconds_per_iteration) {
  f.levels.push_back(levels);
  f.iterations.push_back(iterations);
  f.seconds_per_iteration.push_back(seconds_per_iteration);
  f.probed.push_back(true);
  refit(f, target);
}

bool same_solved_counts(const CoarseForecast& a, const CoarseForecast& b) {
  std::vector<int> a_levels, b_levels;
  const std::vector<double> a_counts = solved_counts(a, a_levels), b_counts = solved_counts(b, b_levels);
  return a_counts.size() >= 2 && a_levels == b_levels && a_counts == b_counts;
}

std::size_t nearest_probed(const std::vector<CoarseForecast>& forecasts, std::size_t k) {
  const auto last_solved = [](const CoarseForecast& f) {
    std::vector<int> levels;
    const std::vector<double> counts = solved_counts(f, levels);
    return counts.empty() ? 0.0 : counts.back();
  };
  const auto apart = [&](std::size_t a) { return k > a ? k - a : a - k; };
  const double own = last_solved(forecasts[k]);
  std::size_t nearest = forecasts.size();
  double distance = std::numeric_limits<double>::infinity();
  for (std::size_t a = 0; a < forecasts.size(); ++a) {
    const CoarseForecast& f = forecasts[a];
    if (a == k || !f.converged || last_solved(f) <= 0 || !has_probe(f)) continue;
    const double d = std::abs(std::log(own / last_solved(f)));
    if (d < distance || (d == distance && apart(a) < apart(nearest))) distance = d, nearest = a;
  }
  return nearest;
}

bool scale_from_anchor(CoarseForecast& f, const CoarseForecast& anchor, const SolverOptions& target,
                       const std::string& anchor_name) {
  std::vector<int> levels, anchor_levels;
  const std::vector<double> own = solved_counts(f, levels), theirs = solved_counts(anchor, anchor_levels);
  if (own.size() < 2 || levels != anchor_levels || !has_probe(anchor)) return false;
  const std::size_t k = own.size() - 1;
  const double near = own[k] / theirs[k], far = own[k - 1] / theirs[k - 1];
  const auto alike = [](double r) { return r <= kAlikeCounts && r >= 1 / kAlikeCounts; };
  char text[200];
  if (!alike(near) || !alike(far)) {
    std::snprintf(text, sizeof text,
                  "; its own fit (its counts over kappa=%s's, the probed kappa most alike: %.3g at %d levels, %.3g at "
                  "%d; scaled only within %gx)",
                  anchor_name.c_str(), far, levels[k - 1], near, levels[k], kAlikeCounts);
    f.basis += text;
    return false;
  }
  const double ratio = near * std::pow(near / far, double(target.levels - levels[k]) / (levels[k] - levels[k - 1]));
  f.iterations_at_target = anchor.iterations_at_target * ratio;
  f.low = std::min({f.low, anchor.low * ratio, f.iterations_at_target});
  f.high = std::max({f.high, anchor.high * ratio, f.iterations_at_target});
  std::snprintf(text, sizeof text,
                "; scaled from kappa=%s's forecast, %.0f, by the ratio of their counts (%.3g at %d levels, %.3g at "
                "%d) extrapolated to %.3g",
                anchor_name.c_str(), anchor.iterations_at_target, far, levels[k - 1], near, levels[k], ratio);
  f.basis += text;
  return true;
}

double forecast_iterations_at(const CoarseForecast& f, const SolverOptions& target, int levels) {
  return forecast_at(f, first_fitted(f, target), f.levels.size() - 1, levels, target.solver != SolverKind::Multigrid);
}

double predicted_setup_seconds(const SolverOptions& target, int levels, const CoarseSolves& solved, SetupPages pages) {
  int deepest = 0;
  for (const CoarseSolve& s : solved) deepest = std::max(deepest, s.levels);
  std::vector<double> setups;
  for (const CoarseSolve& s : solved)
    if (s.levels == deepest && !s.between) setups.push_back(s.setup_seconds);
  if (setups.empty()) return 0;
  const auto unknowns = [&](int n) { return double(level_shape(n, 1, target.coarsening).unknowns()); };
  const double at_deepest =
      pages == SetupPages::Fresh ? *std::max_element(setups.begin(), setups.end()) : median(setups);
  return at_deepest * unknowns(levels) / unknowns(deepest);
}

double predicted_probe_seconds(const CoarseForecast& f, int levels, int iterations, double price) {
  if (price > 0) return iterations * price;
  const std::size_t k = f.levels.size() - 1;
  const double last = f.seconds_per_iteration[k];
  const double measured = k > 0 && f.seconds_per_iteration[k - 1] > 0 ? last / f.seconds_per_iteration[k - 1] : 4.0;
  // Each level adds four times the unknowns; an iteration's time grows less where the grids fit
  // the caches (jacobi at 6-8 levels: 3.0x a level) and more where they leave them.
  const double growth = std::clamp(measured, 2.0, 8.0);
  return iterations * last * std::pow(growth, levels - f.levels[k]);
}

int fewest_probe_iterations(const CoarseForecast& f, const SolverOptions& target, int levels, int floor) {
  const double count = forecast_iterations_at(f, target, levels);
  if (!std::isfinite(count)) return floor;  // no count to take a share of
  const double share = std::ceil(kFewestProbeShareOfCount * std::min(count, 1e9));
  return std::max(floor, int(share));
}

bool share_pays_for_probe(const CoarseForecast& f, const SolverOptions& target, int levels, double setup_seconds,
                          double share, double price) {
  return setup_seconds + predicted_probe_seconds(f, levels, fewest_probe_iterations(f, target, levels), price) <= share;
}

bool refine_forecast(CoarseForecast& f, const SolverOptions& target, int levels, const ProbeSettings& probe,
                     std::stop_token stop) {
  const RunClock started(target);
  SolverOptions at = target;
  at.levels = levels;
  // The quarter of its count holds whatever the caller asked; the 20 only where it asked as many.
  const int fewest = fewest_probe_iterations(f, target, levels, std::min(probe.min_iterations, kFewestProbeIterations));
  IterationEstimate estimate;
  const SolveResult r = probe_solve(at, probe, estimate, stop);
  f.seconds += started.seconds();
  if (!r.converged() && r.iterations < fewest) {  // too early to tell
    const char* by = r.iterations >= probe.max_iterations ? "its iteration cap" : "its time";
    f.basis += "; a probe at " + std::to_string(levels) + " levels stopped by " + by + " after " +
               std::to_string(r.iterations) + " iterations (it needs " + std::to_string(fewest) + "), not used";
    return false;
  }
  if (!r.converged() && !(estimate.rho < 1.0)) {  // no count to fit: "never" is not one
    char rho[32];
    std::snprintf(rho, sizeof rho, "%.3g", estimate.rho);
    f.basis += "; a probe at " + std::to_string(levels) + " levels ended with a factor of " + rho + " after " +
               std::to_string(r.iterations) + " iterations, not used";
    return false;
  }
  add_point_nearer(f, target, levels, estimate.iterations, r.seconds_per_iteration);
  f.basis += r.converged() ? "; solved at " + std::to_string(levels) + " levels: " + std::to_string(r.iterations)
                           : "; a probe of " + std::to_string(r.iterations) + " iterations at " +
                                 std::to_string(levels) + " levels: " + count_text(estimate.iterations);
  f.basis += fitted_through(f, target);
  return true;
}

}  // namespace kcycle
