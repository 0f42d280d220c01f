#include "kcycle/model/advisor.hpp"
#include "kcycle/cycle/cycle_schedule.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "kcycle/backends/cpu/available_cores.hpp"
#include "kcycle/backends/mpi/mpi_runtime.hpp"
#include "kcycle/core/least_squares_line.hpp"
#include "kcycle/core/medians.hpp"
#include "kcycle/lfa/convergence.hpp"
#include "kcycle/lfa/fourier_analysis.hpp"
#include "kcycle/lfa/solve_prediction.hpp"
#include "kcycle/model/count_recursion.hpp"
#include "kcycle/model/distributed_model.hpp"
#include "kcycle/model/iteration_estimate.hpp"
#include "kcycle/model/level_cost_model.hpp"
#include "kcycle/model/probe.hpp"
#include "kcycle/model/run_clock.hpp"
#include "kcycle/solve/execution_target.hpp"
#include "kcycle/solve/iterative_solver.hpp"
#include "kcycle/solve/memory_account.hpp"
#include "kcycle/solve/resolved_run.hpp"
#include "kcycle/solve/solve.hpp"

namespace kcycle {

namespace {

// Adds a clause to a note of clauses separated by "; ".
void add_clause(std::string& note, const std::string& clause) { note += (note.empty() ? "" : "; ") + clause; }

// A few timed iterations' price: their median cycle plus the norms' share. The first
// iteration of a fresh hierarchy runs cold (pages, caches): in the mean of three it put CG's
// price 1.6-2.7x too high (advisor-table, jacobi+cg at 9 levels).
double median_priced(const SolveResult& r) {
  double cycles = 0;
  for (const IterationRecord& h : r.history) cycles += h.seconds;
  return r.seconds_per_cycle + std::max(0.0, r.seconds_total - cycles) / std::max(r.iterations, 1);
}

// The first solve of a process runs cold (the thread team starting, pages first touched, the
// clock ramping up): it took up to twice as long per iteration as the same solve after it. A
// short solve first, untimed, so that every probe runs as the solves it predicts will.
void warm_up(const SolverOptions& options, std::stop_token stop) {
  IterativeSolver solver(options, make_problem(options));
  const RunClock clock(options);
  while (solver.running() && clock.seconds() < 0.1) {
    solver.step();
    if (stop.stop_requested()) throw CycleCancelled();
  }
}

// The probes' prices of an iteration (the probe source): each probe's mean iteration, except
// that those that simply solved (converged) in little time are priced by their kappas' median
// solves taken round-robin, the probe counted as the first: one short solve varied by up to 30%.
std::vector<double> probe_prices(const SolverOptions& options, const std::vector<int>& kappas,
                                 const std::vector<SolveResult>& probes, const AdvisorSettings& settings) {
  std::vector<double> prices;
  std::vector<int> short_kappas;
  std::vector<SolveResult> short_probes;
  for (std::size_t k = 0; k < probes.size(); ++k) {
    prices.push_back(probes[k].seconds_per_iteration);
    if (probes[k].converged() && probes[k].seconds_total <= settings.repeat_below_seconds)
      short_kappas.push_back(kappas[k]), short_probes.push_back(probes[k]);
  }
  if (short_kappas.empty()) return prices;
  const std::vector<MedianSolve> medians =
      median_of_interleaved_solves(options, short_kappas, settings.repeats, short_probes, {}, settings.stop);
  for (std::size_t j = 0; j < short_kappas.size(); ++j) {
    const auto k = std::size_t(std::find(kappas.begin(), kappas.end(), short_kappas[j]) - kappas.begin());
    prices[k] =
        medians[j].result.seconds_total / probes[k].iterations;  // the same iterations: a solve is deterministic
  }
  return prices;
}

// MGCG's price of an iteration: its cycle priced by the per-level costs, times a scale, plus
// CG's own work (its operator, dot products, norms), the same for every kappa: the least-squares
// line through the kappas' timed iterations over their cycles so priced. The cycles set the
// order; the timed iterations alone (each kappa timed on its own) did not: kappa=4's below
// kappa=3's by 26 %, and the picks with the solved counts were within 5 % of the best in 31 of
// 39 rows against 39 of 39 so priced (advisor-table rows of three runs, docs/model.md). One
// factor alone (the median ratio, before) priced the V-cycle, whose cycle is the smallest share
// of its iteration, a median 4 % too cheap beside the other kappas (26 rows of two advisor
// tables), and xyzebra-galerkin+cg at 7 levels picked it against kappa=2 at +16 % in both; on the
// line a median 1 % too dear, and the picks from the predicted counts were within 5 % of the
// best in 25 of the 26 rows against 22. Where noise tilts the line to a negative intercept or
// slope, that one factor.
Line krylov_price(const Calibration& calibration, const LevelCosts& costs, const std::string& method,
                  const std::vector<int>& kappas, int levels, CoarsestCalls coarsest) {
  std::vector<double> cycles, timed, ratios;
  for (const int kappa : kappas) {
    cycles.push_back(costs.cycle_seconds(kappa, coarsest));
    timed.push_back(*calibration.krylov_seconds(method, kappa, levels));
    ratios.push_back(timed.back() / cycles.back());
  }
  const std::optional<Line> line = least_squares_line(cycles, timed);
  if (line && line->intercept >= 0 && line->slope > 0) return *line;
  return Line{0, median(ratios)};
}

// Which time per iteration the advice uses, and why: the per-level costs where the calibration
// timed this level count (they follow the caches), else the paper's model, else the probes.
TimeSource choose_time_source(const SolverOptions& options, const AdvisorSettings& settings,
                              std::optional<LevelCosts>& costs, std::string& note) {
  const std::string n = std::to_string(options.levels) + " levels";
  if (!settings.calibration) {
    note = "time per iteration: measured in the probes (no calibration given)";
    return TimeSource::Probe;
  }
  if (options.solver != SolverKind::Multigrid) {
    const std::string method(to_string(options.solver));
    const bool timed = std::all_of(settings.kappas.begin(), settings.kappas.end(), [&](int kappa) {
      return settings.calibration->krylov_seconds(method, kappa, options.levels).has_value();
    });
    if (timed) {
      const bool process_grid = options.backend == BackendKind::Mpi && mpi_ranks() > 1;
      if (!process_grid) costs = level_costs(*settings.calibration, options.levels);
      note = costs ? "time per iteration: the calibration's measured seconds per call on each level at " + n +
                         ", times the calls kappa makes there, on the line through " + method +
                         "'s timed iterations against their cycles (a scale, plus its own work)"
                   : "time per iteration: the calibration's timed " + method + " iterations at " + n;
      return TimeSource::KrylovTimings;
    }
    note = "time per iteration: measured in the probes (the calibration timed no " + method + " iterations at " + n +
           ": calibrate the " + method + " solve with --max-levels >= " + std::to_string(options.levels) + ")";
    return TimeSource::Probe;
  }
  const bool process_grid = options.backend == BackendKind::Mpi && mpi_ranks() > 1;
  if (!process_grid) costs = level_costs(*settings.calibration, options.levels);
  if (costs) {
    note = "time per cycle: the calibration's measured seconds per call on each level at " + n +
           ", times the calls kappa makes there";
    return TimeSource::LevelCosts;
  }
  note = process_grid ? "time per cycle: the paper's model with lambda on this process grid"
                      : "time per cycle: the paper's model alpha launches + beta ops (the calibration has no per-level "
                        "timings at " +
                            n + ": recalibrate with --max-levels >= " + std::to_string(options.levels) + ")";
  return TimeSource::PaperModel;
}

}  // namespace

const char* to_string(IterationSource source) {
  switch (source) {
    case IterationSource::Probe: return "probe";
    case IterationSource::CoarseForecast: return "coarse-forecast";
    case IterationSource::Lfa: return "lfa";
  }
  return "?";
}

namespace {

// Each kappa's factor by local Fourier analysis (one analysis for all), or nothing where LFA
// cannot analyse these options; `why` then says why.
std::optional<lfa::LfaResult> analyse_kappas(const SolverOptions& options, const std::vector<int>& kappas,
                                             std::string& why) {
  lfa::LfaSettings settings;
  settings.cycle = multigrid_settings(options);
  why = lfa::settings_problem(settings);
  if (!why.empty()) return std::nullopt;
  return lfa::analyse(settings, kappas);
}

}  // namespace

const char* to_string(TimeSource source) {
  switch (source) {
    case TimeSource::Probe: return "probe";
    case TimeSource::LevelCosts: return "level-costs";
    case TimeSource::KrylovTimings: return "krylov-timings";
    case TimeSource::PaperModel: return "paper-model";
  }
  return "?";
}

namespace {

void take_forecast_counts(KappaPrediction& p, const CoarseForecast& coarse, double tolerance) {
  p.predicted_iterations = coarse.iterations_at_target;
  p.iterations_low = coarse.low;
  p.iterations_high = coarse.high;
  p.factor = std::pow(tolerance, 1.0 / p.predicted_iterations);  // the mean factor it implies
}

void take_forecast(KappaPrediction& p, const CoarseForecast& coarse, double tolerance) {
  take_forecast_counts(p, coarse, tolerance);
  p.basis = "forecast from " + coarse.basis;
}

// The advice's budget: the budget's fraction of the fastest candidate's solve as predicted now.
double current_budget(const SolverOptions& options, const AdvisorSettings& settings, const Advice& advice) {
  double fastest = std::numeric_limits<double>::infinity();
  for (const KappaPrediction& p : advice.candidates)
    fastest = std::min(fastest, p.predicted_iterations * p.seconds_per_iteration);
  return forecast_budget(options, settings.forecast) * fastest;
}

// The advice's budget left to spend: the current budget (less a fifth: a stage overshoots its
// share by its set-ups and last iterations), less what the advice took so far. It follows the
// forecasts as the probes refine them, so a probe that brings the fastest kappa's solve down
// shrinks what the later stages get.
double budget_left(const SolverOptions& options, const AdvisorSettings& settings, const Advice& advice,
                   const RunClock& started) {
  const double spent = started.seconds();
  return 0.8 * current_budget(options, settings, advice) - spent;
}

// How the coarse solves run (the first stage, and the random starts after it). On the CPU
// backend each on one thread (at 4-5 levels two threads take as long per iteration as one and
// three times as long to set up), side by side on the process's cores where that pays
// (side_by_side_pays: from windows of kSideBySideFromLevels levels), else one after the other;
// elsewhere one after the other on the options' own resources.
struct CoarseRuns {
  int at_once = 1;
  bool one_thread = false;
};

CoarseRuns coarse_runs(const SolverOptions& options, const CoarseForecastSettings& forecast) {
  const ExecutionTarget where = resolve(options).target;
  if (where.backend != BackendKind::Cpu) return {};
  const int cores = where.threads > 0 ? where.threads : available_cores();
  return {side_by_side_pays(options, forecast) ? cores : 1, true};
}

// The options of each kappa's coarse solves, as `runs` runs them.
std::vector<SolverOptions> coarse_targets(const SolverOptions& options, const std::vector<int>& kappas,
                                          CoarseRuns runs) {
  std::vector<SolverOptions> targets;
  for (const int kappa : kappas) {
    targets.push_back(options);
    targets.back().cycle = {CycleType::Kappa, kappa};
    if (runs.one_thread) targets.back().threads = 1;
  }
  return targets;
}

struct FirstStage {
  CoarseRuns runs;
  double seconds = 0;  // what it took, one random start each
};

// The third stage: the coarse solves again from more random starts (settings.forecast's seeds),
// side by side as the first stage ran, where what is left of the budget pays for them (they cost
// about the first stage once more per start); each solved point becomes the median count and
// each forecast is refitted. A random start's count moves 5-25 % with its seed (docs/model.md).
void add_random_starts(const SolverOptions& options, const AdvisorSettings& settings,
                       std::vector<CoarseForecast>& forecasts, CoarseSolves& solved, FirstStage first,
                       const RunClock& started, Advice& advice) {
  const int seeds = forecast_seeds(options, settings.forecast);
  if (seeds < 2) return;
  const double left = budget_left(options, settings, advice, started);
  char text[200];
  if (first.seconds * (seeds - 1) > left) {
    std::snprintf(text, sizeof text,
                  "one random start per coarse solve (%d would take about %.3g s more; the budget has %.3g s left)",
                  seeds, first.seconds * (seeds - 1), std::max(0.0, left));
    add_clause(advice.iterations_note, text);
    return;
  }
  std::vector<int> kappas;
  for (const KappaPrediction& p : advice.candidates) kappas.push_back(p.kappa);
  const std::vector<SolverOptions> targets = coarse_targets(options, kappas, first.runs);
  solve_coarse_windows(targets, settings.forecast, first.runs.at_once, solved, settings.stop);
  for (std::size_t k = 0; k < advice.candidates.size(); ++k) {
    KappaPrediction& p = advice.candidates[k];
    if (!forecasts[k].converged || forecasts[k].levels.empty() || p.converged_in_probe) continue;
    const std::size_t before = forecasts[k].basis.size();
    if (!take_seed_medians(forecasts[k], targets[k], solved)) continue;
    take_forecast_counts(p, forecasts[k], options.tolerance);
    p.basis += forecasts[k].basis.substr(before);
  }
  std::snprintf(text, sizeof text, "the coarse solves' counts the median of %d random starts", seeds);
  add_clause(advice.iterations_note, text);
}

// The calibration's seconds per iteration of `kappa` on a hierarchy of `levels` like the
// target's: its per-level costs there, MGCG its timed Krylov iterations there; 0 where it timed
// none (or the run is on a process grid, which it does not price by levels).
double calibrated_price(const SolverOptions& options, const AdvisorSettings& settings, int kappa, int levels) {
  if (!settings.calibration || (options.backend == BackendKind::Mpi && mpi_ranks() > 1)) return 0;
  if (options.solver != SolverKind::Multigrid)
    return settings.calibration->krylov_seconds(std::string(to_string(options.solver)), kappa, levels).value_or(0);
  const std::optional<LevelCosts> costs = level_costs(*settings.calibration, levels);
  return costs ? costs->cycle_seconds(kappa, options.coarsest_calls) : 0;
}

// The second stage of the coarse forecast: what is left of the advice's budget (a fraction of
// the fastest kappa's predicted solve, less what the advice took so far) goes to probes one or
// two levels below the target. The contenders (within contender_reach of the fastest) first, at
// one level for all, the deepest whose first iterations fit what is left, so that their
// forecasts share the fit's bias; then, if they were, the others, each at the deepest level its
// share of what is left allows (a probe of a kappa that cannot win only sharpens its count). A
// kappa left without one keeps the solves' fit, and its basis says why.
void refine_forecasts(const SolverOptions& options, const AdvisorSettings& settings,
                      std::vector<CoarseForecast>& forecasts, const CoarseSolves& solved, CoarseRuns runs,
                      const RunClock& started, Advice& advice) {
  const auto predicted = [&](std::size_t k) {
    return advice.candidates[k].predicted_iterations * advice.candidates[k].seconds_per_iteration;
  };
  const auto probeable = [&](std::size_t k) {
    return forecasts[k].converged && !forecasts[k].levels.empty() && !advice.candidates[k].converged_in_probe;
  };
  // A kappa whose solves counted what an earlier kappa's did, level by level (its twin), is not
  // probed where the contenders' probes do not fit together: the twin's probe serves it
  // (place_unprobed places it beside that probe). kappa = 3, 4 and W solve alike below 7-8
  // levels (jacobi at 8 levels: three probes of 64-75 iterations, all three estimating 110), but
  // not always at the probe's level: xyzebra-galerkin counts 87, 81, 80 at 9 levels after 59, 59,
  // 59 at 8, so where all of them fit each keeps its own probe.
  std::vector<std::size_t> order, twin_of(advice.candidates.size());
  for (std::size_t k = 0; k < advice.candidates.size(); ++k) {
    if (!probeable(k)) continue;
    order.push_back(k);
    std::size_t& twin = twin_of[k];
    while (twin < k && !(probeable(twin) && same_solved_counts(forecasts[twin], forecasts[k]))) ++twin;
  }
  if (order.empty()) return;
  const auto is_twin = [&](std::size_t k) { return twin_of[k] != k; };
  bool shared = false;  // the twins left out
  const auto say_twins = [&] {
    for (std::size_t k = 0; k < advice.candidates.size() && shared; ++k)
      if (probeable(k) && is_twin(k))
        advice.candidates[k].basis +=
            "; no probe of its own (its solves counted what kappa=" +
            kappa_to_string(advice.candidates[twin_of[k]].kappa) + "'s did: " +
            (has_probe(forecasts[twin_of[k]]) ? "that one's probe serves it)" : "that one had no probe either)");
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return predicted(a) < predicted(b); });
  const double fastest = predicted(order.front());  // by the solves' fits: who contends
  // What is left follows the forecasts as each probe refines them (budget_left), so the later
  // probes' shares shrink where a probe brings the fastest solve down: xyzebra-galerkin at 9
  // levels was predicted 0.367 s before its probes, 0.317 s after, and measured 0.291 s; with the
  // budget fixed before them the advice took 1.01 of that solve.
  const auto left = [&] { return budget_left(options, settings, advice, started); };
  // What a probe's first iterations at m levels take, at the solves' prices grown per level (on
  // one thread each where they ran side by side: the probe, on all of them, runs no slower, and
  // that margin holds its set-up), and no more of them than the fit says it counts there (an
  // MGCG probe mostly solves).
  // Where the calibration timed that level count, at its price there: the small solves' prices
  // grown per level follow the first stage's moments (xzebra-semi-galerkin at 8 levels, eps =
  // 1e-5: the V-cycle's first 40 at 7 levels planned at 0.030-0.037 s in most runs, 0.064 s in
  // one whose first stage ran slow, and that one probed nothing and picked the V-cycle at +18 %).
  const auto price = [&](std::size_t k, int m) {
    return calibrated_price(options, settings, advice.candidates[k].kappa, m);
  };
  const auto first_cost = [&](std::size_t k, int m) {
    if (m <= forecasts[k].levels.back()) return std::numeric_limits<double>::infinity();
    const double count = forecast_iterations_at(forecasts[k], options, m);
    return predicted_probe_seconds(
        forecasts[k], m, int(std::min(double(settings.probe.min_iterations), std::ceil(1.2 * count))), price(k, m));
  };
  // And its set-up before them, which the share pays too: at 7 levels 0.8-2.3 ms against 0.1-0.2
  // ms an MGCG iteration (jacobi+cg at 8 levels, on this VM, where a fresh page costs 5 us), so
  // that probes planned by their iterations alone stopped after 3-12 of them, unused, and the
  // advice took up to 1.33 of the solve.
  // The first probe deeper than any hierarchy built takes fresh pages; the later ones there reuse
  // them (jacobi 9's first 8-level probe set up in 7.6-7.9 ms, the next ones in 0.8-1.6).
  int built = 0;
  for (const CoarseSolve& s : solved) built = std::max(built, s.levels);
  const auto setup = [&](int m) {
    return predicted_setup_seconds(options, m, solved, m > built ? SetupPages::Fresh : SetupPages::Reused);
  };
  const auto later_setup = [&](int m) { return predicted_setup_seconds(options, m, solved); };
  const auto fewest = [&](std::size_t k, int m) { return fewest_probe_iterations(forecasts[k], options, m); };
  const auto probe_at = [&](std::size_t k, int level, double share, int first_iterations) {
    KappaPrediction& p = advice.candidates[k];
    SolverOptions probe = options;
    probe.cycle = {CycleType::Kappa, p.kappa};
    if (runs.one_thread && level <= kOneThreadProbesUpToLevels) probe.threads = 1;
    ProbeSettings within = settings.probe;
    within.band = settings.forecast_band;
    within.min_iterations = std::max(first_iterations, fewest(k, level));
    within.max_seconds = share;
    within.solve_below_seconds = share;
    built = std::max(built, level);
    if (refine_forecast(forecasts[k], probe, level, within, settings.stop))
      take_forecast(p, forecasts[k], options.tolerance);
    else
      p.basis = "forecast from " + forecasts[k].basis;
    char spent[80];
    std::snprintf(spent, sizeof spent, " (%.3g s in all; its share %.3g s)", forecasts[k].seconds, share);
    p.basis += spent;
  };
  const auto no_probe = [&](std::size_t k, const char* why) {
    char text[160];
    std::snprintf(text, sizeof text, "; no probe nearer the target (%s; the budget left, %.3g s, is too small)", why,
                  left());
    advice.candidates[k].basis += text;
  };
  const double reach = settings.forecast.contender_reach;
  const auto contenders_end =
      std::find_if(order.begin(), order.end(), [&](std::size_t k) { return predicted(k) > reach * fastest; });
  std::vector<std::size_t> contenders(order.begin(), contenders_end), others(contenders_end, order.end());
  // Their first probe.min_iterations (40), or as few as each one's fewest (fewest_probe_iterations:
  // 20, and a quarter of its count there) where only those fit, at the deepest level where all of
  // them fit; where none does, as many as fit there, best first. Those left out are placed beside
  // a probed one (place_unprobed).
  int level = 0, first_iterations = settings.probe.min_iterations;
  std::size_t probed = 0;
  const auto fits = [&](int m, std::size_t j) {  // the first j contenders at m
    double together = 0;
    int needed = 0;
    for (std::size_t i = 0; i < j; ++i) {
      together += first_cost(contenders[i], m);
      needed = std::max(needed, fewest(contenders[i], m));
    }
    const double setups = j > 0 ? setup(m) + double(j - 1) * later_setup(m) : 0;
    const double affordable = (left() - setups) / together * settings.probe.min_iterations;
    if (j == 0 || !(affordable >= needed)) return false;
    level = m, probed = j, first_iterations = int(std::min(affordable, double(settings.probe.min_iterations)));
    return true;
  };
  for (int m = options.levels - 1; m >= options.levels - 2 && level == 0; --m) fits(m, contenders.size());
  if (level == 0 && std::any_of(order.begin(), order.end(), is_twin)) {
    shared = true;
    std::erase_if(contenders, is_twin);
    std::erase_if(others, is_twin);
    for (int m = options.levels - 1; m >= options.levels - 2 && level == 0; --m) fits(m, contenders.size());
  }
  for (int m = options.levels - 1; m >= options.levels - 2 && level == 0; --m)
    for (std::size_t j = contenders.empty() ? 0 : contenders.size() - 1; j >= 1 && level == 0; --j) fits(m, j);
  for (std::size_t j = 0; j < contenders.size(); ++j) {
    const double share = j < probed ? left() / double(probed - j) : 0;
    // Not planned, or the probes before it brought the budget down (share_pays_for_probe).
    if (share <= 0 || !share_pays_for_probe(forecasts[contenders[j]], options, level, setup(level), share,
                                            price(contenders[j], level)))
      no_probe(contenders[j], "a contender");
    else
      probe_at(contenders[j], level, share, first_iterations);
  }
  char why[80];
  std::snprintf(why, sizeof why, "predicted over %.3gx the fastest", reach);
  for (std::size_t j = 0; j < others.size(); ++j) {
    const double share = left() / double(others.size() - j);
    int at = 0;
    for (int m = options.levels - 1; m >= options.levels - 2 && at == 0 && level != 0; --m)
      if (first_cost(others[j], m) + setup(m) <= share &&
          share_pays_for_probe(forecasts[others[j]], options, m, setup(m), share, price(others[j], m)))
        at = m;
    if (at == 0)
      no_probe(others[j], why);
    else
      probe_at(others[j], at, share, settings.probe.min_iterations);
  }
  say_twins();
  char text[160];
  std::snprintf(text, sizeof text,
                "the forecast's budget: %.2f of the fastest predicted solve (%.4g s after the probes)",
                forecast_budget(options, settings.forecast), current_budget(options, settings, advice));
  add_clause(advice.iterations_note, text);
}

// The kappas the budget left without a probe nearer the target get a point at the probes' level
// placed by the kappa-recursion (place_by_recursion): beside the probed kappa nearest in it, or
// from the kappas' own counts there. Simulated with 40-iteration probe estimates on the 3-seed
// cache at 7-10 levels (docs/model.md, "The recursion as a count model"), with the fit in
// levels^0.75: 315-328 of 360 counts within 15 % for any one or two probed kappas, where scaling
// by the ratio of their counts with the fit in the level put 253-314; 320 with no probe, where
// each kappa's own fit put 268. Where the recursion cannot be fitted, the kappa takes the forecast
// of the probed kappa most alike (nearest_probed), scaled by the ratio of their counts
// (scale_from_anchor).
void place_unprobed(const SolverOptions& options, const std::vector<int>& kappas,
                    std::vector<CoarseForecast>& forecasts, Advice& advice) {
  std::vector<std::size_t> before(forecasts.size());
  for (std::size_t k = 0; k < forecasts.size(); ++k) before[k] = forecasts[k].basis.size();
  const std::vector<Placement> placement = place_by_recursion(forecasts, kappas, options);
  for (std::size_t k = 0; k < forecasts.size(); ++k) {
    const CoarseForecast& f = forecasts[k];
    KappaPrediction& p = advice.candidates[k];
    if (!f.converged || f.levels.empty() || p.converged_in_probe || has_probe(f)) continue;
    if (placement[k] == Placement::Placed) take_forecast_counts(p, f, options.tolerance);
    if (placement[k] == Placement::Unavailable) {
      const std::size_t nearest = nearest_probed(forecasts, k);
      if (nearest != forecasts.size() && scale_from_anchor(forecasts[k], forecasts[nearest], options,
                                                           kappa_to_string(advice.candidates[nearest].kappa)))
        take_forecast_counts(p, f, options.tolerance);
    }
    p.basis += f.basis.substr(before[k]);  // placed, scaled, or why not
  }
}

// Runs `pass` over the forecasts; each candidate whose forecast's basis the pass extended (and
// that did not converge in a probe) takes the forecast's new counts and the basis's new part.
template <class Pass>
void take_what_the_pass_changed(const SolverOptions& options, std::vector<CoarseForecast>& forecasts, Advice& advice,
                                Pass pass) {
  std::vector<std::size_t> before(forecasts.size());
  for (std::size_t k = 0; k < forecasts.size(); ++k) before[k] = forecasts[k].basis.size();
  pass();
  for (std::size_t k = 0; k < forecasts.size(); ++k) {
    KappaPrediction& p = advice.candidates[k];
    if (forecasts[k].basis.size() == before[k] || p.converged_in_probe) continue;
    take_forecast_counts(p, forecasts[k], options.tolerance);
    p.basis += forecasts[k].basis.substr(before[k]);
  }
}

// The counts still growing as fast as before (not the W-cycle's, nor within 5 % of it) are refitted
// as such (fit_growing_counts): stand-alone in the level count, not its power; MGCG log-linearly.
void refit_growing_counts(const SolverOptions& options, std::vector<CoarseForecast>& forecasts, Advice& advice) {
  take_what_the_pass_changed(options, forecasts, advice, [&] { fit_growing_counts(forecasts, options); });
}

// MGCG's counts still growing are placed at the target by the recursion in CG's counts squared
// (place_at_target_by_recursion), after the refits.
void place_growing_at_target(const SolverOptions& options, const std::vector<int>& kappas,
                             std::vector<CoarseForecast>& forecasts, Advice& advice) {
  take_what_the_pass_changed(options, forecasts, advice,
                             [&] { place_at_target_by_recursion(forecasts, kappas, options); });
}

KappaPrediction& candidate(Advice& advice, int kappa) {
  return *std::find_if(advice.candidates.begin(), advice.candidates.end(),
                       [&](const KappaPrediction& p) { return p.kappa == kappa; });
}

// Each candidate's predicted time, and the kappa recommended (recommend); where a near-tie
// handed the pick on from the fastest predicted, the note says so.
void take_recommendation(const SolverOptions& options, const AdvisorSettings& settings, Advice& advice) {
  for (KappaPrediction& p : advice.candidates) p.predicted_seconds = p.predicted_iterations * p.seconds_per_iteration;
  const Recommendation r =
      recommend(advice.candidates, options.max_iterations, settings.near_tie, counts_alike(options));
  advice.recommended_kappa = r.kappa;
  advice.fastest_kappa = r.fastest;
  advice.fits_max_iterations = r.fits_max_iterations;
  advice.tie_note.clear();
  if (r.kappa == r.fastest) return;
  const KappaPrediction &pick = candidate(advice, r.kappa), &fastest = candidate(advice, r.fastest);
  char text[400];
  std::snprintf(text, sizeof text,
                "a near-tie: kappa=%s recommended, predicted %.1f %% slower than kappa=%s (within the near-tie's %.3g "
                "%%) but in fewer iterations (%.0f against %.0f): a cheaper cycle's higher count is the less certain "
                "(it moves more with the start, and in near-ties the forecast has put it low)",
                kappa_to_string(pick.kappa).c_str(), 100.0 * (pick.predicted_seconds / fastest.predicted_seconds - 1.0),
                kappa_to_string(fastest.kappa).c_str(), 100.0 * settings.near_tie, pick.predicted_iterations,
                fastest.predicted_iterations);
  advice.tie_note = text;
}

// The near-tie settle would probe (AdvisorSettings::settle): the pick and the kappas whose time
// bands overlap its band and that are predicted within settle_reach of it, less those settled
// before, and about what their probes take: half each one's predicted solve, and at least the
// probes' fewest iterations.
void plan_settling(const SolverOptions& options, const AdvisorSettings& settings, Advice& advice) {
  advice.to_settle.clear();
  advice.settle_seconds = 0;
  if (advice.candidates.empty()) return;
  const std::vector<int> close = close_to_recommended(advice, options.max_iterations);
  const KappaPrediction& pick = candidate(advice, advice.recommended_kappa);
  std::vector<int> tie{pick.kappa};
  for (const int kappa : close) {
    const KappaPrediction& p = candidate(advice, kappa);
    if (p.predicted_seconds <= settings.settle_reach * pick.predicted_seconds && int(tie.size()) < settings.settle_most)
      tie.push_back(kappa);
  }
  if (tie.size() < 2) return;
  for (const int kappa : tie)  // a kappa settled before keeps its probe's count
    if (!candidate(advice, kappa).settled) advice.to_settle.push_back(kappa);
  for (const int kappa : advice.to_settle) {
    const KappaPrediction& p = candidate(advice, kappa);
    const double iterations =
        std::min(p.predicted_iterations, std::max(double(settings.probe.min_iterations), 0.5 * p.predicted_iterations));
    advice.settle_seconds += iterations * p.seconds_per_iteration;
  }
}

// The kappas plan_settling chose, probed at the target size in turns (probe_in_turns): each
// takes its probe's count. Their prices stay the calibration's where it priced the cycles: the
// probes' own prices of 80-90 iterations put jacobi 8's kappa = 2 over kappa = 3 at 0.75-0.90
// in five runs of one minute (the solves' 0.83, the calibration's 0.82), the machine's noise as
// large as the near-tie. Without a calibration the probes priced every kappa already; those
// settled take their probes' prices here (their median iteration, in turns), and the others are
// scaled by what these came to over their earlier prices. Returns whether it settled: not where
// the probes' hierarchies together would take over half the memory this process may still take.
bool settle_at_target(const SolverOptions& options, const AdvisorSettings& settings, Advice& advice) {
  std::vector<SolverOptions> probes;
  std::size_t bytes = 0;
  for (const int kappa : advice.to_settle) {
    probes.push_back(options);
    probes.back().cycle = {CycleType::Kappa, kappa};
    bytes += memory_account(probes.back(), resolve(probes.back())).peak_host_bytes();
  }
  const std::string kappas = kappas_to_string(advice.to_settle);
  if (const std::optional<std::size_t> free = available_memory_bytes(); free && bytes > *free / 2) {
    advice.settle_note += std::string(advice.settle_note.empty() ? "" : "; then ") + "kappa=" + kappas +
                          " not settled: their " + std::to_string(probes.size()) +
                          " hierarchies at the target size would take " + bytes_text(bytes) +
                          ", over half the memory this process may still take (" + bytes_text(*free) + ")";
    return false;
  }
  ProbeSettings each = settings.probe;
  each.band = settings.forecast_band;
  each.drift = 0.01;             // 80-90 iterations of jacobi 8's kappa = 2 and 3 against 110, within 1 %
  each.solve_below_seconds = 0;  // a probe stops once its count is known; one that converges, converges
  // No share of a budget caps them (the advice's prices may be far from this run's: under a
  // sanitizer a cap at four times the planned time stopped jacobi 8's probes at 115 for 164-166).
  const RunClock clock(options);
  const std::vector<ProbeResult> results = probe_in_turns(probes, each, settings.stop);
  const bool probe_priced = advice.time_source == TimeSource::Probe;
  double settled_prices = 0, earlier_prices = 0;
  std::string counts;
  for (std::size_t j = 0; j < results.size(); ++j) {
    KappaPrediction& p = candidate(advice, advice.to_settle[j]);
    const SolveResult& r = results[j].solve;
    const IterationEstimate& e = results[j].estimate;
    char text[200];
    std::snprintf(text, sizeof text, "; settled at the target size: %s of %d iterations, %.0f (it was %.0f)",
                  r.converged() ? "solved in a probe" : "a probe", r.iterations, e.iterations, p.predicted_iterations);
    p.basis += text;
    p.settled = true;
    p.probe_iterations = r.iterations;
    p.probe_seconds_per_iteration = r.seconds_per_iteration;
    p.converged_in_probe = r.converged();
    p.predicted_iterations = e.iterations;
    p.iterations_low = e.low;
    p.iterations_high = e.high;
    p.factor = r.converged() ? r.mean_factor : e.rho;
    if (probe_priced) {
      earlier_prices += p.seconds_per_iteration;
      p.measured_price = p.seconds_per_iteration = median_priced(r);
      settled_prices += p.seconds_per_iteration;
    }
    std::snprintf(text, sizeof text, "%s%.0f", counts.empty() ? "" : ", ", e.iterations);
    counts += text;
  }
  char text[320];
  if (probe_priced) {
    const double scale = settled_prices / earlier_prices;
    for (KappaPrediction& p : advice.candidates)
      if (!p.settled) p.seconds_per_iteration *= scale;
    std::snprintf(text, sizeof text, ", each priced by its median iteration there, the others' prices scaled by %.3f",
                  scale);
    const std::string clause = "the settled kappas' from their probes at the target size";
    if (advice.time_note.find(clause) == std::string::npos) add_clause(advice.time_note, clause);
  } else {
    std::snprintf(text, sizeof text, ", priced as before");
  }
  std::string note = "kappa=" + kappas + " settled at the target size: probed in turns (" + counts +
                     " iterations to the tolerance)" + text;
  std::snprintf(text, sizeof text, " (%.3g s)", clock.seconds());
  advice.settle_note += (advice.settle_note.empty() ? "" : "; then ") + note + text;
  advice.to_settle.clear();
  return true;
}

}  // namespace

Advice advise(const SolverOptions& options, const AdvisorSettings& settings) {
  validate(options);
  Advice advice;
  std::optional<LevelCosts> costs;
  advice.time_source = choose_time_source(options, settings, costs, advice.time_note);
  if (advice.time_source == TimeSource::KrylovTimings && costs) {
    const Line price = krylov_price(*settings.calibration, *costs, std::string(to_string(options.solver)),
                                    settings.kappas, options.levels, options.coarsest_calls);
    advice.level_cost_scale = price.slope;
    advice.krylov_seconds_per_iteration = price.intercept;
    char line[160];
    if (price.intercept > 0)
      std::snprintf(line, sizeof line, ": %.3f x the cycle + %.3g s", price.slope, price.intercept);
    else
      std::snprintf(line, sizeof line, ": %.3f x the cycle (the line's intercept came out negative: the median ratio)",
                    price.slope);
    advice.time_note += line;
  }
  double probe_seconds = 0, modelled_seconds = 0;  // the probes' iterations: measured, and as the levels price them
  const RunClock started(options);
  const bool forecast =
      settings.iterations_from == IterationSource::CoarseForecast && coarse_forecast_fits(options, settings.forecast);
  std::string lfa_why;
  const std::optional<lfa::LfaResult> lfa = settings.iterations_from == IterationSource::Lfa
                                                ? analyse_kappas(options, settings.kappas, lfa_why)
                                                : std::nullopt;
  advice.iterations_from = forecast ? IterationSource::CoarseForecast
                           : lfa    ? IterationSource::Lfa
                                    : IterationSource::Probe;
  bool warm = false;
  std::vector<CoarseForecast> forecasts(settings.kappas.size());
  CoarseSolves coarse_solves;  // shared by the kappas: those that are the W-cycle on a small hierarchy solve once
  // The first stage solves the target's own random start; more starts come last, from what the
  // probes leave of the budget (a probe nearer the target tells more than a median).
  CoarseForecastSettings first_stage = settings.forecast;
  first_stage.seeds = 1;
  FirstStage first;
  if (forecast) {
    first.runs = coarse_runs(options, first_stage);
    solve_coarse_windows(coarse_targets(options, settings.kappas, first.runs), first_stage, first.runs.at_once,
                         coarse_solves, settings.stop);
    first.seconds = started.seconds();
  }
  std::vector<SolveResult> probes;
  std::vector<int> probed_kappas;
  for (std::size_t k = 0; k < settings.kappas.size(); ++k) {
    const int kappa = settings.kappas[k];
    SolverOptions probe = options;
    probe.cycle = {CycleType::Kappa, kappa};
    KappaPrediction p;
    p.kappa = kappa;
    CoarseForecast& coarse = forecasts[k];
    if (forecast) coarse = forecast_from_coarse_solves(probe, first_stage, coarse_solves, settings.stop);
    if (forecast && coarse.converged) {
      take_forecast(p, coarse, options.tolerance);
    } else if (lfa) {
      p.factor = lfa::solve_factor(options, lfa->kappa_factors[k].factor);
      p.predicted_iterations = p.iterations_low = p.iterations_high =
          lfa::iterations_to_reduce(p.factor, options.tolerance);
      p.basis = "local Fourier analysis (" + std::to_string(lfa->depth) + " levels analysed, the infinite grid)";
    }
    const bool predicted = (forecast && coarse.converged) || lfa;
    if (predicted) {
      if (advice.time_source == TimeSource::Probe) {
        // The time per iteration from a few iterations at the target size: a coarse solve's
        // time does not scale by the operations (the 6-level iteration is mostly launches and
        // norms: 2.5x the 8-level one's price per operation). With a calibration nothing runs
        // at the target size: its scale to this run (1.04-1.14 measured) is the same for every
        // kappa and does not change the pick.
        if (!warm) warm_up(options, settings.stop), warm = true;
        ProbeSettings timing = settings.probe;
        timing.min_iterations = timing.max_iterations = settings.timing_iterations;
        IterationEstimate unused;
        probes.push_back(probe_solve(probe, timing, unused, settings.stop));
        probed_kappas.push_back(kappa);
        SolveResult& r = probes.back();
        r.seconds_per_iteration = median_priced(r);
        p.probe_iterations = r.iterations;
        p.probe_seconds_per_iteration = r.seconds_per_iteration;
        if (r.converged()) {  // it solved within the timing: exact
          p.converged_in_probe = true;
          p.predicted_iterations = p.iterations_low = p.iterations_high = r.iterations;
          p.factor = r.mean_factor;
          p.basis = "solved at the target size (within its timing)";
        }
      }
    } else {
      if (!warm) warm_up(options, settings.stop), warm = true;
      IterationEstimate estimate;
      probes.push_back(probe_solve(probe, settings.probe, estimate, settings.stop));
      probed_kappas.push_back(kappa);
      const SolveResult& r = probes.back();
      p.probe_iterations = r.iterations;
      p.probe_seconds_per_iteration = r.seconds_per_iteration;
      p.converged_in_probe = r.converged();
      p.probe_reduction = r.monitor == Monitor::Error ? r.error_reduction : r.residual_reduction;
      p.factor = estimate.rho;
      p.predicted_iterations = estimate.iterations;
      p.iterations_low = estimate.low;
      p.iterations_high = estimate.high;
      p.basis = r.converged() ? "solved at the target size"
                              : "a probe of " + std::to_string(r.iterations) + " iterations at the target size";
      if (forecast) p.basis += " (" + coarse.basis + ")";
      if (settings.iterations_from == IterationSource::Lfa) p.basis += " (no LFA: " + lfa_why + ")";
    }
    switch (advice.time_source) {
      case TimeSource::Probe: break;  // below, all kappas together
      case TimeSource::LevelCosts: p.seconds_per_iteration = costs->cycle_seconds(kappa, options.coarsest_calls); break;
      case TimeSource::KrylovTimings:
        p.seconds_per_iteration =
            costs
                ? costs->cycle_seconds(kappa, options.coarsest_calls) * advice.level_cost_scale +
                      advice.krylov_seconds_per_iteration
                : *settings.calibration->krylov_seconds(std::string(to_string(options.solver)), kappa, options.levels);
        break;
      case TimeSource::PaperModel: {
        const CostModel& model = settings.calibration->model;
        const ResolvedRun run = resolve(probe, probe.backend);
        if (probe.backend == BackendKind::Mpi && mpi_ranks() > 1) {  // the model on this run's process grid
          const ExecutionTarget& t = run.target;
          const auto [px, py] = process_grid(mpi_ranks(), t.ranks_x, t.ranks_y);
          const Decomposition d(options.levels, options.coarsening, px, py, agglomeration_threshold(options));
          p.seconds_per_iteration = distributed_cycle_cost(run.settings, kappa, d, model).seconds;
        } else {
          p.seconds_per_iteration =
              model.predict(double(run.schedule.launches_per_cycle(kappa)),
                            cycle_ops(kappa, options.levels, options.coarsening, options.coarsest_calls));
        }
        break;
      }
    }
    advice.candidates.push_back(p);
  }
  if (advice.time_source != TimeSource::PaperModel && !probes.empty()) {
    const std::vector<double> prices = probe_prices(options, probed_kappas, probes, settings);
    for (std::size_t j = 0; j < prices.size(); ++j) {
      const auto k = std::size_t(std::find(settings.kappas.begin(), settings.kappas.end(), probed_kappas[j]) -
                                 settings.kappas.begin());
      KappaPrediction& p = advice.candidates[k];
      p.measured_price = prices[j];
      if (advice.time_source == TimeSource::Probe) p.seconds_per_iteration = prices[j];
      probe_seconds += prices[j] * p.probe_iterations;
      modelled_seconds += p.seconds_per_iteration * p.probe_iterations;
    }
  }
  // The per-level costs say what each kappa's cycle costs beside the others'; the probes, run
  // now, say what this run's iterations cost (their norms and bookkeeping, the machine's state;
  // short ones by their median solves, round-robin, as the time of a few milliseconds varies):
  // one factor for all kappas brings the first to the second.
  if (advice.time_source == TimeSource::LevelCosts && modelled_seconds > 0 && probe_seconds > 0) {
    advice.level_cost_scale = probe_seconds / modelled_seconds;
    for (KappaPrediction& p : advice.candidates) p.seconds_per_iteration *= advice.level_cost_scale;
    char scale[160];
    std::snprintf(scale, sizeof scale, "; scaled by %.3f to this run's probes (their iterations, all kappas together)",
                  advice.level_cost_scale);
    advice.time_note += scale;
  }
  if ((forecast || lfa) && probes.empty() &&
      (advice.time_source == TimeSource::LevelCosts || advice.time_source == TimeSource::KrylovTimings))
    advice.time_note += " (not scaled to this run: nothing ran at the target size)";
  if (forecast && settings.forecast.refine)
    refine_forecasts(options, settings, forecasts, coarse_solves, first.runs, started, advice);
  if (forecast) add_random_starts(options, settings, forecasts, coarse_solves, first, started, advice);
  if (forecast && settings.forecast.refine) place_unprobed(options, settings.kappas, forecasts, advice);
  if (forecast) refit_growing_counts(options, forecasts, advice);
  if (forecast && settings.forecast.refine) place_growing_at_target(options, settings.kappas, forecasts, advice);
  take_recommendation(options, settings, advice);
  plan_settling(options, settings, advice);
  // Settled counts may hand the pick to a kappa that was not close before (xyzebra-galerkin+cg
  // at 7 levels: kappa = 1 and 2 settled at 26 and 17, and kappa = 3's forecast then led): its
  // near-tie is settled once more.
  for (int round = 0; round < 2 && settings.settle && !advice.to_settle.empty(); ++round) {
    if (!settle_at_target(options, settings, advice)) break;
    take_recommendation(options, settings, advice);
    plan_settling(options, settings, advice);
  }
  advice.seconds = started.seconds();
  return advice;
}

double counts_alike(const SolverOptions& options) {
  return options.solver == SolverKind::Multigrid ? kStandAloneCountsAlike : kKrylovCountsAlike;
}

Recommendation recommend(const std::vector<KappaPrediction>& candidates, int max_iterations, double near_tie,
                         double counts_alike) {
  Recommendation r;
  const auto fits = [&](const KappaPrediction& p) { return p.predicted_iterations <= max_iterations; };
  r.fits_max_iterations = std::any_of(candidates.begin(), candidates.end(), fits);
  const auto eligible = [&](const KappaPrediction& p) { return fits(p) || !r.fits_max_iterations; };
  const KappaPrediction* fastest = nullptr;
  for (const KappaPrediction& p : candidates)
    if (eligible(p) && (!fastest || p.predicted_seconds < fastest->predicted_seconds)) fastest = &p;
  if (!fastest) return r;
  const KappaPrediction* pick = fastest;
  for (const KappaPrediction& p : candidates) {
    if (!eligible(p) || !(p.predicted_seconds <= (1.0 + near_tie) * fastest->predicted_seconds)) continue;
    const double fewer = pick->predicted_iterations - p.predicted_iterations;
    const double alike = counts_alike * pick->predicted_iterations;
    if (fewer >= alike || (fewer > -alike && p.predicted_seconds < pick->predicted_seconds)) pick = &p;
  }
  r.kappa = pick->kappa;
  r.fastest = fastest->kappa;
  return r;
}

std::vector<int> close_to_recommended(const Advice& advice, int max_iterations) {
  std::vector<const KappaPrediction*> close;
  const auto pick = std::find_if(advice.candidates.begin(), advice.candidates.end(),
                                 [&](const KappaPrediction& p) { return p.kappa == advice.recommended_kappa; });
  if (!advice.fits_max_iterations || pick == advice.candidates.end()) return {};
  for (const KappaPrediction& p : advice.candidates)
    if (&p != &*pick && p.predicted_iterations <= max_iterations && p.seconds_low() <= pick->seconds_high())
      close.push_back(&p);
  std::stable_sort(close.begin(), close.end(), [](const KappaPrediction* a, const KappaPrediction* b) {
    return a->predicted_seconds < b->predicted_seconds;
  });
  std::vector<int> kappas;
  for (const KappaPrediction* p : close) kappas.push_back(p->kappa);
  return kappas;
}

}  // namespace kcycle
