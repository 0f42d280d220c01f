#include "kcycle/cycle/byte_model.hpp"

#include <algorithm>
#include <vector>

#include "kcycle/cycle/cycle_counts.hpp"
#include "kcycle/cycle/cycle_schedule.hpp"

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

// One relaxation phase of `sweeps` sweeps, each a pass of its own; the alternating smoother
// runs x and y sweeps by turns, starting with x (x_first) or y (the adjoint order of symmetric
// post-smoothing).
std::uint64_t plain_phase_bytes(Smoother smoother, GridShape shape, int sweeps, bool x_first) {
  if (smoother != Smoother::XYZebra) return std::uint64_t(sweeps) * relaxation_bytes(smoother, shape);
  const int x = alternating_x_sweeps(sweeps, x_first);
  return std::uint64_t(x) * relaxation_bytes(Smoother::XZebra, shape) +
         std::uint64_t(sweeps - x) * relaxation_bytes(Smoother::YZebra, shape);
}

}  // namespace

CycleBytes cycle_bytes(const MultigridSettings& s, int kappa) {
  const int n = s.levels;
  const int k = std::min(kappa, n);
  // As the CPU backend runs a normal cycle: a fold over its schedule.
  const CycleSchedule schedule = CycleSchedule::plan(s, {true, false}, CycleMode::Normal);
  CycleBytes bytes;
  for (int l = 1; l <= n; ++l) {
    const double calls = double(level_calls(k, l, n, s.coarsest_calls));
    // The calls on a level below the first that start from the zero the level above left
    // (one per call there), where the fused down pass does not read v.
    const double from_zero = l == 1 ? 0.0 : double(level_calls(k, l - 1));
    const LevelSchedule& L = schedule.level(l);
    for (const std::vector<Pass>* passes : {&L.down, &L.up})
      for (const Pass& p : *passes)
        bytes.implemented += p.kind == PassKind::FusedDown
                                 ? from_zero * double(p.bytes_from_zero) + (calls - from_zero) * double(p.bytes)
                                 : calls * double(p.bytes);
    if (l == n) {
      bytes.unfused += calls * double(pass_bytes::coarse_solve(level_shape(n, n, s.coarsening)));
      continue;
    }
    // A plain implementation: every sweep on its own, and the residual and its restriction as
    // two passes.
    const GridShape fine = level_shape(n, l, s.coarsening), coarse = level_shape(n, l + 1, s.coarsening);
    const double plain_pre = double(plain_phase_bytes(s.smoother, fine, s.nu1, true));
    const double plain_post = double(plain_phase_bytes(s.smoother, fine, s.nu2, !s.symmetric_smoothing));
    bytes.unfused +=
        calls * (plain_pre + double(pass_bytes::residual(fine) + pass_bytes::restriction(fine, coarse)) +
                 double(pass_bytes::fill(coarse)) + plain_post + double(pass_bytes::prolong_add(fine, coarse)));
  }
  return bytes;
}

}  // namespace kcycle
