// `kcycle info`: the paper's counts for one kappa-cycle (levelCalls per level, totalCalls,
// coarsest-level calls per counter, backend launches), with --schedule the passes the CPU
// backend runs on each level (the cycle's schedule), and with --memory every array the solve
// allocates (memory_account.hpp).
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "kcycle/backends/backend_selection.hpp"

#include "commands.hpp"
#include "kcycle/backends/cpu/cpu_backend.hpp"
#include "kcycle/cycle/cycle_counts.hpp"
#include "kcycle/cycle/cycle_schedule.hpp"
#include "kcycle/solve/execution_target.hpp"
#include "kcycle/solve/memory_account.hpp"
#include "kcycle/solve/resolved_run.hpp"
#include "kcycle/solve/solve.hpp"
#include "kcycle/solve/solver_options.hpp"
#include "solver_args.hpp"

namespace kcycle::cli {

namespace {

struct InfoArgs {
  SolverArgs solver;
  bool json = false;
  bool schedule = false;
  bool memory = false;
};

nlohmann::json arrays_json(const std::vector<HeldArray>& arrays) {
  nlohmann::json out = nlohmann::json::array();
  for (const HeldArray& a : arrays)
    out.push_back({{"level", a.level}, {"purpose", a.purpose}, {"bytes", a.bytes}, {"resident", a.resident}});
  return out;
}

nlohmann::json memory_json(const MemoryAccount& m) {
  return {{"held", arrays_json(m.held)},
          {"set_up", arrays_json(m.set_up)},
          {"held_bytes", m.held_bytes()},
          {"resident_held_bytes", m.resident_held_bytes()},
          {"set_up_bytes", m.set_up_bytes()},
          {"peak_host_bytes", m.peak_host_bytes()},
          {"finest_unknowns", m.finest_unknowns},
          {"held_bytes_per_unknown", m.bytes_per_unknown(m.held_bytes())},
          {"resident_held_bytes_per_unknown", m.bytes_per_unknown(m.resident_held_bytes())},
          {"peak_host_bytes_per_unknown", m.bytes_per_unknown(m.peak_host_bytes())},
          {"device", m.device}};
}

// Per level, each purpose and its bytes; then the totals per finest unknown.
void print_memory(const MemoryAccount& m, const std::optional<std::size_t>& available) {
  std::printf("%6s  %-32s %12s\n", "level", "array", "size");
  for (const HeldArray& a : m.held)
    std::printf("%6d  %-32s %12s%s\n", a.level, a.purpose.c_str(), bytes_text(a.bytes).c_str(),
                a.resident ? "" : "  (never written in a solve: no memory)");
  for (const HeldArray& a : m.set_up)
    std::printf("%6d  %-32s %12s  (set-up only%s)\n", a.level, a.purpose.c_str(), bytes_text(a.bytes).c_str(),
                a.resident ? "" : "; zero, never written: no memory");
  std::printf("allocated: %s%s, %.1f bytes per finest unknown (%zu unknowns)\n", bytes_text(m.held_bytes()).c_str(),
              m.device ? " of GPU memory" : "", m.bytes_per_unknown(m.held_bytes()), m.finest_unknowns);
  std::printf("taking memory through the solve: %s (%.1f bytes per finest unknown)\n",
              bytes_text(m.resident_held_bytes()).c_str(), m.bytes_per_unknown(m.resident_held_bytes()));
  std::printf("at most at once on the host: %s (%.1f bytes per finest unknown)%s\n",
              bytes_text(m.peak_host_bytes()).c_str(), m.bytes_per_unknown(m.peak_host_bytes()),
              m.set_up.empty() ? " (the solve takes the problem's arrays as its own)"
                               : ", the problem's host copies being freed when the set-up ends");
  std::printf(
      "arrays of 2 MiB and more take memory only where written: one no pass of a solve writes costs nothing "
      "(stepping operation by operation in the visualizer writes the finest t)\n");
  if (available) std::printf("this process may use %s\n", bytes_text(*available).c_str());
}

nlohmann::json schedule_json(const CycleSchedule& schedule) {
  auto passes = [](const std::vector<Pass>& list) {
    nlohmann::json out = nlohmann::json::array();
    for (const Pass& p : list)
      out.push_back({{"kind", pass_kind_name(p.kind)}, {"sweeps", p.sweeps}, {"launches", p.launches}});
    return out;
  };
  nlohmann::json levels = nlohmann::json::array();
  for (int l = 1; l <= schedule.levels(); ++l) {
    const LevelSchedule& L = schedule.level(l);
    levels.push_back({{"level", l},
                      {"in_coarse_tail", L.in_tail},
                      {"down", passes(L.down)},
                      {"up", passes(L.up)},
                      {"launches_per_call", L.launches()}});
  }
  return levels;
}

int run(const InfoArgs& a, const CLI::App& cmd) {
  const SolverOptions o = resolve(a.solver, cmd);
  if (o.levels < 1 || o.levels > 62) throw InvalidOptions("--levels must be between 1 and 62");
  if (o.cycle.type != CycleType::Kappa) throw InvalidOptions("info counts kappa-cycles: leave --cycle as kappa");
  const int n = o.levels;
  const int kappa = std::min(o.cycle.counter, n);  // W: kappa >= n
  const std::string kappa_text = kappa_to_string(o.cycle.counter);
  // The launches of these options' cycle on the CPU backend, level by level from its schedule
  // (the coarsest level's calls made as --repeat-coarsest says).
  const ResolvedRun on_cpu = resolve(o, BackendKind::Cpu);
  const CycleSchedule& schedule = on_cpu.schedule;
  const std::uint64_t launches = schedule.launches_per_cycle(kappa);
  const int per_call = n > 1 ? schedule.launches_per_call(1) : 1;
  const std::uint64_t paper_launches = launches_per_cycle(kappa, n, 5 + o.nu1 + o.nu2, o.coarsest_calls);
  const bool repeated = o.coarsest_calls == CoarsestCalls::Repeated;
  const CudaDeviceStatus& cuda = cuda_device_status();
  const bool on_the_cpu = o.backend == BackendKind::Auto || o.backend == BackendKind::Cpu;
  const MemoryAccount memory = memory_account(o, on_the_cpu ? on_cpu : resolve(o, o.backend));
  const bool cg = o.solver != SolverKind::Multigrid;
  if (a.json) {
    // The counts with the coarsest level's calls made either way: at the top level the options'
    // own (--repeat-coarsest), and under "repeat_coarsest_on" and "repeat_coarsest_off" both.
    const auto counts = [&](CoarsestCalls coarsest) {
      nlohmann::json per_level = nlohmann::json::array(), by_counter = nlohmann::json::array();
      for (int l = 1; l <= n; ++l) per_level.push_back(level_calls(kappa, l, n, coarsest));
      for (int j = 0; j <= std::min(kappa - 1, n - 1); ++j)
        if (const std::uint64_t calls = coarsest_calls_with_counter(kappa, n, j, coarsest))
          by_counter.push_back({{"counter", kappa - j}, {"calls", calls}});
      return nlohmann::json{{"level_calls", per_level},
                            {"total_calls", total_calls(kappa, n, coarsest)},
                            {"coarsest_calls_by_counter", by_counter}};
    };
    const nlohmann::json as_run = counts(o.coarsest_calls);
    const nlohmann::json out = {
        {"levels", n},
        {"kappa", kappa_text},
        {"repeat_coarsest", repeated},
        {"level_calls", as_run["level_calls"]},
        {"total_calls", as_run["total_calls"]},
        {"coarsest_calls_by_counter", as_run["coarsest_calls_by_counter"]},
        {"repeat_coarsest_on", counts(CoarsestCalls::Repeated)},
        {"repeat_coarsest_off", counts(CoarsestCalls::Once)},
        {"launches_per_cycle_cpu", launches},
        {"launches_per_cycle_paper", paper_launches},
        {"schedule", schedule_json(schedule)},
        {"cg_step", cg ? nlohmann::json{{"two_pass", on_cpu.cg_step.two_pass}, {"passes", on_cpu.cg_step.passes()}}
                       : nlohmann::json(nullptr)},
        {"memory", memory_json(memory)},
        {"cuda",
         {{"compiled", cuda.compiled}, {"usable", cuda.usable}, {"device", cuda.device}, {"reason", cuda.reason}}}};
    std::cout << out.dump(1) << "\n";
    return 0;
  }
  if (a.memory) {
    std::printf("The grid arrays a solve with these options allocates (%s backend, %s precision):\n",
                (std::string(backend_title(o.backend)) + (o.backend == BackendKind::Mpi ? ", all ranks" : "")).c_str(),
                o.precision == Precision::Mixed ? "mixed" : "double");
    print_memory(memory, available_memory_bytes());
    return 0;
  }
  if (a.schedule) {
    std::printf("The passes a kappa=%s cycle runs on the CPU backend, per call on each level (%s):\n%s",
                kappa_text.c_str(), o.fused ? "fused passes on" : "fused passes off", schedule.describe().c_str());
    if (cg) std::printf("%s\n", on_cpu.cg_step.describe().c_str());
    return 0;
  }
  std::printf("kappa=%s with %d levels (kappa=1: V, 2: F, >=%d: W); calls into the coarsest level %s\n",
              kappa_text.c_str(), n, n,
              repeated ? "repeated (--repeat-coarsest on, the paper's count)"
                       : "made once a call (--repeat-coarsest off, the authors' code)");
  std::printf("%6s %22s %22s %14s\n", "level", "levelCalls(kappa,l)", "coarsest called once", "unknowns");
  for (int l = 1; l <= n; ++l) {
    const std::uint64_t side = (std::uint64_t(1) << (n - l + 1)) - 1;
    std::printf("%6d %22llu %22llu %14llu\n", l, (unsigned long long)level_calls(kappa, l),
                (unsigned long long)level_calls(kappa, l, n, CoarsestCalls::Once), (unsigned long long)(side * side));
  }
  std::printf("totalCalls(kappa,n) = %llu; with the coarsest level called once a call: %llu\n",
              (unsigned long long)total_calls(kappa, n),
              (unsigned long long)total_calls(kappa, n, CoarsestCalls::Once));
  std::printf("coarsest-level calls by counter (as run):");
  for (int j = 0; j <= std::min(kappa - 1, n - 1); ++j)
    if (const std::uint64_t calls = coarsest_calls_with_counter(kappa, n, j, o.coarsest_calls))
      std::printf(" %d:%llu", kappa - j, (unsigned long long)calls);
  std::printf(
      "\nlaunches per cycle, nu1=%d nu2=%d: %llu on kcycle's CPU backend (%d per call on the finest level; "
      "--schedule: every level's passes), %llu with the paper's %d per call\n",
      o.nu1, o.nu2, (unsigned long long)launches, per_call, (unsigned long long)paper_launches, 5 + o.nu1 + o.nu2);
  std::printf("CUDA backend (no fused passes; its coarse tail is one launch): %s\n",
              cuda.usable ? ("usable here: " + cuda.device).c_str() : ("not usable here: " + cuda.reason).c_str());
  return 0;
}

}  // namespace

Subcommand add_info_command(CLI::App& app) {
  auto args = std::make_shared<InfoArgs>();
  CLI::App* cmd = app.add_subcommand(
      "info",
      "Print levelCalls per level, totalCalls and launch counts of one kappa-cycle, and whether CUDA is usable");
  add_solver_options(*cmd, args->solver);
  cmd->add_flag("--schedule", args->schedule,
                "Print the passes the CPU backend runs per call on each level (which run fused, pipelined, in the "
                "coarse tail)");
  cmd->add_flag("--memory", args->memory,
                "Print every grid array a solve allocates, per level and purpose, and the bytes per finest unknown "
                "(--json: always under \"memory\")");
  cmd->add_flag("--json", args->json, "Print JSON");
  return {cmd, [args, cmd] { return run(*args, *cmd); }};
}

}  // namespace kcycle::cli
