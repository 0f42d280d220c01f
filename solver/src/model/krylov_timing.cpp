#include "kcycle/model/krylov_timing.hpp"

#include <algorithm>

#include "kcycle/core/medians.hpp"
#include "kcycle/cycle/multigrid_choices.hpp"
#include "kcycle/solve/iterative_solver.hpp"
#include "kcycle/solve/solve.hpp"

namespace kcycle {

namespace {

// Each kappa is timed in turns, one solve per turn, the kappas one after the other, so that the
// machine's speed changing while they are timed (this VM's does, by 10-30 % within a second)
// falls on all of them alike: the advisor compares their prices, and the ratios are what it
// needs right (docs/model.md, "Calibration in turns"). A turn takes a third of what a kappa needs.
constexpr int kTurns = 3;
constexpr std::size_t kTimedIterations = 10;  // at least, per kappa
constexpr int kMostSolves = 10;               // then enough, if any iteration was timed

// One kappa's timing so far.
struct KrylovTurns {
  std::vector<double> iterations;  // each timed iteration's seconds (norms excluded)
  double norms = 0, spent = 0;     // the norms' seconds, all seconds
  int counted = 0;                 // iterations the norms were summed over
  int solves = 0;
  bool nothing_to_time = false;  // a solve ran no iteration

  // Until min_seconds and kTimedIterations timed iterations, or kMostSolves solves that timed
  // some (a solve of one or two iterations is mostly its set-up: ten of them say what an
  // iteration costs).
  bool wants_more(double min_seconds) const {
    if (nothing_to_time || (solves >= kMostSolves && !iterations.empty())) return false;
    return spent < min_seconds || iterations.size() < kTimedIterations;
  }

  // One solve, stepped until it has done this turn's share (or converged).
  void take_turn(const SolverOptions& options, double min_seconds) {
    const double turn_seconds = min_seconds / kTurns;
    const std::size_t turn_iterations = (kTimedIterations + kTurns - 1) / kTurns;
    IterativeSolver solver(options, make_problem(options));
    while (solver.running()) {
      solver.step();
      const std::size_t timed = std::max<std::size_t>(solver.history().size(), 2) - 1;
      if (solver.result(false).seconds_total >= turn_seconds && timed >= turn_iterations) break;
    }
    ++solves;
    const SolveResult r = solver.result();
    if (r.iterations == 0) {
      nothing_to_time = true;
      return;
    }
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
};

}  // namespace

std::vector<KrylovSample> time_krylov_iterations(const SolverOptions& options, int min_levels, int max_levels,
                                                 double min_seconds,
                                                 const std::function<void(const KrylovSample&)>& on_case) {
  if (options.solver == SolverKind::Multigrid)
    throw InvalidOptions("time_krylov_iterations: a Krylov solve (pcg or fcg) is needed");
  std::vector<KrylovSample> samples;
  for (int n = min_levels; n <= max_levels; ++n) {
    std::vector<KrylovTurns> timed(kKappaCandidates.size());
    for (bool any = true; any;) {  // one round: a turn for every kappa that wants one
      any = false;
      for (std::size_t k = 0; k < timed.size(); ++k) {
        if (!timed[k].wants_more(min_seconds)) continue;
        SolverOptions o = options;
        o.levels = n;
        o.cycle = {CycleType::Kappa, kKappaCandidates[k]};
        timed[k].take_turn(o, min_seconds);
        any = true;
      }
    }
    for (std::size_t k = 0; k < timed.size(); ++k) {
      const KrylovTurns& t = timed[k];
      if (t.iterations.empty()) throw InvalidOptions("time_krylov_iterations: the solve ran no iteration to time");
      samples.push_back({kKappaCandidates[k], n, median(t.iterations) + t.norms / std::max(t.counted, 1)});
      if (on_case) on_case(samples.back());
    }
  }
  return samples;
}

}  // namespace kcycle
