#include "solver_args.hpp"

#include <cstdio>
#include <vector>

namespace kcycle::cli {

void add_solver_options(CLI::App& cmd, SolverArgs& args) {
  // The last occurrence wins, as a later key=value does in a parameters file.
  cmd.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  const SolverOptions defaults;
  for (const OptionSpec& spec : option_specs()) {
    const std::string flag = "--" + std::string(spec.key), help(spec.help);
    if (spec.flag) {
      cmd.add_flag(flag, args.flags[std::string(spec.key)], help);
      continue;
    }
    CLI::Option* option = cmd.add_option(flag, args.values[std::string(spec.key)], help);
    if (const std::string value = spec.get(defaults); !value.empty()) option->default_str(value);
  }
  cmd.add_option("--config", args.config,
                 "Read parameters from a file (key = value lines, keys = option names; the visualizer's Export "
                 "writes these); options given on the command line override it");
}

SolverOptions resolve(const SolverArgs& args, const CLI::App& cmd) {
  std::vector<OptionSetting> from_file;
  if (!args.config.empty()) from_file = read_parameters_file(args.config);
  std::vector<OptionSetting> given;
  for (const OptionSpec& spec : option_specs()) {
    const std::string key(spec.key), flag = "--" + key;
    if (cmd.count(flag) == 0) continue;
    given.push_back({key, spec.flag ? "true" : args.values.at(key), flag});
  }
  SolverOptions options;
  apply_settings(options, overlay(from_file, given));
  return options;
}

void parse_backend_args(const std::string& backend, const std::string& graphs, SolverOptions& options) {
  apply_settings(options, {{"backend", backend, "--backend"}, {"graphs", graphs, "--graphs"}});
}

ExecutionTarget execution_target(const SolverOptions& o) {
  const ResolvedBackend resolved = resolve_backend(o.backend);
  if (!resolved.note.empty()) std::fprintf(stderr, "%s\n", resolved.note.c_str());
  return kcycle::execution_target(resolved.kind, o);
}

std::string cycle_name(const SolverOptions& o) {
  switch (o.cycle.type) {
    case CycleType::Kappa: {
      const std::string k = kappa_to_string(o.cycle.counter);
      const char* alias = o.cycle.counter == 1          ? " (V)"
                          : o.cycle.counter == 2        ? " (F)"
                          : o.cycle.counter >= o.levels ? " (W)"
                                                        : "";
      return "kappa=" + k + alias;
    }
    case CycleType::Gamma: return "gamma=" + std::to_string(o.cycle.counter);
    case CycleType::F: return "F-cycle (Algorithm 2)";
  }
  return "?";
}

}  // namespace kcycle::cli
