#include "solver_args.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>

namespace kcycle::cli {

SolverOptions resolve(const SolverArgs& a, const CLI::App& cmd) {
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
  parse_backend_args(a.backend, a.graphs, o);
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
  return o;
}

void parse_backend_args(const std::string& backend, const std::string& graphs, SolverOptions& o) {
  const auto kind = parse_backend(backend);
  if (!kind) throw InvalidOptions("--backend must be cpu, cuda or auto (got '" + backend + "')");
  if (graphs != "on" && graphs != "off") throw InvalidOptions("--graphs must be on or off (got '" + graphs + "')");
  o.backend = *kind;
  o.cuda_graphs = graphs == "on";
}

ExecutionTarget execution_target(const SolverOptions& o) {
  const ResolvedBackend resolved = resolve_backend(o.backend);
  if (!resolved.note.empty()) std::fprintf(stderr, "%s\n", resolved.note.c_str());
  return {resolved.kind, o.threads, o.cuda_graphs};
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

std::string to_config(const SolverOptions& o) {
  std::ostringstream s;
  s.precision(17);
  s << "# kcycle parameters: kcycle solve --config FILE\n"
    << "levels=" << o.levels << "\neps=" << o.eps << "\nangle=" << o.angle_degrees << "\n"
    << "cycle=\"" << to_string(o.cycle.type) << "\"\n";
  if (o.cycle.type == CycleType::Gamma) s << "gamma=" << o.cycle.counter << "\n";
  else s << "kappa=\"" << kappa_to_string(o.cycle.counter) << "\"\n";
  s << "smoother=\"" << to_string(o.smoother) << "\"\ncoarsening=\"" << to_string(o.coarsening)
    << "\"\ncoarse-operator=\"" << to_string(o.coarse_operator) << "\"\nnu1=" << o.nu1 << "\nnu2=" << o.nu2
    << "\nsymmetric=" << (o.symmetric_smoothing ? "true" : "false") << "\nomega=\"";
  if (o.omega_mode == OmegaMode::Fixed) s << o.omega;
  else s << to_string(o.omega_mode);
  s << "\"\nsolver=\"" << to_string(o.solver) << "\"\nproblem=" << int(o.problem) << "\ntol=" << o.tolerance
    << "\nmax-iter=" << o.max_iterations << "\nseed=" << o.seed << "\nbackend=\"" << to_string(o.backend)
    << "\"\ngraphs=\"" << (o.cuda_graphs ? "on" : "off") << "\"\n";
  return s.str();
}

std::vector<std::string> config_arguments(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read parameters file " + path);
  std::vector<std::string> args;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const auto first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    const auto eq = line.find('=');
    if (eq == std::string::npos)
      throw std::runtime_error(path + ":" + std::to_string(number) + ": expected key=value");
    auto trim = [](std::string t) {
      const auto a = t.find_first_not_of(" \t\""), b = t.find_last_not_of(" \t\"\r");
      return a == std::string::npos ? std::string() : t.substr(a, b - a + 1);
    };
    const std::string key = trim(line.substr(0, eq)), value = trim(line.substr(eq + 1));
    if (key == "symmetric") {  // a flag
      if (value == "true") args.push_back("--symmetric");
      continue;
    }
    args.push_back("--" + key);
    args.push_back(value);
  }
  return args;
}

SolverOptions read_config(const std::string& path) {
  CLI::App app{"parameters"};
  SolverArgs args;
  add_solver_options(app, args);
  std::vector<std::string> argv_storage = {"kcycle"};
  for (std::string& a : config_arguments(path)) argv_storage.push_back(std::move(a));
  std::vector<const char*> argv;
  for (const auto& a : argv_storage) argv.push_back(a.c_str());
  try {
    app.parse(int(argv.size()), argv.data());
  } catch (const CLI::ParseError& e) {
    throw InvalidOptions("parameters file " + path + ": " + e.what());
  }
  SolverOptions o = resolve(args, app);
  validate(o);
  return o;
}

void add_solver_options(CLI::App& cmd_ref, SolverArgs& args) {
  CLI::App* cmd = &cmd_ref;
  // The last occurrence wins: a parameters file's values come first, the command line after.
  cmd->option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  SolverOptions& o = args.options;
  cmd->add_option("--levels", o.levels, "Levels n; finest grid has (2^n-1)^2 unknowns")->capture_default_str();
  cmd->add_option("--eps", o.eps, "Anisotropy epsilon in (0,1]; 1 is Poisson")->capture_default_str();
  cmd->add_option("--angle", o.angle_degrees, "Angle phi of the strong direction, degrees")->capture_default_str();
  cmd->add_option("--kappa", args.kappa, "Cycle counter: 1=V, 2=F, W (or >= levels) = W-cycle")->capture_default_str();
  cmd->add_option("--cycle", args.cycle, "Recursion: kappa (Algorithm 3), gamma (Algorithm 1), f (Algorithm 2)")->capture_default_str();
  cmd->add_option("--gamma", args.gamma, "Cycle index for --cycle gamma (1=V, 2=W)")->capture_default_str();
  cmd->add_option("--preset", args.preset,
                  "One of the paper's six solvers: jacobi, jacobi+cg, xyzebra-galerkin, xyzebra-galerkin+cg, "
                  "xzebra-semi-galerkin, xzebra-semi-galerkin+cg (options given explicitly override it)");
  cmd->add_option("--smoother", args.smoother,
                  "Relaxation: jacobi (damped), gs-rb (Gauss-Seidel, red-black), xzebra / yzebra (line "
                  "Gauss-Seidel along x / y, zebra order), xyzebra (alternating; an x and a y sweep count as two)")
      ->capture_default_str();
  cmd->add_option("--coarsening", args.coarsening, "full, or semi (y only; pair with xzebra)")->capture_default_str();
  cmd->add_option("--coarse-operator", args.coarse_operator, "rediscretized or galerkin (R A P)")->capture_default_str();
  cmd->add_option("--nu1", o.nu1, "Pre-relaxation sweeps")->capture_default_str();
  cmd->add_option("--nu2", o.nu2, "Post-relaxation sweeps")->capture_default_str();
  cmd->add_option("--omega", args.omega, "Jacobi damping: auto (paper's formula), lfa (Fourier-optimal) or a number")->capture_default_str();
  cmd->add_option("--solver", args.solver, "mg: stand-alone cycles; pcg: CG preconditioned by one cycle (MGCG); fcg: flexible CG")->capture_default_str();
  cmd->add_option("--problem", args.problem, "0: zero rhs, random guess, stop on error; 1: manufactured solution, stop on residual")->capture_default_str();
  cmd->add_option("--tol", o.tolerance, "Stop when the monitored norm drops by this factor")->capture_default_str();
  cmd->add_option("--max-iter", o.max_iterations, "Iteration limit")->capture_default_str();
  cmd->add_option("--seed", o.seed, "Seed of the random initial guess")->capture_default_str();
  cmd->add_option("--threads", o.threads, "OpenMP threads (0: all cores)")->capture_default_str();
  cmd->add_option("--backend", args.backend,
                  "cpu (OpenMP), cuda (fails without a usable GPU), or auto (CUDA if usable, else the CPU, "
                  "saying why)")
      ->capture_default_str();
  cmd->add_option("--graphs", args.graphs, "CUDA backend: replay each cycle as a recorded CUDA Graph (on/off)")
      ->capture_default_str();
  cmd->add_flag("--symmetric", o.symmetric_smoothing,
                "Post-smoothing in the adjoint order (black before red, even lines first, y before x), so V- "
                "and W-cycles are symmetric preconditioners; default: the paper's same order before and after");
}

}  // namespace kcycle::cli
