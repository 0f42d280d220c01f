#include "kcycle/cycle/cycle_counts.hpp"

#include <algorithm>

namespace kcycle {

std::uint64_t binomial(int a, int b) {
  if (b < 0 || b > a) return 0;
  b = std::min(b, a - b);
  std::uint64_t r = 1;
  for (int k = 1; k <= b; ++k) r = r * std::uint64_t(a - b + k) / std::uint64_t(k);  // exact
  return r;
}

std::uint64_t level_calls(int kappa, int level) {
  std::uint64_t sum = 0;
  for (int j = 0; j <= std::min(kappa - 1, level - 1); ++j) sum += binomial(level - 1, j);
  return sum;
}

std::uint64_t total_calls(int kappa, int levels) {
  std::uint64_t sum = 0;
  for (int j = 1; j <= std::min(kappa, levels); ++j) sum += binomial(levels, j);
  return sum;
}

std::uint64_t coarsest_calls_with_counter(int kappa, int levels, int j) {
  if (j < 0 || j > std::min(kappa - 1, levels - 1)) return 0;
  return binomial(levels - 1, j);
}

std::uint64_t launches_per_cycle(int kappa, int levels, int launches_per_call) {
  return std::uint64_t(launches_per_call) * total_calls(kappa, levels - 1) + level_calls(kappa, levels);
}

namespace {
// Whether the coarsest level of `levels` gets one call per call on the level above.
bool once(int levels, CoarsestCalls coarsest) { return coarsest == CoarsestCalls::Once && levels > 1; }
}  // namespace

std::uint64_t level_calls(int kappa, int level, int levels, CoarsestCalls coarsest) {
  return level == levels && once(levels, coarsest) ? level_calls(kappa, levels - 1) : level_calls(kappa, level);
}

std::uint64_t total_calls(int kappa, int levels, CoarsestCalls coarsest) {
  if (!once(levels, coarsest)) return total_calls(kappa, levels);
  return total_calls(kappa, levels - 1) + level_calls(kappa, levels - 1);
}

std::uint64_t coarsest_calls_with_counter(int kappa, int levels, int j, CoarsestCalls coarsest) {
  if (!once(levels, coarsest)) return coarsest_calls_with_counter(kappa, levels, j);
  return coarsest_calls_with_counter(kappa, levels - 1, j);
}

std::uint64_t launches_per_cycle(int kappa, int levels, int launches_per_call, CoarsestCalls coarsest) {
  return std::uint64_t(launches_per_call) * total_calls(kappa, levels - 1) +
         level_calls(kappa, levels, levels, coarsest);
}

int same_iterates_counter(int kappa, int levels) { return std::min(kappa, std::max(levels - 1, 1)); }

}  // namespace kcycle
