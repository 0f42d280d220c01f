#pragma once
// "did you mean `solve`?": the known name nearest to a mistyped one, for messages.
#include <string>
#include <string_view>
#include <vector>

namespace kcycle {

// The name in `known` at the smallest edit distance (insertions, deletions, substitutions) from
// `typed`, if that distance is small for its length (1 up to three letters, then 2 or a third
// of the length); "" otherwise.
std::string nearest_name(std::string_view typed, const std::vector<std::string>& known);

// " (did you mean 'solve'?)", or "" when nothing is near.
std::string did_you_mean(std::string_view typed, const std::vector<std::string>& known);

}  // namespace kcycle
