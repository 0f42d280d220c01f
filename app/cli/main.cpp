// kcycle: solve rotated anisotropic diffusion with multigrid kappa-cycles from the command
// line, print the paper's cycle counts, and benchmark the cycles.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "bash_completion.hpp"
#include "commands.hpp"
#include "kcycle/backends/mpi/mpi_runtime.hpp"
#include "kcycle/core/heap_policy.hpp"
#include "kcycle/core/invalid_options.hpp"
#include "kcycle/core/version.hpp"
#include "kcycle/io/interrupt.hpp"
#include "kcycle/io/nearest_name.hpp"
#include "kcycle/io/options_io.hpp"
#include "kcycle/solve/solver_options.hpp"
#include "man_page.hpp"

namespace {

// Open MPI (and MPICH, through PMI) tell the processes they start how many ranks there are.
bool launched_by_mpirun() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})
    if (const char* size = std::getenv(name); size && std::atoi(size) > 1) return true;
  return false;
}

// Before MPI starts, a rank of mpirun knows its number only from the environment.
bool first_rank_of_mpirun_or_alone() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK"})
    if (const char* rank = std::getenv(name); rank && std::atoi(rank) != 0) return false;
  return true;
}

// A parse error's message with the name the user probably meant: an unknown subcommand or an
// unknown --option of a known one. "" when CLI11's own message says it better.
std::string mistyped_name_message(CLI::App& app, int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return "";
  const std::string typed = argv[1];
  std::vector<std::string> commands;
  for (const CLI::App* sub : app.get_subcommands({})) commands.push_back(sub->get_name());
  CLI::App* command = nullptr;
  for (CLI::App* sub : app.get_subcommands({}))
    if (sub->get_name() == typed) command = sub;
  if (!command) {
    std::string list;
    for (const std::string& c : commands) list += (list.empty() ? "" : ", ") + c;
    return "unknown command " + kcycle::quoted_value(typed) + kcycle::did_you_mean(typed, commands) +
           "; the commands are " + list;
  }
  int first = 2;  // a command's own subcommand (`figure cycles`) holds the options
  for (bool deeper = true; deeper && first < argc;) {
    deeper = false;
    for (CLI::App* sub : command->get_subcommands({}))
      if (sub->get_name() == argv[first]) command = sub, ++first, deeper = true;
  }
  std::vector<std::string> options;
  for (const CLI::Option* option : command->get_options())
    for (const std::string& name : option->get_lnames()) options.push_back("--" + name);
  for (int k = first; k < argc; ++k) {
    std::string word = argv[k];
    if (word.rfind("--", 0) != 0) continue;
    word = word.substr(0, word.find('='));
    if (std::find(options.begin(), options.end(), word) != options.end()) continue;
    const std::string path = command->get_parent() == &app ? typed : typed + " " + command->get_name();
    return path + ": unknown option " + kcycle::quoted_value(word) + kcycle::did_you_mean(word, options) + " (kcycle " +
           path + " --help lists them)";
  }
  return "";
}

// NaN passes CLI11's Range (every comparison with it is false), and inf passes an open-ended
// one: every number option of every command is also checked finite.
void refuse_non_finite_numbers(CLI::App& app) {
  static const CLI::Validator finite(
      [](std::string& text) -> std::string {
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        if (end != text.c_str() && !std::isfinite(value)) return "must be a finite number (got " + text + ")";
        return "";
      },
      "", "finite");
  for (CLI::Option* option : app.get_options())
    if (option->get_type_name().rfind("FLOAT", 0) == 0) option->check(finite);
  for (CLI::App* sub : app.get_subcommands({})) refuse_non_finite_numbers(*sub);
}

// kcycle(1): the parser's commands and options, and what --help cannot say.
std::string manual(const CLI::App& app) {
  kcycle::cli_docs::ManPage page;
  page.name = "kcycle";
  page.summary = "multigrid kappa-cycles for rotated anisotropic diffusion: solve, count, time, advise";
  page.version = std::string(kcycle::version());
  page.sections = {
      {"EXIT STATUS",
       "0: done (a solve converged).\n\n2: bad input; the message names the option, file and line.\n\n3: a solve "
       "did not converge (the iteration limit, divergence or NaN).\n\n130: interrupted (Ctrl-C or SIGTERM); what was "
       "done so far is printed."},
      {"FILES",
       "kcycle-calibration.json in the working folder: the machine's time model, written by kcycle calibrate and "
       "read by advise, the experiments and the visualizer.\n\nA parameters file (--config FILE) has key = value "
       "lines whose keys are the solver options' names; the visualizer's Export writes one."},
      {"EXAMPLES",
       "  kcycle solve --levels 9 --eps 1e-4 --angle 45 --kappa 3\n"
       "  kcycle solve --preset xyzebra-galerkin --levels 8 --eps 1e-5 --angle 30 --kappa 4\n"
       "  kcycle info --levels 6 --kappa 3\n"
       "  kcycle calibrate --max-levels 11\n"
       "  kcycle advise --levels 10 --eps 1e-4 --calibration kcycle-calibration.json\n"
       "  kcycle lfa --levels 9 --eps 1e-4 --angle 45\n"
       "  kcycle figure cycles --levels 5 --kappa 1,2,3,W --out fig.svg\n"
       "  mpirun -np 4 kcycle solve --backend mpi --levels 10"},
      {"PETSC",
       "The preconditioner type kcycle for PETSc's KSP is the shared library libkcycle_petsc.so, installed with "
       "the program: run a PETSc program with -dll_append /usr/lib/x86_64-linux-gnu/libkcycle_petsc.so -pc_type "
       "kcycle (the path of your architecture's library folder); "
       "/usr/share/doc/kcycle/petsc.md lists its options."}};
  page.see_also = {"kcycle-gui(1)", "mpirun(1)", "/usr/share/doc/kcycle/README.md"};
  return kcycle::cli_docs::man_page(kcycle::cli_docs::describe(app), page);
}

}  // namespace

int main(int argc, char** argv) {
  kcycle::keep_small_fields_in_the_heap();
  kcycle::install_interrupt_handlers();
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
      kcycle::cli::add_figure_command(app), kcycle::cli::add_lfa_command(app)};
  refuse_non_finite_numbers(app);
  app.set_version_flag("--version", "kcycle " + std::string(kcycle::version()));
  // What the build writes the manual page and the shell completion from (their one source).
  if (argc == 2 && argv[1] == std::string("--man-page")) {
    std::cout << manual(app);
    return 0;
  }
  if (argc == 2 && argv[1] == std::string("--bash-completion")) {
    std::cout << kcycle::cli_docs::bash_completion(kcycle::cli_docs::describe(app));
    return 0;
  }
  if (argc == 1) {  // a newcomer typing `kcycle` gets the overview, not one terse line
    std::cerr << app.help();
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() != 0 && !first_rank_of_mpirun_or_alone()) return 2;  // rank 0 says it, once
    if (e.get_exit_code() != 0)
      if (const std::string message = mistyped_name_message(app, argc, argv); !message.empty()) {
        std::cerr << "kcycle: error: " << message << "\n";
        return 2;
      }
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
  } catch (const kcycle::Interrupted& e) {
    std::fflush(stdout);
    if (kcycle::mpi_rank() == 0) std::cerr << "kcycle: interrupted " << kcycle::printable(e.what_was_done) << "\n";
    return kcycle::kInterruptedExit;
  } catch (const kcycle::InvalidOptions& e) {
    // Refused alike on every rank, before any allocation or message: one rank says so.
    if (kcycle::mpi_rank() == 0) std::cerr << "kcycle: error: " << kcycle::printable(e.what()) << "\n";
    return 2;
  } catch (const std::exception& e) {
    // Possibly this rank alone: say which, and end the others (they may wait on it).
    std::cerr << "kcycle: failed" << (kcycle::mpi_ranks() > 1 ? " on rank " + std::to_string(kcycle::mpi_rank()) : "")
              << ": " << kcycle::printable(e.what()) << "\n";
    kcycle::abort_all_ranks(1);
  }
}
