#pragma once
// The solver options shared by `solve`, `advise` and `calibrate`: registration on a CLI11
// parser and their translation into kcycle::SolverOptions.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "kcycle/solver_options.hpp"
#include "kcycle/timing.hpp"

namespace kcycle::cli {

struct SolverArgs {
  SolverOptions options;
  std::string preset;
  std::string kappa = "2";
  std::string omega = "auto";
  std::string smoother = "jacobi";
  std::string coarsening = "full";
  std::string coarse_operator = "rediscretized";
  std::string solver = "mg";
  std::string cycle = "kappa";
  int gamma = 1;
  int problem = 0;
  std::string backend = "cpu";
  std::string graphs = "on";
};

void add_solver_options(CLI::App& cmd, SolverArgs& args);

// Throws InvalidOptions. A preset sets its parts first; options given explicitly on the
// command line override it.
SolverOptions resolve(const SolverArgs& args, const CLI::App& cmd);

// Sets options.backend and options.cuda_graphs from "--backend" and "--graphs" text; throws
// InvalidOptions naming the option.
void parse_backend_args(const std::string& backend, const std::string& graphs, SolverOptions& options);

// The backend the options ask for, resolved: throws InvalidOptions when --backend cuda finds
// no usable GPU; prints --backend auto's one line (on stderr) when it falls back to the CPU.
ExecutionTarget execution_target(const SolverOptions& options);

// "kappa=3", "kappa=1 (V)", "gamma=2", ...
std::string cycle_name(const SolverOptions& options);

// The options as a parameters file (TOML keys = option names) that `kcycle solve --config`
// and the visualizer read.
std::string to_config(const SolverOptions& options);
// A parameters file as command-line arguments: `key=value` lines become `--key value`
// (quotes stripped, `#` comments and blank lines skipped). Throws std::runtime_error.
std::vector<std::string> config_arguments(const std::string& path);
// Reads a parameters file through the same option definitions. Throws InvalidOptions or
// std::runtime_error with the reason.
SolverOptions read_config(const std::string& path);

}  // namespace kcycle::cli
