#include "line_breaks.hpp"

#include <algorithm>

namespace kcycle::plot {

std::string broken_at_spaces(const std::string& text, double width,
                             const std::function<double(const std::string&)>& measure) {
  std::string out, line;
  bool line_started = false;  // an empty word (two spaces) still belongs to the line
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find_first_of(" \n", start), text.size());
    const std::string word = text.substr(start, end - start);
    const std::string longer = line_started ? line + " " + word : word;
    if (line_started && !line.empty() && measure(longer) > width) {
      out += line + "\n";
      line = word;
    } else {
      line = longer;
    }
    line_started = true;
    if (end == text.size() || text[end] == '\n') {
      out += line + (end < text.size() ? "\n" : "");
      line.clear();
      line_started = false;
    }
    start = end + 1;
  }
  return out;
}

}  // namespace kcycle::plot
