#pragma once
// A front end's command line as plain data, read from its CLI11 parser: the commands, their
// options with help, default and the words a value may be. The man pages and the shell
// completion are written from it, so neither can disagree with --help.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace kcycle::cli_docs {

struct OptionDoc {
  std::vector<std::string> names;  // "-h", "--help"; a positional's one name ("name")
  std::string value;               // what --help shows for the value ("TEXT", "INT"); "" for a flag
  std::string default_value;
  std::string help;
  std::vector<std::string> choices;  // the literal values it takes, where it has a list
  bool completes_files = false;      // free text that is a path (--config, --out)
  bool required = false;
};

struct CommandDoc {
  std::string path;  // "kcycle figure cycles"
  std::string name;  // "cycles"
  std::string description;
  std::vector<OptionDoc> options;
  std::vector<OptionDoc> positionals;
  std::vector<CommandDoc> subcommands;
};

// The parser's tree. An option named like a solver option (options_io.hpp) takes that option's
// value words; another takes the members its CLI::IsMember check lists; free text (TEXT) else
// completes file names.
CommandDoc describe(const CLI::App& app);

}  // namespace kcycle::cli_docs
