#include "kcycle/model/kappa_sweep.hpp"

#include <cmath>
#include <limits>
#include <sstream>

#include "kcycle/model/advisor.hpp"
#include "kcycle/solve/solve.hpp"

namespace kcycle {

KappaSweep sweep_kappa(const SolverOptions& options, const std::optional<Calibration>& calibration,
                       const std::function<void(int, int, const std::string&)>& progress) {
  AdvisorSettings advisor;
  advisor.calibration = calibration;
  const int steps = int(advisor.kappas.size()) + 1;
  if (progress) progress(0, steps, "advisor probes");
  const Advice advice = advise(options, advisor);
  KappaSweep sweep;
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < advisor.kappas.size(); ++k) {
    SolverOptions o = options;
    o.cycle = {CycleType::Kappa, advisor.kappas[k]};
    if (progress) progress(int(k) + 1, steps, "solving with kappa=" + kappa_to_string(advisor.kappas[k]));
    const SolveResult r = solve(o);
    KappaSweepRow row{advisor.kappas[k], r.iterations, r.converged(), r.seconds_per_cycle, r.seconds_total, NAN};
    if (k < advice.candidates.size()) row.predicted_seconds_total = advice.candidates[k].predicted_seconds;
    if (row.converged && row.seconds_total < best) best = row.seconds_total, sweep.best_kappa = row.kappa;
    sweep.rows.push_back(row);
  }
  if (progress) progress(steps, steps, "done");
  return sweep;
}

std::string kappa_sweep_csv(const KappaSweep& sweep) {
  std::ostringstream csv;
  csv << "kappa,iterations,converged,seconds_per_cycle,seconds_total,predicted_seconds_total,best\n";
  csv.precision(6);
  for (const KappaSweepRow& r : sweep.rows)
    csv << kappa_to_string(r.kappa) << "," << r.iterations << "," << (r.converged ? 1 : 0) << "," << r.seconds_per_cycle
        << "," << r.seconds_total << "," << r.predicted_seconds_total << "," << (r.kappa == sweep.best_kappa ? 1 : 0)
        << "\n";
  return csv.str();
}

}  // namespace kcycle
