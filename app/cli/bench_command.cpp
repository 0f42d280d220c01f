// `kcycle bench`: median time per cycle for kappa = 1, 2, 3, 4, W over a range of levels,
// and the memory bandwidth of a Jacobi sweep beside a STREAM triad measured in the same run.
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "kcycle/backends/cuda/cuda_backend.hpp"
#include "kcycle/core/relaxation_factor.hpp"
#include "kcycle/cycle/byte_model.hpp"
#include "kcycle/cycle/cycle_counts.hpp"
#include "kcycle/model/cost_model.hpp"
#include "kcycle/model/timing.hpp"
#include "kcycle/solve/execution_target.hpp"
#include "kcycle/solve/solve.hpp"
#include "kcycle/solve/solver_options.hpp"
#include "load_bench.hpp"
#include "solver_args.hpp"

namespace kcycle::cli {

namespace {

struct BenchArgs {
  int min_levels = 0;  // 0: 4 (--load: 9)
  int max_levels = 0;  // 0: 11 (--load: 9)
  int load = 0;        // --load N: quiet and beside N busy processes
  SolverArgs solver;   // the problem, sweeps, threads, backend, fused passes, coarse tail and --load's kappa
  bool compare_fused = false;
  bool compare_tail = false;
  bool compare_repeat = false;
  bool line_solvers = false;
  double min_seconds = 0.2;
  bool json = false;
};

// A table of one cell per case: a row per level count, a column per kappa.
template <class Case, class Cell>
void print_kappa_table(const std::vector<Case>& cases, const std::vector<int>& kappas, Cell&& cell) {
  std::printf("%6s", "levels");
  for (int k : kappas) std::printf(" %24s", ("kappa=" + kappa_to_string(k)).c_str());
  std::printf("\n");
  for (std::size_t i = 0; i < cases.size(); i += kappas.size()) {
    std::printf("%6d", cases[i].levels);
    for (std::size_t k = 0; k < kappas.size() && i + k < cases.size(); ++k)
      std::printf(" %24s", cell(cases[i + k]).c_str());
    std::printf("\n");
  }
}

std::string formatted(const char* format, double a, double b, double c) {
  char text[64];
  std::snprintf(text, sizeof text, format, a, b, c);
  return text;
}

// The distance to the memory limit for whole cycles: the bytes a cycle moves (as implemented,
// and as a plain unfused cycle would move them) over its median time, against the triad.
template <class Case>
void print_byte_model(const std::vector<Case>& cases, const std::vector<int>& kappas, double triad_gbps) {
  std::printf(
      "\nbyte model (byte_model.hpp: each array a pass touches streamed once): MB per cycle as implemented / "
      "unfused,\nand effective GB/s of the unfused bytes over the median time, as a multiple of this run's "
      "STREAM triad (%.2f GB/s)\n",
      triad_gbps);
  print_kappa_table(cases, kappas, [&](const Case& c) {
    const double gbps = c.bytes.unfused / c.seconds * 1e-9;
    return formatted("%.1f/%.1f MB %5.2fx", c.bytes.implemented * 1e-6, c.bytes.unfused * 1e-6, gbps / triad_gbps);
  });
}

// Two ways of running every case, timed in this run (the machine's noise shared): ms per cycle
// the old way / the new way, and the speedup.
template <class Case>
void print_speedups(const char* title, const std::vector<Case>& cases, const std::vector<int>& kappas,
                    double Case::*old_way, double Case::*new_way) {
  std::printf("\n%s: ms per cycle, and the speedup\n", title);
  print_kappa_table(cases, kappas, [&](const Case& c) {
    return formatted("%.3f/%.3f %5.2fx", c.*old_way * 1e3, c.*new_way * 1e3, c.*old_way / c.*new_way);
  });
}

// What the paper's GPU model (kPaperGpuModel, its 5 + nu launches a call) predicts the skip
// saves: one launch and one unknown's work per dropped coarsest call.
template <class Case>
void print_repeat_model(const std::vector<Case>& cases, const std::vector<int>& kappas, int nu) {
  const CostModel& m = kPaperGpuModel;
  std::printf(
      "\nthe paper's GPU model (alpha = %.3g us a launch, beta = %.3g ns an op, %d launches a call) predicts "
      "repeated / once, and the calls saved:\n",
      m.alpha * 1e6, m.beta * 1e9, kPaperTransferLaunchesPerCall + nu);
  print_kappa_table(cases, kappas, [&](const Case& c) {
    const auto at = [&](CoarsestCalls coarsest) {
      return m.predict(double(launches_per_cycle(std::min(c.kappa, c.levels), c.levels,
                                                 kPaperTransferLaunchesPerCall + nu, coarsest)),
                       cycle_ops(c.kappa, c.levels, Coarsening::Full, coarsest));
    };
    const std::uint64_t saved = total_calls(std::min(c.kappa, c.levels), c.levels) -
                                total_calls(std::min(c.kappa, c.levels), c.levels, CoarsestCalls::Once);
    char text[64];
    std::snprintf(text, sizeof text, "%5.3fx, %llu calls", at(CoarsestCalls::Repeated) / at(CoarsestCalls::Once),
                  (unsigned long long)saved);
    return std::string(text);
  });
}

// --line-solvers: one x-line half-sweep of each level count's finest level, by Thomas, cyclic
// reduction and cuSPARSE, on the same data (CudaBackend::time_x_line_solvers).
int run_line_solvers(const BenchArgs& a, const SolverOptions& o, const ExecutionTarget& target) {
  if (target.backend != BackendKind::Cuda) throw InvalidOptions("--line-solvers compares GPU solvers: --backend cuda");
#if KCYCLE_HAVE_CUDA
  CudaBackend gpu(target);
  nlohmann::json rows = nlohmann::json::array();
  if (!a.json)
    std::printf(
        "x-line half-sweep (odd rows of the finest level), median ms of 20: eps=%g, angle=%g\n%6s %7s %10s "
        "%10s %10s %10s  %s\n",
        o.eps, o.angle_degrees, "levels", "nx", "thomas", "pcr", "cusparse", "pcr/thomas", "auto runs");
  for (int n = a.min_levels; n <= a.max_levels; ++n) {
    const GridShape shape = full_coarsening_shape(n, 1);
    const Stencil9 A = discretize(rotated_anisotropic_tensor(o.eps, o.angle_degrees), shape.hx(), shape.hy());
    const CudaBackend::LineSolverTimes t = gpu.time_x_line_solvers(A, shape, 20);
    const bool auto_pcr = shape.nx >= CudaBackend::kPcrFromPoints && t.pcr_seconds >= 0;
    rows.push_back({{"levels", n},
                    {"nx", shape.nx},
                    {"thomas_seconds", t.thomas_seconds},
                    {"pcr_seconds", t.pcr_seconds},
                    {"cusparse_seconds", t.cusparse_seconds},
                    {"pcr_difference", t.pcr_difference},
                    {"cusparse_difference", t.cusparse_difference},
                    {"auto", auto_pcr ? "pcr" : "thomas"}});
    if (!a.json)
      std::printf("%6d %7d %10.4f %10.4f %10.4f %10.2f  %s (pcr differs by %.1e, cusparse by %.1e)\n", n, shape.nx,
                  t.thomas_seconds * 1e3, t.pcr_seconds * 1e3, t.cusparse_seconds * 1e3,
                  t.pcr_seconds > 0 ? t.pcr_seconds / t.thomas_seconds : 0.0, auto_pcr ? "pcr" : "thomas",
                  t.pcr_difference, t.cusparse_difference);
  }
  if (a.json) std::cout << nlohmann::json{{"backend", "cuda"}, {"x_line_solvers", rows}}.dump(1) << "\n";
  return 0;
#else
  (void)a, (void)o;
  throw InvalidOptions("this kcycle was built without the CUDA backend");
#endif
}

// Where the team's threads meet: passes handed to the team per cycle, level by level, at the
// largest level count (a level run on the calling thread alone has none).
template <class Case>
void print_team_passes(const std::vector<Case>& cases, const std::vector<int>& kappas) {
  const int levels = cases.back().levels;
  std::printf("\nthread team: passes handed to the team (synchronisation points) per cycle at %d levels\n%6s", levels,
              "level");
  for (int k : kappas) std::printf(" %9s", ("kappa=" + kappa_to_string(k)).c_str());
  std::printf("\n");
  const std::size_t first = cases.size() - kappas.size();
  for (int l = 1; l <= levels; ++l) {
    std::printf("%6d", l);
    for (std::size_t k = 0; k < kappas.size(); ++k) {
      const auto& passes = cases[first + k].team_passes;
      std::printf(" %9llu", std::size_t(l) < passes.size() ? (unsigned long long)passes[std::size_t(l)] : 0ULL);
    }
    std::printf("\n");
  }
}

// bench's defaults: those of `kcycle solve`, with --load timing Table 4.1's kappa = 3.
SolverOptions bench_defaults() {
  SolverOptions o;
  o.cycle = {CycleType::Kappa, 3};
  return o;
}

int run(BenchArgs a, const CLI::App& cmd) {
  const SolverOptions given = resolve(a.solver, cmd, bench_defaults());
  if (a.load > 0) {
    if (a.load > 64) throw InvalidOptions("--load takes 1 to 64 busy processes");
    LoadBench b;
    b.options = given;
    b.options.levels = a.max_levels > 0 ? a.max_levels : a.min_levels > 0 ? a.min_levels : 9;
    validate(b.options);
    if (b.options.backend != BackendKind::Cpu) throw InvalidOptions("--load measures the CPU backend");
    if (!(a.min_seconds > 0)) throw InvalidOptions("--min-seconds must be positive");
    b.load = a.load;
    b.min_seconds = a.min_seconds;
    b.json = a.json;
    return run_load_bench(b);
  }
  if (a.min_levels == 0) a.min_levels = 4;
  if (a.max_levels == 0) a.max_levels = 11;
  if (a.min_levels < 2 || a.max_levels < a.min_levels || a.max_levels > kMaxLevels)
    throw InvalidOptions("need 2 <= --min-levels <= --max-levels <= " + std::to_string(kMaxLevels));
  SolverOptions check = given;
  check.levels = a.max_levels;
  validate(check);
  // What runs: fused only where the backend has the fused passes (not CUDA, not MPI), a coarse
  // tail where it runs them (not MPI, by default on CUDA).
  const ResolvedRun run = resolved_run(check);
  const ExecutionTarget& target = run.target;
  const MultigridSettings& ran = run.settings;
  check.fused = ran.fused;
  const std::size_t tail = ran.coarse_tail_unknowns.value_or(0);
  if (a.compare_tail && tail == 0)
    throw InvalidOptions(
        "--compare-tail needs a coarse tail: give --coarse-tail N (this backend runs none by default)");
  if (!(a.min_seconds > 0)) throw InvalidOptions("--min-seconds must be positive");
  if (a.line_solvers) return run_line_solvers(a, check, target);

  const std::vector<int> kappas(kKappaCandidates.begin(), kKappaCandidates.end());
  TimingPolicy policy;
  policy.min_seconds = a.min_seconds;
  nlohmann::json rows = nlohmann::json::array();
  struct Case {
    int levels, kappa;
    double seconds;
    CycleBytes bytes;
    double fused_seconds = 0, unfused_seconds = 0;  // --compare-fused
    double tail_seconds = 0, no_tail_seconds = 0;   // --compare-tail
    double repeated_seconds = 0, once_seconds = 0;  // --compare-repeat
    std::vector<std::uint64_t> team_passes;         // per level, one cycle
  };
  std::vector<Case> cases;
  if (!a.json) {
    std::printf("kcycle bench: median ms per cycle, Jacobi(%d,%d), eps=%g, angle=%g, %s backend%s%s\n", check.nu1,
                check.nu2, check.eps, check.angle_degrees, describe(target).c_str(),
                check.fused ? ", fused passes" : ", unfused",
                tail > 0 ? (", coarse tail from " + std::to_string(tail) + " unknowns").c_str() : "");
    std::printf("%6s %12s", "levels", "unknowns");
    for (int k : kappas) std::printf(" %11s", ("kappa=" + kappa_to_string(k)).c_str());
    std::printf("\n");
  }
  for (int n = a.min_levels; n <= a.max_levels; ++n) {
    MultigridSettings s;
    s.levels = n;
    s.tensor = rotated_anisotropic_tensor(check.eps, check.angle_degrees);
    s.omega = paper_jacobi_omega(check.eps, check.angle_degrees);
    s.nu1 = check.nu1;
    s.nu2 = check.nu2;
    s.fused = check.fused;
    s.coarse_tail_unknowns = tail;
    s.coarsest_calls = check.coarsest_calls;
    const auto unknowns = full_coarsening_shape(n, 1).unknowns();
    if (!a.json) std::printf("%6d %12llu", n, (unsigned long long)unknowns);
    for (int k : kappas) {
      const CycleTiming t = time_cycle(s, {CycleType::Kappa, k}, target, policy);
      const CycleBytes bytes = cycle_bytes(s, k);
      cases.push_back({n, k, t.median_seconds, bytes, 0, 0, 0, 0, 0, 0, t.team_passes});
      if (a.compare_fused) {
        MultigridSettings other = s;
        other.fused = !s.fused;
        const double other_seconds = time_cycle(other, {CycleType::Kappa, k}, target, policy).median_seconds;
        cases.back().fused_seconds = s.fused ? t.median_seconds : other_seconds;
        cases.back().unfused_seconds = s.fused ? other_seconds : t.median_seconds;
      }
      rows.push_back({{"levels", n},
                      {"kappa", kappa_to_string(k)},
                      {"unknowns", unknowns},
                      {"median_seconds", t.median_seconds},
                      {"min_seconds", t.min_seconds},
                      {"repetitions", t.repetitions},
                      {"launches", t.launches},
                      {"bytes_implemented", bytes.implemented},
                      {"bytes_unfused", bytes.unfused},
                      {"gbps_implemented", bytes.implemented / t.median_seconds * 1e-9},
                      {"gbps_unfused", bytes.unfused / t.median_seconds * 1e-9},
                      {"team_passes_per_level", t.team_passes}});
      if (a.compare_tail) {
        MultigridSettings other = s;
        other.coarse_tail_unknowns = 0;
        cases.back().tail_seconds = t.median_seconds;
        cases.back().no_tail_seconds = time_cycle(other, {CycleType::Kappa, k}, target, policy).median_seconds;
      }
      if (a.compare_repeat) {
        MultigridSettings other = s;
        other.coarsest_calls = s.coarsest_calls == CoarsestCalls::Once ? CoarsestCalls::Repeated : CoarsestCalls::Once;
        const double other_seconds = time_cycle(other, {CycleType::Kappa, k}, target, policy).median_seconds;
        const bool once = s.coarsest_calls == CoarsestCalls::Once;
        cases.back().repeated_seconds = once ? other_seconds : t.median_seconds;
        cases.back().once_seconds = once ? t.median_seconds : other_seconds;
        rows.back()["median_seconds_repeated_coarsest"] = cases.back().repeated_seconds;
        rows.back()["median_seconds_coarsest_once"] = cases.back().once_seconds;
      }
      rows.back()["coarse_tail_top"] = CycleSchedule::plan(s, kAsResolved, CycleMode::Normal).tail_top();
      if (a.compare_tail) rows.back()["median_seconds_no_tail"] = cases.back().no_tail_seconds;
      if (a.compare_fused) {
        rows.back()["median_seconds_fused"] = cases.back().fused_seconds;
        rows.back()["median_seconds_unfused"] = cases.back().unfused_seconds;
      }
      if (!a.json) {
        std::printf(" %11.4f", t.median_seconds * 1e3);
        std::fflush(stdout);
      }
    }
    if (!a.json) std::printf("\n");
  }
  const BandwidthMeasurement bw = measure_bandwidth(a.max_levels, target);
  for (nlohmann::json& row : rows) row["unfused_over_triad"] = row["gbps_unfused"].get<double>() / bw.triad_gbps;
  if (a.json) {
    const nlohmann::json out = {{"backend", describe(target)},
                                {"cycles", rows},
                                {"bandwidth",
                                 {{"levels", a.max_levels},
                                  {"unknowns", bw.unknowns},
                                  {"jacobi_gbps", bw.jacobi_gbps},
                                  {"triad_gbps", bw.triad_gbps},
                                  {"jacobi_seconds", bw.jacobi_seconds},
                                  {"triad_seconds", bw.triad_seconds},
                                  {"triad_elements", bw.triad_unknowns},
                                  {"ratio", bw.jacobi_gbps / bw.triad_gbps}}}};
    std::cout << out.dump(1) << "\n";
  } else {
    std::printf("\nmemory bandwidth, 24 bytes per point:\n");
    std::printf("  Jacobi sweep  %8.2f GB/s  (median %.3f ms, finest level of %d levels, %llu unknowns)\n",
                bw.jacobi_gbps, bw.jacobi_seconds * 1e3, a.max_levels, (unsigned long long)bw.unknowns);
    std::printf("  STREAM triad  %8.2f GB/s  (median %.3f ms, %llu elements per array)\n", bw.triad_gbps,
                bw.triad_seconds * 1e3, (unsigned long long)bw.triad_unknowns);
    std::printf("  sweep / triad %8.1f %%\n", 100.0 * bw.jacobi_gbps / bw.triad_gbps);
    print_byte_model(cases, kappas, bw.triad_gbps);
    if (!cases.back().team_passes.empty()) print_team_passes(cases, kappas);
    if (a.compare_fused)
      print_speedups("fused vs unfused, timed alternately in this run: unfused / fused", cases, kappas,
                     &Case::unfused_seconds, &Case::fused_seconds);
    if (a.compare_tail)
      print_speedups("coarse tail vs every level launched, in this run: per-level / tail", cases, kappas,
                     &Case::no_tail_seconds, &Case::tail_seconds);
    if (a.compare_repeat) {
      print_speedups(
          "the coarsest level called once a call vs every call made (--repeat-coarsest), in this run: "
          "repeated / once",
          cases, kappas, &Case::repeated_seconds, &Case::once_seconds);
      print_repeat_model(cases, kappas, check.nu1 + check.nu2);
    }
  }
  return 0;
}

}  // namespace

Subcommand add_bench_command(CLI::App& app) {
  auto args = std::make_shared<BenchArgs>();
  CLI::App* cmd = app.add_subcommand(
      "bench", "Median time per cycle for kappa=1,2,3,4,W over levels, and smoother bandwidth vs STREAM triad");
  cmd->add_option("--min-levels", args->min_levels, "Smallest level count (default 4)")
      ->check(CLI::Range(2, kMaxLevels));
  cmd->add_option("--max-levels", args->max_levels, "Largest level count (default 11; --load: the level count, 9)")
      ->check(CLI::Range(2, kMaxLevels));
  add_solver_options(*cmd, args->solver,
                     {"eps", "angle", "nu1", "nu2", "threads", "backend", "graphs", "fused", "coarse-tail",
                      "repeat-coarsest", "kappa"},
                     bench_defaults());
  cmd->add_flag("--compare-fused", args->compare_fused,
                "Also time every case the other way (fused/unfused), alternately in this run, and print the speedup");
  cmd->add_flag("--compare-tail", args->compare_tail,
                "Also time every case with every level launched on its own, and print the coarse tail's speedup");
  cmd->add_flag("--compare-repeat", args->compare_repeat,
                "Also time every case with the coarsest level called the other way (--repeat-coarsest), alternately "
                "in this run, and print what the skip saves, measured and as the paper's GPU model predicts");
  cmd->add_flag("--line-solvers", args->line_solvers,
                "CUDA: time an x-line half-sweep by Thomas, cyclic reduction and cuSPARSE gtsv2StridedBatch instead");
  cmd->add_option("--min-seconds", args->min_seconds, "Measured time per case before the median is taken")
      ->capture_default_str()
      ->check(CLI::Range(1e-4, 600.0));
  cmd->add_option("--load", args->load,
                  "Instead: time 1 thread and the team (--threads) quietly and beside N busy processes, a cycle and "
                  "the stand-alone and MGCG solves, in 5 alternating rounds");
  cmd->add_flag("--json", args->json, "Print JSON");
  return {cmd, [args, cmd] { return run(*args, *cmd); }};
}

}  // namespace kcycle::cli
