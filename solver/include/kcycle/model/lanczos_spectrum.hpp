#pragma once
// The spectrum of CG's preconditioned operator M A, read off CG's own coefficients: the alphas
// and betas of k iterations are the Lanczos tridiagonal T_k of M A (Saad, "Iterative Methods
// for Sparse Linear Systems", section 6.7.3), whose extreme eigenvalues (Ritz values) approach
// M A's extreme eigenvalues from inside within a few tens of iterations. Their ratio bounds
// what CG still needs: |e_(k+m)|_A <= 2 sigma^m |e_k|_A, sigma = (sqrt(c) - 1) / (sqrt(c) + 1).
#include <optional>
#include <vector>

namespace kcycle {

struct RitzExtremes {
  double lambda_min = 0, lambda_max = 0;
  double condition() const { return lambda_max / lambda_min; }
};

// The extreme eigenvalues of T_k, from k alphas and the k - 1 betas between them:
// T(j, j) = 1/alpha_j + beta_(j-1)/alpha_(j-1), T(j, j+1) = sqrt(beta_j)/alpha_j. Empty when
// there are no coefficients or they are not those of a positive definite operator.
std::optional<RitzExtremes> lanczos_extremes(const std::vector<double>& alpha, const std::vector<double>& beta);

// The iterations after which the Chebyshev bound at condition number `condition` has fallen
// by `reduction` (< 1): the most CG needs on a spectrum within these extremes.
double cg_iteration_bound(double condition, double reduction);

}  // namespace kcycle
