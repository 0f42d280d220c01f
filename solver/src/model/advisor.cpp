#include "kcycle/model/advisor.hpp"
#include "kcycle/cycle/cycle_schedule.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "kcycle/backends/execution_target.hpp"
#include "kcycle/backends/mpi/mpi_runtime.hpp"
#include "kcycle/model/distributed_model.hpp"
#include "kcycle/model/level_cost_model.hpp"
#include "kcycle/solve/resolved_run.hpp"
#include "kcycle/solve/solve.hpp"

namespace kcycle {

namespace {

// The per-iteration factor of a solve from a random guess creeps up to its asymptotic value
// algebraically, not geometrically (e.g. 0.90 after 10 V-cycles, 0.963 after 40, 0.977
// after 500), so a short probe's mean factor predicts far too few iterations. Model the
// factors as q_k = rho - c k^-p, fit rho, c, p through the factors at k = P/4, P/2, P, and
// integrate the model forward until the remaining reduction is reached. Falls back to a
// constant last factor when the factors are not increasing smoothly (e.g. CG).
double predict_iterations(const std::vector<IterationRecord>& h, double remaining, double& rho_out) {
  const int P = int(h.size());
  auto q = [&](int k) { return h[std::size_t(k - 1)].factor; };
  double rho = P > 0 ? q(P) : 1.0, c = 0.0, p = 1.0;
  if (P >= 8) {
    const double d1 = q(P / 2) - q(P / 4), d2 = q(P) - q(P / 2);
    if (d1 > 0 && d2 > 0 && d2 < d1) {
      const double ratio = d2 / d1;  // 2^-p
      p = -std::log2(ratio);
      rho = q(P) + d2 * ratio / (1.0 - ratio);
      c = (rho - q(P)) * std::pow(double(P), p);
    }
  }
  rho_out = rho;
  if (!(rho < 1.0) || !std::isfinite(rho)) return std::numeric_limits<double>::infinity();
  const double need = std::log(remaining);  // < 0
  double sum = 0.0;
  int k = P;
  while (sum > need && k < 100000000) {
    ++k;
    sum += std::log(std::max(rho - c * std::pow(double(k), -p), 1e-300));
  }
  return double(k);
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
  double best = std::numeric_limits<double>::infinity();
  for (int kappa : settings.kappas) {
    SolverOptions probe = options;
    probe.cycle = {CycleType::Kappa, kappa};
    probe.max_iterations = settings.probe_iterations;
    const SolveResult r = solve(probe);

    KappaPrediction p;
    p.kappa = kappa;
    p.probe_iterations = r.iterations;
    p.converged_in_probe = r.converged();
    p.probe_reduction = r.monitor == Monitor::Error ? r.error_reduction : r.residual_reduction;
    p.predicted_iterations = p.converged_in_probe
                                 ? double(r.iterations)
                                 : predict_iterations(r.history, options.tolerance / p.probe_reduction, p.factor);
    switch (advice.time_source) {
      case TimeSource::Probe: p.seconds_per_iteration = r.seconds_per_cycle; break;
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
    p.predicted_seconds = p.predicted_iterations * p.seconds_per_iteration;
    if (p.predicted_seconds < best) {
      best = p.predicted_seconds;
      advice.recommended_kappa = kappa;
    }
    advice.candidates.push_back(p);
  }
  return advice;
}

}  // namespace kcycle
