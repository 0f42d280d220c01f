// `kcycle advise`: predict the time to the tolerance for each kappa from short probes and
// the run-time model, and recommend one. --verify also solves each case to compare.
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "commands.hpp"
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
};

int run(const AdviseArgs& a, const CLI::App& cmd) {
  SolverOptions o = resolve(a.solver, cmd);
  resolved_run(o);  // --backend cuda without a GPU stops here; auto says why it fell back
  validate(o);
  if (a.probe < 2) throw InvalidOptions("--probe must be at least 2 iterations");
  AdvisorSettings settings;
  settings.probe_iterations = a.probe;
  if (!a.calibration.empty()) settings.model = load_calibration(a.calibration).model;
  if (settings.model && o.solver != SolverKind::Multigrid)
    std::printf("note: the calibration models stand-alone cycles; CG iterations are timed by the probes\n");
  std::printf("kcycle advise: %d levels, eps=%g, angle=%g, %s(%d,%d), %s coarsening, %s, tol %g, %d-iteration probes\n",
              o.levels, o.eps, o.angle_degrees, std::string(to_string(o.smoother)).c_str(), o.nu1, o.nu2,
              std::string(to_string(o.coarsening)).c_str(), std::string(to_string(o.solver)).c_str(), o.tolerance,
              a.probe);
  const Advice advice = advise(o, settings);
  std::printf("%6s %9s %12s %14s %14s", "kappa", "factor", "iterations", "ms/iteration", "predicted s");
  if (a.verify) std::printf(" %12s %12s", "actual iter", "actual s");
  std::printf("\n");
  double best_actual = INFINITY, recommended_actual = NAN;
  int best_kappa = 0;
  for (const KappaPrediction& p : advice.candidates) {
    std::printf("%6s %9.5f %12.0f %13.4f%s %14.4f", kappa_to_string(p.kappa).c_str(), p.factor, p.predicted_iterations,
                p.seconds_per_iteration * 1e3, p.from_model ? "m" : " ", p.predicted_seconds);
    if (a.verify) {
      o.cycle = {CycleType::Kappa, p.kappa};
      const SolveResult r = solve(o);
      std::printf(" %12d %12.4f%s", r.iterations, r.seconds_total, r.converged() ? "" : " (not converged)");
      if (r.converged() && r.seconds_total < best_actual) best_actual = r.seconds_total, best_kappa = p.kappa;
      if (p.kappa == advice.recommended_kappa) recommended_actual = r.seconds_total;
    }
    std::printf("\n");
  }
  std::printf("(m: time per cycle from the calibration's model; otherwise measured in the probe)\n");
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
  cmd->add_flag("--verify", args->verify, "Also solve with every kappa and compare with the prediction");
  return {cmd, [args, cmd] { return run(*args, *cmd); }};
}

}  // namespace kcycle::cli
