// Options as text: the one option table that the CLI, the parameters files, the GUI's script
// and its combos share, and a fuzz-style test of the parsers (parameters files and
// calibration files): every input is either accepted as valid options or refused with a
// message naming its source, never a crash, another exception or a silent default.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "kcycle/io/file_input.hpp"
#include "kcycle/io/nearest_name.hpp"
#include "kcycle/io/options_io.hpp"
#include "kcycle/model/cost_model.hpp"
#include "kcycle/solve/enum_names.hpp"

namespace kcycle {
namespace {

template <class Enum>
void expect_names_round_trip() {
  std::set<std::string_view> names;
  for (const auto& entry : name_table<Enum>()) {
    EXPECT_EQ(parse_enum<Enum>(entry.name), entry.value) << entry.name;
    EXPECT_EQ(to_string(entry.value), entry.name);
    EXPECT_FALSE(entry.label.empty());
    EXPECT_TRUE(names.insert(entry.name).second) << "duplicate name " << entry.name;
  }
  EXPECT_FALSE(parse_enum<Enum>("no-such-name"));
}

TEST(OptionsIo, EveryEnumNameParsesBack) {
  expect_names_round_trip<Smoother>();
  expect_names_round_trip<Coarsening>();
  expect_names_round_trip<CoarseOperator>();
  expect_names_round_trip<CycleType>();
  expect_names_round_trip<SolverKind>();
  expect_names_round_trip<OmegaMode>();
  expect_names_round_trip<ProblemKind>();
  expect_names_round_trip<BackendKind>();
  EXPECT_EQ(enum_choices<Coarsening>(), "full or semi");
  EXPECT_EQ(enum_choices<SolverKind>(), "mg, pcg or fcg");
}

// Random valid options: every field away from its default somewhere it applies.
SolverOptions random_options(std::mt19937& rng) {
  auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); };
  SolverOptions o;
  o.levels = 2 + pick(8);
  o.eps = std::pow(10.0, -6.0 * std::uniform_real_distribution<double>(0, 1)(rng));
  o.angle_degrees = std::uniform_real_distribution<double>(-90, 180)(rng);
  switch (pick(3)) {
    case 0: o.cycle = {CycleType::Kappa, pick(2) ? 1 + pick(9) : kKappaW}; break;
    case 1: o.cycle = {CycleType::Gamma, 1 + pick(3)}; break;
    default: o.cycle = {CycleType::F, 2};
  }
  o.smoother = name_table<Smoother>()[std::size_t(pick(5))].value;
  o.coarsening = pick(2) ? Coarsening::Full : Coarsening::SemiY;
  o.coarse_operator = pick(2) ? CoarseOperator::Galerkin : CoarseOperator::Rediscretized;
  o.nu1 = pick(4);
  o.nu2 = 1 + pick(3);
  o.symmetric_smoothing = pick(2);
  o.omega_mode = OmegaMode(pick(3));
  o.omega = o.omega_mode == OmegaMode::Fixed ? std::uniform_real_distribution<double>(0.1, 1.9)(rng) : 0.0;
  o.solver = SolverKind(pick(3));
  o.problem = ProblemKind(pick(3));
  o.tolerance = std::pow(10.0, -1 - pick(11));
  o.max_iterations = 1 + pick(100000);
  o.seed = std::uint64_t(rng()) * 977;
  o.backend = BackendKind(pick(3));
  o.cuda_graphs = pick(2);
  // What does not apply stays at its default: a parameters file leaves it out (and a setting
  // of it would be refused as ignored).
  const SolverOptions defaults;
  if (o.smoother != Smoother::Jacobi) o.omega_mode = defaults.omega_mode, o.omega = defaults.omega;
  if (o.backend == BackendKind::Cpu) o.cuda_graphs = defaults.cuda_graphs;
  return o;
}

TEST(OptionsIo, ParametersFilesRoundTripExactly) {
  std::mt19937 rng(11);
  for (int k = 0; k < 500; ++k) {
    const SolverOptions o = random_options(rng);
    const std::string text = to_parameters_file(o);
    SolverOptions back;
    apply_settings(back, parse_parameters(text, "round-trip.toml"));
    EXPECT_TRUE(back == o) << text;
  }
}

std::string refusal(std::string_view text) {
  try {
    parameters_from_text(text, "run.toml");
  } catch (const InvalidOptions& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(OptionsIo, ParametersFileErrorsNameTheFileLineAndKey) {
  EXPECT_EQ(refusal("levels = 5\nfoo = 1\n").substr(0, 34), "run.toml:2: unknown key 'foo' (kno");
  EXPECT_EQ(refusal("levels = ten\n"), "run.toml:1: levels must be an integer from 1 to 16 (got 'ten')");
  EXPECT_EQ(refusal("eps = nan\n"), "run.toml:1: eps must be a number in (0, 1] (got 'nan')");
  EXPECT_EQ(refusal("eps = inf\n"), "run.toml:1: eps must be a number in (0, 1] (got 'inf')");
  EXPECT_EQ(
      refusal("eps = 1e999\n"),
      "run.toml:1: eps must be a number in (0, 1] (got '1e999'): too large (the largest number is about 1.8e308)");
  EXPECT_EQ(refusal("smoother = \"sor\"\n"),
            "run.toml:1: smoother must be one of jacobi, gs-rb, xzebra, yzebra or xyzebra (got 'sor')");
  EXPECT_EQ(refusal("levels = 5\nkappa = \"W"), "run.toml:2: kappa: unterminated or malformed string '\"W'");
  EXPECT_EQ(refusal("levels = 5\nkappa ="), "run.toml:2: kappa has no value");
  EXPECT_EQ(refusal("levels = 5\nkap"), "run.toml:2: expected key = value (got 'kap')");
  EXPECT_EQ(refusal("levels = 5\n\nlevels = 6\n"), "run.toml:3: levels is given twice (first on line 1)");
  EXPECT_EQ(refusal("seed = -1\n"), "run.toml:1: seed must be a non-negative integer (got '-1')");
  EXPECT_EQ(refusal("levels = 99999999999999999999\n"),
            "run.toml:1: levels must be an integer from 1 to 16 (got '99999999999999999999')");
  EXPECT_EQ(refusal(std::string("levels = 5\0", 11)), "run.toml:1: not a text line (NUL byte)");
  EXPECT_EQ(refusal("cycle = \"f\"\nkappa = 3\n"),
            "run.toml:2: kappa does not apply to run.toml:1: cycle f (the F-cycle has no counter)");
  // Values that parse but are out of range: validate's message, prefixed with the file.
  EXPECT_EQ(refusal("eps = 0\n"), "run.toml:1: eps must be a number in (0, 1] (got '0')");
  EXPECT_EQ(refusal("nu1 = 0\nnu2 = 0\n"), "run.toml: nu1 + nu2 must be at least 1: a cycle needs relaxation");
  // Comments, blank lines, quotes and spaces are fine.
  EXPECT_EQ(refusal("# a comment\n\n  levels=5   # trailing\nkappa = \"W\"\r\n"), "(accepted)");
}

TEST(OptionsIo, OneMessageShapeForEveryFrontEnd) {
  SolverOptions o;
  auto message = [&](const std::string& where) {
    try {
      set_option(o, {"nu1", "two", where});
    } catch (const InvalidOptions& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_EQ(message("--nu1"), "--nu1 must be an integer from 0 to 1000 (got 'two')");
  EXPECT_EQ(message("run.toml:4: nu1"), "run.toml:4: nu1 must be an integer from 0 to 1000 (got 'two')");
  EXPECT_EQ(message("set nu1"), "set nu1 must be an integer from 0 to 1000 (got 'two')");
  EXPECT_EQ(o.nu1, SolverOptions{}.nu1) << "a refused value must leave the options as they were";
}

TEST(OptionsIo, APresetIsAppliedFirstSoExplicitPartsOverrideIt) {
  SolverOptions o;
  apply_settings(o, {{"smoother", "gs-rb", "--smoother"}, {"preset", "xyzebra-galerkin+cg", "--preset"}});
  EXPECT_EQ(o.smoother, Smoother::GaussSeidel);
  EXPECT_EQ(o.coarse_operator, CoarseOperator::Galerkin);
  EXPECT_EQ(o.solver, SolverKind::PCG);
}

TEST(OptionsIo, TheCommandLineOverridesTheFileAsAWholeCycle) {
  const auto file = parse_parameters("cycle = \"gamma\"\ngamma = 2\nlevels = 6\n", "f.toml");
  SolverOptions o;
  apply_settings(o, overlay(file, {{"kappa", "3", "--kappa"}}));
  EXPECT_EQ(o.cycle, (CycleChoice{CycleType::Kappa, 3}));
  EXPECT_EQ(o.levels, 6);
}

// --- the fuzz test -------------------------------------------------------------------

const char* const kValues[] = {"0",
                               "1",
                               "2",
                               "3",
                               "-1",
                               "7",
                               "16",
                               "17",
                               "1e-4",
                               "0.5",
                               "1.5",
                               "2",
                               "nan",
                               "inf",
                               "-inf",
                               "1e999",
                               "-0",
                               "W",
                               "w",
                               "inf",
                               "\"W\"",
                               "\"",
                               "\"\"",
                               "jacobi",
                               "gs-rb",
                               "xzebra",
                               "semi",
                               "full",
                               "galerkin",
                               "pcg",
                               "fcg",
                               "auto",
                               "lfa",
                               "gamma",
                               "f",
                               "kappa",
                               "on",
                               "off",
                               "true",
                               "false",
                               "jacobi+cg",
                               "xzebra-semi-galerkin+cg",
                               "99999999999999999999",
                               "0x10",
                               "1,5",
                               " ",
                               "=",
                               "#",
                               "é",
                               "\t3"};

std::string random_text(std::mt19937& rng, const std::string& valid) {
  auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); };
  std::string text = valid;
  const int mutations = 1 + int(pick(4));
  for (int m = 0; m < mutations; ++m) {
    switch (pick(7)) {
      case 0:  // delete a character
        if (!text.empty()) text.erase(pick(text.size()), 1);
        break;
      case 1:  // insert a random byte (NUL, quotes, '=', '#', high bytes)
        text.insert(text.begin() + std::ptrdiff_t(pick(text.size() + 1)), char(pick(256)));
        break;
      case 2:  // truncate the body
        text.resize(pick(text.size() + 1));
        break;
      case 3: {  // a key with a value from the pool
        const auto& specs = option_specs();
        text += std::string(specs[pick(specs.size())].key) + " = " + kValues[pick(std::size(kValues))] + "\n";
        break;
      }
      case 4: {  // replace a line's value
        const auto eq = text.find('=', pick(text.size() + 1));
        if (eq != std::string::npos) {
          const auto end = text.find('\n', eq);
          text.replace(eq + 1, (end == std::string::npos ? text.size() : end) - eq - 1,
                       std::string(" ") + kValues[pick(std::size(kValues))]);
        }
        break;
      }
      case 5: {  // duplicate or drop a line
        const auto end = text.find('\n');
        if (end != std::string::npos) {
          if (pick(2))
            text += text.substr(0, end + 1);
          else
            text.erase(0, end + 1);
        }
        break;
      }
      default:  // an unknown key
        text += "nosuchkey = 1\n";
    }
  }
  return text;
}

TEST(OptionsFuzz, EveryParametersFileIsAcceptedAsValidOrRefusedWithItsName) {
  std::mt19937 rng(20261122);  // deterministic: the same 6000 inputs on every run
  int accepted = 0, refused = 0;
  for (int k = 0; k < 6000; ++k) {
    const std::string text = random_text(rng, to_parameters_file(random_options(rng)));
    try {
      const SolverOptions o = parameters_from_text(text, "fuzz.toml");
      EXPECT_NO_THROW(validate(o)) << text;
      SolverOptions back;  // what was accepted writes out and reads back to the same options
      apply_settings(back, parse_parameters(to_parameters_file(o), "again.toml"));
      back.threads = o.threads;  // the machine's, not written
      back.ranks_x = o.ranks_x;
      back.ranks_y = o.ranks_y;
      EXPECT_TRUE(back == o) << text;
      ++accepted;
    } catch (const InvalidOptions& e) {
      const std::string why = e.what();
      EXPECT_EQ(why.rfind("fuzz.toml", 0), 0u) << "message does not name the file: " << why << "\n" << text;
      EXPECT_GT(why.size(), std::string("fuzz.toml: ").size()) << text;
      ++refused;
    }
    // Any other exception escapes and fails the test with its type.
  }
  // Both outcomes are exercised, not one.
  EXPECT_GT(accepted, 300);
  EXPECT_GT(refused, 3000);
}

TEST(OptionsFuzz, EveryCalibrationFileIsReadOrRefusedWithItsName) {
  const std::string valid = R"({
 "format": "kcycle-calibration-1", "alpha_seconds": 3e-06, "beta_seconds": 2e-09, "backend": "cpu",
 "smoother": "jacobi", "coarsening": "full", "launches_per_call": 7, "threads": 2,
 "samples": [ {"kappa": 1, "levels": 5, "launches": 35, "ops": 1000, "seconds": 0.0001},
              {"kappa": "W", "levels": 6, "launches": 500, "ops": 9000, "seconds": 0.002} ]
})";
  ASSERT_NO_THROW(parse_calibration(valid, "cal.json"));
  const char* const tokens[] = {"1e999", "-1", "\"x\"", "null", "[]", "{}", "true", "0", "\"W\"", "1.5", "\"\""};
  std::mt19937 rng(7);
  auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); };
  int read = 0, refused = 0;
  for (int k = 0; k < 4000; ++k) {
    std::string text = valid;
    for (int m = 0, n = 1 + int(pick(3)); m < n; ++m) {
      switch (pick(4)) {
        case 0: text.resize(pick(text.size() + 1)); break;
        case 1: text.erase(pick(text.size() + 1), 1 + pick(4)); break;
        case 2: text.insert(pick(text.size() + 1), 1, "{}[]\",:0e-W "[pick(12)]); break;
        default: {  // a value replaced by another JSON value, or a new key
          const auto colon = text.find(':', pick(text.size() + 1));
          if (colon == std::string::npos)
            text.insert(std::min<std::size_t>(1, text.size()), "\"extra\": 1, ");
          else
            text.replace(colon + 1, std::min<std::size_t>(3, text.size() - colon - 1), tokens[pick(11)]);
        }
      }
    }
    try {
      const Calibration c = parse_calibration(text, "cal.json");
      EXPECT_TRUE(std::isfinite(c.model.alpha) && c.model.alpha >= 0 && c.model.beta > 0) << text;
      for (const TimingSample& s : c.samples) EXPECT_TRUE(std::isfinite(s.seconds) && s.levels >= 1) << text;
      ++read;
    } catch (const InvalidOptions& e) {
      EXPECT_EQ(std::string(e.what()).rfind("cal.json: ", 0), 0u) << e.what();
      ++refused;
    }
  }
  EXPECT_GT(read, 20);
  EXPECT_GT(refused, 2000);
}

TEST(OptionsIo, CalibrationErrorsNameTheKey) {
  auto why = [](const std::string& text) {
    try {
      parse_calibration(text, "c.json");
    } catch (const InvalidOptions& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  const std::string head = R"({"format": "kcycle-calibration-1", )";
  EXPECT_EQ(why(head + R"("alpha_seconds": "x", "beta_seconds": 1e-9})"),
            "c.json: alpha_seconds must be a number (got string)");
  // JSON has no infinity: an overflowing number is refused by the parser, naming it.
  EXPECT_NE(why(head + R"("alpha_seconds": 1e999, "beta_seconds": 1e-9})").find("c.json: not valid JSON"),
            std::string::npos);
  EXPECT_EQ(why(head + R"("alpha_seconds": 1e-6, "beta_seconds": 1e-9, "colour": 1})"),
            "c.json: key 'colour' is not a calibration key");
  EXPECT_EQ(why(head + R"("alpha_seconds": 1e-6})"), "c.json: beta_seconds is missing");
  EXPECT_EQ(why(head + R"("alpha_seconds": 1e-6, "beta_seconds": 1e-9, "samples": [{"kappa": 0}]})"),
            "c.json: samples[0].kappa must be a positive integer or \"W\"");
  EXPECT_EQ(why(head).substr(0, 22), "c.json: not valid JSON");  // truncated
}

}  // namespace
}  // namespace kcycle

namespace kcycle {
namespace {

TEST(InputFiles, OnlyRegularFilesOfAtMostOneMebibyteAreRead) {
  auto refusal = [](const std::string& path) {
    try {
      read_input_file(path, "parameters file");
    } catch (const InvalidOptions& e) {
      return std::string(e.what());
    }
    return std::string("read");
  };
  const std::string dir = ::testing::TempDir() + "kcycle_input_files";
  std::filesystem::create_directories(dir);
  EXPECT_EQ(refusal(dir), "parameters file " + dir + ": is a directory, not a file");
  const std::string fifo = dir + "/fifo";
  std::remove(fifo.c_str());
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(refusal(fifo), "parameters file " + fifo + ": is a FIFO (named pipe), not a regular file");  // no wait
  EXPECT_EQ(refusal("/dev/zero"), "parameters file /dev/zero: is a character device, not a regular file");
  EXPECT_EQ(refusal(""), "parameters file is empty: give a file's path");
  EXPECT_EQ(refusal("-"), "parameters file -: cannot open: No such file or directory");  // stdin not allowed here
  EXPECT_EQ(refusal(dir + "/missing"), "parameters file " + dir + "/missing: cannot open: No such file or directory");
  const std::string big = dir + "/big.toml";
  std::ofstream(big) << std::string(kMaxInputBytes + 1, '#');
  EXPECT_NE(refusal(big).find("input files are at most 1 MiB"), std::string::npos) << refusal(big);
  const std::string fits = dir + "/fits.toml";
  std::ofstream(fits) << std::string(kMaxInputBytes, '#');
  EXPECT_EQ(refusal(fits), "read");
  std::filesystem::remove_all(dir);
}

TEST(Messages, ValuesAreCutAndNamesSuggested) {
  EXPECT_EQ(quoted_value("abc"), "'abc'");
  const std::string cut = quoted_value(std::string(200, '7'));
  EXPECT_EQ(cut, "'" + std::string(57, '7') + "...' (200 characters)");
  const std::vector<std::string> commands = {"solve", "info", "bench", "calibrate", "advise", "experiment", "figure"};
  EXPECT_EQ(nearest_name("solvee", commands), "solve");
  EXPECT_EQ(nearest_name("sovle", commands), "solve");  // a swap
  EXPECT_EQ(nearest_name("calbrate", commands), "calibrate");
  EXPECT_EQ(nearest_name("xyz", commands), "");
  EXPECT_EQ(did_you_mean("nu3", option_key_list()), " (did you mean 'nu1'?)");
  SolverOptions o;
  try {
    set_option(o, {"epps", "1", "--epps"});
    ADD_FAILURE();
  } catch (const InvalidOptions& e) {
    EXPECT_NE(std::string(e.what()).find("(did you mean 'eps'?)"), std::string::npos) << e.what();
  }
}

TEST(OptionsIo, ASettingThatWouldBeIgnoredIsRefusedSayingWhenItApplies) {
  auto refusal = [](const std::vector<OptionSetting>& settings) {
    SolverOptions o;
    try {
      apply_settings(o, settings);
    } catch (const InvalidOptions& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(refusal({{"ranks-x", "2", "--ranks-x"}}),
            "--ranks-x '2' would be ignored: it applies to --backend mpi only");
  EXPECT_EQ(refusal({{"ranks-x", "2", "--ranks-x"}, {"backend", "mpi", "--backend"}}), "accepted");
  EXPECT_EQ(refusal({{"omega", "0.7", "run.toml:2: omega"}, {"smoother", "xzebra", "run.toml:1: smoother"}}),
            "run.toml:2: omega '0.7' would be ignored: it applies to --smoother jacobi only");
  EXPECT_EQ(refusal({{"omega", "auto", "--omega"}, {"smoother", "xzebra", "--smoother"}}), "accepted");  // the default
  EXPECT_EQ(refusal({{"mode", "2,2", "--mode"}}), "--mode '2,2' would be ignored: it applies to --problem 3 only");
  EXPECT_EQ(refusal({{"graphs", "off", "--graphs"}, {"backend", "auto", "--backend"}}), "accepted");
}

}  // namespace
}  // namespace kcycle

// Shell completion offers option_value_words: each one must be a value the option takes, and
// the enumerations must offer all their names.
TEST(OptionsIo, TheValueWordsCompletionOffersAreAcceptedValues) {
  int options_with_words = 0;
  for (const kcycle::OptionSpec& spec : kcycle::option_specs()) {
    const std::vector<std::string> words = kcycle::option_value_words(spec);
    if (!words.empty()) ++options_with_words;
    for (const std::string& word : words) {
      kcycle::SolverOptions o;
      EXPECT_NO_THROW(kcycle::set_option(o, {std::string(spec.key), word, "--" + std::string(spec.key)}))
          << spec.key << " " << word;
    }
  }
  EXPECT_GE(options_with_words, 15);
  const auto words_of = [](const char* key) { return kcycle::option_value_words(*kcycle::find_option(key)); };
  EXPECT_EQ(words_of("omega"), (std::vector<std::string>{"auto", "lfa"}));
  EXPECT_EQ(words_of("kappa"), (std::vector<std::string>{"W"}));
  EXPECT_EQ(words_of("problem"), (std::vector<std::string>{"0", "1", "2", "3", "4"}));
  EXPECT_EQ(words_of("coarse-krylov"), (std::vector<std::string>{"on", "off"}));
  EXPECT_TRUE(words_of("eps").empty());
  EXPECT_TRUE(words_of("error").empty());
  const std::vector<std::string> smoothers = words_of("smoother");
  for (const char* name : {"jacobi", "gs-rb", "xzebra", "yzebra", "xyzebra"})
    EXPECT_NE(std::find(smoothers.begin(), smoothers.end(), name), smoothers.end()) << name;
}
