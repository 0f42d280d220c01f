// `kcycle info`: the paper's counts for one kappa-cycle (levelCalls per level, totalCalls,
// coarsest-level calls per counter, backend launches).
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "kcycle/backend_selection.hpp"

#include "commands.hpp"
#include "kcycle/cpu_backend.hpp"
#include "kcycle/cycle_counts.hpp"
#include "kcycle/solver_options.hpp"

namespace kcycle::cli {

namespace {

struct InfoArgs {
  int levels = 9;
  std::string kappa = "2";
  int nu1 = 2, nu2 = 2;
  bool json = false;
};

int run(const InfoArgs& a) {
  if (a.levels < 1 || a.levels > 62) throw InvalidOptions("--levels must be between 1 and 62");
  const auto parsed = parse_kappa(a.kappa);
  if (!parsed) throw InvalidOptions("--kappa must be a positive integer or W (got '" + a.kappa + "')");
  if (a.nu1 < 0 || a.nu2 < 0) throw InvalidOptions("--nu1 and --nu2 must be non-negative");
  const int n = a.levels;
  const int kappa = std::min(*parsed, n);  // W: kappa >= n
  MultigridSettings jacobi;                // the launches of a Jacobi cycle
  jacobi.nu1 = a.nu1;
  jacobi.nu2 = a.nu2;
  const int per_call = jacobi.launches_per_call();
  const std::uint64_t launches = launches_per_cycle(kappa, n, per_call);
  const std::uint64_t paper_launches = launches_per_cycle(kappa, n, 5 + a.nu1 + a.nu2);
  const CudaDeviceStatus& cuda = cuda_device_status();
  if (a.json) {
    nlohmann::json level_calls_json = nlohmann::json::array();
    for (int l = 1; l <= n; ++l) level_calls_json.push_back(level_calls(kappa, l));
    nlohmann::json coarsest = nlohmann::json::array();
    for (int j = 0; j <= std::min(kappa - 1, n - 1); ++j)
      coarsest.push_back({{"counter", kappa - j}, {"calls", coarsest_calls_with_counter(kappa, n, j)}});
    const nlohmann::json out = {
        {"levels", n},
        {"kappa", kappa_to_string(*parsed)},
        {"level_calls", level_calls_json},
        {"total_calls", total_calls(kappa, n)},
        {"coarsest_calls_by_counter", coarsest},
        {"launches_per_cycle_cpu", launches},
        {"launches_per_cycle_paper", paper_launches},
        {"cuda",
         {{"compiled", cuda.compiled}, {"usable", cuda.usable}, {"device", cuda.device}, {"reason", cuda.reason}}}};
    std::cout << out.dump(1) << "\n";
    return 0;
  }
  std::printf("kappa=%s with %d levels (kappa=1: V, 2: F, >=%d: W)\n", kappa_to_string(*parsed).c_str(), n, n);
  std::printf("%6s %22s %14s\n", "level", "levelCalls(kappa,l)", "unknowns");
  for (int l = 1; l <= n; ++l) {
    const std::uint64_t side = (std::uint64_t(1) << (n - l + 1)) - 1;
    std::printf("%6d %22llu %14llu\n", l, (unsigned long long)level_calls(kappa, l), (unsigned long long)(side * side));
  }
  std::printf("totalCalls(kappa,n) = %llu\n", (unsigned long long)total_calls(kappa, n));
  std::printf("coarsest-level calls by counter:");
  for (int j = 0; j <= std::min(kappa - 1, n - 1); ++j)
    std::printf(" %d:%llu", kappa - j, (unsigned long long)coarsest_calls_with_counter(kappa, n, j));
  std::printf(
      "\nlaunches per cycle, nu1=%d nu2=%d: %llu on kcycle's CPU backend (%d per call), "
      "%llu with the paper's %d per call\n",
      a.nu1, a.nu2, (unsigned long long)launches, per_call, (unsigned long long)paper_launches, 5 + a.nu1 + a.nu2);
  std::printf("launches are counted alike on the CUDA backend (%s)\n",
              cuda.usable ? ("usable here: " + cuda.device).c_str() : ("not usable here: " + cuda.reason).c_str());
  return 0;
}

}  // namespace

Subcommand add_info_command(CLI::App& app) {
  auto args = std::make_shared<InfoArgs>();
  CLI::App* cmd = app.add_subcommand(
      "info",
      "Print levelCalls per level, totalCalls and launch counts of one kappa-cycle, and whether CUDA is usable");
  cmd->add_option("--levels", args->levels, "Levels n")->capture_default_str();
  cmd->add_option("--kappa", args->kappa, "Cycle counter: positive integer or W")->capture_default_str();
  cmd->add_option("--nu1", args->nu1, "Pre-relaxations (for the launch count)")->capture_default_str();
  cmd->add_option("--nu2", args->nu2, "Post-relaxations (for the launch count)")->capture_default_str();
  cmd->add_flag("--json", args->json, "Print JSON");
  return {cmd, [args] { return run(*args); }};
}

}  // namespace kcycle::cli
