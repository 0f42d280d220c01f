#include "kcycle/core/cyclic_reduction.hpp"

#include <stdexcept>
#include <utility>

namespace kcycle {

PcrFactor::PcrFactor(const TridiagonalFactor& matrix) {
  const int n = matrix.size();
  std::vector<double> a(matrix.lower(), matrix.lower() + n), b(matrix.diag(), matrix.diag() + n),
      c(matrix.upper(), matrix.upper() + n);
  while ((1 << steps_) < n) ++steps_;
  alpha_.assign(std::size_t(steps_) * std::size_t(n), 0.0);
  gamma_.assign(alpha_.size(), 0.0);
  std::vector<double> a2(a.size()), b2(a.size()), c2(a.size());
  for (int m = 0; m < steps_; ++m) {
    const int s = 1 << m;
    for (int k = 0; k < n; ++k) {
      // Equation k minus a_k / b_{k-s} times equation k-s and c_k / b_{k+s} times equation k+s.
      const double alpha = k >= s ? -a[std::size_t(k)] / b[std::size_t(k - s)] : 0.0;
      const double gamma = k + s < n ? -c[std::size_t(k)] / b[std::size_t(k + s)] : 0.0;
      alpha_[std::size_t(m) * std::size_t(n) + std::size_t(k)] = alpha;
      gamma_[std::size_t(m) * std::size_t(n) + std::size_t(k)] = gamma;
      a2[std::size_t(k)] = k >= s ? alpha * a[std::size_t(k - s)] : 0.0;
      c2[std::size_t(k)] = k + s < n ? gamma * c[std::size_t(k + s)] : 0.0;
      b2[std::size_t(k)] = b[std::size_t(k)] + (k >= s ? alpha * c[std::size_t(k - s)] : 0.0) +
                           (k + s < n ? gamma * a[std::size_t(k + s)] : 0.0);
    }
    std::swap(a, a2);
    std::swap(b, b2);
    std::swap(c, c2);
  }
  inv_diag_.resize(std::size_t(n));
  for (int k = 0; k < n; ++k) {
    if (b[std::size_t(k)] == 0.0) throw std::runtime_error("cyclic reduction: zero pivot");
    inv_diag_[std::size_t(k)] = 1.0 / b[std::size_t(k)];
  }
}

void pcr_solve(const PcrFactor& factor, double* d) {
  const int n = factor.size();
  std::vector<double> from(d, d + n), to(from.size());
  for (int m = 0; m < factor.steps(); ++m) {
    const double* alpha = factor.alpha() + std::size_t(m) * std::size_t(n);
    const double* gamma = factor.gamma() + std::size_t(m) * std::size_t(n);
    for (int k = 0; k < n; ++k) to[std::size_t(k)] = kernels::pcr_combine(from.data(), k, n, 1 << m, alpha, gamma);
    std::swap(from, to);
  }
  for (int k = 0; k < n; ++k) d[k] = from[std::size_t(k)] * factor.inv_diag()[k];
}

}  // namespace kcycle
