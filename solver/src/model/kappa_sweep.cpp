#include "kcycle/model/kappa_sweep.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
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

std::vector<int> KappaSweep::tied_with_best() const {
  const auto best =
      std::find_if(rows.begin(), rows.end(), [&](const KappaSweepRow& r) { return r.kappa == best_kappa; });
  if (best == rows.end() || !best->converged) return {};
  const auto uncertainty = [](const KappaSweepRow& r) {
    return (r.spread - 1.0) / (2.0 * std::sqrt(double(std::max(r.solves, 1))));
  };
  std::vector<int> tied{best_kappa};
  for (const KappaSweepRow& r : rows) {
    if (r.kappa == best_kappa || !r.converged) continue;
    const double margin = std::max({0.01, uncertainty(*best), uncertainty(r)});
    if (r.seconds_total <= best->seconds_total * (1.0 + margin)) tied.push_back(r.kappa);
  }
  return tied;
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

std::vector<std::string> KappaSweep::machine_notes(double unsteady_spread) const {
  std::vector<std::string> notes;
  char line[320];
  const auto widest = std::max_element(
      rows.begin(), rows.end(), [](const KappaSweepRow& a, const KappaSweepRow& b) { return a.spread < b.spread; });
  if (widest != rows.end() && widest->spread > unsteady_spread) {
    std::snprintf(line, sizeof line,
                  "the machine: kappa=%s's %d solves varied %.2fx (slowest tenth over fastest): its speed changed "
                  "while measuring",
                  kappa_to_string(widest->kappa).c_str(), widest->solves, widest->spread);
    notes.push_back(line);
  }
  const double drift = machine_drift();
  if (std::isfinite(drift) && std::abs(drift - 1.0) > 0.1) {
    std::snprintf(line, sizeof line,
                  "the machine: an iteration took %.2fx while measuring what the advisor's probes measured (median "
                  "over kappa), so an error of %+.0f%% in every kappa is the machine's change, not the model's",
                  drift, 100.0 * (1.0 / drift - 1.0));
    notes.push_back(line);
  }
  return notes;
}

KappaSweep sweep_kappa(const SolverOptions& options, const AdvisorSettings& advisor,
                       const std::function<void(int, int, const std::string&)>& progress) {
  const int kappas = int(advisor.kappas.size());
  const int steps = kappas * advisor.repeats.min_repeats + 1;  // the probes, then each solve (at least)
  if (progress) progress(0, steps, "advisor probes");
  KappaSweep sweep;
  sweep.options = options;
  sweep.advice = advise(options, advisor);
  int solved = 0;
  const auto each_solve = [&](int kappa, int solves) {
    if (progress)
      progress(std::min(++solved, steps - 1) + 1, steps,
               "solving with kappa=" + kappa_to_string(kappa) + " (solve " + std::to_string(solves) + ")");
  };
  const std::vector<MedianSolve> medians =
      median_of_interleaved_solves(options, advisor.kappas, advisor.repeats, {}, each_solve, advisor.stop);
  double best = std::numeric_limits<double>::infinity();
  for (int k = 0; k < kappas; ++k) {
    const SolveResult& r = medians[std::size_t(k)].result;
    const KappaSweepRow row{advisor.kappas[std::size_t(k)],
                            r.iterations,
                            r.converged(),
                            r.seconds_per_cycle,
                            r.seconds_total,
                            medians[std::size_t(k)].solves,
                            medians[std::size_t(k)].spread,
                            r.history,
                            std::isfinite(r.initial_error) ? r.initial_error : r.initial_residual};
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
        << "," << r.seconds_total << "," << p.predicted_seconds << "," << p.seconds_low() << "," << p.seconds_high()
        << "," << p.predicted_iterations << "," << (r.kappa == sweep.best_kappa ? 1 : 0) << "," << r.solves << ","
        << r.spread << "\n";
  }
  return csv.str();
}

}  // namespace kcycle
