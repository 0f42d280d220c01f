#include "kcycle/model/krylov_timing.hpp"

#include <algorithm>

#include "kcycle/core/medians.hpp"
#include "kcycle/cycle/multigrid_choices.hpp"
#include "kcycle/solve/iterative_solver.hpp"
#include "kcycle/solve/solve.hpp"

namespace kcycle {

namespace {

KrylovSample time_one(const SolverOptions& options, double min_seconds) {
  std::vector<double> iterations;  // each timed iteration's seconds (norms excluded)
  double norms = 0, spent = 0;     // the norms' seconds, all seconds
  int counted = 0;                 // iterations the norms were summed over
  // Until min_seconds and 10 timed iterations, or 10 solves that timed some (a solve of one or
  // two iterations is mostly its set-up: ten of them say what an iteration costs).
  for (int solves = 0; (spent < min_seconds || iterations.size() < 10) && !(solves >= 10 && !iterations.empty());
       ++solves) {
    IterativeSolver solver(options, make_problem(options));
    while (solver.running()) {
      solver.step();
      const std::size_t timed = iterations.size() + std::max<std::size_t>(solver.history().size(), 2) - 1;
      if (spent + solver.result(false).seconds_total >= min_seconds && timed >= 10) break;
    }
    const SolveResult r = solver.result();
    if (r.iterations == 0) break;
    double cycles = 0;
    for (std::size_t k = 0; k < r.history.size(); ++k) {
      cycles += r.history[k].seconds;
      // The cold first iteration is left out, unless it is the solve's only one (a loose
      // tolerance): else no iteration would ever be timed.
      if (k > 0 || r.history.size() == 1) iterations.push_back(r.history[k].seconds);
    }
    norms += std::max(0.0, r.seconds_total - cycles);
    counted += r.iterations;
    spent += r.seconds_total;
  }
  if (iterations.empty()) throw InvalidOptions("time_krylov_iterations: the solve ran no iteration to time");
  return {options.cycle.counter, options.levels, median(iterations) + norms / std::max(counted, 1)};
}

}  // namespace

std::vector<KrylovSample> time_krylov_iterations(const SolverOptions& options, int min_levels, int max_levels,
                                                 double min_seconds,
                                                 const std::function<void(const KrylovSample&)>& on_case) {
  if (options.solver == SolverKind::Multigrid)
    throw InvalidOptions("time_krylov_iterations: a Krylov solve (pcg or fcg) is needed");
  std::vector<KrylovSample> samples;
  for (int n = min_levels; n <= max_levels; ++n)
    for (const int kappa : kKappaCandidates) {
      SolverOptions o = options;
      o.levels = n;
      o.cycle = {CycleType::Kappa, kappa};
      samples.push_back(time_one(o, min_seconds));
      if (on_case) on_case(samples.back());
    }
  return samples;
}

}  // namespace kcycle
