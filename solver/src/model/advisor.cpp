#include "kcycle/model/advisor.hpp"
#include "kcycle/cycle/cycle_schedule.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "kcycle/backends/execution_target.hpp"
#include "kcycle/backends/mpi/mpi_runtime.hpp"
#include "kcycle/model/distributed_model.hpp"
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

}  // namespace

Advice advise(const SolverOptions& options, const AdvisorSettings& settings) {
  validate(options);
  Advice advice;
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
    if (settings.model && options.solver == SolverKind::Multigrid) {
      const ResolvedRun run = resolve(probe, probe.backend);
      const MultigridSettings& ms = run.settings;
      if (probe.backend == BackendKind::Mpi && mpi_ranks() > 1) {  // the model on this run's process grid
        const ExecutionTarget& t = run.target;
        const auto [px, py] = process_grid(mpi_ranks(), t.ranks_x, t.ranks_y);
        const Decomposition d(options.levels, options.coarsening, px, py, agglomeration_threshold(options));
        p.seconds_per_iteration = distributed_cycle_cost(ms, kappa, d, *settings.model).seconds;
      } else {
        p.seconds_per_iteration = settings.model->predict(double(run.schedule.launches_per_cycle(kappa)),
                                                          cycle_ops(kappa, options.levels, options.coarsening));
      }
      p.from_model = true;
    } else {
      p.seconds_per_iteration = r.seconds_per_cycle;
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
