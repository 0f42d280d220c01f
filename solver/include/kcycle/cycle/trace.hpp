#pragma once
// The execution trace: what a cycle actually did, operation by operation. The visualizer
// draws the cycle diagram from it and the tests count calls in it.
#include <cstdint>
#include <string_view>
#include <vector>

namespace kcycle {

enum class OpKind : std::uint8_t {
  Call,         // entry to the cycle routine on a level; `counter` is its kappa (or gamma)
  PreRelax,     // one relaxation sweep before the coarse-grid correction
  Restrict,     // f[l+1] <- Restrict(f[l] - A[l] v[l])
  ZeroCoarse,   // v[l+1] <- 0
  Prolong,      // v[l] <- v[l] + Prolong(v[l+1])
  PostRelax,    // one relaxation sweep after the correction
  CoarseSolve,  // exact solve on the coarsest level
  // The Krylov-accelerated cycle's steps on the coarser level (MultigridSettings::coarse_krylov),
  // recorded at the level that makes the two calls:
  KrylovWeigh,    // after the first call: its correction weighed by CG, and the second call decided
  KrylovCombine,  // after the second: the two corrections combined by the flexible-CG step
};

std::string_view to_string(OpKind kind);

struct TraceEvent {
  OpKind kind;
  std::int16_t level;    // 1 = finest, as in the paper
  std::int32_t counter;  // the call's cycle counter (Call events only, else 0)

  friend bool operator==(const TraceEvent&, const TraceEvent&) = default;
};

using Trace = std::vector<TraceEvent>;

// The level whose vectors an operation writes: the coarser one for the restriction (its f),
// the zeroing and the Krylov steps (its v), the event's own level for the rest (a call: where it runs).
inline int level_written(const TraceEvent& e) {
  const bool coarser = e.kind == OpKind::Restrict || e.kind == OpKind::ZeroCoarse || e.kind == OpKind::KrylovWeigh ||
                       e.kind == OpKind::KrylovCombine;
  return coarser ? e.level + 1 : e.level;
}

// Counts of Call events per level (index 0 unused, index l = level l).
std::vector<std::uint64_t> calls_per_level(const Trace& trace, int levels);

}  // namespace kcycle
