// `kcycle lfa`: what local Fourier analysis predicts for the solve the options describe: the
// smoothing factor, the two-grid factor, each kappa-cycle's factor and the iterations to the
// tolerance, without solving.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "figure_file.hpp"
#include "kcycle/lfa/convergence.hpp"
#include "kcycle/lfa/fourier_analysis.hpp"
#include "kcycle/lfa/solve_prediction.hpp"
#include "kcycle/solve/solve.hpp"
#include "lfa_figure_svg.hpp"
#include "solver_args.hpp"

namespace kcycle::cli {

namespace {

struct LfaArgs {
  SolverArgs solver;
  int depth = 0;
  int samples = 8;
  bool json = false;
  std::string figure;
  int map_resolution = 64;
};

const std::vector<int> kKappas(kKappaCandidates.begin(), kKappaCandidates.end());

// The maps of the options' own kappa (kcycle/lfa/amplification_maps.hpp) as a figure; says so on
// stderr so that --json's stdout stays JSON.
void write_figure(const LfaArgs& a, const SolverOptions& o, const lfa::LfaSettings& settings, const lfa::LfaResult& r) {
  // The options' kappa analyses as one of the five already done where its counter at the analysed
  // depth is theirs (min(kappa, depth)); else on its own.
  double factor = NAN;
  for (const lfa::KappaFactor& k : r.kappa_factors)
    if (k.analysed_counter == std::min(o.cycle.counter, r.depth)) factor = k.factor;
  if (std::isnan(factor)) factor = lfa::analyse(settings, {o.cycle.counter}).kappa_factors.front().factor;
  const plot::LfaFigure figure = plot::lfa_figure(o, r.smoothing_factor, r.two_grid_factor, factor, a.map_resolution);
  try {
    plot::write_lfa_figure(figure, a.figure);
  } catch (const plot::FigureRefused& e) {
    throw InvalidOptions("--figure " + a.figure.substr(0, 60) + ": " + e.what());
  }
  std::fprintf(stderr, "wrote %s (kappa = %s)\n", a.figure.c_str(), kappa_to_string(o.cycle.counter).c_str());
}

int run(const LfaArgs& a, const CLI::App& cmd) {
  SolverOptions o = resolve(a.solver, cmd);
  validate(o);
  if (o.cycle.type != CycleType::Kappa)
    throw InvalidOptions("lfa analyses kappa-cycles (kappa = 1, 2, 3, 4, W): leave --cycle as kappa");
  if (o.coarse_krylov)
    throw InvalidOptions(
        "lfa analyses the linear kappa-cycle: --coarse-krylov's CG steps weigh each correction by inner products, "
        "so the cycle has no Fourier symbol; leave it off");
  lfa::LfaSettings settings;
  settings.cycle = multigrid_settings(o);
  settings.samples = a.samples;
  settings.depth = a.depth;
  // The library's own checks, its messages naming the options.
  if (std::string why = lfa::settings_problem(settings); !why.empty()) {
    for (auto [from, to] : {std::pair{"the analysis depth", "--depth"}, {"the frequency samples", "--samples"}})
      if (why.rfind(from, 0) == 0) why = to + why.substr(std::string(from).size());
    throw InvalidOptions(why);
  }
  if (!a.figure.empty()) {  // refused before the analysis, not after it
    try {
      plot::check_figure_path(a.figure);
    } catch (const plot::FigureRefused& e) {
      throw InvalidOptions("--figure " + a.figure.substr(0, 60) + ": " + e.what());
    }
    if (const std::string why = lfa::map_resolution_problem(a.map_resolution); !why.empty())
      throw InvalidOptions("--map-resolution: " + why);
  }
  const lfa::LfaResult r = lfa::analyse(settings, kKappas);
  if (!a.figure.empty()) write_figure(a, o, settings, r);

  const bool cg = o.solver != SolverKind::Multigrid;
  auto solve_factor = [&](double rho) { return lfa::solve_factor(o, rho); };
  if (a.json) {
    nlohmann::json factors = nlohmann::json::object(), iterations = nlohmann::json::object(),
                   analysed = nlohmann::json::object(), per_iteration = nlohmann::json::object();
    for (const lfa::KappaFactor& k : r.kappa_factors) {
      const std::string key = kappa_to_string(k.kappa);
      factors[key] = k.factor;
      per_iteration[key] = solve_factor(k.factor);
      analysed[key] = k.analysed_counter;
      const double its = lfa::iterations_to_reduce(solve_factor(k.factor), o.tolerance);
      iterations[key] = std::isfinite(its) ? nlohmann::json(its) : nlohmann::json(nullptr);
    }
    const nlohmann::json out = {{"levels", o.levels},
                                {"eps", o.eps},
                                {"angle", o.angle_degrees},
                                {"smoother", std::string(enum_name(o.smoother))},
                                {"solver", cg ? std::string(enum_name(o.solver)) : "multigrid"},
                                {"smoothing_factor", r.smoothing_factor},
                                {"two_grid_factor", r.two_grid_factor},
                                {"kappa_factors", factors},
                                {"solve_factors", per_iteration},
                                {"analysed_counter", analysed},
                                {"predicted_iterations", iterations},
                                {"tolerance", o.tolerance},
                                {"depth", r.depth},
                                {"modes_per_frequency", r.modes},
                                {"frequencies", r.frequencies},
                                {"basis", r.basis}};
    std::cout << out.dump(1) << "\n";
    return 0;
  }
  std::printf("Local Fourier analysis: %d levels, eps=%g, angle=%g, %s, nu1=%d nu2=%d%s\n", o.levels, o.eps,
              o.angle_degrees, std::string(enum_name(o.smoother)).c_str(), o.nu1, o.nu2,
              cg ? ", the cycle preconditioning CG" : "");
  std::printf("  smoothing factor mu (per sweep)  %.4f\n", r.smoothing_factor);
  std::printf("  two-grid factor                  %.4f\n", r.two_grid_factor);
  std::printf("  %-8s %14s %10s %24s\n", "kappa", "cycle factor", cg ? "CG factor" : "", "iterations to tolerance");
  for (const lfa::KappaFactor& k : r.kappa_factors) {
    const double its = lfa::iterations_to_reduce(solve_factor(k.factor), o.tolerance);
    const std::string note = k.kappa >= r.depth && k.kappa < o.levels ? " (the W-cycle at this depth)" : "";
    std::printf("  %-8s %14.4f %10s %24s%s\n", kappa_to_string(k.kappa).c_str(), k.factor,
                cg ? std::to_string(lfa::cg_factor(k.factor)).substr(0, 6).c_str() : "",
                std::isfinite(its) ? std::to_string(int(std::ceil(its))).c_str() : "never", note.c_str());
  }
  std::printf("Rests on: %s.%s\n", r.basis.c_str(),
              cg ? " CG's factor is its bound for a cycle whose error spectrum lies in [-rho, rho]." : "");
  return 0;
}

}  // namespace

Subcommand add_lfa_command(CLI::App& app) {
  auto args = std::make_shared<LfaArgs>();
  CLI::App* cmd = app.add_subcommand(
      "lfa",
      "Predict without solving (local Fourier analysis): the smoothing factor, the two-grid factor and each "
      "kappa-cycle's factor and iterations");
  add_solver_options(*cmd, args->solver);
  cmd->add_option("--depth", args->depth,
                  "Levels analysed (2 = two-grid; at most 4 under full coarsening, 6 under semi-coarsening); 0: the "
                  "deepest with at most 16 Fourier modes per frequency");
  cmd->add_option("--samples", args->samples, "Frequency samples per direction before the search for the maximum");
  cmd->add_flag("--json", args->json, "Print JSON");
  cmd->add_option("--figure", args->figure,
                  "Also draw what the smoother, the two-grid cycle and the options' kappa-cycle leave of each Fourier "
                  "mode over [-pi, pi)^2: FILE.svg or FILE.png");
  cmd->add_option("--map-resolution", args->map_resolution, "The figure's modes a side (a power of two, 8 to 256)")
      ->capture_default_str();
  return {cmd, [args, cmd] { return run(*args, *cmd); }};
}

}  // namespace kcycle::cli
