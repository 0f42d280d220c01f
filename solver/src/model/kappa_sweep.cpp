#include "kcycle/model/kappa_sweep.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "kcycle/model/interleaved_solves.hpp"
#include "kcycle/solve/solve.hpp"

namespace kcycle {

double KappaSweep::recommendation_excess() const {
  double best = NAN, recommended = NAN;
  for (const KappaSweepRow& r : rows) {
    if (r.kappa == best_kappa) best = r.seconds_total;
    if (r.kappa == advice.recommended_kappa) recommended = r.seconds_total;
  }
  return recommended / best - 1.0;
}

double KappaSweep::machine_drift() const {
  std::vector<double> ratios;
  for (std::size_t k = 0; k < rows.size() && k < advice.candidates.size(); ++k) {
    const KappaSweepRow& r = rows[k];
    const double price = advice.candidates[k].measured_price;
    if (r.converged && r.iterations > 0 && price > 0) ratios.push_back(r.seconds_total / r.iterations / price);
  }
  if (ratios.empty()) return NAN;
  std::sort(ratios.begin(), ratios.end());
  const std::size_t n = ratios.size();
  return n % 2 ? ratios[n / 2] : 0.5 * (ratios[n / 2 - 1] + ratios[n / 2]);
}

KappaSweep sweep_kappa(const SolverOptions& options, const AdvisorSettings& advisor,
                       const std::function<void(int, int, const std::string&)>& progress) {
  const int kappas = int(advisor.kappas.size());
  const int steps = kappas * advisor.repeats.min_repeats + 1;  // the probes, then each solve (at least)
  if (progress) progress(0, steps, "advisor probes");
  KappaSweep sweep;
  sweep.advice = advise(options, advisor);
  int solved = 0;
  const auto each_solve = [&](int kappa, int solves) {
    if (progress)
      progress(std::min(++solved, steps - 1) + 1, steps,
               "solving with kappa=" + kappa_to_string(kappa) + " (solve " + std::to_string(solves) + ")");
  };
  const std::vector<MedianSolve> medians =
      median_of_interleaved_solves(options, advisor.kappas, advisor.repeats, {}, each_solve);
  double best = std::numeric_limits<double>::infinity();
  for (int k = 0; k < kappas; ++k) {
    const SolveResult& r = medians[std::size_t(k)].result;
    const KappaSweepRow row{advisor.kappas[std::size_t(k)],
                            r.iterations,
                            r.converged(),
                            r.seconds_per_cycle,
                            r.seconds_total,
                            medians[std::size_t(k)].solves,
                            medians[std::size_t(k)].spread};
    if (row.converged && row.seconds_total < best) best = row.seconds_total, sweep.best_kappa = row.kappa;
    sweep.rows.push_back(row);
  }
  if (progress) progress(steps, steps, "done");
  return sweep;
}

std::string kappa_sweep_csv(const KappaSweep& sweep) {
  std::ostringstream csv;
  csv << "kappa,iterations,converged,seconds_per_cycle,seconds_total,predicted_seconds_total,predicted_low,"
         "predicted_high,predicted_iterations,best,solves,spread\n";
  csv.precision(6);
  for (std::size_t k = 0; k < sweep.rows.size(); ++k) {
    const KappaSweepRow& r = sweep.rows[k];
    KappaPrediction p;
    p.predicted_seconds = p.predicted_iterations = p.iterations_low = p.iterations_high = NAN;
    if (k < sweep.advice.candidates.size()) p = sweep.advice.candidates[k];
    csv << kappa_to_string(r.kappa) << "," << r.iterations << "," << (r.converged ? 1 : 0) << "," << r.seconds_per_cycle
        << "," << r.seconds_total << "," << p.predicted_seconds << "," << p.iterations_low * p.seconds_per_iteration
        << "," << p.iterations_high * p.seconds_per_iteration << "," << p.predicted_iterations << ","
        << (r.kappa == sweep.best_kappa ? 1 : 0) << "," << r.solves << "," << r.spread << "\n";
  }
  return csv.str();
}

}  // namespace kcycle
