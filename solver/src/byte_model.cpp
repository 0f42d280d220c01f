#include "kcycle/byte_model.hpp"

#include <algorithm>

#include "kcycle/cycle_counts.hpp"

namespace kcycle {

std::uint64_t relaxation_bytes(Smoother smoother, GridShape s) {
  switch (smoother) {
    case Smoother::Jacobi: return pass_bytes::jacobi(s);
    case Smoother::GaussSeidel: return 4 * pass_bytes::gauss_seidel_colour(s);
    case Smoother::XZebra: return 2 * pass_bytes::zebra_x_pass(s);
    case Smoother::YZebra: return 2 * pass_bytes::zebra_y_pass(s);
    case Smoother::XYZebra: return 0;  // alternates: see sweep_bytes
  }
  return 0;
}

namespace {

// One relaxation phase of `sweeps` sweeps; the alternating smoother runs x and y sweeps by
// turns, starting with x (x_first) or y (the adjoint order of symmetric post-smoothing).
std::uint64_t phase_bytes(const MultigridSettings& s, GridShape shape, int sweeps, bool x_first) {
  if (s.smoother != Smoother::XYZebra) return std::uint64_t(sweeps) * relaxation_bytes(s.smoother, shape);
  const int x = x_first ? (sweeps + 1) / 2 : sweeps / 2;
  return std::uint64_t(x) * relaxation_bytes(Smoother::XZebra, shape) +
         std::uint64_t(sweeps - x) * relaxation_bytes(Smoother::YZebra, shape);
}

}  // namespace

CycleBytes cycle_bytes(const MultigridSettings& s, int kappa) {
  const int n = s.levels;
  const int k = std::min(kappa, n);
  CycleBytes bytes;
  for (int l = 1; l < n; ++l) {
    const GridShape fine = level_shape(n, l, s.coarsening), coarse = level_shape(n, l + 1, s.coarsening);
    const double calls = double(level_calls(k, l));
    const double pre = double(phase_bytes(s, fine, s.nu1, true));
    const double post = double(phase_bytes(s, fine, s.nu2, !s.symmetric_smoothing));
    const double zero = double(pass_bytes::fill(coarse));
    const double up = s.fuses_up() ? double(pass_bytes::prolong_add_jacobi(fine, coarse))
                                   : post + double(pass_bytes::prolong_add(fine, coarse));
    if (s.fuses_down()) {
      // The zeroing is folded into the coarse level's first sweep; the calls on this level that
      // start from that zero (one per call on the level above) do not read v.
      const double from_zero = l == 1 ? 0.0 : double(level_calls(k, l - 1));
      bytes.implemented += from_zero * double(pass_bytes::jacobi_restrict_residual_from_zero(fine, coarse)) +
                           (calls - from_zero) * double(pass_bytes::jacobi_restrict_residual(fine, coarse)) +
                           calls * up;
    } else {
      bytes.implemented += calls * (pre + double(pass_bytes::restrict_residual(fine, coarse)) + zero + up);
    }
    bytes.unfused += calls * (pre + double(pass_bytes::residual(fine) + pass_bytes::restriction(fine, coarse)) + zero +
                              post + double(pass_bytes::prolong_add(fine, coarse)));
  }
  const double coarsest = double(level_calls(k, n)) * double(pass_bytes::coarse_solve(level_shape(n, n, s.coarsening)));
  bytes.implemented += coarsest;
  bytes.unfused += coarsest;
  return bytes;
}

}  // namespace kcycle
