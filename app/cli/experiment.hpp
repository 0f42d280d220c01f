#pragma once
// What the experiments of `kcycle experiment` share: their options and file output. The
// paper's experiments live in experiment_command.cpp, the MPI scaling study in
// scaling_experiment.cpp.
#include <string>
#include <vector>

#include <cstdio>

#include "kcycle/backends/backend_selection.hpp"
#include "kcycle/io/file_output.hpp"
#include "kcycle/io/interrupt.hpp"
#include "kcycle/solve/solve.hpp"
#include "kcycle/solve/solver_options.hpp"
#include "solver_args.hpp"

namespace kcycle::cli {

inline const std::vector<int> kKappas(kKappaCandidates.begin(), kKappaCandidates.end());
inline const std::vector<std::string> kKappaLabels = {"1 (V)", "2 (F)", "3", "4", "W"};

struct ExperimentArgs {
  std::string name;
  int levels = 0;  // 0: the experiment's default
  int min_levels = 4;
  int max_levels = 0;  // 0: the experiment's default
  std::string out;     // default results/NAME
  double case_timeout = 300;
  double min_seconds = 0.2;
  // Tables: the kappas and (4.3-4.6) the angles to run; empty: all of the paper's.
  std::vector<std::string> kappas;
  std::vector<double> angles;
  // The machine's side (threads, backend, graphs, fused passes, precision, coarse tail, line
  // solver) and the iteration limit, registered from the library's option table.
  SolverArgs solver;
  SolverOptions run_options;                    // those options, resolved
  BackendKind backend_kind = BackendKind::Cpu;  // run_options.backend, auto resolved
};

// experiment's defaults: those of `kcycle solve`, with room for the slow cases' iterations.
inline SolverOptions experiment_defaults() {
  SolverOptions o;
  o.max_iterations = 20000;
  return o;
}

// The options every solve and timing of an experiment runs with (the machine's side).
inline void apply_run_options(const ExperimentArgs& a, SolverOptions& o) {
  o.threads = a.run_options.threads;
  o.backend = a.backend_kind;
  o.cuda_graphs = a.run_options.cuda_graphs;
  o.fused = a.run_options.fused;
  o.precision = a.run_options.precision;
  o.coarse_tail = a.run_options.coarse_tail;
  o.line_solver = a.run_options.line_solver;
  o.coarsest_calls = a.run_options.coarsest_calls;  // the cycle's variants (issue 43): tables with them
  o.coarse_krylov = a.run_options.coarse_krylov;
}

// Writes `text` to `path`; throws std::runtime_error if it cannot.
void write_text(const std::string& path, const std::string& text);

// A CSV whose rows so far are written as they finish to NAME.partial.csv (the whole file
// replaced after each row), so that an interrupted or failing experiment keeps every finished row
// under a name that says so, and an earlier run's complete NAME.csv, .json and .svg stay as they
// were. At the run's end, complete_with() writes NAME.csv with the run's other results, together,
// and removes the partial rows.
class RowsSoFar {
 public:
  RowsSoFar(std::string path, std::string header)
      : path_(std::move(path)), partial_path_(partial_name(path_)), text_(std::move(header)) {}
  void add(const std::string& row) {
    text_ += row;
    ++rows_;
    write_text(partial_path_, text_);
  }
  void complete_with(std::vector<FileBytes> others) const {
    others.insert(others.begin(), {path_, text_});
    write_files_together(others);
    std::remove(partial_path_.c_str());
  }
  int rows() const { return rows_; }
  const std::string& partial_path() const { return partial_path_; }

 private:
  static std::string partial_name(const std::string& path) {
    const std::size_t dot = path.rfind(".csv");
    return dot != std::string::npos && dot + 4 == path.size() ? path.substr(0, dot) + ".partial.csv"
                                                              : path + ".partial";
  }
  std::string path_, partial_path_, text_;
  int rows_ = 0;
};

// After a case: ends the experiment (Interrupted) when Ctrl-C or SIGTERM asked to, saying
// how far it got and where the finished rows are.
inline void stop_if_interrupted(const StopOnInterrupt& stop, const RowsSoFar& rows, int cases) {
  if (stop.requested_on_any_rank())
    throw Interrupted{"after " + std::to_string(rows.rows()) + " of " + std::to_string(cases) + " cases (" +
                      stop.signal_name() + "); " + rows.partial_path() +
                      " holds their rows (an earlier run's complete results, if any, are as they were)"};
}

// One solve, cancelled after `timeout` seconds or when a signal asks the experiment to stop.
SolveResult timed_solve(const SolverOptions& o, double timeout, const StopOnInterrupt& stop);
// "converged", "diverged", ..., or "timeout" for a solve timed_solve cancelled.
std::string status_word(const SolveResult& r);
// The kappas a table runs (--kappas, else the paper's five), in the paper's order.
std::vector<int> table_kappas(const ExperimentArgs& a);
// "1 (V)", "2 (F)", "3", "4", "W".
std::string kappa_label(int kappa);

// `kcycle experiment scaling` (scaling_experiment.cpp).
int scaling_experiment(const ExperimentArgs& args, const std::string& dir);
// `kcycle experiment krylov` (krylov_experiment.cpp).
int krylov_experiment(const ExperimentArgs& args, const std::string& dir);

}  // namespace kcycle::cli
