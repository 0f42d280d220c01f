#include "kcycle/model/distributed_model.hpp"
#include "kcycle/cycle/cycle_schedule.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "kcycle/cycle/cycle_counts.hpp"
#include "kcycle/solve/solver_options.hpp"

namespace kcycle {

namespace {

// Lines of one parity (first = 1 or 2) among `points`.
int lines_of_parity(int points, int first) { return first <= points ? (points - first) / 2 + 1 : 0; }

// Messages one rank sends in a transposed line pass (mpi_smoothers.cpp): its segments to each
// other rank that solves some of the lines, and, if it solves some, the solutions back to every
// other rank of its row (or column) of the grid.
int transpose_messages(int lines, int ranks, int me) {
  const bool solves = me < lines;
  return std::min(lines, ranks) - (solves ? 1 : 0) + (solves ? ranks - 1 : 0);
}

// A rank's neighbours on the process grid, corners included.
int neighbours(int rx, int ry, int px, int py) {
  const int across = (rx > 0) + 1 + (rx < px - 1), down = (ry > 0) + 1 + (ry < py - 1);
  return across * down - 1;
}

}  // namespace

int collective_latencies(int ranks) { return ranks <= 1 ? 0 : int(std::ceil(std::log2(double(ranks)))); }

std::vector<LevelCommCounts> distributed_cycle_counts(const MultigridSettings& s, int kappa, const Decomposition& d) {
  const int n = d.levels(), px = d.px(), py = d.py();
  const int k = std::min(kappa, n);  // kKappaW is beyond every level count
  const auto calls = [&](int l) { return double(level_calls(k, l, n, s.coarsest_calls)); };
  // Per call above the coarsest: the relaxation passes (each exchanges first) and the zebra
  // sweeps along x and along y (each of their two passes transposed where the lines cross ranks).
  const CycleSchedule schedule = CycleSchedule::plan(s, kAsResolved, CycleMode::Normal);
  const int passes = n > 1 ? schedule.sweep_launches(1) : 0;
  int x_sweeps = 0, y_sweeps = 0;
  if (s.smoother == Smoother::XZebra) x_sweeps = s.nu1 + s.nu2;
  if (s.smoother == Smoother::YZebra) y_sweeps = s.nu1 + s.nu2;
  if (s.smoother == Smoother::XYZebra) {
    x_sweeps = alternating_x_sweeps(s.nu1, true) + alternating_x_sweeps(s.nu2, !s.symmetric_smoothing);
    y_sweeps = s.nu1 + s.nu2 - x_sweeps;
  }

  std::vector<LevelCommCounts> levels(std::size_t(n) + 1);
  for (int l = 1; l <= n; ++l) {
    LevelCommCounts& c = levels[std::size_t(l)];
    const int step = d.step(l), across = d.ranks_across(l), down = d.ranks_down(l);
    // The ranks holding the level: every step-th of the grid (rank 0 alone on the last stage).
    double largest = 0;
    for (int ry = 0; ry < py; ry += step)
      for (int rx = 0; rx < px; rx += step) largest = std::max(largest, double(d.block_shape(l, rx, ry).unknowns()));
    c.ops = calls(l) * largest;
    // A fold into fewer ranks after the level above: a gather and a scatter per call there.
    if (l > 1 && d.stage_of(l) > d.stage_of(l - 1)) c.collectives += 2 * calls(l - 1);
    if (!d.distributed(l)) continue;
    c.exchanges = (l < n ? calls(l) * (passes + 2) : 0) + (l > 1 ? calls(l - 1) : 0);
    const bool x_cross = across > 1 && x_sweeps > 0, y_cross = down > 1 && y_sweeps > 0;
    c.collectives += calls(l) * 2 * 2 * (x_cross * x_sweeps + y_cross * y_sweeps);
    double busiest = 0;
    for (int ry = 0; ry < py; ry += step)
      for (int rx = 0; rx < px; rx += step) {
        const GridShape b = d.block_shape(l, rx, ry);
        double m = neighbours(rx / step, ry / step, across, down) * c.exchanges;
        for (int first : {1, 2}) {
          if (x_cross) m += calls(l) * x_sweeps * transpose_messages(lines_of_parity(b.ny, first), across, rx / step);
          if (y_cross) m += calls(l) * y_sweeps * transpose_messages(lines_of_parity(b.nx, first), down, ry / step);
        }
        busiest = std::max(busiest, m);
      }
    c.messages = busiest;
  }
  return levels;
}

DistributedCycleCost distributed_cycle_cost(const MultigridSettings& s, int kappa, const Decomposition& d,
                                            const CostModel& model) {
  DistributedCycleCost cost;
  cost.launches = double(CycleSchedule::plan(s, kAsResolved, CycleMode::Normal).launches_per_cycle(kappa));
  const int latencies = collective_latencies(d.px() * d.py());
  for (const LevelCommCounts& c : distributed_cycle_counts(s, kappa, d)) {
    cost.ops += c.ops;
    cost.messages += c.messages + c.collectives * latencies;
  }
  cost.seconds = model.predict(cost.launches, cost.ops, cost.messages);
  return cost;
}

double distributed_turning_point(const MultigridSettings& base, int kappa, int px, int py, const CostModel& model,
                                 int max_levels, int min_points) {
  // log(latency / work) per level count (NaN where the grid has too few points for the ranks).
  // Rank 0's coarse levels can make work win on small grids of many ranks and lose again on
  // larger ones: the turning point is the last crossing, beyond which work wins for good.
  std::vector<double> ratio(std::size_t(max_levels) + 1, NAN);
  for (int n = 2; n <= max_levels; ++n) {
    MultigridSettings s = base;
    s.levels = n;
    try {
      const Decomposition d(n, s.coarsening, px, py, min_points);
      const DistributedCycleCost c = distributed_cycle_cost(s, kappa, d, {});
      ratio[std::size_t(n)] = std::log((model.alpha * c.launches + model.lambda * c.messages) / (model.beta * c.ops));
    } catch (const std::exception&) {
      // too few points for this many ranks
    }
  }
  if (!(ratio[std::size_t(max_levels)] <= 0)) return NAN;  // latency still wins (or unknown)
  for (int n = max_levels; n > 2; --n) {
    const double here = ratio[std::size_t(n)], before = ratio[std::size_t(n - 1)];
    if (std::isnan(before)) return double(n);  // work wins from the smallest grid there is
    if (before > 0) return double(n) - here / (here - before);
  }
  return 2.0;
}

int best_agglomeration_threshold(const MultigridSettings& s, int kappa, int px, int py, const CostModel& model) {
  int best = 0;
  double least = INFINITY;
  for (int min_points = 2; min_points <= 256; min_points *= 2) {
    try {
      const double t =
          distributed_cycle_cost(s, kappa, Decomposition(s.levels, s.coarsening, px, py, min_points), model).seconds;
      if (t < least) least = t, best = min_points;
    } catch (const std::exception&) {
      break;  // too many ranks for the grid at all
    }
  }
  return best;
}

std::vector<ScalingPoint> weak_scaling_prediction(const MultigridSettings& base, int kappa, const CostModel& model,
                                                  int max_ranks, int min_points) {
  std::vector<ScalingPoint> points;
  for (int side = 1; side * side <= max_ranks; side *= 2) {
    MultigridSettings s = base;
    s.levels = base.levels + int(points.size());
    const Decomposition d(s.levels, s.coarsening, side, side, min_points);
    ScalingPoint p;
    p.ranks = side * side;
    p.px = p.py = side;
    p.levels = s.levels;
    p.distributed_levels = d.distributed_levels();
    p.cost = distributed_cycle_cost(s, kappa, d, model);
    p.efficiency = points.empty() ? 1.0 : points.front().cost.seconds / p.cost.seconds;
    points.push_back(p);
  }
  return points;
}

}  // namespace kcycle
