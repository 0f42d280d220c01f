#include "load_bench.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "busy_processes.hpp"
#include "kcycle/backends/cpu/available_cores.hpp"
#include "kcycle/model/timing.hpp"
#include "kcycle/solve/execution_target.hpp"
#include "kcycle/solve/solve.hpp"
#include "solver_args.hpp"

namespace kcycle::cli {

namespace {

double median(std::vector<double> v) { return summarize_timings(std::move(v)).median; }

// A whole solve's time (its iterations, set-up excluded): the median of at least three, and of
// as many as min_seconds takes (a short solve on a busy machine varies by 2x from one to the next).
double median_solve_seconds(const SolverOptions& o, double min_seconds) {
  std::vector<double> seconds;
  double total = 0;
  while (seconds.size() < 3 || total < min_seconds) {
    seconds.push_back(solve(o).seconds_total);
    total += seconds.back();
  }
  return median(seconds);
}

// One thread count's times in one round: a cycle's median, and two whole solves.
struct Times {
  double cycle = 0, standalone = 0, mgcg = 0;
};
Times time_all(SolverOptions o, int threads, double min_seconds) {
  o.threads = threads;
  Times t;
  TimingPolicy policy;
  policy.min_seconds = min_seconds;
  const ResolvedRun run = resolved_run(o);
  t.cycle = time_cycle(run.settings, o.cycle, run.target, policy).median_seconds;
  o.solver = SolverKind::Multigrid;
  t.standalone = median_solve_seconds(o, min_seconds);
  o.solver = SolverKind::PCG;
  t.mgcg = median_solve_seconds(o, min_seconds);
  return t;
}

// (max - min) / min over the rounds.
double spread(std::vector<double> v) {
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return *hi / *lo - 1.0;
}

}  // namespace

int run_load_bench(const LoadBench& b) {
  const int team = b.options.threads > 0 ? b.options.threads : std::max(2, available_cores());
  const std::vector<int> threads = {1, team};
  // times[quiet/loaded][thread count][round]
  std::vector<std::vector<std::vector<Times>>> times(2, std::vector<std::vector<Times>>(threads.size()));
  for (int threads_k : threads) time_all(b.options, threads_k, b.min_seconds / 4);  // warm-up, not counted
  for (int round = 0; round < b.rounds; ++round) {
    for (std::size_t k = 0; k < threads.size(); ++k)
      times[0][k].push_back(time_all(b.options, threads[k], b.min_seconds));
    const BusyProcesses busy(b.load);
    for (std::size_t k = 0; k < threads.size(); ++k)
      times[1][k].push_back(time_all(b.options, threads[k], b.min_seconds));
    if (!b.json) std::fprintf(stderr, "round %d of %d done\n", round + 1, b.rounds);
  }
  auto column = [&](int loaded, std::size_t k, double Times::*what) {
    std::vector<double> v;
    for (const Times& t : times[std::size_t(loaded)][k]) v.push_back(t.*what);
    return v;
  };
  struct Measure {
    const char* name;
    double Times::*field;
  };
  const Measure measures[] = {
      {"cycle", &Times::cycle}, {"stand-alone solve", &Times::standalone}, {"MGCG solve", &Times::mgcg}};
  const SolverOptions& o = b.options;
  if (b.json) {
    nlohmann::json rows = nlohmann::json::array();
    for (const Measure& m : measures)
      for (std::size_t k = 0; k < threads.size(); ++k)
        rows.push_back({{"measure", m.name},
                        {"threads", threads[k]},
                        {"quiet_seconds", column(0, k, m.field)},
                        {"loaded_seconds", column(1, k, m.field)},
                        {"quiet_median_seconds", median(column(0, k, m.field))},
                        {"loaded_median_seconds", median(column(1, k, m.field))},
                        {"quiet_spread", spread(column(0, k, m.field))}});
    std::cout << nlohmann::json{{"levels", o.levels},
                                {"kappa", kappa_to_string(o.cycle.counter)},
                                {"load", b.load},
                                {"rounds", b.rounds},
                                {"cases", rows}}
                     .dump(1)
              << "\n";
    return 0;
  }
  std::printf(
      "kcycle bench --load %d: %d levels, kappa=%s, Jacobi(%d,%d), eps=%g, angle=%g; %d rounds, each timing every "
      "case quiet, then beside %d busy process%s\nmedian ms over the rounds (the quiet runs' spread, max/min - 1)\n",
      b.load, o.levels, kappa_to_string(o.cycle.counter).c_str(), o.nu1, o.nu2, o.eps, o.angle_degrees, b.rounds,
      b.load, b.load == 1 ? "" : "es");
  std::printf("%-18s %7s %18s %12s %13s\n", "", "threads", "quiet", "loaded", "loaded/quiet");
  for (const Measure& m : measures)
    for (std::size_t k = 0; k < threads.size(); ++k) {
      const double quiet = median(column(0, k, m.field)), loaded = median(column(1, k, m.field));
      std::printf("%-18s %7d %10.3f (%4.0f%%) %12.3f %12.2fx\n", k == 0 ? m.name : "", threads[k], quiet * 1e3,
                  100 * spread(column(0, k, m.field)), loaded * 1e3, loaded / quiet);
    }
  std::printf("\n%d threads against 1 (1-thread time / %d-thread time; above 1: faster):\n", team, team);
  for (const Measure& m : measures) {
    std::printf("  %-18s quiet %5.2fx   beside %d busy: %5.2fx\n", m.name,
                median(column(0, 0, m.field)) / median(column(0, 1, m.field)), b.load,
                median(column(1, 0, m.field)) / median(column(1, 1, m.field)));
  }
  return 0;
}

}  // namespace kcycle::cli
