#pragma once
// The exact line solve of zebra relaxation: a tridiagonal system factored once (Thomas
// algorithm without pivoting; our line matrices are diagonally dominant) and then applied
// to many right-hand sides. With a constant stencil every line of a level shares one
// matrix, so a level stores one factorization per direction. The recurrences themselves
// are kernels::thomas_forward / thomas_backward, shared with the GPU backend.
#include <vector>

namespace kcycle {

class TridiagonalFactor {
 public:
  TridiagonalFactor() = default;
  // Rows k = 0..n-1: lower[k] x[k-1] + diag[k] x[k] + upper[k] x[k+1]; lower[0] and
  // upper[n-1] are ignored.
  TridiagonalFactor(const std::vector<double>& lower, const std::vector<double>& diag,
                    const std::vector<double>& upper);
  // All rows equal: (lower, diag, upper) on n unknowns.
  static TridiagonalFactor constant(double lower, double diag, double upper, int n);

  int size() const { return int(cprime_.size()); }
  // The matrix itself (lower[0] and upper[n-1] zero): what other line solvers start from.
  const double* diag() const { return diag_.data(); }
  const double* upper() const { return upper_.data(); }
  const double* lower() const { return lower_.data(); }
  const double* cprime() const { return cprime_.data(); }
  const double* inv_denom() const { return inv_denom_.data(); }

 private:
  std::vector<double> lower_, diag_, upper_, cprime_, inv_denom_;
};

}  // namespace kcycle
