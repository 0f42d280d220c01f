// The `kcycle` command line as a user meets it: exit codes, messages, JSON.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include <regex>
#include <set>
#include <string>
#include "kcycle/io/options_io.hpp"

#include "kcycle/backends/backend_selection.hpp"
#include "kcycle/core/version.hpp"
#include "kcycle/model/advisor.hpp"
#include "kcycle/model/cost_model.hpp"
#include "kcycle/model/distributed_model.hpp"
#include "kcycle/solve/execution_target.hpp"
#include "kcycle/solve/resolved_run.hpp"
#include "kcycle/solve/solve.hpp"

namespace {

struct Outcome {
  int exit_code = -1;
  bool crashed = false;
  std::string output;  // stdout and stderr together
};

Outcome run_cli_command(const std::string& command) {
  Outcome out;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return out;
  std::array<char, 4096> buffer;
  std::size_t n;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) out.output.append(buffer.data(), n);
  const int status = pclose(pipe);
  out.crashed = WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) >= 128);
  out.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

// The kcycle this build made, or the one KCYCLE_CLI names (the GPU pack's, run away from
// the build tree: scripts/gpu-pack.sh).
std::string cli_path() {
  const char* moved = std::getenv("KCYCLE_CLI");
  return moved && *moved ? moved : KCYCLE_CLI_PATH;
}

Outcome run_cli(const std::string& args) { return run_cli_command(cli_path() + " " + args + " 2>&1"); }

void expect_refused(const std::string& args, const std::string& message) {
  const Outcome o = run_cli("solve " + args);
  EXPECT_FALSE(o.crashed) << args << "\n" << o.output;
  EXPECT_NE(o.exit_code, 0) << args << "\n" << o.output;
  EXPECT_NE(o.output.find(message), std::string::npos) << args << "\n" << o.output;
}

TEST(Cli, BadInputGetsAClearMessageAndNonZeroExit) {
  expect_refused("--eps 0", "--eps must be a number in (0, 1] (got '0')");
  expect_refused("--eps -1", "--eps must be a number in (0, 1] (got '-1')");
  expect_refused("--eps 2", "--eps must be a number in (0, 1] (got '2')");
  expect_refused("--eps abc", "--eps must be a number in (0, 1] (got 'abc')");
  expect_refused("--eps nan", "--eps must be a number in (0, 1] (got 'nan')");
  expect_refused("--eps 1e-400", "(got '1e-400'): too small (the smallest positive number is about 2.2e-308)");
  expect_refused("--kappa 0", "--kappa must be a positive integer or W (got '0')");
  expect_refused("--kappa x", "--kappa must be a positive integer or W");
  expect_refused("--nu1 0 --nu2 0", "nu1 + nu2 must be at least 1");
  expect_refused("--levels 0", "--levels must be an integer from 1 to 16 (got '0')");
  expect_refused("--levels 99999999999999999999", "--levels must be an integer from 1 to 16 (got '9999");
  expect_refused("--levels 16 --solver pcg --problem 1", "of memory; this process may use");  // 297 GB
  expect_refused("--levels ten", "--levels must be an integer from 1 to 16 (got 'ten')");
  expect_refused("--smoother sor", "--smoother must be one of jacobi, gs-rb, xzebra, yzebra or xyzebra (got 'sor')");
  expect_refused("--omega fast", "--omega must be auto, lfa or a number in (0, 2) (got 'fast')");
  expect_refused("--solver gmres", "--solver must be one of mg, pcg or fcg (got 'gmres')");
  expect_refused("--problem 7", "--problem must be 0, 1, 2, 3 or 4 (got '7')");
  expect_refused("--problem 4 --levels 5 --error 'mode 40 1 1'",
                 "the drawn error (--error): shape 1: mode 40 1 is beyond this grid's wave numbers");
  expect_refused("--error 'bump 0.5 0.5 0.1 1'", "would be ignored: it applies to --problem 4 only");
  expect_refused("--cycle gamma --kappa 3", "--kappa does not apply to --cycle gamma");
  expect_refused("--kappa 3 --gamma 2", "contradict each other");
  expect_refused("--no-such-option", "no-such-option");
  expect_refused("--coarse-tail -3", "--coarse-tail must be auto, off or an integer from 1 to 2147483647 (got '-3')");
  expect_refused("--coarse-tail 0", "--coarse-tail must be auto, off or an integer from 1 to 2147483647 (got '0')");
}

// The coarse tail asked for on the CPU: the same iterations and error, fewer launches, and the
// JSON says what ran.
// Problem 3: one Fourier mode as the start, bounded by the grid. On the 5-point Laplacian
// (eps = 1, 0 degrees) a sine mode is an eigenvector of damped Jacobi, with the factor
// 1 - omega (1 - (cos(k pi h) + cos(l pi h)) / 2) a sweep: the first cycle's error factor is that
// to the power nu1 + nu2 = 4 where the coarse grid cannot see the mode (k = l = 32 vanishes at
// the coarse points; k = l = 63 is nearly invisible to full weighting), and the coarse grid
// removes the smoothest mode, which four sweeps would leave almost whole.
// One level, one unknown: the zero-mean start is exactly zero, and the solve says so instead of
// reporting a reduction of 0/0 ("-nan"), in text and in JSON.
TEST(Cli, AStartThatIsAlreadyExactSaysSoInsteadOfNan) {
  const Outcome text = run_cli("solve --levels 1 --problem 2");
  EXPECT_EQ(text.exit_code, 0) << text.output;
  EXPECT_NE(text.output.find("converged: the initial error is already zero, nothing to reduce"), std::string::npos)
      << text.output;
  EXPECT_EQ(text.output.find("nan"), std::string::npos) << text.output;
  const Outcome json = run_cli("solve --levels 1 --problem 2 --json");
  EXPECT_EQ(json.exit_code, 0) << json.output;
  EXPECT_EQ(nlohmann::json::parse(json.output).at("error_reduction").get<double>(), 0.0) << json.output;
}

TEST(Cli, AFourierModeStartShowsTheSmoothersFactorAndTheCoarseGridsWork) {
  expect_refused("--levels 5 --problem 3 --mode 0,1", "--mode must be two integers K,L from 1 to the grid's points");
  expect_refused("--levels 5 --problem 3 --mode 1,32", "mode K,L must have 1 <= K <= 31 and 1 <= L <= 31");
  expect_refused("--levels 5 --problem 3 --mode 32,1", "(got 32,1)");
  expect_refused("--levels 5 --problem 3 --mode 3", "--mode");
  struct First {
    double factor, omega;
  };
  auto first_cycle = [](int k, int l) {
    const Outcome o = run_cli("solve --levels 6 --eps 1 --angle 0 --problem 3 --mode " + std::to_string(k) + "," +
                              std::to_string(l) + " --json");
    EXPECT_EQ(o.exit_code, 0) << o.output;
    const nlohmann::json j = nlohmann::json::parse(o.output.substr(o.output.find('{')));
    return First{j["history"][0]["error"].get<double>() / j["initial_error"].get<double>(), j["omega"].get<double>()};
  };
  const double pi = std::acos(-1.0), h = 1.0 / 64;
  auto sweeps = [&](int k, int l, double omega) {
    return std::pow(std::abs(1 - omega * (1 - (std::cos(k * pi * h) + std::cos(l * pi * h)) / 2)), 4);
  };
  const First middle = first_cycle(32, 32), rough = first_cycle(63, 63), smooth = first_cycle(1, 1);
  EXPECT_NEAR(middle.factor, sweeps(32, 32, middle.omega), 1e-12);
  EXPECT_NEAR(rough.factor / sweeps(63, 63, rough.omega), 1.0, 1e-4);
  EXPECT_GT(sweeps(1, 1, smooth.omega), 0.99) << "four sweeps leave the smoothest mode";
  EXPECT_LT(smooth.factor, 0.01) << "the coarse grids remove it";
}

TEST(Cli, ACoarseTailRunsFewerLaunchesToTheSameResult) {
  const Outcome off = run_cli("solve --levels 7 --kappa 3 --smoother gs-rb --coarse-tail off --json");
  const Outcome on = run_cli("solve --levels 7 --kappa 3 --smoother gs-rb --coarse-tail 300 --json");
  ASSERT_EQ(off.exit_code, 0) << off.output;
  ASSERT_EQ(on.exit_code, 0) << on.output;
  const auto a = nlohmann::json::parse(off.output), b = nlohmann::json::parse(on.output);
  EXPECT_EQ(a["coarse_tail_unknowns"], 0);
  EXPECT_EQ(b["coarse_tail_unknowns"], 300);
  EXPECT_EQ(a["iterations"], b["iterations"]);
  EXPECT_NEAR(b["final_error"].get<double>() / a["final_error"].get<double>(), 1.0, 1e-9);
  EXPECT_LT(b["launches_per_iteration"].get<int>(), a["launches_per_iteration"].get<int>());
}

TEST(Cli, LevelTableShowsTheMeasuredCostOfEveryLevel) {
  // 5 levels, kappa = 3: the calls column is levelCalls(3, l) times the iterations.
  const Outcome o = run_cli("solve --levels 5 --kappa 3 --level-table --json");
  ASSERT_EQ(o.exit_code, 0) << o.output;
  const auto j = nlohmann::json::parse(o.output);
  const int iterations = j["iterations"];
  const auto& rows = j["levels_table"];
  ASSERT_EQ(rows.size(), 5u);
  const int level_calls[] = {1, 2, 4, 7, 11};  // C(l-1,0)+C(l-1,1)+C(l-1,2)
  std::uint64_t launches = 0;
  for (int l = 0; l < 5; ++l) {
    EXPECT_EQ(rows[l]["calls"], level_calls[l] * iterations) << "level " << l + 1;
    launches += rows[l]["launches"].get<std::uint64_t>();
    EXPECT_GT(rows[l]["seconds"][l < 4 ? "relax" : "coarse"].get<double>(), 0.0);
  }
  EXPECT_EQ(launches, j["launches_per_iteration"].get<std::uint64_t>() * std::uint64_t(iterations));
  const Outcome text = run_cli("solve --levels 5 --kappa 3 --level-table --quiet");
  EXPECT_NE(text.output.find("restr. ms"), std::string::npos) << text.output;
  EXPECT_NE(text.output.find("   15x15 "), std::string::npos) << text.output;
}

TEST(Cli, LfaPredictsEveryKappaWithoutSolving) {
  const Outcome o = run_cli("lfa --preset jacobi --levels 9 --eps 1e-2 --angle 45 --json");
  ASSERT_EQ(o.exit_code, 0) << o.output;
  const auto j = nlohmann::json::parse(o.output);
  EXPECT_NEAR(j.at("smoothing_factor").get<double>(), 0.7392, 2e-3)
      << o.output;  // the damped Jacobi's mu at 45 degrees
  const double two_grid = j.at("two_grid_factor").get<double>();
  EXPECT_GT(two_grid, 0.5);
  double previous = 1;
  for (const char* kappa : {"1", "2", "3", "4", "W"}) {
    const double factor = j.at("kappa_factors").at(kappa).get<double>();
    EXPECT_LE(factor, previous + 1e-9) << kappa;
    EXPECT_GE(factor, 0.5 * two_grid) << kappa;
    EXPECT_GT(j.at("predicted_iterations").at(kappa).get<double>(), 1) << kappa;
    previous = factor;
  }
  EXPECT_NE(j.at("basis").get<std::string>().find("infinite grid"), std::string::npos);
  const Outcome text = run_cli("lfa --levels 6");
  EXPECT_EQ(text.exit_code, 0) << text.output;
  EXPECT_NE(text.output.find("two-grid factor"), std::string::npos) << text.output;
  EXPECT_NE(text.output.find("Rests on"), std::string::npos) << text.output;
}

// The Fourier analysis figure: three maps titled with the factors --json prints, the smooth modes
// outlined in each; stdout stays the JSON.
TEST(Cli, LfaDrawsItsMapsAsAFigure) {
  const std::string svg = testing::TempDir() + "kcycle_lfa_maps.svg";
  std::remove(svg.c_str());
  const Outcome o = run_cli_command(cli_path() + " lfa --preset jacobi --levels 7 --eps 1e-4 --angle 45 --kappa 3 " +
                                    "--json --map-resolution 32 --figure " + svg);
  ASSERT_EQ(o.exit_code, 0) << o.output;
  const auto j = nlohmann::json::parse(o.output);
  std::ifstream in(svg);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto count = [&](const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("<g class='map'>"), 3u);
  EXPECT_EQ(count("stroke-dasharray"), 3u);  // the smooth modes, once a map
  char expected[64];
  std::snprintf(expected, sizeof expected, "\u03bc = %.3f", j.at("smoothing_factor").get<double>());
  EXPECT_EQ(count(expected), 1u) << expected;
  std::snprintf(expected, sizeof expected, "Two-grid cycle: \u03c1 = %.3f", j.at("two_grid_factor").get<double>());
  EXPECT_EQ(count(expected), 1u) << expected;
  std::snprintf(expected, sizeof expected, "\u03ba = 3 cycle, %d levels: \u03c1 = %.3f", j.at("depth").get<int>(),
                j.at("kappa_factors").at("3").get<double>());
  EXPECT_EQ(count(expected), 1u) << expected;
}

TEST(Cli, LfaRefusesWhatItCannotAnalyseByName) {
  const struct {
    const char* args;
    const char* message;
  } cases[] = {{"lfa --levels 1", "two levels"},
               {"lfa --levels 5 --depth 6", "--depth must be between 2 and 4"},
               {"lfa --levels 9 --preset xzebra-semi-galerkin --depth 7", "--depth must be between 2 and 6"},
               {"lfa --samples 65", "--samples must be between 2 and 64"},
               {"lfa --samples 1", "--samples"},
               {"lfa --nu1 0 --nu2 0", "nu1 + nu2"},
               {"lfa --cycle gamma --gamma 2", "kappa-cycles"},
               {"lfa --figure maps.pdf", "--figure maps.pdf: the figure's file name must end in .svg or .png"},
               {"lfa --figure maps.svg --map-resolution 48", "--map-resolution: the map's resolution must be a power"}};
  for (const auto& c : cases) {
    const Outcome o = run_cli(c.args);
    EXPECT_FALSE(o.crashed) << c.args << "\n" << o.output;
    EXPECT_EQ(o.exit_code, 2) << c.args << "\n" << o.output;
    EXPECT_NE(o.output.find(c.message), std::string::npos) << c.args << "\n" << o.output;
  }
}

TEST(Cli, NoSubcommandPrintsUsage) {
  const Outcome o = run_cli("");
  EXPECT_NE(o.exit_code, 0);
  EXPECT_NE(o.output.find("solve"), std::string::npos) << o.output;
}

// Every option of the library's table, with its own description, in the help of every command
// that takes the solver options (the table registers them: nothing is left out by hand).
TEST(Cli, HelpDescribesEveryOption) {
  for (const char* command : {"solve", "advise", "calibrate", "info"}) {
    const Outcome o = run_cli(std::string(command) + " --help");
    EXPECT_EQ(o.exit_code, 0) << command;
    for (const kcycle::OptionSpec& spec : kcycle::option_specs()) {
      const std::string line = "--" + std::string(spec.key);
      const std::size_t at = o.output.find("  " + line + " ");
      ASSERT_NE(at, std::string::npos) << command << " --help lacks " << line << "\n" << o.output;
      ASSERT_FALSE(spec.help.empty()) << line;
      // Its description (the first words: a long one runs on), before the next option's entry
      // (CLI11 moves it to a line of its own under a long name).
      const std::string words(spec.help.substr(0, std::min<std::size_t>(spec.help.size(), 40)));
      const std::size_t end = o.output.find("\n  -", at + 1);
      EXPECT_NE(o.output.substr(at, end - at).find(words), std::string::npos)
          << command << ": " << line << " is not described as '" << words << "...'";
    }
    EXPECT_NE(o.output.find("--config"), std::string::npos) << command;
  }
  for (const char* extra : {"--json", "--level-table"})
    EXPECT_NE(run_cli("solve --help").output.find(extra), std::string::npos) << extra;
  // bench and experiment take a part of the table, described as the table describes it.
  const std::pair<const char*, std::vector<std::string>> parts[] = {
      {"bench", {"eps", "angle", "nu1", "nu2", "threads", "backend", "graphs", "fused", "coarse-tail", "kappa"}},
      {"experiment", {"max-iter", "threads", "backend", "graphs", "fused", "precision", "coarse-tail", "line-solver"}}};
  for (const auto& [command, keys] : parts) {
    const Outcome o = run_cli(std::string(command) + " --help");
    for (const std::string& key : keys) {
      const kcycle::OptionSpec* spec = kcycle::find_option(key);
      ASSERT_NE(spec, nullptr) << key;
      const std::size_t at = o.output.find("  --" + key + " ");
      ASSERT_NE(at, std::string::npos) << command << " --help lacks --" << key;
      const std::string words(spec->help.substr(0, std::min<std::size_t>(spec->help.size(), 40)));
      EXPECT_NE(o.output.substr(at, o.output.find("\n  -", at + 1) - at).find(words), std::string::npos)
          << command << ": --" << key;
    }
  }
}

TEST(Cli, DivergenceExitsNonZeroWithStatus) {
  const Outcome o = run_cli("solve --levels 5 --eps 1 --omega 1.95 --kappa 1");
  EXPECT_EQ(o.exit_code, 3) << o.output;
  EXPECT_NE(o.output.find("diverged"), std::string::npos) << o.output;
}

TEST(Cli, JsonHasTheDocumentedFields) {
  const Outcome o = run_cli("solve --levels 6 --eps 1e-2 --angle 30 --kappa W --solver pcg --json");
  ASSERT_EQ(o.exit_code, 0) << o.output;
  const auto j = nlohmann::json::parse(o.output);
  for (const char* key :
       {"iterations", "converged", "error_reduction", "residual_reduction", "seconds_total", "seconds_per_iteration",
        "omega", "kappa", "levels", "unknowns", "fused", "precision", "history"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["precision"], "double");
  EXPECT_TRUE(j["fused"].get<bool>()) << "fused Jacobi passes are the CPU default";
  EXPECT_EQ(j["kappa"], "W");
  EXPECT_EQ(j["levels"], 6);
  EXPECT_EQ(j["unknowns"], 63 * 63);
  EXPECT_TRUE(j["converged"].get<bool>());
  EXPECT_LE(j["error_reduction"].get<double>(), 1e-8);
  EXPECT_EQ(j["history"].size(), j["iterations"].get<std::size_t>());
}

TEST(Cli, InfoPrintsThePapersCounts) {
  const Outcome o = run_cli("info --levels 5 --kappa 3 --json");
  ASSERT_EQ(o.exit_code, 0) << o.output;
  const auto j = nlohmann::json::parse(o.output);
  EXPECT_EQ(j["total_calls"], 5 + 10 + 10);
  EXPECT_EQ(j["level_calls"], nlohmann::json({1, 2, 4, 7, 11}));
}

// Both coarsest-call conventions side by side: the options' own at the top level (the paper's by
// default), each under its own key; the authors' skip saves levelCalls(3, 5) - levelCalls(3, 4)
// = 11 - 7 calls, one coarsest launch each.
TEST(Cli, InfoShowsBothCoarsestCallConventions) {
  const Outcome on = run_cli("info --levels 5 --kappa 3 --json");
  const Outcome off = run_cli("info --levels 5 --kappa 3 --repeat-coarsest off --json");
  ASSERT_EQ(on.exit_code, 0) << on.output;
  ASSERT_EQ(off.exit_code, 0) << off.output;
  const auto a = nlohmann::json::parse(on.output), b = nlohmann::json::parse(off.output);
  EXPECT_TRUE(a["repeat_coarsest"].get<bool>());
  EXPECT_FALSE(b["repeat_coarsest"].get<bool>());
  EXPECT_EQ(b["total_calls"], 5 + 10 + 10 - 4);
  EXPECT_EQ(b["level_calls"], nlohmann::json({1, 2, 4, 7, 7}));
  for (const auto* j : {&a, &b}) {
    EXPECT_EQ((*j)["repeat_coarsest_on"]["total_calls"], 25);
    EXPECT_EQ((*j)["repeat_coarsest_off"]["total_calls"], 21);
    EXPECT_EQ((*j)["repeat_coarsest_off"]["level_calls"], nlohmann::json({1, 2, 4, 7, 7}));
  }
  EXPECT_EQ(a["launches_per_cycle_cpu"].get<int>() - b["launches_per_cycle_cpu"].get<int>(), 4);
  EXPECT_EQ(a["launches_per_cycle_paper"].get<int>() - b["launches_per_cycle_paper"].get<int>(), 4);
  const Outcome text = run_cli("info --levels 5 --kappa 3");
  EXPECT_NE(text.output.find("totalCalls(kappa,n) = 25; with the coarsest level called once a call: 21"),
            std::string::npos)
      << text.output;
  const Outcome bad = run_cli("info --repeat-coarsest sometimes");
  EXPECT_NE(bad.exit_code, 0) << bad.output;
  EXPECT_NE(bad.output.find("repeat-coarsest"), std::string::npos) << bad.output;
}

// The Krylov-accelerated cycle solves (fewer iterations than the plain cycle on the paper's
// problem); the commands whose models or analysis it would leave wrong refuse it by name.
TEST(Cli, CoarseKrylovSolvesAndTheModelsRefuseIt) {
  const Outcome plain = run_cli("solve --levels 6 --kappa 3 --json");
  const Outcome krylov = run_cli("solve --levels 6 --kappa 3 --coarse-krylov on --json");
  ASSERT_EQ(plain.exit_code, 0) << plain.output;
  ASSERT_EQ(krylov.exit_code, 0) << krylov.output;
  EXPECT_LT(nlohmann::json::parse(krylov.output)["iterations"].get<int>(),
            nlohmann::json::parse(plain.output)["iterations"].get<int>());
  for (const char* command : {"lfa --levels 6", "advise --levels 6", "calibrate --max-levels 5 --out /dev/null",
                              "solve --levels 6 --preset jacobi+cg", "solve --levels 6 --cycle gamma"}) {
    const Outcome o = run_cli(std::string(command) + " --coarse-krylov on");
    EXPECT_EQ(o.exit_code, 2) << command << "\n" << o.output;
    EXPECT_NE(o.output.find("coarse-krylov"), std::string::npos) << command << "\n" << o.output;
  }
}

// The physical passes per level, from the library's option table: fused Jacobi, then the
// x-zebra preset's pipelined sweeps; the JSON's launches add up to the cycle's count.
TEST(Cli, InfoScheduleShowsThePassesPerLevel) {
  const Outcome fused = run_cli("info --levels 4 --kappa 2 --schedule");
  ASSERT_EQ(fused.exit_code, 0) << fused.output;
  EXPECT_NE(fused.output.find("level 1: down [one pass: 2 sweeps + residual + restriction]  up [one pass: "
                              "prolongation + 2 sweeps + norms]  2 launches a call"),
            std::string::npos)
      << fused.output;
  EXPECT_NE(fused.output.find("level 4: down [exact solve]"), std::string::npos) << fused.output;
  const Outcome unfused = run_cli("info --levels 4 --kappa 2 --schedule --fused off --nu1 1 --nu2 3");
  EXPECT_NE(unfused.output.find("level 2: down [sweep, residual + restriction, zero coarse correction]  up "
                                "[prolongation, 3 sweeps]  7 launches a call"),
            std::string::npos)
      << unfused.output;
  const Outcome zebra = run_cli("info --levels 5 --kappa 3 --preset xzebra-semi-galerkin --json");
  ASSERT_EQ(zebra.exit_code, 0) << zebra.output;
  const auto j = nlohmann::json::parse(zebra.output);
  std::uint64_t launches = 0;
  for (const auto& level : j["schedule"]) {
    const int l = level["level"].get<int>();
    launches +=
        j["level_calls"][std::size_t(l - 1)].get<std::uint64_t>() * level["launches_per_call"].get<std::uint64_t>();
    if (l < 5) {
      EXPECT_EQ(level["down"][0]["kind"], "pipelined sweep");
    }
  }
  EXPECT_EQ(j["launches_per_cycle_cpu"].get<std::uint64_t>(), launches);
  EXPECT_EQ(run_cli("info --cycle gamma --schedule").exit_code, 2);
}

TEST(Cli, ExperimentWritesCsvJsonAndSvg) {
  const std::string dir = testing::TempDir() + "kcycle_experiment_test";
  const Outcome o = run_cli("experiment table4.4 --levels 5 --out " + dir);
  ASSERT_EQ(o.exit_code, 0) << o.output;
  EXPECT_NE(o.output.find("[25/25]"), std::string::npos) << "progress lines";
  for (const char* ext : {".csv", ".json", ".svg"}) {
    std::FILE* f = std::fopen((dir + "/table4.4" + ext).c_str(), "r");
    ASSERT_NE(f, nullptr) << ext;
    std::fclose(f);
  }
  const Outcome bad = run_cli("experiment table9.9");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.output.find("unknown experiment 'table9.9'"), std::string::npos) << bad.output;
}

TEST(Cli, AnExperimentRunsTheTableCasesAskedForWithEachCasesSetUpAndMemory) {
  const std::string dir = testing::TempDir() + "kcycle_experiment_cases";
  const Outcome o = run_cli("experiment table4.4 --levels 5 --kappas W,3 --angles 45 --out " + dir);
  ASSERT_EQ(o.exit_code, 0) << o.output;
  EXPECT_NE(o.output.find("[2/2] xyzebra-galerkin+cg angle=45 kappa=W: converged in"), std::string::npos) << o.output;
  EXPECT_NE(o.output.find(", set-up "), std::string::npos) << o.output;
  std::ifstream csv(dir + "/table4.4.csv");
  std::vector<std::string> lines;
  for (std::string line; std::getline(csv, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 3u) << "a header and the two cases";
  EXPECT_NE(lines[0].find(",setup_seconds,memory_bytes,peak_resident_bytes"), std::string::npos) << lines[0];
  EXPECT_NE(lines[1].find(",45,3,converged,"), std::string::npos) << lines[1];
  EXPECT_NE(lines[2].find(",45,W,converged,"), std::string::npos) << lines[2];
  EXPECT_EQ(run_cli("experiment table4.4 --levels 5 --kappas X --out " + dir).exit_code, 2);
  const Outcome other = run_cli("experiment fig4.1 --kappas 2 --out " + dir);
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_NE(other.output.find("choose the cases of a table"), std::string::npos) << other.output;
  // A table whose cases would not fit is refused before its first solve, saying what it needs.
  const Outcome big = run_cli("experiment table4.4 --levels 16 --out " + dir);
  EXPECT_EQ(big.exit_code, 2);
  EXPECT_NE(big.output.find("need about"), std::string::npos) << big.output;
  EXPECT_EQ(big.output.find("[1/"), std::string::npos) << big.output;
}

TEST(Cli, AParametersFileErrorNamesTheFileLineAndKey) {
  const std::string file = testing::TempDir() + "kcycle_cli_bad_parameters.toml";
  auto refused = [&](const std::string& body, const std::string& message) {
    std::FILE* f = std::fopen(file.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs(body.c_str(), f);
    std::fclose(f);
    const Outcome o = run_cli("solve --config " + file);
    EXPECT_EQ(o.exit_code, 2) << o.output;
    EXPECT_FALSE(o.crashed) << o.output;
    EXPECT_NE(o.output.find("kcycle: error: " + file + message), std::string::npos) << o.output;
  };
  refused("levels = 5\nsmothér = 1\n", ":2: unknown key 'smothér'");
  refused("levels = 5\neps = nan\n", ":2: eps must be a number in (0, 1] (got 'nan')");
  refused("levels = 5\nnu1 = 2000\n", ":2: nu1 must be an integer from 0 to 1000 (got '2000')");
  refused("levels = 5\nkappa = \"W", ":2: kappa: unterminated or malformed string");
  const Outcome missing = run_cli("solve --config /nonexistent/run.toml");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.output.find("parameters file /nonexistent/run.toml: cannot open: No such file or directory"),
            std::string::npos)
      << missing.output;
  std::remove(file.c_str());
}

TEST(Cli, CalibrateThenAdvise) {
  const std::string file = testing::TempDir() + "kcycle_cli_calibration.json";
  const Outcome c = run_cli("calibrate --min-levels 3 --max-levels 5 --min-seconds 0.01 --out " + file);
  ASSERT_EQ(c.exit_code, 0) << c.output;
  EXPECT_NE(c.output.find("alpha = "), std::string::npos) << c.output;
  const Outcome a = run_cli("advise --levels 6 --eps 1e-3 --calibration " + file);
  ASSERT_EQ(a.exit_code, 0) << a.output;
  EXPECT_NE(a.output.find("recommended: kappa="), std::string::npos) << a.output;
  const Outcome missing = run_cli("advise --levels 6 --calibration /nonexistent/file.json");
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_FALSE(missing.crashed);
  EXPECT_NE(missing.output.find("cannot read calibration file"), std::string::npos) << missing.output;
}

// A shared parameters file cannot clear or recolour the terminal through an error message: its
// control characters (ESC, and C1's CSI in UTF-8) come back escaped; other UTF-8 stays.
TEST(Cli, ControlCharactersFromAFileAreShownEscaped) {
  const std::string file = testing::TempDir() + "kcycle_cli_control.toml";
  for (const auto& [body, shown] : std::vector<std::pair<std::string, std::string>>{
           {"levels = 5\nsmo\x1b[2Jther = 1\n", "unknown key 'smo\\x1b[2Jther'"},
           {"levels = 5\nsmoother = \"x\xc2\x9b"
            "31m\"\n",
            "(got 'x\\u009b31m')"},
           {"levels = 5\nsmothér = 1\n", "unknown key 'smothér'"}}) {
    std::FILE* f = std::fopen(file.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs(body.c_str(), f);
    std::fclose(f);
    const Outcome o = run_cli("solve --config " + file);
    EXPECT_EQ(o.exit_code, 2) << o.output;
    EXPECT_NE(o.output.find(shown), std::string::npos) << o.output;
    EXPECT_EQ(o.output.find('\x1b'), std::string::npos) << o.output;
    EXPECT_EQ(o.output.find("\xc2\x9b"), std::string::npos) << o.output;
  }
  std::remove(file.c_str());
  // A calibration's text (its backend) is echoed when it does not match the run.
  const std::string calibration = testing::TempDir() + "kcycle_cli_control_calibration.json";
  ASSERT_EQ(run_cli("calibrate --min-levels 3 --max-levels 4 --min-seconds 0.01 --out " + calibration).exit_code, 0);
  std::ifstream in(calibration);
  auto j = nlohmann::json::parse(in);
  j["backend"] = "cpu\x1b[2J";
  std::ofstream(calibration) << j.dump();
  const Outcome advice = run_cli("advise --levels 5 --calibration " + calibration);
  EXPECT_NE(advice.output.find("cpu\\x1b[2J"), std::string::npos) << advice.output;
  EXPECT_EQ(advice.output.find('\x1b'), std::string::npos) << advice.output;
  std::remove(calibration.c_str());
}

// advise recommends only a kappa predicted to converge within the solve's max-iter; where none is,
// it says so and exits 3, as solve does when not converged (it recommended kappa=3, predicted to
// need 163 iterations, under --max-iter 50).
TEST(Cli, AdviseKeepsToTheIterationLimit) {
  const Outcome none = run_cli("advise --levels 7 --max-iter 20 --json");
  EXPECT_EQ(none.exit_code, 3) << none.output;
  const auto j = nlohmann::json::parse(none.output.substr(none.output.find('{')));
  EXPECT_FALSE(j["recommended_fits_max_iterations"].get<bool>());
  const Outcome text = run_cli("advise --levels 7 --max-iter 20");
  EXPECT_NE(text.output.find("recommended: none within max-iter 20"), std::string::npos) << text.output;
  // A limit some kappas fit: the pick is one of them, the others are named as left out.
  const Outcome some = run_cli("advise --levels 7 --json");
  ASSERT_EQ(some.exit_code, 0) << some.output;
  const auto all = nlohmann::json::parse(some.output.substr(some.output.find('{')));
  double most = 0, least = 1e9;
  for (const auto& c : all["candidates"]) {
    most = std::max(most, c["predicted_iterations"].get<double>());
    least = std::min(least, c["predicted_iterations"].get<double>());
  }
  ASSERT_GT(most, least + 2) << some.output;
  const int limit = int(std::ceil(least)) + 1;
  const Outcome fit = run_cli("advise --levels 7 --json --max-iter " + std::to_string(limit));
  ASSERT_EQ(fit.exit_code, 0) << fit.output;
  const auto picked = nlohmann::json::parse(fit.output.substr(fit.output.find('{')));
  for (const auto& c : picked["candidates"])
    if (c["kappa"] == picked["recommended_kappa"]) {
      EXPECT_LE(c["predicted_iterations"].get<double>(), limit) << fit.output;
    }
}

// advise predicts by default (issue 40: the probes at the target size stay behind --iterations
// probe): its iterations come from coarser hierarchies, nothing is probed at the target size, and
// the JSON says where they came from. A target too shallow for the window is probed, and says so.
TEST(Cli, AdviseForecastsFromCoarserHierarchiesByDefault) {
  const Outcome o = run_cli("advise --levels 7 --eps 1e-2 --json");
  ASSERT_EQ(o.exit_code, 0) << o.output;
  const auto j = nlohmann::json::parse(o.output.substr(o.output.find('{')));
  EXPECT_EQ(j["iterations_from"], "forecast") << o.output;
  ASSERT_EQ(j["candidates"].size(), 5u) << o.output;
  for (const auto& c : j["candidates"]) {
    EXPECT_EQ(c["basis"].get<std::string>().rfind("forecast from solves at ", 0), 0u) << c.dump();
    EXPECT_EQ(c["converged_in_probe"], false) << c.dump();
  }
  const Outcome probed = run_cli("advise --levels 7 --eps 1e-2 --iterations probe --json");
  ASSERT_EQ(probed.exit_code, 0) << probed.output;
  const auto p = nlohmann::json::parse(probed.output.substr(probed.output.find('{')));
  EXPECT_EQ(p["iterations_from"], "probe");
  for (const auto& c : p["candidates"]) EXPECT_GT(c["probe_iterations"].get<int>(), 0) << "probed: " << c.dump();
  const Outcome shallow = run_cli("advise --levels 4 --json");
  ASSERT_EQ(shallow.exit_code, 0) << shallow.output;
  EXPECT_NE(shallow.output.find("note: a forecast from coarser solves needs at least"), std::string::npos)
      << shallow.output;
  EXPECT_EQ(nlohmann::json::parse(shallow.output.substr(shallow.output.find('{')))["iterations_from"], "probe");
}

// advise names the kappas whose predicted time bands overlap the pick's, in the JSON (recomputed
// here from each candidate's band) and in the text beside the recommendation. The calibration is
// the paper's model with fixed alpha and beta (no timings), and no budget is left for probes, so
// both runs predict the same (coarse solves and the model only) on a busy machine too.
TEST(Cli, AdviseNamesTheKappasItCannotTellFromThePick) {
  const std::string calibration = testing::TempDir() + "kcycle_cli_close_calibration.json";
  ASSERT_EQ(run_cli("calibrate --min-levels 3 --max-levels 4 --min-seconds 0.01 --out " + calibration).exit_code, 0);
  {
    std::ifstream in(calibration);
    auto model = nlohmann::json::parse(in);
    model["alpha_seconds"] = 1e-9;  // the ops decide: kappa = 3, 4 and W within a few percent
    model["beta_seconds"] = 1e-9;
    model["samples"] = nlohmann::json::array();
    std::ofstream(calibration) << model.dump();
  }
  const std::string advise =
      "advise --levels 8 --eps 1e-4 --angle 45 --iterations forecast --budget 1e-9 --calibration " + calibration;
  const Outcome o = run_cli(advise + " --json");
  ASSERT_EQ(o.exit_code, 0) << o.output;
  const auto j = nlohmann::json::parse(o.output.substr(o.output.find('{')));
  double pick_high = 0;
  for (const auto& c : j["candidates"])
    if (c["kappa"] == j["recommended_kappa"]) pick_high = c["predicted_seconds_high"].get<double>();
  std::vector<std::pair<double, std::string>> overlapping;
  for (const auto& c : j["candidates"])
    if (c["kappa"] != j["recommended_kappa"] && c["predicted_seconds_low"].get<double>() <= pick_high)
      overlapping.push_back({c["predicted_seconds"].get<double>(), c["kappa"].get<std::string>()});
  std::stable_sort(overlapping.begin(), overlapping.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> expected;
  for (const auto& [seconds, kappa] : overlapping) expected.push_back(kappa);
  ASSERT_TRUE(j["close_to_recommended"].is_array()) << o.output;
  EXPECT_EQ(j["close_to_recommended"].get<std::vector<std::string>>(), expected) << o.output;
  ASSERT_FALSE(expected.empty()) << "no kappa's band overlaps the pick's here: the test shows nothing\n" << o.output;
  const Outcome text = run_cli(advise);
  ASSERT_EQ(text.exit_code, 0) << text.output;
  const std::size_t line = text.output.find("close to it (predicted time bands overlapping its ");
  ASSERT_NE(line, std::string::npos) << text.output;
  const std::string close = text.output.substr(line, text.output.find('\n', line) - line);
  for (const std::string& kappa : expected) EXPECT_NE(close.find("kappa=" + kappa + " "), std::string::npos) << close;
  EXPECT_NE(close.find("the prediction cannot tell them apart"), std::string::npos) << close;
  // What --settle would probe: the pick first, then those within 10 % of it, named in the line.
  const auto to_settle = j["to_settle"].get<std::vector<std::string>>();
  ASSERT_GE(to_settle.size(), 2u) << o.output;
  EXPECT_EQ(to_settle.front(), j["recommended_kappa"]) << o.output;
  EXPECT_GT(j["settle_seconds"].get<double>(), 0.0) << o.output;
  EXPECT_NE(close.find("--settle probes kappa=" + to_settle[0] + ", " + to_settle[1]), std::string::npos) << close;
  std::remove(calibration.c_str());
}

// advise gives a near-tie to the kappa of fewer iterations (--near-tie): with 0 the fastest
// predicted is the pick and no note is written; with a wide near-tie the pick is within it of the
// fastest, no kappa within it needs 5 % fewer iterations (counts alike), and the note (JSON and text) says
// which over which. A fixed model and no budget, as above: the same prediction in every run.
TEST(Cli, AdviseGivesANearTieToTheKappaOfFewerIterations) {
  const std::string calibration = testing::TempDir() + "kcycle_cli_tie_calibration.json";
  ASSERT_EQ(run_cli("calibrate --min-levels 3 --max-levels 4 --min-seconds 0.01 --out " + calibration).exit_code, 0);
  {
    std::ifstream in(calibration);
    auto model = nlohmann::json::parse(in);
    model["alpha_seconds"] = 3e-7;  // kappa = 2 the fastest, kappa = 3 3 % over in 19 % fewer iterations
    model["beta_seconds"] = 1e-9;
    model["samples"] = nlohmann::json::array();
    std::ofstream(calibration) << model.dump();
  }
  const std::string advise =
      "advise --levels 8 --eps 1e-4 --angle 45 --iterations forecast --budget 1e-9 --calibration " + calibration;
  const auto parse = [](const Outcome& o) { return nlohmann::json::parse(o.output.substr(o.output.find('{'))); };
  const Outcome none = run_cli(advise + " --near-tie 0 --json");
  ASSERT_EQ(none.exit_code, 0) << none.output;
  const auto j0 = parse(none);
  std::string fastest;
  double fastest_seconds = 1e300;
  for (const auto& c : j0["candidates"])
    if (c["predicted_seconds"].get<double>() < fastest_seconds)
      fastest_seconds = c["predicted_seconds"].get<double>(), fastest = c["kappa"].get<std::string>();
  EXPECT_EQ(j0["recommended_kappa"], fastest) << none.output;
  EXPECT_EQ(j0["fastest_predicted_kappa"], fastest) << none.output;
  EXPECT_EQ(j0["tie_note"], "") << none.output;
  const Outcome wide = run_cli(advise + " --near-tie 0.5 --json");
  ASSERT_EQ(wide.exit_code, 0) << wide.output;
  const auto j = parse(wide);
  EXPECT_EQ(j["fastest_predicted_kappa"], fastest) << wide.output;
  const std::string pick = j["recommended_kappa"].get<std::string>();
  ASSERT_NE(pick, fastest) << "no kappa of fewer iterations within 50 %: the test shows nothing\n" << wide.output;
  double pick_iterations = 0, pick_seconds = 0;
  for (const auto& c : j["candidates"])
    if (c["kappa"] == pick)
      pick_iterations = c["predicted_iterations"].get<double>(), pick_seconds = c["predicted_seconds"].get<double>();
  EXPECT_LE(pick_seconds, 1.5 * fastest_seconds) << wide.output;
  for (const auto& c : j["candidates"]) {
    if (c["predicted_seconds"].get<double>() > 1.5 * fastest_seconds) continue;
    EXPECT_GT(c["predicted_iterations"].get<double>(), pick_iterations * (1 - kcycle::kStandAloneCountsAlike))
        << c["kappa"] << "\n"
        << wide.output;
  }
  const std::string note = j["tie_note"].get<std::string>();
  EXPECT_NE(note.find("kappa=" + pick + " recommended"), std::string::npos) << note;
  EXPECT_NE(note.find("slower than kappa=" + fastest), std::string::npos) << note;
  const Outcome text = run_cli(advise + " --near-tie 0.5");
  ASSERT_EQ(text.exit_code, 0) << text.output;
  EXPECT_NE(text.output.find("recommended: kappa=" + pick + "\na near-tie: kappa=" + pick), std::string::npos)
      << text.output;
  EXPECT_EQ(run_cli(advise + " --near-tie 0.9").exit_code, 2) << "a near-tie over half the fastest is no near-tie";
  std::remove(calibration.c_str());
}

// CG with a cycle that is not a symmetric preconditioner stalls far above the rounding floor: the
// message says so and names flexible CG, and the solve warns at its start (it blamed "the rounding
// floor of double precision" with the error at 1.9e-7).
TEST(Cli, CgWithANonSymmetricCycleSaysWhyItStalls) {
  const Outcome o = run_cli("solve --preset jacobi+cg --smoother gs-rb --nu2 0 --levels 9 --kappa 1");
  EXPECT_EQ(o.exit_code, 3) << o.output;
  EXPECT_NE(o.output.find("kcycle: warning: CG needs a symmetric preconditioner"), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("stalled: "), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("this cycle is not one: nu1 = 2 and nu2 = 0"), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("use solver fcg"), std::string::npos) << o.output;
  EXPECT_EQ(o.output.find("rounding floor"), std::string::npos) << o.output;
  const Outcome flexible =
      run_cli("solve --preset jacobi+cg --smoother gs-rb --nu2 0 --levels 9 --kappa 1 --solver fcg");
  EXPECT_EQ(flexible.exit_code, 0) << flexible.output;
  EXPECT_EQ(flexible.output.find("warning"), std::string::npos) << flexible.output;
}

// --- backend selection: what a user without a GPU (CI, laptops) sees ---------------------

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// bench --load: 1 thread and a team of 2, quiet and beside a busy process, a cycle and both
// solves, every round kept; the busy process is gone afterwards.
TEST(Cli, BenchLoadTimesOneThreadAndTheTeamQuietAndBesideBusyProcesses) {
  const Outcome o = run_cli("bench --load 1 --threads 2 --max-levels 5 --min-seconds 0.01 --json");
  ASSERT_EQ(o.exit_code, 0) << o.output;
  const auto j = nlohmann::json::parse(o.output.substr(o.output.find('{')));
  EXPECT_EQ(j["load"], 1);
  EXPECT_EQ(j["levels"], 5);
  std::set<std::pair<std::string, int>> seen;
  for (const auto& c : j["cases"]) {
    seen.insert({c["measure"].get<std::string>(), c["threads"].get<int>()});
    EXPECT_EQ(c["quiet_seconds"].size(), 5u);
    EXPECT_EQ(c["loaded_seconds"].size(), 5u);
    for (const auto& t : c["loaded_seconds"]) EXPECT_GT(t.get<double>(), 0.0);
  }
  EXPECT_EQ(seen.size(), 6u) << "cycle, stand-alone and MGCG solves on 1 and 2 threads";
  EXPECT_EQ(run_cli_command("pgrep -f 'while kill -[0]' >/dev/null").exit_code, 1) << "a busy process outlived bench";
  for (const char* bad : {"bench --load 65", "bench --load 1 --kappa 0", "bench --load 1 --backend cuda"}) {
    const Outcome refused = run_cli(bad);
    EXPECT_FALSE(refused.crashed) << bad;
    EXPECT_EQ(refused.exit_code, 2) << bad << "\n" << refused.output;
  }
  EXPECT_EQ(run_cli("solve --levels 4 --threads auto --quiet").exit_code, 0);
}

TEST(Cli, BackendAutoFallsBackToTheCpuWithOneLineSayingWhy) {
  const kcycle::CudaDeviceStatus& cuda = kcycle::cuda_device_status();
  if (cuda.usable) GTEST_SKIP() << "a GPU is present (" << cuda.device << "): auto runs on it";
  const Outcome o = run_cli("solve --levels 4 --backend auto --quiet");
  EXPECT_EQ(o.exit_code, 0) << o.output;
  EXPECT_EQ(occurrences(o.output, "kcycle: --backend auto: running on the CPU: " + cuda.reason + "\n"), 1u) << o.output;
  EXPECT_NE(o.output.find("backend: cpu"), std::string::npos) << o.output;
  // JSON goes to stdout; the line goes to stderr and does not spoil it.
  const std::string command = cli_path() + " solve --levels 4 --backend auto --json 2>/dev/null";
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string json;
  std::array<char, 4096> buffer;
  for (std::size_t n; (n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0;) json.append(buffer.data(), n);
  pclose(pipe);
  EXPECT_EQ(nlohmann::json::parse(json).at("backend"), "cpu");
}

TEST(Cli, BackendCudaFailsClearlyWithoutAGpu) {
  const kcycle::CudaDeviceStatus& cuda = kcycle::cuda_device_status();
  if (cuda.usable) GTEST_SKIP() << "a GPU is present (" << cuda.device << ")";
  for (const char* command : {"solve --levels 4", "bench --max-levels 4", "calibrate --max-levels 4",
                              "advise --levels 4", "experiment fig3.1 --max-levels 4"}) {
    const Outcome o = run_cli(std::string(command) + " --backend cuda");
    EXPECT_FALSE(o.crashed) << command << "\n" << o.output;
    EXPECT_EQ(o.exit_code, 2) << command << "\n" << o.output;
    EXPECT_NE(o.output.find("kcycle: error: backend cuda: " + cuda.reason), std::string::npos) << command << "\n"
                                                                                               << o.output;
  }
  expect_refused("--backend gpu", "--backend must be one of cpu, cuda, auto or mpi (got 'gpu')");
  expect_refused("--graphs maybe", "--graphs must be on or off (got 'maybe')");
}

// Output files are checked before the work (exit 2, naming the path and why) and written whole
// or not at all (exit 1 with the OS's reason; never "saved" for a failed write).
TEST(CliFiles, AnUnwritableOutputIsRefusedBeforeTheWorkAndAFailedWriteIsSaid) {
  auto outcome = [](const std::string& args, int code, const std::string& message) {
    const Outcome o = run_cli(args);
    EXPECT_FALSE(o.crashed) << args << "\n" << o.output;
    EXPECT_EQ(o.exit_code, code) << args << "\n" << o.output;
    EXPECT_NE(o.output.find(message), std::string::npos) << args << "\n" << o.output;
    return o;
  };
  const std::string calibrate = "calibrate --min-levels 4 --max-levels 5 --min-seconds 0.01 --out ";
  for (const auto& [out, why] : std::vector<std::pair<std::string, std::string>>{
           {"/nonexistent-folder/c.json", "its folder /nonexistent-folder: No such file or directory"},
           {"/tmp", "it is a directory"},
           {"''", "an empty file name"}}) {
    const Outcome o = outcome(calibrate + out, 2, why);
    EXPECT_EQ(o.output.find("kappa=1 levels=4"), std::string::npos) << "refused before timing anything: " << o.output;
  }
  const Outcome full = outcome(calibrate + "/dev/full", 1, "cannot write /dev/full: No space left on device");
  EXPECT_EQ(full.output.find("saved"), std::string::npos) << full.output;
  const std::string file = testing::TempDir() + "kcycle_cli_not_a_folder";
  std::ofstream(file) << "x";
  outcome("experiment table4.3 --levels 5 --out " + file, 2, "cannot write into it");
}

// `kcycle figure cycles`: the issue's own example, a PNG for a slide, and what it refuses.
TEST(CliFigure, DrawsFigure2Point1TitledWithTotalCalls) {
  const std::string dir = testing::TempDir() + "kcycle_cli_figure";
  std::filesystem::create_directories(dir);
  const Outcome o = run_cli("figure cycles --levels 5 --kappa 1,2,3,W --out " + dir + "/fig.svg");
  ASSERT_EQ(o.exit_code, 0) << o.output;
  std::ifstream in(dir + "/fig.svg");
  const std::string svg((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const char* title : {"\u03ba = 1, totalCalls = 5<", "\u03ba = 2, totalCalls = 15<",
                            "\u03ba = 3, totalCalls = 25<", "\u03ba = W, totalCalls = 31<"})
    EXPECT_NE(svg.find(title), std::string::npos) << title;
  EXPECT_NE(o.output.find("totalCalls = 31"), std::string::npos) << o.output;
#if KCYCLE_HAVE_PNG_FIGURES  // the GPU pack's build writes SVG only
  const Outcome png = run_cli("figure cycles --levels 4 --kappa 2 --out " + dir + "/fig.png");
  ASSERT_EQ(png.exit_code, 0) << png.output;
  std::ifstream png_in(dir + "/fig.png", std::ios::binary);
  std::string head(8, '\0');
  png_in.read(head.data(), 8);
  EXPECT_EQ(head.substr(1, 3), "PNG");
#else
  const Outcome png = run_cli("figure cycles --levels 4 --kappa 2 --out " + dir + "/fig.png");
  EXPECT_EQ(png.exit_code, 2) << png.output;
  EXPECT_NE(png.output.find("writes .svg figures only"), std::string::npos) << png.output;
#endif
  std::filesystem::remove_all(dir);
}

TEST(CliFigure, RefusesWhatItCannotDrawAndReportsAFailedWrite) {
  auto refused = [](const std::string& args, int code, const std::string& message) {
    const Outcome o = run_cli("figure cycles " + args);
    EXPECT_FALSE(o.crashed) << args << "\n" << o.output;
    EXPECT_EQ(o.exit_code, code) << args << "\n" << o.output;
    EXPECT_NE(o.output.find(message), std::string::npos) << args << "\n" << o.output;
  };
  refused("--out fig.pdf", 2, "must end in .svg or .png");
  refused("--kappa 0 --out fig.svg", 2, "is not a positive integer or W");
  refused("--levels 16 --kappa W --out fig.svg", 2, "unreadable");
  refused("--out /dev/full", 2, "must end in .svg or .png");
  refused("--out /dev/full/x.svg", 1, "cannot write /dev/full/x.svg");
  refused("--levels 5", 2, "--out is required");
  // A full disk: the write fails, is said, and the exit is 1.
  const std::string dir = testing::TempDir() + "kcycle_cli_figure_full";
  std::filesystem::create_directories(dir);
  std::filesystem::remove(dir + "/full.svg");
  std::filesystem::create_symlink("/dev/full", dir + "/full.svg");
  refused("--out " + dir + "/full.svg", 1, "No space left on device");
  std::filesystem::remove_all(dir);
}

#if KCYCLE_HAVE_MPI
// `mpirun -np P kcycle solve --backend mpi ...` prints what the serial solve prints: the same
// iterations and norms (to 1e-12: sums are added in another order), once (rank 0 alone).
Outcome run_mpi_cli(int ranks, const std::string& args) {
  return run_cli_command(
      std::string("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader "
                  "OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_mpi_yield_when_idle=1 "
                  // Open MPI keeps its allocations until exit: no leak check here (ASan builds).
                  "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 ") +
      KCYCLE_MPIEXEC + " -np " + std::to_string(ranks) + " --oversubscribe " + cli_path() + " " + args + " 2>&1");
}

TEST(CliMpi, RanksOfMpirunPrintTheSerialResultOnce) {
  // Every preset (and FCG), on 2 ranks (Jacobi's) or on 3 and 4, where the default grids are
  // 3 x 1 and 2 x 2 for xy-zebra, whose lines then cross ranks, and strips for x-zebra.
  for (const std::string preset : {"jacobi", "jacobi+cg", "jacobi --solver fcg", "xyzebra-galerkin",
                                   "xyzebra-galerkin+cg", "xzebra-semi-galerkin", "xzebra-semi-galerkin+cg"})
    for (const std::string kappa : {"1", "3", "W"}) {
      const std::string args = "solve --preset " + preset + " --levels 7 --kappa " + kappa + " --threads 1 --json";
      const Outcome serial = run_cli(args + " --backend cpu --fused off");
      ASSERT_EQ(serial.exit_code, 0) << serial.output;
      const bool jacobi = preset.starts_with("jacobi");
      for (int ranks : jacobi ? std::vector<int>{2, 4} : std::vector<int>{3, 4}) {
        const Outcome mpi = run_mpi_cli(ranks, args + " --backend mpi");
        ASSERT_EQ(mpi.exit_code, 0) << mpi.output;
        const auto a = nlohmann::json::parse(serial.output), b = nlohmann::json::parse(mpi.output);  // one document
        EXPECT_EQ(b["backend"], "mpi");
        const int px = b["process_grid"][0], py = b["process_grid"][1];
        EXPECT_EQ(px * py, ranks);
        if (preset.starts_with("xzebra")) {
          EXPECT_EQ(px, 1) << "x-lines on one rank: strips";
        }
        EXPECT_EQ(a["iterations"], b["iterations"]) << preset << " kappa " << kappa << ", " << ranks << " ranks";
        ASSERT_EQ(a["history"].size(), b["history"].size());
        // Stand-alone, the iterate is bitwise the serial one: only the norms' sums are ordered
        // otherwise. CG's recurrences carry the reordered dot products' rounding on, so there
        // the difference is measured against the first iteration's norm.
        const bool cg = preset.ends_with("+cg") || preset.ends_with("fcg");
        for (std::size_t k = 0; k < a["history"].size(); ++k)
          for (const char* norm : {"error", "residual"}) {
            const double x = a["history"][k][norm], y = b["history"][k][norm];
            const double scale = cg ? double(a["history"][0][norm]) : std::abs(x);
            EXPECT_NEAR(y, x, 1e-12 * scale) << norm << " at iteration " << k + 1 << ", " << preset << " kappa "
                                             << kappa << ", " << ranks << " ranks";
          }
      }
    }
}

TEST(CliMpi, TheProcessGridCanBeChosenAndMustMatchTheRanks) {
  const std::string args = "solve --levels 6 --kappa 2 --threads 1 --json";
  const Outcome serial = run_cli(args + " --backend cpu --fused off");
  ASSERT_EQ(serial.exit_code, 0) << serial.output;
  struct Grid {
    const char* options;
    int px, py;
  };
  for (const Grid& g : {Grid{"--ranks-x 1 --ranks-y 2", 1, 2}, Grid{"--ranks-x 2 --ranks-y 1", 2, 1},
                        Grid{"--ranks-x 1", 1, 2}, Grid{"--ranks-y 1", 2, 1}}) {
    const Outcome mpi = run_mpi_cli(2, args + " --backend mpi " + g.options);
    ASSERT_EQ(mpi.exit_code, 0) << g.options << "\n" << mpi.output;
    const auto out = nlohmann::json::parse(mpi.output);
    EXPECT_EQ(nlohmann::json::parse(serial.output)["iterations"], out["iterations"]) << g.options;
    EXPECT_EQ(out["process_grid"], nlohmann::json::array({g.px, g.py})) << g.options;
  }
  const Outcome wrong = run_mpi_cli(2, "solve --backend mpi --ranks-x 3 --ranks-y 1 --levels 6");
  EXPECT_EQ(wrong.exit_code, 2) << wrong.output;
  EXPECT_NE(wrong.output.find("ranks-x 3 and ranks-y 1: their product must be the number of ranks (mpirun started 2)"),
            std::string::npos)
      << wrong.output;
  const Outcome no_multiple = run_mpi_cli(2, "solve --backend mpi --ranks-x 3 --levels 6");
  EXPECT_EQ(no_multiple.exit_code, 2) << no_multiple.output;
  EXPECT_NE(no_multiple.output.find("the number of ranks is no multiple of 3"), std::string::npos)
      << no_multiple.output;
  expect_refused("--ranks-x -2", "--ranks-x must be an integer from 0 to 65536 (got '-2')");
}

TEST(CliMpi, CalibrateMeasuresLambdaAndFitsTheRest) {
  const std::string file = testing::TempDir() + "kcycle_cli_mpi_calibration.json";
  std::remove(file.c_str());
  const Outcome o = run_mpi_cli(2,
                                "calibrate --backend mpi --threads 1 --min-levels 4 --max-levels 6 --min-seconds "
                                "0.01 --out " +
                                    file);
  ASSERT_EQ(o.exit_code, 0) << o.output;
  EXPECT_NE(o.output.find("lambda = "), std::string::npos) << o.output;
  // (A loaded machine can leave no work term to balance: then it says so.)
  EXPECT_TRUE(o.output.find("turning points n_tp on P ranks") != std::string::npos ||
              o.output.find("no turning points on process grids: beta fitted 0") != std::string::npos)
      << o.output;
  const kcycle::Calibration c = kcycle::load_calibration(file);
  EXPECT_EQ(c.backend, "mpi");
  EXPECT_EQ(c.ranks, 2);
  EXPECT_GT(c.model.lambda, 0.0);
  ASSERT_EQ(c.samples.size(), 15u);
  // --agglomerate-below auto (the default) takes the threshold the model in
  // ./kcycle-calibration.json prefers; the solve still prints the serial result.
  const std::string dir = testing::TempDir() + "kcycle_cli_auto_agglomeration";
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(file, dir + "/kcycle-calibration.json", std::filesystem::copy_options::overwrite_existing);
  const Outcome automatic = run_cli_command("cd " + dir +
                                            " && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
                                            "OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none "
                                            "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 " KCYCLE_MPIEXEC
                                            " -np 2 --oversubscribe " KCYCLE_CLI_PATH
                                            " solve --backend mpi --threads 1 --levels 6 --json 2>&1");
  ASSERT_EQ(automatic.exit_code, 0) << automatic.output;
  const auto solved = nlohmann::json::parse(automatic.output);
  kcycle::SolverOptions six;
  six.levels = 6;
  // (A fit that left no work or no message term, on a loaded machine: the default.)
  const bool model = c.model.beta > 0 && c.model.lambda > 0;
  const int expected = model ? kcycle::best_agglomeration_threshold(
                                   kcycle::resolve(six, kcycle::BackendKind::Mpi).settings, 2, 2, 1, c.model)
                             : kcycle::kDefaultAgglomeration;
  EXPECT_EQ(solved["agglomerate_below"], expected);
  EXPECT_EQ(solved["iterations"],
            nlohmann::json::parse(run_cli("solve --threads 1 --levels 6 --json").output)["iterations"]);

  // advise prices each kappa with it on the process grid of its own ranks.
  const Outcome advice = run_mpi_cli(2, "advise --backend mpi --threads 1 --levels 6 --probe 10 --calibration " + file);
  ASSERT_EQ(advice.exit_code, 0) << advice.output;
  EXPECT_NE(advice.output.find("recommended: kappa="), std::string::npos) << advice.output;
  for (const kcycle::TimingSample& s : c.samples) {
    EXPECT_GT(s.messages, 0.0) << "levels " << s.levels;
    // On two ranks the busiest rank does more than half the work (rank 0's coarse levels), but
    // less than all of it.
    const double all = kcycle::cycle_ops(s.kappa, s.levels, kcycle::Coarsening::Full);
    EXPECT_GT(s.ops, all / 2);
    EXPECT_LT(s.ops, all);
  }
}

// The forecast on a process grid: its coarse solves, probes and stages are each rank's
// collectives, ended and planned by the slowest rank's clock (run_clock.hpp). The advice ends
// (a hang is the test's timeout) and forecasts every kappa from its coarse solves. It guards
// the path; the ranks' agreement itself is test_mpi_backend.cpp's.
TEST(CliMpi, AnAdviceFromCoarseSolvesOnTwoRanksEndsWithEveryForecast) {
  const Outcome o = run_mpi_cli(2, "advise --backend mpi --threads 1 --levels 7 --iterations forecast --json");
  ASSERT_EQ(o.exit_code, 0) << o.output;
  const auto j = nlohmann::json::parse(o.output);  // rank 0 alone prints
  ASSERT_EQ(j["candidates"].size(), 5u);
  for (const auto& c : j["candidates"]) {
    EXPECT_NE(c["basis"].get<std::string>().find("solves at 3, 4, 5 levels"), std::string::npos) << c["basis"];
    EXPECT_GT(c["predicted_iterations"].get<double>(), 0.0);
  }
}

TEST(CliMpi, ScalingExperimentMeasuresAndPredictsTo4096Ranks) {
  const std::string dir = testing::TempDir() + "kcycle_cli_scaling";
  std::filesystem::remove_all(dir);
  const Outcome o = run_mpi_cli(
      2, "experiment scaling --backend mpi --threads 1 --levels 6 --min-levels 4 --min-seconds 0.01 --out " + dir);
  ASSERT_EQ(o.exit_code, 0) << o.output;
  EXPECT_NE(o.output.find("lambda"), std::string::npos) << o.output;
  for (const char* ext : {".csv", ".json", ".svg"}) EXPECT_TRUE(std::filesystem::exists(dir + "/scaling" + ext)) << ext;
  std::ifstream in(dir + "/scaling.json");
  const auto j = nlohmann::json::parse(in);
  EXPECT_EQ(j["ranks"], 2);
  EXPECT_GT(j["lambda_seconds"].get<double>(), 0.0);
  int measured = 0, at_4096 = 0;
  for (const auto& r : j["rows"]) {
    if (!r["measured_seconds"].is_null()) ++measured;
    if (r["ranks"] == 4096 && r["study"] == "weak") {
      ++at_4096;
      EXPECT_EQ(r["levels"], 5 + 6);
      const double e = r["model_efficiency"];
      EXPECT_GT(e, 0.0);
      EXPECT_LE(e, 1.0);
    }
  }
  EXPECT_EQ(measured, 5 * (2 + 1)) << "strong on 1 and 2 ranks, weak on 1, per kappa";
  EXPECT_EQ(at_4096, 5);
  const Outcome one = run_cli("experiment scaling --backend mpi --out " + dir);
  EXPECT_EQ(one.exit_code, 2) << one.output;
  EXPECT_NE(one.output.find("needs mpirun -np P with P >= 2"), std::string::npos) << one.output;
}

TEST(CliMpi, AnyAgglomerationThresholdPrintsTheSerialResult) {
  const std::string args = "solve --levels 7 --kappa 3 --threads 1 --json";
  const auto serial = nlohmann::json::parse(run_cli(args + " --backend cpu --fused off").output);
  for (const char* below : {"2", "16", "1000"}) {
    const Outcome o = run_mpi_cli(4, args + " --backend mpi --ranks-x 4 --ranks-y 1 --agglomerate-below " + below);
    ASSERT_EQ(o.exit_code, 0) << o.output;
    const auto mpi = nlohmann::json::parse(o.output);
    EXPECT_EQ(mpi["agglomerate_below"], std::stoi(below));
    EXPECT_EQ(mpi["iterations"], serial["iterations"]) << below;
    EXPECT_NEAR(double(mpi["final_error"]), double(serial["final_error"]), 1e-12 * double(serial["initial_error"]))
        << below;
  }
  expect_refused("--agglomerate-below 1", "--agglomerate-below must be auto or an integer from 2 to 1048576 (got '1')");
}

TEST(CliMpi, DivergenceIsSeenByEveryRankAtOnce) {
  // The norms are sums over all ranks, so every rank stops at the same iteration: one message,
  // the serial solve's exit code (3), no rank left waiting.
  const std::string args = "solve --levels 6 --omega 1.99 --eps 1 --threads 1";
  const Outcome serial = run_cli(args);
  const Outcome o = run_mpi_cli(3, args + " --backend mpi");
  EXPECT_EQ(serial.exit_code, 3) << serial.output;
  EXPECT_EQ(o.exit_code, 3) << o.output;
  const std::string message = "diverged: error grew by";
  const std::size_t first = o.output.find(message);
  ASSERT_NE(first, std::string::npos) << o.output;
  EXPECT_EQ(o.output.find(message, first + 1), std::string::npos) << o.output;
  EXPECT_EQ(o.output.substr(first, 60), serial.output.substr(serial.output.find(message), 60));
}

TEST(CliMpi, BadInputIsRefusedOnceAndEndsEveryRank) {
  const Outcome o = run_mpi_cli(3, "solve --backend mpi --precision mixed --levels 6");
  EXPECT_EQ(o.exit_code, 2) << o.output;
  const std::string message = "precision mixed runs on the CPU backend only";
  const std::size_t first = o.output.find(message);
  ASSERT_NE(first, std::string::npos) << o.output;
  EXPECT_EQ(o.output.find(message, first + 1), std::string::npos) << "said once, by rank 0\n" << o.output;
}

// Ranks given different input stop together, saying which rank and why, instead of waiting for
// each other: stdin read by rank 0 alone (--config -), an MPMD launch with other values, a
// refusal on one rank only (a value, a file missing there). Each once, with exit 2.
TEST(CliMpi, RanksGivenDifferentInputStopTogetherSayingWhich) {
  const std::string env =
      "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader "
      "OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_mpi_yield_when_idle=1 "
      "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 timeout 120 " KCYCLE_MPIEXEC " --oversubscribe ";
  const std::string solve = cli_path() + " solve --backend mpi --quiet ";
  const std::string dir = (std::filesystem::temp_directory_path() / "kcycle_mpi_input").string();
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/p.toml") << "levels = 6\neps = 1e-3\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {env + "-np 3 " + solve + "--config - < " + dir + "/p.toml 2>&1",
       "rank 1 differs from rank 0 in levels, eps (rank 2 differs too). Under mpirun only rank 0 reads stdin"},
      {env + "-np 1 " + solve + "--levels 5 : -np 1 " + solve + "--levels 6 2>&1",
       "the ranks were given different input: rank 1 differs from rank 0 in levels."},
      {env + "-np 2 " + solve + "--levels 5 : -np 1 " + solve + "--levels 5 --eps 2 2>&1",
       "rank 2: --eps must be a number in (0, 1] (got '2'); every rank stops"},
      {env + "-np 1 " + solve + "--config " + dir + "/p.toml : -np 1 " + solve + "--config " + dir +
           "/absent.toml 2>&1",
       "rank 1: parameters file " + dir + "/absent.toml: cannot open"}};
  for (const auto& [command, message] : cases) {
    const Outcome o = run_cli_command(command);
    EXPECT_EQ(o.exit_code, 2) << command << "\n" << o.output;
    const std::size_t first = o.output.find(message);
    ASSERT_NE(first, std::string::npos) << command << "\n" << o.output;
    EXPECT_EQ(o.output.find(message, first + 1), std::string::npos) << "said once\n" << o.output;
  }
  // The same input on every rank still solves.
  const Outcome agreed = run_cli_command(env + "-np 2 " + solve + "--config " + dir + "/p.toml 2>&1");
  EXPECT_EQ(agreed.exit_code, 0) << agreed.output;
  std::filesystem::remove_all(dir);
}
#endif

}  // namespace

// The version has one source (project(VERSION)); the manual page and the completion are written
// from the parser --help prints, so every option of a command appears in both.
TEST(Cli, VersionManualPageAndCompletionComeFromTheParser) {
  const Outcome version = run_cli("--version");
  EXPECT_EQ(version.exit_code, 0) << version.output;
  EXPECT_EQ(version.output, "kcycle " + std::string(kcycle::version()) + "\n");
  const Outcome page = run_cli("--man-page");
  const Outcome completion = run_cli("--bash-completion");
  ASSERT_EQ(page.exit_code, 0) << page.output;
  ASSERT_EQ(completion.exit_code, 0) << completion.output;
  EXPECT_EQ(page.output.rfind(".\\\" Written by kcycle", 0), 0u);
  EXPECT_NE(page.output.find(".TH KCYCLE 1 \"\" \"kcycle " + std::string(kcycle::version())), std::string::npos);
  for (const char* command : {"solve", "advise", "lfa", "experiment", "figure cycles"}) {
    const Outcome help = run_cli(std::string(command) + " --help");
    const std::regex option_name(R"(--[a-z][a-z0-9-]*)");
    for (auto it = std::sregex_iterator(help.output.begin(), help.output.end(), option_name);
         it != std::sregex_iterator(); ++it) {
      std::string roff_name;  // the page writes each - as \-
      for (char c : it->str()) roff_name += c == '-' ? std::string("\\-") : std::string(1, c);
      EXPECT_NE(page.output.find(roff_name), std::string::npos) << command << " " << it->str();
    }
    EXPECT_NE(page.output.find(".SS \"kcycle " + std::string(command) + "\""), std::string::npos) << command;
  }
  // The solver options' values in the completion: the smoothers, and files for --config.
  EXPECT_NE(completion.output.find("\"/solve --smoother\") COMPREPLY=($(compgen -W \"jacobi gs-rb"), std::string::npos)
      << completion.output.substr(0, 2000);
  EXPECT_NE(completion.output.find("\"/solve --config\") compopt -o filenames"), std::string::npos);
  EXPECT_NE(completion.output.find("complete -F _kcycle_complete kcycle"), std::string::npos);
}

// NaN passes a CLI11 Range and inf an open-ended one: every number option refuses both by name.
TEST(Cli, NumberOptionsRefuseNanAndInfinity) {
  const std::string out = " --out " + (std::filesystem::temp_directory_path() / "kcycle_nan_check").string();
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"figure cycles --levels 3 --width nan" + out + ".svg", "--width: must be a finite number"},
      {"figure cycles --levels 3 --png-scale nan" + out + ".png", "--png-scale: must be a finite number"},
      {"experiment table4.1 --angles 45,nan" + out, "--angles: must be a finite number"},
      {"experiment table4.1 --angles inf" + out, "--angles: must be a finite number"},
      {"bench --min-seconds -nan", "--min-seconds: must be a finite number"},
      {"experiment fig3.1 --min-seconds inf" + out, "--min-seconds: Value inf not in range"}};
  for (const auto& [args, message] : cases) {
    const Outcome o = run_cli(args);
    EXPECT_EQ(o.exit_code, 2) << args << "\n" << o.output;
    EXPECT_NE(o.output.find(message), std::string::npos) << args << "\n" << o.output;
  }
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::temp_directory_path() / "kcycle_nan_check.svg"));
}
