#pragma once
// What the experiments of `kcycle experiment` share: their options and file output. The
// paper's experiments live in experiment_command.cpp, the MPI scaling study in
// scaling_experiment.cpp.
#include <string>
#include <vector>

#include "kcycle/backend_selection.hpp"
#include "kcycle/solver_options.hpp"

namespace kcycle::cli {

inline const std::vector<int> kKappas = {1, 2, 3, 4, kKappaW};
inline const std::vector<std::string> kKappaLabels = {"1 (V)", "2 (F)", "3", "4", "W"};

struct ExperimentArgs {
  std::string name;
  int levels = 0;  // 0: the experiment's default
  int min_levels = 4;
  int max_levels = 0;  // 0: the experiment's default
  std::string out;     // default results/NAME
  int max_iter = 20000;
  double case_timeout = 300;
  double min_seconds = 0.2;
  int threads = 0;
  std::string backend = "cpu";
  std::string graphs = "on";
  BackendKind backend_kind = BackendKind::Cpu;  // parsed from `backend`
  std::string fused = "on";
  std::string precision = "double";
  std::string coarse_tail = "auto";
  std::string line_solver = "auto";
  SolverOptions run_options;  // backend, threads, graphs, fused, precision, coarse tail, line solver, parsed
};

// The options every solve and timing of an experiment runs with (the machine's side).
inline void apply_run_options(const ExperimentArgs& a, SolverOptions& o) {
  o.threads = a.threads;
  o.backend = a.backend_kind;
  o.cuda_graphs = a.graphs == "on";
  o.fused = a.run_options.fused;
  o.precision = a.run_options.precision;
  o.coarse_tail = a.run_options.coarse_tail;
  o.line_solver = a.run_options.line_solver;
}

// Writes `text` to `path`; throws std::runtime_error if it cannot.
void write_text(const std::string& path, const std::string& text);

// `kcycle experiment scaling` (scaling_experiment.cpp).
int scaling_experiment(const ExperimentArgs& args, const std::string& dir);

}  // namespace kcycle::cli
