#pragma once
// The paper's closed forms for the recursive structure of one kappa-cycle (section 2).
#include <cstdint>

#include "kcycle/cycle/multigrid_choices.hpp"

namespace kcycle {

// Binomial coefficient C(a, b); 0 when b < 0 or b > a.
std::uint64_t binomial(int a, int b);

// Calls to the cycle routine on level `level` (1 = finest) of one kappa-cycle
// (Proposition 2.2): sum_{j=0}^{min(kappa-1, level-1)} C(level-1, j).
std::uint64_t level_calls(int kappa, int level);

// Calls over all n levels (Proposition 2.4): sum_{j=1}^{min(kappa, n)} C(n, j).
std::uint64_t total_calls(int kappa, int levels);

// Calls at the coarsest level of an n-level cycle made with counter kappa - j
// (Lemma 2.9): C(n-1, j) for j = 0..min(kappa-1, n-1), else 0.
std::uint64_t coarsest_calls_with_counter(int kappa, int levels, int j);

// Backend operation launches in one cycle when every call above the coarsest level issues
// `launches_per_call` operations and the coarsest level one (the paper's table 3.3 with
// 5+nu; kcycle's CPU backend fuses residual+restriction and prolongation+correction, so it
// issues 3+nu):
//   launches_per_call * totalCalls(kappa, n-1) + levelCalls(kappa, n).
std::uint64_t launches_per_cycle(int kappa, int levels, int launches_per_call);

// The same counts where the calls into the coarsest level are made `coarsest` (CoarsestCalls):
// Repeated gives the paper's formulas above; Once makes one coarsest call per call on level
// n - 1, so levelCalls(kappa, n) becomes levelCalls(kappa, n - 1) (the authors' code: 9 / 44 /
// 121 / 226 / 383 calls for kappa = 1, 2, 3, 4, W at 9 levels, against 9 / 45 / 129 / 255 / 511).
std::uint64_t level_calls(int kappa, int level, int levels, CoarsestCalls coarsest);
std::uint64_t total_calls(int kappa, int levels, CoarsestCalls coarsest);
// Once: the coarsest calls with counter kappa - j are level n - 1's, C(n-2, j).
std::uint64_t coarsest_calls_with_counter(int kappa, int levels, int j, CoarsestCalls coarsest);
std::uint64_t launches_per_cycle(int kappa, int levels, int launches_per_call, CoarsestCalls coarsest);

// The smallest counter whose kappa-cycle on `levels` leaves the same iterates as `kappa`'s:
// min(kappa, levels - 1). Every kappa >= levels is the W-cycle (Proposition 2.1), and kappa =
// levels - 1 differs from it only by second calls into the coarsest level, whose exact solve of
// an unchanged right-hand side leaves the iterate as it was. (Its cost differs; its count does
// not: the solved residual histories of kappa = 2, 3, 4 at 3, 4, 5 levels equal the W-cycle's, 54
// of 54 over six presets and three random starts.)
int same_iterates_counter(int kappa, int levels);

}  // namespace kcycle
