#include "kcycle/model/advisor.hpp"
#include "kcycle/cycle/cycle_schedule.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>

#include "kcycle/backends/mpi/mpi_runtime.hpp"
#include "kcycle/lfa/convergence.hpp"
#include "kcycle/lfa/fourier_analysis.hpp"
#include "kcycle/lfa/solve_prediction.hpp"
#include "kcycle/model/distributed_model.hpp"
#include "kcycle/model/iteration_estimate.hpp"
#include "kcycle/model/level_cost_model.hpp"
#include "kcycle/solve/execution_target.hpp"
#include "kcycle/solve/iterative_solver.hpp"
#include "kcycle/solve/resolved_run.hpp"
#include "kcycle/solve/solve.hpp"

namespace kcycle {

namespace {

// A probe: the solve with this kappa, stepped until the estimate of its iterations has settled:
// its band within +-band and the estimate moved by at most `drift` over the last 20 iterations
// (the slowest components may take over late: the 9-level V-cycle's estimate still creeps up
// 1% every 20 cycles at 200); or until it converged, or ran max_probe_iterations. Where the rest
// of the solve would take under solve_below_seconds, it simply solves: exact, and cheap.
SolveResult probe_solve(const SolverOptions& probe, const AdvisorSettings& settings, IterationEstimate& estimate) {
  IterativeSolver solver(probe, make_problem(probe));
  const auto remaining = [&] {
    const SolveResult r = solver.result(false);
    const double reduction = r.monitor == Monitor::Error ? r.error_reduction : r.residual_reduction;
    return probe.tolerance / reduction;
  };
  std::vector<double> estimates;  // at every 10th iteration from probe_iterations on
  while (solver.running()) {
    solver.step();
    if (settings.stop.stop_requested()) throw CycleCancelled();
    const int k = int(solver.history().size());
    if (k >= settings.max_probe_iterations) break;
    if (k < settings.probe_iterations || k % 10 != 0) continue;
    estimate = estimate_iterations(solver.history(), remaining());
    estimates.push_back(estimate.iterations);
    const std::size_t n = estimates.size();
    const bool steady = n >= 3 && std::abs(estimates[n - 1] - estimates[n - 3]) <= settings.drift * estimates[n - 1];
    const double rest_seconds = (estimate.iterations - k) * solver.result(false).seconds_per_iteration;
    if (steady && estimate.settled(settings.band) && rest_seconds > settings.solve_below_seconds) break;
  }
  const SolveResult r = solver.result();
  if (r.converged())
    estimate = {double(r.iterations), double(r.iterations), double(r.iterations), r.mean_factor, false};
  else
    estimate = estimate_iterations(r.history, remaining());
  return r;
}

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
  const auto start = std::chrono::steady_clock::now();
  while (solver.running() && std::chrono::steady_clock::now() - start < std::chrono::milliseconds(100)) {
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
    note =
        "time per iteration: measured in the probes (the calibration models stand-alone cycles; CG adds vector work)";
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
    case TimeSource::PaperModel: return "paper-model";
  }
  return "?";
}

Advice advise(const SolverOptions& options, const AdvisorSettings& settings) {
  validate(options);
  Advice advice;
  std::optional<LevelCosts> costs;
  advice.time_source = choose_time_source(options, settings, costs, advice.time_note);
  double probe_seconds = 0, modelled_seconds = 0;  // the probes' iterations: measured, and as the levels price them
  const auto started = std::chrono::steady_clock::now();
  const bool forecast =
      settings.iterations_from == IterationSource::CoarseForecast && coarse_forecast_fits(options, settings.forecast);
  std::string lfa_why;
  const std::optional<lfa::LfaResult> lfa = settings.iterations_from == IterationSource::Lfa
                                                ? analyse_kappas(options, settings.kappas, lfa_why)
                                                : std::nullopt;
  bool warm = false;
  std::vector<SolveResult> probes;
  std::vector<int> probed_kappas;
  for (std::size_t k = 0; k < settings.kappas.size(); ++k) {
    const int kappa = settings.kappas[k];
    SolverOptions probe = options;
    probe.cycle = {CycleType::Kappa, kappa};
    KappaPrediction p;
    p.kappa = kappa;
    CoarseForecast coarse;
    if (forecast) coarse = forecast_from_coarse_solves(probe, settings.forecast, settings.stop);
    if (forecast && coarse.converged) {
      p.predicted_iterations = coarse.iterations_at_target;
      p.iterations_low = coarse.low;
      p.iterations_high = coarse.high;
      p.factor = std::pow(options.tolerance, 1.0 / p.predicted_iterations);  // the mean factor it implies
      p.basis = "forecast from " + coarse.basis;
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
        AdvisorSettings timing = settings;
        timing.probe_iterations = timing.max_probe_iterations = settings.timing_iterations;
        IterationEstimate unused;
        probes.push_back(probe_solve(probe, timing, unused));
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
      probes.push_back(probe_solve(probe, settings, estimate));
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
      case TimeSource::LevelCosts: p.seconds_per_iteration = costs->cycle_seconds(kappa); break;
      case TimeSource::PaperModel: {
        const CostModel& model = settings.calibration->model;
        const ResolvedRun run = resolve(probe, probe.backend);
        if (probe.backend == BackendKind::Mpi && mpi_ranks() > 1) {  // the model on this run's process grid
          const ExecutionTarget& t = run.target;
          const auto [px, py] = process_grid(mpi_ranks(), t.ranks_x, t.ranks_y);
          const Decomposition d(options.levels, options.coarsening, px, py, agglomeration_threshold(options));
          p.seconds_per_iteration = distributed_cycle_cost(run.settings, kappa, d, model).seconds;
        } else {
          p.seconds_per_iteration = model.predict(double(run.schedule.launches_per_cycle(kappa)),
                                                  cycle_ops(kappa, options.levels, options.coarsening));
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
  if ((forecast || lfa) && probes.empty() && advice.time_source == TimeSource::LevelCosts)
    advice.time_note += " (not scaled to this run: nothing ran at the target size)";
  double best = std::numeric_limits<double>::infinity();
  for (KappaPrediction& p : advice.candidates) {
    p.predicted_seconds = p.predicted_iterations * p.seconds_per_iteration;
    if (p.predicted_seconds < best) {
      best = p.predicted_seconds;
      advice.recommended_kappa = p.kappa;
    }
  }
  advice.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return advice;
}

}  // namespace kcycle
