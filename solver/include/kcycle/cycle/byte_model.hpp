#pragma once
// The memory traffic of a cycle: the bytes each pass over memory must move at least, with
// every array it reads or writes streamed once (8 bytes a double; writes counted once, as
// STREAM counts them). Backends add the bytes of each pass they issue (bytes()); the model
// sums the same passes over the paper's call counts, so the two can be compared exactly.
//
// "As implemented" is kcycle's cycle: residual and restriction fused, prolongation fused
// with the correction, and with MultigridSettings::fused the Jacobi pre-smoothing too. "Unfused" is the plain
// implementation the issue measures against: one pass per sweep, a residual pass writing r, a restriction pass reading
// it, the zeroing, and prolongation with correction.
#include <cstdint>

#include "kcycle/core/grid.hpp"
#include "kcycle/cycle/multigrid_settings.hpp"

namespace kcycle::pass_bytes {

inline constexpr std::uint64_t kDouble = sizeof(double);
inline std::uint64_t n(GridShape s) { return std::uint64_t(s.unknowns()); }

// Jacobi: read v and f, write the output.
inline std::uint64_t jacobi(GridShape s) { return 3 * kDouble * n(s); }
// One of Gauss-Seidel's four colour passes over every other row: v of all rows is read (the
// neighbour rows), f and v of the pass's rows are read and written.
inline std::uint64_t gauss_seidel_colour(GridShape s) { return 2 * kDouble * n(s); }
// One zebra x pass over every other row: the neighbour rows of v and the pass's rows of f are
// read, the pass's rows of v written.
inline std::uint64_t zebra_x_pass(GridShape s) { return 3 * kDouble * n(s) / 2; }
// One zebra y pass over every other column: the forward recurrence reads v and f and writes
// v over every row, the backward one reads and writes v again.
inline std::uint64_t zebra_y_pass(GridShape s) { return 5 * kDouble * n(s); }
// A pipelined sweep (Gauss-Seidel's four colours, x-zebra's two parities) in one pass: read v
// and f, write v.
inline std::uint64_t pipelined_sweep(GridShape s) { return 3 * kDouble * n(s); }
// Residual fused with restriction: read v and f, write the coarse right-hand side.
inline std::uint64_t restrict_residual(GridShape fine, GridShape coarse) {
  return 2 * kDouble * n(fine) + kDouble * n(coarse);
}
// The same and the coarse correction zeroed, in one launch: both writes.
inline std::uint64_t restrict_residual_and_zero(GridShape fine, GridShape coarse) {
  return restrict_residual(fine, coarse) + kDouble * std::uint64_t(coarse.storage());
}
// nu Jacobi sweeps, the residual and the restriction in one pass: read v and f, write the
// smoothed v and the coarse right-hand side (the intermediate sweeps stay in cache).
inline std::uint64_t jacobi_restrict_residual(GridShape fine, GridShape coarse) {
  return 3 * kDouble * n(fine) + kDouble * n(coarse);
}
// The same from a zeroed correction that was never written (v not read): read f, write v and
// the coarse right-hand side.
inline std::uint64_t jacobi_restrict_residual_from_zero(GridShape fine, GridShape coarse) {
  return 2 * kDouble * n(fine) + kDouble * n(coarse);
}
// Prolongation with the correction and nu Jacobi sweeps in one pass: read v, the coarse v
// and f, write the smoothed v.
inline std::uint64_t prolong_add_jacobi(GridShape fine, GridShape coarse) {
  return 3 * kDouble * n(fine) + kDouble * n(coarse);
}
// Prolongation fused with the correction: read the coarse v, read and write v.
inline std::uint64_t prolong_add(GridShape fine, GridShape coarse) {
  return 2 * kDouble * n(fine) + kDouble * n(coarse);
}
// The coarsest level's solve: read f, write v (the factor is small and stays in cache).
inline std::uint64_t coarse_solve(GridShape s) { return 2 * kDouble * n(s); }
// Whole field, ring included.
inline std::uint64_t fill(GridShape s) { return kDouble * std::uint64_t(s.storage()); }
inline std::uint64_t copy(GridShape s) { return 2 * kDouble * std::uint64_t(s.storage()); }
// Reads two, writes one (residual, axpy, xpay, triad) or reads one, writes one (apply).
inline std::uint64_t three_arrays(GridShape s) { return 3 * kDouble * n(s); }
inline std::uint64_t two_arrays(GridShape s) { return 2 * kDouble * n(s); }
// The fused vector operations: apply with a dot (read p, write q), the residual's norm (read
// v, f; nothing written), axpy with the norm of the result (read x, y, and `minus` if given;
// write y).
inline std::uint64_t apply_dot(GridShape s) { return two_arrays(s); }
// MGCG's two passes, A p recomputed in each and never stored: p <- z + beta p with (p, A p)
// (read z and p, write p), and x <- x + alpha p with r <- r - alpha A p and their norms (read
// p, x, r and `exact` if given; write x and r).
inline std::uint64_t xpay_energy(GridShape s) { return 3 * kDouble * n(s); }
inline std::uint64_t update_x_and_r(GridShape s, bool exact) { return (exact ? 6 : 5) * kDouble * n(s); }
inline std::uint64_t residual_norm2(GridShape s) { return two_arrays(s); }
inline std::uint64_t axpy_norm2(GridShape s, bool minus) { return (minus ? 4 : 3) * kDouble * n(s); }
// The unfused cycle's residual pass (read v, f; write r) and restriction pass (read r; write fc).
inline std::uint64_t residual(GridShape s) { return three_arrays(s); }
inline std::uint64_t restriction(GridShape fine, GridShape coarse) { return kDouble * (n(fine) + n(coarse)); }

}  // namespace kcycle::pass_bytes

namespace kcycle {

// Bytes of one relaxation sweep of `smoother` on a level (all its passes), pipelined into one
// pass or not (MultigridSettings::pipelines).
std::uint64_t relaxation_bytes(Smoother smoother, GridShape shape, bool pipelined = false);

struct CycleBytes {
  double implemented = 0;  // as kcycle's backends run the cycle
  double unfused = 0;      // as a plain one-pass-per-operation implementation would
};
// One kappa-cycle of `settings` (settings.levels levels): the passes of every call, summed
// with the paper's levelCalls.
CycleBytes cycle_bytes(const MultigridSettings& settings, int kappa);

}  // namespace kcycle
