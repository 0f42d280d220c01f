#pragma once
// What a cycle physically runs, planned once. The logical κ-cycle (cycles.hpp) says which
// operations a call performs; the schedule says how the backend runs them on each level: which
// sweeps run fused with the transfers in one pass over memory, which sweeps run pipelined,
// which levels the coarse tail's one launch runs. It is planned from the settings, what the
// backend can do and the mode the cycle runs in (watched operation by operation, or timed
// level by level); Multigrid's executor interprets it, and the trace stays logical.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kcycle/cycle/multigrid_choices.hpp"
#include "kcycle/cycle/multigrid_settings.hpp"
#include "kcycle/cycle/pass_kind.hpp"
#include "kcycle/cycle/trace.hpp"

namespace kcycle {

// What a backend can run besides the operations every backend has (backend.hpp's concepts).
struct Capabilities {
  bool fused_passes = false;  // the fused Jacobi passes and the pipelined sweeps (FusesPasses)
  bool coarse_tails = false;  // the coarse levels of a cycle as one launch (RunsCoarseTails)
  // MGCG's two-pass iteration (RunsTwoPassCg) on finest grids of at least this many unknowns,
  // where it pays (CgStepPlan); none: the backend has none.
  std::optional<std::size_t> two_pass_cg_from = std::nullopt;
};
// For settings already as their backend runs them (resolve(): nothing fused or tailed that it
// lacks), everything they ask for.
inline constexpr Capabilities kAsResolved{true, true};

// How a cycle is run. Watched: an observer sees every operation, so each runs on its own.
// Timed: every pass is timed on its own (LevelStats); the passes are the normal cycle's, the
// coarse tail timed as its one launch.
enum class CycleMode { Normal, Watched, Timed };

struct Pass {
  PassKind kind = PassKind::Sweep;
  // Where in the logical cycle the pass runs: at that operation (and sweep) of the trace; the
  // other operations it covers are recorded, not run.
  OpKind at = OpKind::Call;
  int at_sweep = 0;
  Smoother smoother = Smoother::Jacobi;  // the sweeps' smoother (x- or y-zebra for the alternating one)
  bool adjoint = false;                  // a sweep in the adjoint order (symmetric post-smoothing)
  int sweeps = 0;                        // relaxation sweeps the pass runs
  int launches = 1;                      // backend launches the pass issues
  // Bytes the pass moves (byte_model.hpp's pass_bytes, in double; 0 for the coarse tail, which
  // is not modelled), and for the fused down pass of a correction that starts from zero (v not
  // read), the bytes then.
  std::uint64_t bytes = 0, bytes_from_zero = 0;
  // The pass ends a cycle on the finest level and sums its iterate on the way, in cache: (f, v),
  // |v|^2 and |f - A v|^2 (FinestSums), where the caller asks for them (no pass of their own).
  bool yields_sums = false;
};

// What one call on a level runs: its passes on the way down (before the coarse call) and up.
struct LevelSchedule {
  int level = 1;
  bool in_tail = false;     // run by the coarse tail's launch (issued by the tail's top level)
  bool fused_down = false;  // FusedDown; the coarse correction's zeroing is left to its first sweep
  bool fused_up = false;    // FusedUp
  std::vector<Pass> down, up;
  int launches() const;  // per call
  // The pass that runs at logical operation `op` (sweep `sweep` of a relaxation phase), or null:
  // the operation is then part of another pass (or of the coarse tail), recorded only. The
  // executor asks at every operation: a lookup in the index the planner builds, not a search.
  const Pass* pass_at(OpKind op, int sweep = 0) const {
    int k = -1;
    if (op == OpKind::PreRelax || op == OpKind::PostRelax) {
      const std::vector<int>& sweeps = op == OpKind::PreRelax ? at_pre_sweep : at_post_sweep;
      if (sweep >= 0 && std::size_t(sweep) < sweeps.size()) k = sweeps[std::size_t(sweep)];
    } else {
      k = at_other[std::size_t(op)];
    }
    if (k < 0) return nullptr;
    return std::size_t(k) < down.size() ? &down[std::size_t(k)] : &up[std::size_t(k) - down.size()];
  }
  // pass_at's index (made by index_passes from down and up): per operation the pass's place
  // in down followed by up, or -1.
  std::vector<int> at_pre_sweep, at_post_sweep;
  std::array<int, 10> at_other{-1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
  void index_passes();
};

class CycleSchedule {
 public:
  // Empty: one level, nothing planned (for members filled later).
  CycleSchedule() = default;
  static CycleSchedule plan(const MultigridSettings& settings, Capabilities can, CycleMode mode);
  // A normal cycle's schedule on 16 levels: what a call on a level above any coarse tail runs,
  // the same at every level count (for figures quoted per call: launches_per_call(1), fuses_any()).
  static CycleSchedule per_call(MultigridSettings settings, Capabilities can);

  CycleMode mode() const { return mode_; }
  int levels() const { return int(levels_.size()); }
  const LevelSchedule& level(int l) const { return levels_[std::size_t(l - 1)]; }
  // The top level of the coarse tail, or 0 (no tail).
  int tail_top() const { return tail_top_; }
  // Whether a sweep of `kind` runs as one pipelined pass.
  bool pipelines(Smoother kind) const {
    return kind == Smoother::GaussSeidel ? pipelined_gauss_seidel_ : kind == Smoother::XZebra && pipelined_x_zebra_;
  }
  // Whether the finest level's correction may start as a zero that its first pass does not
  // read (the fused down pass, or the coarse tail, starts from zero): no zeroing pass of its own.
  bool zero_start_in_first_pass() const { return zero_start_in_first_pass_; }
  // The pass that sums the iterate a cycle ends with (Pass::yields_sums), or null: the solve's
  // norms then take passes of their own.
  const Pass* sums_pass() const;
  // Backend launches per call on level l.
  int launches_per_call(int l) const { return level(l).launches(); }
  // Backend launches of one cycle with counter kappa: levelCalls(kappa, l) launches_per_call(l),
  // summed over the levels (kappa >= levels: the W-cycle), the coarsest level's calls made as
  // the settings say (coarsest_calls()).
  std::uint64_t launches_per_cycle(int kappa) const;
  // Launches of level l's relaxation sweeps per call (each a pass over the level's grid).
  int sweep_launches(int l) const;
  // Whether calls into the coarsest level are repeated (MultigridSettings::coarsest_calls).
  CoarsestCalls coarsest_calls() const { return coarsest_calls_; }
  // Whether any pass runs fused or pipelined.
  bool fuses_any() const;
  // The first pass a backend with `can` could not run (pass_kind_traits' needs), or null: a
  // schedule is only ever run by a backend that runs all of it.
  const Pass* first_pass_beyond(Capabilities can) const;

  // A line per level: "level 3: down [one pass: 2 sweeps + residual + restriction]  up [...]
  // 2 launches a call".
  std::string describe() const;
  // Level l's passes: "down [...]  up [...]".
  std::string describe_level(int l) const;

 private:
  CycleMode mode_ = CycleMode::Normal;
  std::vector<LevelSchedule> levels_;
  int tail_top_ = 0;
  bool pipelined_gauss_seidel_ = false, pipelined_x_zebra_ = false;
  bool zero_start_in_first_pass_ = false;
  CoarsestCalls coarsest_calls_ = CoarsestCalls::Repeated;
};

// The levels below the top of a coarse tail of `unknowns` (as on 16 levels: with full
// coarsening the same for every level count), which it runs in one launch per call.
int coarse_tail_depth(std::size_t unknowns, Coarsening coarsening);

}  // namespace kcycle
