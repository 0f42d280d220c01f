// `kcycle advise`: predict the time to the tolerance for each kappa from short probes and
// the run-time model, and recommend one. --verify also solves each case to compare.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "commands.hpp"
#include "kcycle/backends/execution_target.hpp"
#include "kcycle/model/advisor.hpp"
#include "kcycle/solve/solve.hpp"
#include "solver_args.hpp"

namespace kcycle::cli {

namespace {

struct AdviseArgs {
  SolverArgs solver;
  std::string calibration;
  int probe = 40;
  bool verify = false;
  bool json = false;
};

// One candidate with what --verify measured (NaN where it did not run).
struct Verified {
  int iterations = 0;
  double seconds = NAN;
  bool converged = false;
};

void print_json(const Advice& advice, const std::vector<Verified>& measured, const SolverOptions& o) {
  nlohmann::json rows = nlohmann::json::array();
  for (std::size_t k = 0; k < advice.candidates.size(); ++k) {
    const KappaPrediction& p = advice.candidates[k];
    const auto number = [](double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(); };
    nlohmann::json row = {{"kappa", kappa_to_string(p.kappa)},
                          {"factor", number(p.factor)},
                          {"probe_iterations", p.probe_iterations},
                          {"predicted_iterations", number(p.predicted_iterations)},
                          {"iterations_low", number(p.iterations_low)},
                          {"iterations_high", number(p.iterations_high)},
                          {"converged_in_probe", p.converged_in_probe},
                          {"seconds_per_iteration", number(p.seconds_per_iteration)},
                          {"predicted_seconds", number(p.predicted_seconds)}};
    if (k < measured.size()) {
      row["measured_iterations"] = measured[k].iterations;
      row["measured_seconds"] = number(measured[k].seconds);
      row["measured_converged"] = measured[k].converged;
    }
    rows.push_back(row);
  }
  const nlohmann::json out = {{"levels", o.levels},
                              {"tolerance", o.tolerance},
                              {"recommended_kappa", kappa_to_string(advice.recommended_kappa)},
                              {"time_source", to_string(advice.time_source)},
                              {"time_note", advice.time_note},
                              {"candidates", rows}};
  std::printf("%s\n", out.dump(1).c_str());
}

int run(const AdviseArgs& a, const CLI::App& cmd) {
  SolverOptions o = resolve(a.solver, cmd);
  const ResolvedRun resolved = resolved_run(o);  // --backend cuda without a GPU stops here
  validate(o);
  if (a.probe < 2) throw InvalidOptions("--probe must be at least 2 iterations");
  AdvisorSettings settings;
  settings.probe_iterations = a.probe;
  if (!a.calibration.empty()) {
    settings.calibration = load_calibration(a.calibration);
    const std::string mismatch =
        calibration_mismatch(*settings.calibration, resolved.settings, describe(resolved.target), o.threads);
    if (!mismatch.empty())
      std::fprintf(stderr, "warning: the calibration does not match this run (%s): its times do not apply\n",
                   mismatch.c_str());
  }
  const Advice advice = advise(o, settings);
  std::vector<Verified> measured;
  if (a.verify)  // each kappa solved three times: the median time (one solve varies by up to 30%)
    for (const KappaPrediction& p : advice.candidates) {
      o.cycle = {CycleType::Kappa, p.kappa};
      std::vector<SolveResult> runs;
      for (int k = 0; k < 3; ++k) runs.push_back(solve(o));
      std::sort(runs.begin(), runs.end(),
                [](const SolveResult& x, const SolveResult& y) { return x.seconds_total < y.seconds_total; });
      measured.push_back({runs[1].iterations, runs[1].seconds_total, runs[1].converged()});
    }
  if (a.json) {
    print_json(advice, measured, o);
    return 0;
  }
  std::printf("kcycle advise: %d levels, eps=%g, angle=%g, %s(%d,%d), %s coarsening, %s, tol %g, %d-iteration probes\n",
              o.levels, o.eps, o.angle_degrees, std::string(to_string(o.smoother)).c_str(), o.nu1, o.nu2,
              std::string(to_string(o.coarsening)).c_str(), std::string(to_string(o.solver)).c_str(), o.tolerance,
              a.probe);
  std::printf("%s\n", advice.time_note.c_str());
  std::printf(
      "iterations: the probe ran until the estimate's band (the remaining factors at the last one and at the\n"
      "asymptotic one) was within +-%.0f%%, or converged (band 0: it simply solved)\n",
      100 * settings.band);
  std::printf("%6s %9s %6s %10s %17s %13s %12s", "kappa", "factor", "probe", "iterations", "band", "ms/iteration",
              "predicted s");
  if (a.verify) std::printf(" %12s %12s %9s", "actual iter", "actual s", "error");
  std::printf("\n");
  double best_actual = INFINITY, recommended_actual = NAN;
  int best_kappa = 0;
  for (std::size_t k = 0; k < advice.candidates.size(); ++k) {
    const KappaPrediction& p = advice.candidates[k];
    const std::string band = p.converged_in_probe ? "exact"
                                                  : std::to_string(int(std::lround(p.iterations_low))) + "-" +
                                                        std::to_string(int(std::lround(p.iterations_high)));
    std::printf("%6s %9.5f %6d %10.0f %17s %13.4f %12.4f", kappa_to_string(p.kappa).c_str(), p.factor,
                p.probe_iterations, p.predicted_iterations, band.c_str(), p.seconds_per_iteration * 1e3,
                p.predicted_seconds);
    if (a.verify) {
      const Verified& m = measured[k];
      std::printf(" %12d %12.4f %+8.1f%%%s", m.iterations, m.seconds, 100.0 * (p.predicted_seconds / m.seconds - 1.0),
                  m.converged ? "" : " (not converged)");
      if (m.converged && m.seconds < best_actual) best_actual = m.seconds, best_kappa = p.kappa;
      if (p.kappa == advice.recommended_kappa) recommended_actual = m.seconds;
    }
    std::printf("\n");
  }
  std::printf("recommended: kappa=%s\n", kappa_to_string(advice.recommended_kappa).c_str());
  if (a.verify && best_kappa != 0)
    std::printf("measured best: kappa=%s; the recommendation took %.1f%% longer than the best\n",
                kappa_to_string(best_kappa).c_str(), 100.0 * (recommended_actual / best_actual - 1.0));
  return 0;
}

}  // namespace

Subcommand add_advise_command(CLI::App& app) {
  auto args = std::make_shared<AdviseArgs>();
  CLI::App* cmd = app.add_subcommand(
      "advise", "Predict the solve time of each kappa from short probes and the run-time model; recommend one");
  add_solver_options(*cmd, args->solver);
  cmd->add_option("--calibration", args->calibration,
                  "Calibration file from `kcycle calibrate` (default: time the probes)");
  cmd->add_option("--probe", args->probe, "Iterations per probe")->capture_default_str();
  cmd->add_flag("--verify", args->verify,
                "Also solve with every kappa (three times, the median) and compare with the prediction");
  cmd->add_flag("--json", args->json, "Print the advice (and --verify's measurements) as JSON");
  return {cmd, [args, cmd] { return run(*args, *cmd); }};
}

}  // namespace kcycle::cli
