#include "solver_args.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <vector>

#include "kcycle/backends/mpi/mpi_runtime.hpp"
#include "kcycle/model/cost_model.hpp"
#include "kcycle/model/distributed_model.hpp"
#include "kcycle/solve/execution_target.hpp"
#include "kcycle/solve/solve.hpp"

namespace kcycle::cli {

void add_solver_options(CLI::App& cmd, SolverArgs& args) {
  std::vector<std::string_view> every;
  for (const OptionSpec& spec : option_specs()) every.push_back(spec.key);
  add_solver_options(cmd, args, every, SolverOptions{});
}

namespace {

// "an integer from 1 to 16", "a number in (0, 1]": what a help line adds to its text.
bool is_range(std::string_view expects) {
  return expects.find(" from ") != std::string_view::npos || expects.find(" in (") != std::string_view::npos;
}

}  // namespace

void add_solver_options(CLI::App& cmd, SolverArgs& args, const std::vector<std::string_view>& keys,
                        const SolverOptions& defaults) {
  for (const OptionSpec& spec : option_specs()) {
    if (std::find(keys.begin(), keys.end(), spec.key) == keys.end()) continue;
    // The help states the range the option table checks.
    const std::string flag = "--" + std::string(spec.key),
                      help = std::string(spec.help) + (is_range(spec.expects) ? "; " + std::string(spec.expects) : "");
    if (spec.flag) {
      cmd.add_flag(flag, args.flags[std::string(spec.key)], help);
      continue;
    }
    // resolve() refuses an option given twice, naming it, as a parameters file does.
    CLI::Option* option = cmd.add_option(flag, args.values[std::string(spec.key)], help)
                              ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    if (const std::string value = spec.get(defaults); !value.empty()) option->default_str(value);
  }
  cmd.add_option("--config", args.config,
                 "Read parameters from a file (key = value lines, keys = option names; the visualizer's Export "
                 "writes these); options given on the command line override it");
}

namespace {

// What a rank resolved, as text to compare across ranks: the options (as a parameters file, so
// that a difference is named by its key) and the command's own options as given.
std::string resolved_text(const SolverOptions& options, const CLI::App& cmd) {
  std::string text = "command = " + cmd.get_name() + "\n" + to_parameters_file(options);
  for (const CLI::Option* option : cmd.get_options()) {
    if (option->count() == 0) continue;
    const std::vector<std::string>& names = option->get_lnames();
    if (!names.empty() && find_option(names.front())) continue;  // in the parameters already
    std::string values;
    for (const std::string& r : option->results()) values += (values.empty() ? "" : " ") + r;
    text += option->get_name() + " = " + values + "\n";
  }
  return text;
}

SolverOptions resolve_on_this_rank(const SolverArgs& args, const CLI::App& cmd, const SolverOptions& defaults) {
  std::vector<OptionSetting> from_file;
  if (cmd.count("--config") > 0) from_file = read_parameters_file(args.config);  // "" is refused there
  std::vector<OptionSetting> given;
  for (const OptionSpec& spec : option_specs()) {
    const std::string key(spec.key), flag = "--" + key;
    const bool registered = spec.flag ? args.flags.count(key) > 0 : args.values.count(key) > 0;
    if (!registered || cmd.count(flag) == 0) continue;  // not this command's (it may have its own --key), or not given
    if (cmd.count(flag) > 1)
      throw InvalidOptions(flag + " is given " + std::to_string(cmd.count(flag)) +
                           " times: give it once (a parameters file refuses a key given twice too)");
    // A flag's value is what it parsed to: --symmetric=false is false.
    const std::string value = spec.flag ? (args.flags.at(key) ? "true" : "false") : args.values.at(key);
    given.push_back({key, value, flag});
  }
  SolverOptions options = defaults;
  apply_settings(options, overlay(from_file, given));
  resolve_auto_agglomeration(options);
  return options;
}

}  // namespace

SolverOptions resolve(const SolverArgs& args, const CLI::App& cmd, const SolverOptions& defaults) {
  SolverOptions options = defaults;
  std::string refusal;
  try {
    options = resolve_on_this_rank(args, cmd, defaults);
  } catch (const InvalidOptions& e) {
    refusal = e.what();
  }
  // Under mpirun every rank reads its own command line and files: a refusal on one rank, or
  // ranks that resolved different options, would leave the others waiting in a collective.
  // Every rank stops here alike instead, saying which rank and why (docs/mpi.md).
  if (const std::string why = agreement_across_ranks(refusal, resolved_text(options, cmd)); !why.empty())
    throw InvalidOptions(why);
  return options;
}

void resolve_auto_agglomeration(SolverOptions& o, const std::string& calibration_file) {
  if (o.backend != BackendKind::Mpi || o.agglomerate_below != 0 || mpi_ranks() < 2) return;
  if (!std::filesystem::exists(calibration_file)) return;  // the default threshold
  Calibration c;
  try {
    c = load_calibration(calibration_file);
  } catch (const InvalidOptions&) {
    return;  // not ours to judge here: `advise` and the GUI report a broken file
  }
  if (c.backend != "mpi" || !(c.model.lambda > 0) || !(c.model.beta > 0)) return;  // no model of messages
  const ResolvedRun mpi = kcycle::resolve(o, BackendKind::Mpi);
  const auto [px, py] = process_grid(mpi_ranks(), mpi.target.ranks_x, mpi.target.ranks_y);
  const int kappa = o.cycle.type == CycleType::Kappa ? o.cycle.counter : kKappaW;
  o.agglomerate_below = best_agglomeration_threshold(mpi.settings, kappa, px, py, c.model);
  if (o.agglomerate_below == 0) o.agglomerate_below = kDefaultAgglomeration;
}

void parse_backend_args(const std::string& backend, const std::string& graphs, SolverOptions& options) {
  apply_settings(options, {{"backend", backend, "--backend"}, {"graphs", graphs, "--graphs"}});
}

ResolvedRun resolved_run(const SolverOptions& o) {
  ResolvedRun run = kcycle::resolve(o);
  if (!run.note.empty()) std::fprintf(stderr, "%s\n", run.note.c_str());
  return run;
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
