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

// A value as messages show it: quoted, and cut to 60 characters with its length said.
std::string quoted_value(std::string_view value);

}  // namespace kcycle
