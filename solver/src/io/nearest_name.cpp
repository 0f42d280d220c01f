#include "kcycle/io/nearest_name.hpp"

#include <algorithm>
#include <numeric>

namespace kcycle {

namespace {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t(0));
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string nearest_name(std::string_view typed, const std::vector<std::string>& known) {
  if (typed.size() > 64) return "";  // a pasted paragraph is near nothing
  // A swap of two letters is two edits: allowed from four letters on.
  const std::size_t allowed = typed.size() <= 3 ? 1 : std::max<std::size_t>(2, typed.size() / 3);
  std::string best;
  std::size_t best_distance = allowed + 1;
  for (const std::string& name : known)
    if (const std::size_t d = edit_distance(typed, name); d < best_distance) best = name, best_distance = d;
  return best;
}

std::string did_you_mean(std::string_view typed, const std::vector<std::string>& known) {
  const std::string near = nearest_name(typed, known);
  return near.empty() ? "" : " (did you mean '" + near + "'?)";
}

}  // namespace kcycle
