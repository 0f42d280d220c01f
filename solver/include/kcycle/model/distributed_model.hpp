#pragma once
// The run-time model on a process grid (the MPI backend): the paper's T = alpha * launches +
// beta * ops gains a per-message term,
//     T = alpha * launches + beta * ops + lambda * messages,
// where every count is the critical path of one cycle: per level, the busiest rank's. The
// counts here are closed forms from levelCalls and the decomposition's blocks (no MPI), so the
// model predicts any process grid, 4096 ranks included; tests/mpi checks them against what the
// backend counts on real ranks.
//
// Assumptions, stated once: the levels run one after another (bulk synchronous), so a cycle
// costs the sum over levels of the busiest rank's work and messages there; a halo exchange
// costs one message per neighbour (they overlap, but each is a send and a receive to post and
// match); a collective costs ceil(log2 P) message latencies (a tree); message size enters
// through beta only (halos are small next to the blocks).
#include <array>
#include <vector>

#include "kcycle/backends/mpi/mpi_decomposition.hpp"
#include "kcycle/model/cost_model.hpp"
#include "kcycle/solve/multigrid.hpp"

namespace kcycle {

// One level's share of a cycle, on its busiest rank.
struct LevelCommCounts {
  double exchanges = 0;    // halo exchange rounds (every rank of the level makes them)
  double messages = 0;     // point-to-point: halo messages and the line transposes' parts
  double collectives = 0;  // gathers, broadcasts and the line transposes' all-to-alls
  double ops = 0;          // unknowns visited: the largest block's (rank 0's whole level below the split)
};

// Per level (index 0 unused) for one cycle with counter kappa (kKappaW: the W-cycle) of
// settings as the MPI backend runs them (nothing fused) on decomposition d.
std::vector<LevelCommCounts> distributed_cycle_counts(const MultigridSettings& settings, int kappa,
                                                      const Decomposition& d);

// log2 P rounded up: the message latencies of one collective on P ranks.
int collective_latencies(int ranks);

struct DistributedCycleCost {
  double launches = 0, ops = 0, messages = 0;  // messages: point-to-point + collectives' latencies
  double seconds = 0;                          // model.alpha, beta, lambda applied
};
// The whole cycle: sums over levels, collectives as collective_latencies messages each.
DistributedCycleCost distributed_cycle_cost(const MultigridSettings& settings, int kappa, const Decomposition& d,
                                            const CostModel& model);

// The turning point on a px x py grid: the level count n_tp (real, interpolated between
// level counts in log(latency / work)) where the latency terms, alpha * launches + lambda *
// messages, equal the work term beta * ops; NaN when no level count up to max_levels reaches it.
double distributed_turning_point(const MultigridSettings& settings, int kappa, int px, int py, const CostModel& model,
                                 int max_levels = 24, int min_points = 8);

// The agglomeration threshold (Decomposition's min_points, --agglomerate-below) among 2, 4,
// ..., 256 that the model gives the cheapest cycle on a px x py grid; the first of equals.
int best_agglomeration_threshold(const MultigridSettings& settings, int kappa, int px, int py, const CostModel& model);

// Weak scaling: every rank keeps the block of `settings` on one rank (settings.levels levels),
// and P = 4^j ranks on a 2^j x 2^j grid solve settings.levels + j levels. Per P: the cycle's
// modelled cost; efficiency = T(1 rank) / T(P).
struct ScalingPoint {
  int ranks = 1, px = 1, py = 1, levels = 0, distributed_levels = 0;
  DistributedCycleCost cost;
  double efficiency = 1;
};
std::vector<ScalingPoint> weak_scaling_prediction(const MultigridSettings& settings, int kappa, const CostModel& model,
                                                  int max_ranks, int min_points = 8);

}  // namespace kcycle
