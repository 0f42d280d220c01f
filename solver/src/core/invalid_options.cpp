#include "kcycle/core/invalid_options.hpp"

namespace kcycle {

std::string quoted_value(std::string_view value) {
  constexpr std::size_t kShown = 60;  // a 10 MB value is not echoed whole
  if (value.size() <= kShown) return "'" + std::string(value) + "'";
  return "'" + std::string(value.substr(0, kShown - 3)) + "...' (" + std::to_string(value.size()) + " characters)";
}

}  // namespace kcycle
