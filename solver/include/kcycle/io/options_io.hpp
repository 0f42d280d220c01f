#pragma once
// Reading and writing SolverOptions as text, once for every front end: the CLI's --key
// value, a parameters file's key=value lines, the GUI script's `set key value`, and
// the parameters file the GUI exports. Every option is one OptionSpec; every refusal is an
// InvalidOptions whose message names where the text came from (the flag, or file:line and
// key) and what was expected.
#include <string>
#include <string_view>
#include <vector>

#include "kcycle/solve/solver_options.hpp"

namespace kcycle {

struct OptionSpec {
  std::string_view key;      // --key, key=, set key
  std::string_view expects;  // for messages: "<key> must be <expects>"
  std::string_view help;
  bool flag = false;               // the CLI takes it without a value (--symmetric)
  bool in_parameters_file = true;  // written by to_parameters_file (threads are the machine's)
  // Reads the text into the options; returns false when the text is not what `expects` says.
  bool (*set)(SolverOptions&, std::string_view);
  // The options' value as text (empty: not applicable, e.g. gamma of a kappa-cycle).
  std::string (*get)(const SolverOptions&);
  // Where the option has an effect: "" where it does, else when it would ("applies to
  // --backend mpi only"). Null: everywhere.
  std::string_view (*applies)(const SolverOptions&) = nullptr;
};

// Every option, in the order they are applied: the preset and the cycle type come before
// the parts that may override them.
const std::vector<OptionSpec>& option_specs();
const OptionSpec* find_option(std::string_view key);
// "levels, eps, angle, ...": for messages.
std::string option_keys();
std::vector<std::string> option_key_list();
// The words an option's value may literally be, read from its `expects` ("one of jacobi, gs-rb",
// "auto, lfa or a number in (0, 2)" gives auto, lfa): what shell completion offers. Empty for a
// value that is only a number or free text.
std::vector<std::string> option_value_words(const OptionSpec& spec);

// One key=value to apply, and how to name it in a message ("--eps", "run.toml:3: eps",
// "script line 4: set eps").
struct OptionSetting {
  std::string key, value, where;
};

// Sets one option. Throws InvalidOptions "<where> must be <expects> (got '<value>')", or
// "<where>: unknown option" for a key no spec has.
void set_option(SolverOptions& options, const OptionSetting& setting);

// Applies settings on top of `options` in the specs' order (a preset first, so that parts
// given explicitly override it; a later setting of the same key wins) and refuses
// conflicting cycle settings (kappa with --cycle gamma, ...) and a setting that would be
// ignored: one whose option does not apply to the resulting run (OptionSpec::applies) and
// whose value differs from the default. Does not validate the whole.
void apply_settings(SolverOptions& options, const std::vector<OptionSetting>& settings);

// `over` on top of `base`: base's settings of a key that `over` sets are dropped, and the
// cycle's settings (cycle, kappa, gamma) are replaced as one when `over` has any of them.
std::vector<OptionSetting> overlay(const std::vector<OptionSetting>& base, const std::vector<OptionSetting>& over);

// A parameters file's text: `key = value` lines (a value may be "quoted"), `#` comments and
// blank lines. Throws InvalidOptions naming `source`:line for a line without '=', an
// unknown key, an empty value, an unterminated string or a key given twice.
std::vector<OptionSetting> parse_parameters(std::string_view text, const std::string& source);
// The same from a file; a file that cannot be read is refused with its path.
std::vector<OptionSetting> read_parameters_file(const std::string& path);
// A parameters file's options on top of the defaults, validated; every message starts with
// `source` (the file's path).
SolverOptions parameters_from_text(std::string_view text, const std::string& source);
SolverOptions load_parameters_file(const std::string& path);
// The options as a parameters file that load_parameters_file and `kcycle solve --config`
// read back to equal options.
std::string to_parameters_file(const SolverOptions& options);

}  // namespace kcycle
