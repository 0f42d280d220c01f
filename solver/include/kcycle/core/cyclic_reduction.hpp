#pragma once
// Parallel cyclic reduction (PCR): the GPU's line solver for x-lines. Thomas' recurrences run
// one thread per line along the line (serial, and on a GPU uncoalesced for rows); PCR lets all
// the points of a line work at once: step m (stride s = 2^m) replaces equation k by itself plus
// multiples of equations k - s and k + s, which removes its couplings at distance s and couples
// it at 2s. After ceil(log2 n) steps every equation stands alone: x_k = d_k / b_k.
//
// Our line matrices are the same for every line of a level, so the multipliers of each step
// (alpha, gamma) and the final 1/b are computed once, on the host (PcrFactor); a line's solve
// then only combines right-hand sides: d'_k = d_k + alpha_k d_{k-s} + gamma_k d_{k+s}. The
// matrices are diagonally dominant, so no pivoting is needed (as for Thomas).
#include <cstddef>
#include <vector>

#include "kcycle/core/host_device.hpp"
#include "kcycle/core/kernels.hpp"
#include "kcycle/core/level_bodies.hpp"
#include "kcycle/core/stencil.hpp"
#include "kcycle/core/tridiagonal.hpp"

namespace kcycle {

class PcrFactor {
 public:
  PcrFactor() = default;
  explicit PcrFactor(const TridiagonalFactor& matrix);

  int size() const { return int(inv_diag_.size()); }
  int steps() const { return steps_; }
  // Step m's multipliers of equation k at [m * size() + k].
  const double* alpha() const { return alpha_.data(); }
  const double* gamma() const { return gamma_.data(); }
  const double* inv_diag() const { return inv_diag_.data(); }
  const std::vector<double>& alpha_values() const { return alpha_; }
  const std::vector<double>& gamma_values() const { return gamma_; }
  const std::vector<double>& inv_diag_values() const { return inv_diag_; }

 private:
  int steps_ = 0;
  std::vector<double> alpha_, gamma_, inv_diag_;
};

namespace kernels {
// Equation k of step m (stride s) from the right-hand sides d of the step before; alpha and
// gamma are that step's rows (PcrFactor::alpha() + m * n).
KCYCLE_HD double pcr_combine(const double* d, int k, int n, int s, const double* alpha, const double* gamma) {
  const double below = k >= s ? d[k - s] : 0.0;
  const double above = k + s < n ? d[k + s] : 0.0;
  return d[k] + alpha[k] * below + gamma[k] * above;
}
}  // namespace kernels

// The host's PCR solve of one line, in place (d: right-hand side in, solution out), with the
// same combinations in the same order as a GPU block's steps: the CPU tests check it against
// Thomas.
void pcr_solve(const PcrFactor& factor, double* d);

namespace level {
// A PcrFactor in memory (host or device).
struct PcrView {
  const double *alpha = nullptr, *gamma = nullptr, *inv_diag = nullptr;
  int steps = 0;
};
inline PcrView pcr_view(const PcrFactor& f) { return {f.alpha(), f.gamma(), f.inv_diag(), f.steps()}; }

// The exact solve of x-line (row) j of v by cyclic reduction, shared by a team (team.hpp: a
// GPU block, whose shared memory `buffers` holds 2 nx values): the row's right-hand sides, the
// steps with a barrier between them, then the solution written back. Rows j - 1 and j + 1 are
// only read.
KCYCLE_NO_HD_CHECK
template <class Team>
KCYCLE_HD void pcr_x_line(const Team& team, const Stencil9& A, const PcrView& pcr, double* v, const double* f, int nx,
                          int stride, int j, double* buffers) {
  double *from = buffers, *to = buffers + nx;
  const double *vm = row(v, j - 1, stride), *vp = row(v, j + 1, stride), *f0 = row(f, j, stride);
  for (int k = team.rank(); k < nx; k += team.size()) from[k] = kernels::x_line_rhs(A, vm, vp, f0, k + 1);
  team.sync();
  for (int m = 0; m < pcr.steps; ++m) {
    const std::size_t at = std::size_t(m) * std::size_t(nx);
    for (int k = team.rank(); k < nx; k += team.size())
      to[k] = kernels::pcr_combine(from, k, nx, 1 << m, pcr.alpha + at, pcr.gamma + at);
    team.sync();
    double* t = from;
    from = to;
    to = t;
  }
  double* x = row(v, j, stride);
  for (int k = team.rank(); k < nx; k += team.size()) x[k + 1] = from[k] * pcr.inv_diag[k];
  team.sync();  // the buffers are free again
}
}  // namespace level

}  // namespace kcycle
