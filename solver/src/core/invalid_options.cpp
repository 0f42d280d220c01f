#include "kcycle/core/invalid_options.hpp"

#include <cstdio>

namespace kcycle {

std::string quoted_value(std::string_view value) {
  constexpr std::size_t kShown = 60;  // a 10 MB value is not echoed whole
  if (value.size() <= kShown) return "'" + printable(value) + "'";
  return "'" + printable(value.substr(0, kShown - 3)) + "...' (" + std::to_string(value.size()) + " characters)";
}

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  char escaped[8];
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const auto next = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0;
    if (c < 0x20 || c == 0x7f) {
      std::snprintf(escaped, sizeof escaped, "\\x%02x", c);
      out += escaped;
    } else if (c == 0xc2 && next >= 0x80 && next <= 0x9f) {  // U+0080..U+009F, the C1 controls
      std::snprintf(escaped, sizeof escaped, "\\u%04x", next);
      out += escaped;
      ++i;
    } else {
      out += char(c);
    }
  }
  return out;
}

}  // namespace kcycle
