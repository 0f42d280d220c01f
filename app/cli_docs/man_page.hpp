#pragma once
// A manual page in roff (man(7)) from a front end's command tree: NAME, SYNOPSIS, DESCRIPTION,
// the options of every command as --help lists them, and sections the front end adds (exit
// status, the visualizer's keys and script verbs, examples).
#include <string>
#include <vector>

#include "command_docs.hpp"

namespace kcycle::cli_docs {

struct ManSection {
  std::string title;  // "EXIT STATUS"
  std::string text;   // paragraphs separated by blank lines; lines indented by two spaces stay as typed
};

struct ManPage {
  std::string name;                   // "kcycle"
  std::string summary;                // NAME's one line: "multigrid kappa-cycles: solve, count, time, advise"
  std::string version;                // "0.1.0"
  std::vector<ManSection> sections;   // after the options
  std::vector<std::string> see_also;  // "kcycle-gui(1)"
};

std::string man_page(const CommandDoc& command, const ManPage& page);

}  // namespace kcycle::cli_docs
