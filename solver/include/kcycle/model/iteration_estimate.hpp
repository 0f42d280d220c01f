#pragma once
// How many iterations a solve needs, from the first iterations of it (the advisor's probes).
// The factors of a solve from a random guess rise toward the asymptotic rate rho as the error's
// slowest components take over, geometrically, as in a power iteration; a probe that stops
// early sees a factor well below rho, and one extrapolated as if it crept up algebraically
// overshoots it (the 9-level F-cycle: 0.950 after 40 cycles, 0.968 in the end, 0.980 predicted).
#include <vector>

#include "kcycle/solve/solve.hpp"

namespace kcycle {

struct IterationEstimate {
  double iterations = 0;      // the estimate, the probe's own included
  double low = 0, high = 0;   // the band it lies in: the remaining factors at the last one, and at rho
  double rho = 1;             // the asymptotic factor
  bool extrapolated = false;  // rho from the rising factors (else their recent geometric mean)
  // Whether the band is within +-half_width of the estimate (the probe may stop).
  bool settled(double half_width) const { return high - low <= 2 * half_width * iterations; }
};

// After the probe's records `history` (factors per iteration), the iterations until the
// monitored norm has fallen by `remaining` more (< 1). With the factors at k/2, 3k/4 and k
// (k/2 rounded to k - 2 (k/4)) rising and slowing down, rho and the rate r at which they approach it come from Aitken's
// extrapolation, and the remaining factors are rho - (rho - q_k) r^(j - k); otherwise (CG's
// factors go up and down) rho is the geometric mean of the last half's factors. For CG (records
// with cg_alpha), the band runs between that rate's count and the Chebyshev bound at the
// condition number of CG's Ritz values (lanczos_spectrum.hpp), the estimate their geometric mean.
IterationEstimate estimate_iterations(const std::vector<IterationRecord>& history, double remaining);

}  // namespace kcycle
