#pragma once
// Exact solver for the coarsest level: LU factorization without pivoting of the level's
// 9-point matrix stored as a band (half-bandwidth nx+1 in row-major unknown order). Our
// level matrices are symmetric positive definite or diagonally dominant, so no pivoting
// is needed. A single unknown (full coarsening) costs one division.
#include <vector>

#include "kcycle/core/field.hpp"
#include "kcycle/core/stencil.hpp"

namespace kcycle {

class BandedLU {
 public:
  BandedLU() = default;
  BandedLU(const Stencil9& stencil, GridShape shape);

  // v <- A^{-1} f on the interior of the shape given at construction.
  void solve(const Field& f, Field& v) const;
  const GridShape& shape() const { return shape_; }
  // The factor as kernels::banded_lu_substitute reads it (the CUDA backend copies it).
  const std::vector<double>& band() const { return band_; }
  int size() const { return n_; }
  int half_bandwidth() const { return bw_; }
  // solve()'s scratch (size() values), lent to a coarse tail that runs the substitution itself.
  double* work() const { return work_.data(); }

 private:
  double& at(int row, int col) { return band_[std::size_t(row) * width_ + (col - row + bw_)]; }
  double at(int row, int col) const { return band_[std::size_t(row) * width_ + (col - row + bw_)]; }

  GridShape shape_{};
  int n_ = 0;
  int bw_ = 0;             // half bandwidth
  std::size_t width_ = 0;  // 2 * bw_ + 1
  std::vector<double> band_;
  mutable std::vector<double> work_;  // solve's right-hand side, sized once
};

}  // namespace kcycle
