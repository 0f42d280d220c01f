#pragma once
// The error for input a user can fix (an option, a parameters file, a process grid): every
// layer throws it with a message that names what to change; the front ends print it and exit
// non-zero (CLI) or show it (GUI).
#include <stdexcept>
#include <string>
#include <string_view>

namespace kcycle {

class InvalidOptions : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// A value as messages show it: quoted, printable, and cut to 60 characters with its length said.
std::string quoted_value(std::string_view value);

// A text as a terminal may show it: control characters (C0, DEL, and C1 encoded in UTF-8) become
// \xHH and \u00HH escapes, so a value from a shared file cannot clear or recolour the screen
// (ESC [2J); tabs and newlines included; any other UTF-8 stays as it is ('smothér').
std::string printable(std::string_view text);

}  // namespace kcycle
