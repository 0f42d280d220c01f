#include "kcycle/core/tridiagonal.hpp"

#include <stdexcept>

#include "kcycle/core/kernels.hpp"

namespace kcycle {

TridiagonalFactor::TridiagonalFactor(const std::vector<double>& lower, const std::vector<double>& diag,
                                     const std::vector<double>& upper)
    : lower_(lower), diag_(diag), upper_(upper), cprime_(diag.size()), inv_denom_(diag.size()) {
  const std::size_t n = diag.size();
  if (lower.size() != n || upper.size() != n) throw std::invalid_argument("tridiagonal: sizes differ");
  double previous_cprime = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    const double denom = diag[k] - (k > 0 ? lower[k] * previous_cprime : 0.0);
    if (denom == 0.0) throw std::runtime_error("tridiagonal: zero pivot");
    inv_denom_[k] = 1.0 / denom;
    cprime_[k] = k + 1 < n ? upper[k] * inv_denom_[k] : 0.0;
    previous_cprime = cprime_[k];
  }
  if (n > 0) lower_[0] = upper_[n - 1] = 0.0;  // the boundary terms contribute nothing
}

TridiagonalFactor TridiagonalFactor::constant(double lower, double diag, double upper, int n) {
  return TridiagonalFactor(std::vector<double>(std::size_t(n), lower), std::vector<double>(std::size_t(n), diag),
                           std::vector<double>(std::size_t(n), upper));
}

}  // namespace kcycle
