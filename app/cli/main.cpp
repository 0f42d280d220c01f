// kcycle: solve rotated anisotropic diffusion with multigrid kappa-cycles from the command
// line, print the paper's cycle counts, and benchmark the cycles.
#include <exception>
#include <iostream>

#include "commands.hpp"
#include "kcycle/solver_options.hpp"

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
      kcycle::cli::add_advise_command(app), kcycle::cli::add_experiment_command(app)};
  if (argc == 1) {  // a newcomer typing `kcycle` gets the overview, not one terse line
    std::cerr << app.help();
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;  // --help is 0; every parse error is bad input
  }
  try {
    for (const auto& command : commands)
      if (command.parser->parsed()) return command.run();
    return 1;
  } catch (const kcycle::InvalidOptions& e) {
    std::cerr << "kcycle: error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "kcycle: failed: " << e.what() << "\n";
    return 1;
  }
}
