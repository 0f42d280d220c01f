#pragma once
// `kcycle bench --load N`: the solver's speed on 1 thread and on the team, on a quiet machine
// and beside N busy processes, in alternating rounds of one run (the machine's noise shared).
#include "kcycle/solve/solver_options.hpp"

namespace kcycle::cli {

struct LoadBench {
  SolverOptions options;  // the problem and cycle (levels, eps, angle, nu, kappa); threads: the team's
  int load = 1;           // busy processes beside the loaded runs
  int rounds = 5;
  double min_seconds = 0.2;  // per cycle timing
  bool json = false;
};

int run_load_bench(const LoadBench& bench);

}  // namespace kcycle::cli
