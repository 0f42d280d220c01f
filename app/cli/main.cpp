// kcycle: solve rotated anisotropic diffusion with multigrid kappa-cycles from the command
// line, print the paper's cycle counts, and benchmark the cycles.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <string>

#include "commands.hpp"
#include "kcycle/backends/mpi/mpi_runtime.hpp"
#include "kcycle/io/solver_options.hpp"

namespace {

// Open MPI (and MPICH, through PMI) tell the processes they start how many ranks there are.
bool launched_by_mpirun() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})
    if (const char* size = std::getenv(name); size && std::atoi(size) > 1) return true;
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "kcycle: multigrid kappa-cycles (Avnat & Yavneh) for 2D rotated anisotropic diffusion.\n"
      "kappa=1 is the V-cycle, 2 the F-cycle, W (or any kappa >= levels) the W-cycle.\n"
      "Try: kcycle solve --levels 9 --eps 1e-4 --angle 45 --kappa 3"};
  app.name("kcycle");
  app.require_subcommand(1);
  const kcycle::cli::Subcommand commands[] = {
      kcycle::cli::add_solve_command(app),  kcycle::cli::add_info_command(app),
      kcycle::cli::add_bench_command(app),  kcycle::cli::add_calibrate_command(app),
      kcycle::cli::add_advise_command(app), kcycle::cli::add_experiment_command(app),
      kcycle::cli::add_figure_command(app)};
  if (argc == 1) {  // a newcomer typing `kcycle` gets the overview, not one terse line
    std::cerr << app.help();
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;  // --help is 0; every parse error is bad input
  }
  // Under mpirun every rank runs the command; rank 0 alone prints (the serial output).
  const bool ranks_of_mpirun = launched_by_mpirun();
  if (ranks_of_mpirun) {
    kcycle::start_mpi();
    if (kcycle::mpi_rank() != 0 && !std::freopen("/dev/null", "w", stdout)) return 1;
  }
  try {
    for (const auto& command : commands)
      if (command.parser->parsed()) return command.run();
    return 1;
  } catch (const kcycle::InvalidOptions& e) {
    // Refused alike on every rank, before any allocation or message: one rank says so.
    if (kcycle::mpi_rank() == 0) std::cerr << "kcycle: error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    // Possibly this rank alone: say which, and end the others (they may wait on it).
    std::cerr << "kcycle: failed" << (kcycle::mpi_ranks() > 1 ? " on rank " + std::to_string(kcycle::mpi_rank()) : "")
              << ": " << e.what() << "\n";
    kcycle::abort_all_ranks(1);
  }
}
