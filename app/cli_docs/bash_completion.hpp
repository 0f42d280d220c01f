#pragma once
// A bash completion script from a front end's command tree: commands, then each command's
// options, then an option's values (its literal words, or file names for a path).
#include <string>

#include "command_docs.hpp"

namespace kcycle::cli_docs {

std::string bash_completion(const CommandDoc& command);

}  // namespace kcycle::cli_docs
