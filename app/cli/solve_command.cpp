// `kcycle solve`: one solve with every parameter, its convergence history and a summary,
// as text or as one JSON object.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "kcycle/relaxation_factor.hpp"
#include "kcycle/solve.hpp"

namespace kcycle::cli {

namespace {

struct SolveArgs {
  SolverOptions options;
  std::string kappa = "2";
  std::string omega = "auto";
  std::string preset;
  std::string smoother = "jacobi";
  std::string coarsening = "full";
  std::string coarse_operator = "rediscretized";
  std::string solver = "mg";
  std::string cycle = "kappa";
  int gamma = 1;
  int problem = 0;
  int every = 0;  // print every k-th iteration; 0 = all of the first 20, then thinner
  bool json = false;
  bool quiet = false;
};

// Turns the textual options into SolverOptions; throws InvalidOptions. A preset sets its
// parts first; options given explicitly on the command line override it.
SolverOptions resolve(const SolveArgs& a, const CLI::App& cmd) {
  SolverOptions o = a.options;
  auto given = [&](const char* name) { return cmd.count(name) > 0; };
  const auto type = parse_cycle_type(a.cycle);
  if (!type) throw InvalidOptions("--cycle must be kappa, gamma or f (got '" + a.cycle + "')");
  o.cycle.type = *type;
  if (o.cycle.type == CycleType::Gamma) {
    o.cycle.counter = a.gamma;
  } else if (o.cycle.type == CycleType::Kappa) {
    const auto kappa = parse_kappa(a.kappa);
    if (!kappa) throw InvalidOptions("--kappa must be a positive integer or W (got '" + a.kappa + "')");
    o.cycle.counter = *kappa;
  } else {
    o.cycle.counter = 2;
  }
  if (!a.preset.empty()) {
    const auto preset = find_preset(a.preset);
    if (!preset) {
      std::string names;
      for (const Preset& p : presets()) names += (names.empty() ? "" : ", ") + std::string(p.name);
      throw InvalidOptions("unknown --preset '" + a.preset + "' (available: " + names + ")");
    }
    apply(*preset, o);
  }
  if (a.preset.empty() || given("--smoother")) {
    const auto smoother = parse_smoother(a.smoother);
    if (!smoother) throw InvalidOptions("unknown --smoother '" + a.smoother + "' (available: " + smoother_names() + ")");
    o.smoother = *smoother;
  }
  if (a.preset.empty() || given("--coarsening")) {
    const auto c = parse_coarsening(a.coarsening);
    if (!c) throw InvalidOptions("--coarsening must be full or semi (got '" + a.coarsening + "')");
    o.coarsening = *c;
  }
  if (a.preset.empty() || given("--coarse-operator")) {
    const auto c = parse_coarse_operator(a.coarse_operator);
    if (!c) throw InvalidOptions("--coarse-operator must be rediscretized or galerkin (got '" + a.coarse_operator + "')");
    o.coarse_operator = *c;
  }
  if (a.preset.empty() || given("--solver")) {
    const auto solver = parse_solver(a.solver);
    if (!solver) throw InvalidOptions("--solver must be mg, pcg or fcg (got '" + a.solver + "')");
    o.solver = *solver;
  }
  if (a.problem != 0 && a.problem != 1) throw InvalidOptions("--problem must be 0 or 1");
  o.problem = ProblemKind(a.problem);
  if (a.omega == "auto") {
    o.omega_mode = OmegaMode::Paper;
  } else if (a.omega == "lfa") {
    o.omega_mode = OmegaMode::Fourier;
  } else {
    o.omega_mode = OmegaMode::Fixed;
    std::size_t used = 0;
    try {
      o.omega = std::stod(a.omega, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != a.omega.size())
      throw InvalidOptions("--omega must be auto, lfa or a number in (0, 2) (got '" + a.omega + "')");
  }
  if (a.every < 0) throw InvalidOptions("--every must be non-negative");
  return o;
}

std::string cycle_name(const SolverOptions& o) {
  switch (o.cycle.type) {
    case CycleType::Kappa: {
      const std::string k = kappa_to_string(o.cycle.counter);
      const char* alias = o.cycle.counter == 1 ? " (V)" : o.cycle.counter == 2 ? " (F)"
                          : o.cycle.counter >= o.levels ? " (W)" : "";
      return "kappa=" + k + alias;
    }
    case CycleType::Gamma: return "gamma=" + std::to_string(o.cycle.counter);
    case CycleType::F: return "F-cycle (Algorithm 2)";
  }
  return "?";
}

nlohmann::json number_or_null(double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(); }

void print_json(const SolverOptions& o, const SolveResult& r) {
  nlohmann::json history = nlohmann::json::array();
  for (const IterationRecord& h : r.history)
    history.push_back({{"iteration", h.iteration},
                       {"error", number_or_null(h.error_norm)},
                       {"residual", number_or_null(h.residual_norm)},
                       {"factor", number_or_null(h.factor)},
                       {"seconds", h.seconds}});
  nlohmann::json out = {
      {"status", to_string(r.status)},
      {"message", r.message},
      {"converged", r.converged()},
      {"iterations", r.iterations},
      {"error_reduction", number_or_null(r.error_reduction)},
      {"residual_reduction", number_or_null(r.residual_reduction)},
      {"mean_factor", number_or_null(r.mean_factor)},
      {"initial_error", number_or_null(r.initial_error)},
      {"final_error", number_or_null(r.final_error)},
      {"initial_residual", number_or_null(r.initial_residual)},
      {"final_residual", number_or_null(r.final_residual)},
      {"monitor", r.monitor == Monitor::Error ? "error" : "residual"},
      {"seconds_total", r.seconds_total},
      {"seconds_setup", r.seconds_setup},
      {"seconds_per_iteration", r.seconds_per_iteration},
      {"seconds_per_cycle", r.seconds_per_cycle},
      {"launches_per_iteration", r.launches_per_iteration},
      {"omega", r.omega},
      {"smoothing_factor", number_or_null(r.smoothing_factor)},
      {"kappa", o.cycle.type == CycleType::Kappa ? nlohmann::json(kappa_to_string(o.cycle.counter))
                                                 : nlohmann::json()},
      {"cycle", to_string(o.cycle.type)},
      {"levels", o.levels},
      {"unknowns", r.unknowns},
      {"eps", o.eps},
      {"angle", o.angle_degrees},
      {"smoother", to_string(o.smoother)},
      {"coarsening", to_string(o.coarsening)},
      {"coarse_operator", to_string(o.coarse_operator)},
      {"nu1", o.nu1},
      {"nu2", o.nu2},
      {"symmetric_smoothing", o.symmetric_smoothing},
      {"solver", to_string(o.solver)},
      {"problem", int(o.problem)},
      {"tol", o.tolerance},
      {"seed", o.seed},
      {"backend", "cpu"},
      {"history", history}};
  std::cout << out.dump(1) << "\n";
}

int run(const SolveArgs& args, const CLI::App& cmd) {
  const SolverOptions o = resolve(args, cmd);
  validate(o);
  const bool text = !args.json;
  if (text) {
    std::printf("kcycle solve: %d levels (%llu unknowns), eps=%g, angle=%g deg, %s, %s(%d,%d), %s coarsening, %s operators, %s\n",
                o.levels, (unsigned long long)full_coarsening_shape(o.levels, 1).unknowns(), o.eps,
                o.angle_degrees, cycle_name(o).c_str(), std::string(to_string(o.smoother)).c_str(),
                o.nu1, o.nu2, std::string(to_string(o.coarsening)).c_str(),
                std::string(to_string(o.coarse_operator)).c_str(),
                o.solver == SolverKind::Multigrid ? "stand-alone cycle"
                : o.solver == SolverKind::PCG     ? "CG preconditioned by the cycle (MGCG)"
                                                  : "flexible CG preconditioned by the cycle");
    std::printf("problem %d: %s\n", int(o.problem),
                o.problem == ProblemKind::RandomError
                    ? "zero rhs and boundary, random initial guess; stops on the error norm"
                    : "manufactured smooth solution, zero initial guess; stops on the residual norm");
    std::printf("%6s %13s %13s %9s %11s\n", "iter", "error", "residual", "factor", "cycle ms");
  }
  // Print every iteration early on, then thin out so long runs stay readable.
  int printed_last = 0;
  const auto on_iteration = [&](const IterationRecord& h) {
    if (!text || args.quiet) return true;
    const int stride = args.every > 0 ? args.every : (h.iteration <= 20 ? 1 : h.iteration <= 200 ? 10 : 100);
    if (h.iteration % stride == 0 || h.iteration == 1) {
      std::printf("%6d %13.6e %13.6e %9.5f %11.4f\n", h.iteration, h.error_norm, h.residual_norm,
                  h.factor, h.seconds * 1e3);
      printed_last = h.iteration;
    }
    return true;
  };
  const SolveResult r = solve(o, on_iteration);
  if (!text) {
    print_json(o, r);
  } else {
    if (!args.quiet && printed_last != r.iterations && !r.history.empty()) {
      const IterationRecord& h = r.history.back();
      std::printf("%6d %13.6e %13.6e %9.5f %11.4f\n", h.iteration, h.error_norm, h.residual_norm,
                  h.factor, h.seconds * 1e3);
    }
    std::printf("\n%s\n", r.message.c_str());
    if (o.smoother == Smoother::Jacobi)
      std::printf("omega %.4f (%s); LFA smoothing factor of damped Jacobi at this omega: %.4f\n", r.omega,
                  o.omega_mode == OmegaMode::Paper     ? "paper's formula, Yavneh & Olvovsky"
                  : o.omega_mode == OmegaMode::Fourier ? "minimizes the LFA smoothing factor"
                                                       : "set by --omega",
                  r.smoothing_factor);
    std::printf("mean convergence factor %.5f; error %.3e -> %.3e; residual %.3e -> %.3e\n",
                r.mean_factor, r.initial_error, r.final_error, r.initial_residual, r.final_residual);
    std::printf("time: %.4f ms per %s (median), %.4f ms per iteration with norms, total %.3f s, set-up %.3f s\n",
                r.seconds_per_cycle * 1e3, o.solver == SolverKind::Multigrid ? "cycle" : "CG iteration",
                r.seconds_per_iteration * 1e3, r.seconds_total, r.seconds_setup);
    std::printf("backend: cpu, %llu launches per iteration\n", (unsigned long long)r.launches_per_iteration);
  }
  return r.converged() ? 0 : 3;
}

}  // namespace

Subcommand add_solve_command(CLI::App& app) {
  auto args = std::make_shared<SolveArgs>();
  CLI::App* cmd = app.add_subcommand(
      "solve",
      "Solve -div(K grad u) = f on the unit square (K: 1 along angle phi, eps across) with a "
      "multigrid kappa-cycle, stand-alone or as a CG preconditioner. Exit status: 0 converged, "
      "2 bad input, 3 not converged (max iterations, divergence, NaN).");
  SolverOptions& o = args->options;
  cmd->add_option("--levels", o.levels, "Levels n; finest grid has (2^n-1)^2 unknowns")->capture_default_str();
  cmd->add_option("--eps", o.eps, "Anisotropy epsilon in (0,1]; 1 is Poisson")->capture_default_str();
  cmd->add_option("--angle", o.angle_degrees, "Angle phi of the strong direction, degrees")->capture_default_str();
  cmd->add_option("--kappa", args->kappa, "Cycle counter: 1=V, 2=F, W (or >= levels) = W-cycle")->capture_default_str();
  cmd->add_option("--cycle", args->cycle, "Recursion: kappa (Algorithm 3), gamma (Algorithm 1), f (Algorithm 2)")->capture_default_str();
  cmd->add_option("--gamma", args->gamma, "Cycle index for --cycle gamma (1=V, 2=W)")->capture_default_str();
  cmd->add_option("--preset", args->preset,
                  "One of the paper's six solvers: jacobi, jacobi+cg, xyzebra-galerkin, xyzebra-galerkin+cg, "
                  "xzebra-semi-galerkin, xzebra-semi-galerkin+cg (options given explicitly override it)");
  cmd->add_option("--smoother", args->smoother,
                  "Relaxation: jacobi (damped), gs-rb (Gauss-Seidel, red-black), xzebra / yzebra (line "
                  "Gauss-Seidel along x / y, zebra order), xyzebra (alternating; an x and a y sweep count as two)")
      ->capture_default_str();
  cmd->add_option("--coarsening", args->coarsening, "full, or semi (y only; pair with xzebra)")->capture_default_str();
  cmd->add_option("--coarse-operator", args->coarse_operator, "rediscretized or galerkin (R A P)")->capture_default_str();
  cmd->add_option("--nu1", o.nu1, "Pre-relaxation sweeps")->capture_default_str();
  cmd->add_option("--nu2", o.nu2, "Post-relaxation sweeps")->capture_default_str();
  cmd->add_option("--omega", args->omega, "Jacobi damping: auto (paper's formula), lfa (Fourier-optimal) or a number")->capture_default_str();
  cmd->add_option("--solver", args->solver, "mg: stand-alone cycles; pcg: CG preconditioned by one cycle (MGCG); fcg: flexible CG")->capture_default_str();
  cmd->add_option("--problem", args->problem, "0: zero rhs, random guess, stop on error; 1: manufactured solution, stop on residual")->capture_default_str();
  cmd->add_option("--tol", o.tolerance, "Stop when the monitored norm drops by this factor")->capture_default_str();
  cmd->add_option("--max-iter", o.max_iterations, "Iteration limit")->capture_default_str();
  cmd->add_option("--seed", o.seed, "Seed of the random initial guess")->capture_default_str();
  cmd->add_option("--threads", o.threads, "OpenMP threads (0: all cores)")->capture_default_str();
  cmd->add_option("--every", args->every, "Print every k-th iteration (0: 1-20 all, then every 10, then 100)");
  cmd->add_flag("--symmetric", o.symmetric_smoothing,
                "Post-smoothing in the adjoint order (black before red, even lines first, y before x), so V- "
                "and W-cycles are symmetric preconditioners; default: the paper's same order before and after");
  cmd->add_flag("--json", args->json, "Print one JSON object (summary and history) instead of text");
  cmd->add_flag("--quiet", args->quiet, "Text output: summary only");
  return {cmd, [args, cmd] { return run(*args, *cmd); }};
}

}  // namespace kcycle::cli
