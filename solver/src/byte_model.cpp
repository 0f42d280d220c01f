#include "kcycle/byte_model.hpp"

#include <algorithm>

#include "kcycle/cycle_counts.hpp"

namespace kcycle {

std::uint64_t relaxation_bytes(Smoother smoother, GridShape s, bool pipelined) {
  if (pipelined) return pass_bytes::pipelined_sweep(s);
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
  const auto sweep = [&](Smoother kind) { return relaxation_bytes(kind, shape, s.pipelines(kind)); };
  if (s.smoother != Smoother::XYZebra) return std::uint64_t(sweeps) * sweep(s.smoother);
  const int x = alternating_x_sweeps(sweeps, x_first);
  return std::uint64_t(x) * sweep(Smoother::XZebra) + std::uint64_t(sweeps - x) * sweep(Smoother::YZebra);
}

}  // namespace

CycleBytes cycle_bytes(const MultigridSettings& s, int kappa) {
  const int n = s.levels;
  const int k = std::min(kappa, n);
  MultigridSettings plain = s;  // one pass per operation: no fused or pipelined passes
  plain.fused = false;
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
    const double plain_pre = double(phase_bytes(plain, fine, s.nu1, true));
    const double plain_post = double(phase_bytes(plain, fine, s.nu2, !s.symmetric_smoothing));
    bytes.unfused += calls * (plain_pre + double(pass_bytes::residual(fine) + pass_bytes::restriction(fine, coarse)) +
                              zero + plain_post + double(pass_bytes::prolong_add(fine, coarse)));
  }
  const double coarsest = double(level_calls(k, n)) * double(pass_bytes::coarse_solve(level_shape(n, n, s.coarsening)));
  bytes.implemented += coarsest;
  bytes.unfused += coarsest;
  return bytes;
}

}  // namespace kcycle
