#pragma once
// The `kcycle` subcommands. Each registers its options on the parser and returns the
// function that runs it once parsing has succeeded.
#include <functional>

#include <CLI/CLI.hpp>

#include "kcycle/model/cost_model.hpp"
#include "kcycle/solve/solver_options.hpp"

namespace kcycle::cli {

struct Subcommand {
  CLI::App* parser;          // the subcommand's options
  std::function<int()> run;  // runs it; returns the exit code
};

Subcommand add_solve_command(CLI::App& app);
Subcommand add_info_command(CLI::App& app);
Subcommand add_bench_command(CLI::App& app);
Subcommand add_calibrate_command(CLI::App& app);
Subcommand add_advise_command(CLI::App& app);
Subcommand add_experiment_command(CLI::App& app);
Subcommand add_figure_command(CLI::App& app);
Subcommand add_lfa_command(CLI::App& app);

// alpha, beta, relative errors per (kappa, n) like the paper's Table 3.2, turning points.
// settings: the cycle calibrated (the turning points on process grids need its counts).
void print_calibration_report(const Calibration& calibration, const SolverOptions& options);

}  // namespace kcycle::cli
