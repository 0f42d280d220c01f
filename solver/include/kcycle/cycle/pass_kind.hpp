#pragma once
// The kinds of physical pass a cycle's schedule is made of, with one row of facts per kind: its
// name, the timer it counts against and what a backend needs to run it. A new kind is one value
// here and its row, one planning rule (CycleSchedule::plan) and one backend operation (the
// executor's run(), solve/multigrid.hpp).
#include <array>
#include <cstddef>

namespace kcycle {

// The timers of the measured model, per level (LevelStats::seconds): which one a pass counts against.
enum class Phase { Relax, Restrict, Prolong, CoarseSolve, CoarseTail };
inline constexpr int kPhases = 5;

// One physical pass of a call on a level.
enum class PassKind {
  Sweep,             // one relaxation sweep (a Gauss-Seidel sweep is one launch per colour)
  PipelinedSweep,    // one sweep whose colours or line parities trail each other in one pass
  FusedDown,         // the pre-smoothing sweeps, the residual and its restriction, in one pass
  ResidualRestrict,  // the residual and its restriction
  RestrictAndZero,   // the same and the coarse level's correction set to zero, in one launch
  ZeroCoarse,        // the coarse level's correction set to zero
  ZeroInFirstPass,   // the same left to the coarse level's first pass, which starts from zero (no launch)
  Prolong,           // the coarse correction interpolated and added
  FusedUp,           // the prolongation and the post-smoothing sweeps, in one pass
  CoarseSolve,       // the coarsest level's exact solve
  CoarseTail,        // this level and every coarser one, the whole recursion, in one launch
};

// What a backend must have to run a pass: the operations every backend has, the fused passes
// (Capabilities::fused_passes) or the coarse tail (Capabilities::coarse_tails).
enum class PassNeeds { Core, FusedPasses, CoarseTail };

struct PassKindTraits {
  PassKind kind;
  const char* name;  // as `kcycle info --schedule` prints it
  Phase phase;       // zeroing the coarse correction counts as restriction
  PassNeeds needs;
};

inline constexpr std::array<PassKindTraits, 11> kPassKinds{{
    {PassKind::Sweep, "sweep", Phase::Relax, PassNeeds::Core},
    {PassKind::PipelinedSweep, "pipelined sweep", Phase::Relax, PassNeeds::FusedPasses},
    {PassKind::FusedDown, "sweeps + residual + restriction", Phase::Relax, PassNeeds::FusedPasses},
    {PassKind::ResidualRestrict, "residual + restriction", Phase::Restrict, PassNeeds::Core},
    {PassKind::RestrictAndZero, "residual + restriction + zero coarse correction", Phase::Restrict,
     PassNeeds::FusedPasses},
    {PassKind::ZeroCoarse, "zero coarse correction", Phase::Restrict, PassNeeds::Core},
    {PassKind::ZeroInFirstPass, "coarse correction's zero left to its first pass", Phase::Restrict, PassNeeds::Core},
    {PassKind::Prolong, "prolongation", Phase::Prolong, PassNeeds::Core},
    {PassKind::FusedUp, "prolongation + sweeps", Phase::Relax, PassNeeds::FusedPasses},
    {PassKind::CoarseSolve, "exact solve", Phase::CoarseSolve, PassNeeds::Core},
    {PassKind::CoarseTail, "coarse tail (this level and below)", Phase::CoarseTail, PassNeeds::CoarseTail},
}};
// Every row sits at its kind's value, so a lookup is an index.
static_assert([] {
  for (std::size_t k = 0; k < kPassKinds.size(); ++k)
    if (std::size_t(kPassKinds[k].kind) != k) return false;
  return true;
}());

constexpr const PassKindTraits& pass_kind_traits(PassKind kind) { return kPassKinds[std::size_t(kind)]; }
constexpr const char* pass_kind_name(PassKind kind) { return pass_kind_traits(kind).name; }

}  // namespace kcycle
