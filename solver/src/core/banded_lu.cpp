#include "kcycle/core/banded_lu.hpp"

#include <algorithm>
#include <stdexcept>

#include "kcycle/core/kernels.hpp"

namespace kcycle {

BandedLU::BandedLU(const Stencil9& stencil, GridShape shape)
    // A single x-line (semi-coarsening's coarsest level) couples only its neighbours.
    : shape_(shape),
      n_(int(shape.unknowns())),
      bw_(shape.ny > 1 ? shape.nx + 1 : 1),
      width_(std::size_t(2 * bw_ + 1)),
      band_(std::size_t(n_) * width_, 0.0),
      work_(std::size_t(n_), 0.0) {
  const int nx = shape.nx, ny = shape.ny;
  // Assemble: unknown (i, j), 0-based interior indices, is row j * nx + i.
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const int ii = i + dx, jj = j + dy;
          if (ii < 0 || ii >= nx || jj < 0 || jj >= ny) continue;  // Dirichlet: folded away
          at(j * nx + i, jj * nx + ii) = stencil.a[dy + 1][dx + 1];
        }
  // Doolittle LU in place, restricted to the band.
  for (int k = 0; k < n_; ++k) {
    const double pivot = at(k, k);
    if (pivot == 0.0) throw std::runtime_error("coarsest-level matrix is singular");
    const int last = std::min(n_ - 1, k + bw_);
    for (int r = k + 1; r <= last; ++r) {
      const double m = at(r, k) / pivot;
      if (m == 0.0) continue;
      at(r, k) = m;
      for (int c = k + 1; c <= last; ++c) at(r, c) -= m * at(k, c);
    }
  }
}

void BandedLU::solve(const Field& f, Field& v) const {
  const int nx = shape_.nx, ny = shape_.ny;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) work_[std::size_t(j * nx + i)] = f(i + 1, j + 1);
  kernels::banded_lu_substitute(band_.data(), n_, bw_, work_.data());
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) v(i + 1, j + 1) = work_[std::size_t(j * nx + i)];
}

}  // namespace kcycle
