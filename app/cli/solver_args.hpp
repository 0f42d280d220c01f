#pragma once
// The solver options on a CLI11 parser, registered from the library's one option table
// (kcycle/io/options_io.hpp), and the options a command line plus --config FILE resolve to.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "kcycle/io/options_io.hpp"
#include "kcycle/model/timing.hpp"
#include "kcycle/solve/resolved_run.hpp"
#include "kcycle/solve/solver_options.hpp"

namespace kcycle::cli {

struct SolverArgs {
  std::map<std::string, std::string> values;  // the text of each --key, by key
  std::map<std::string, bool> flags;          // --symmetric
  std::string config;                         // --config FILE
};

// Every option of option_specs() as --key, and --config FILE.
void add_solver_options(CLI::App& cmd, SolverArgs& args);
// Only the options named in `keys`, from the same table (a command that sets the others
// itself), with the defaults `defaults` has.
void add_solver_options(CLI::App& cmd, SolverArgs& args, const std::vector<std::string_view>& keys,
                        const SolverOptions& defaults);

// `defaults`, then the --config file's settings, then the options given on the command line
// (which win). Throws InvalidOptions naming the flag or file:line; does not validate.
SolverOptions resolve(const SolverArgs& args, const CLI::App& cmd, const SolverOptions& defaults = {});

// Sets options.backend and options.cuda_graphs from "--backend" and "--graphs" text; throws
// InvalidOptions naming the option.
void parse_backend_args(const std::string& backend, const std::string& graphs, SolverOptions& options);

// The run the options make (kcycle::resolve): throws InvalidOptions when --backend cuda finds
// no usable GPU; prints --backend auto's one line (on stderr) when it falls back to the CPU.
ResolvedRun resolved_run(const SolverOptions& options);
// --agglomerate-below auto on the MPI backend under mpirun: the threshold that the model in
// `calibration_file` (a `kcycle calibrate --backend mpi`) prefers for these options on this
// run's process grid; left to the default without such a model. resolve() calls it.
void resolve_auto_agglomeration(SolverOptions& options,
                                const std::string& calibration_file = "kcycle-calibration.json");

// "kappa=3", "kappa=1 (V)", "gamma=2", ...
std::string cycle_name(const SolverOptions& options);

}  // namespace kcycle::cli
