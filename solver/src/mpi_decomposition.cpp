#include "kcycle/mpi_decomposition.hpp"

#include "kcycle/solver_options.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace kcycle {

std::vector<int> Decomposition::split(int points, int parts, int unit) {
  // Units of `unit` points (the last one short by the boundary): part r gets units
  // [r U / P, (r+1) U / P).
  const int units = (points + 1) / unit;
  std::vector<int> edges(std::size_t(parts) + 1);
  for (int r = 0; r <= parts; ++r) edges[std::size_t(r)] = std::min(points, unit * int((long(r) * units) / parts));
  return edges;
}

Decomposition::Decomposition(int levels, Coarsening coarsening, int px, int py, int min_points)
    : levels_(levels), coarsening_(coarsening), px_(px), py_(py) {
  if (levels < 1) throw std::invalid_argument("the MPI backend needs at least one level");
  if (px < 1 || py < 1) throw std::invalid_argument("the process grid needs at least one rank a side");
  const GridShape fine = global_shape(1);
  const bool x_coarsens = coarsening == Coarsening::Full;
  // Block edges on the finest level at multiples of 2^d keep them at even indices on every
  // level down to d (where the direction does not coarsen, at multiples of 2): a block's local
  // index then has the parity of the global one, which Gauss-Seidel's colours and the zebra
  // sweeps' odd and even lines are defined by.
  auto unit = [](bool coarsens, int d) { return coarsens ? 1 << d : 2; };
  // The smallest block a split direction gives on level d.
  auto smallest = [&](int points, int parts, int d, bool coarsens) {
    if (parts == 1) return points;
    const std::vector<int> e = split(points, parts, unit(coarsens, d));
    const int shift = coarsens ? d - 1 : 0;
    int least = points;
    for (int r = 0; r < parts; ++r)
      least = std::min(least, (e[std::size_t(r) + 1] >> shift) - (e[std::size_t(r)] >> shift));
    return least;
  };
  if (px * py == 1) {
    distributed_ = levels;
  } else {
    // The deepest level every rank still holds min_points of in each split direction; at
    // least level 1, and never the coarsest (its exact solve runs on rank 0).
    distributed_ = 1;
    const int least = std::max(min_points, 2);  // the restriction needs two points a block
    for (int d = 2; d < levels; ++d)
      if (smallest(fine.nx, px, d, x_coarsens) >= least && smallest(fine.ny, py, d, true) >= least) distributed_ = d;
  }
  const int d = distributed_;
  x_edges_ = split(fine.nx, px, unit(x_coarsens, d));
  y_edges_ = split(fine.ny, py, unit(true, d));
  if (px * py > 1 && (smallest(fine.nx, px, d, x_coarsens) < 2 || smallest(fine.ny, py, d, true) < 2))
    throw InvalidOptions(std::to_string(px) + " x " + std::to_string(py) + " ranks are too many for " +
                         std::to_string(fine.nx) + " x " + std::to_string(fine.ny) +
                         " points: some rank would own fewer than 2 points a side");
}

IndexRange Decomposition::x_range(int level, int rx) const {
  const GridShape global = global_shape(level);
  if (!distributed(level)) return rx == 0 ? IndexRange{1, global.nx} : IndexRange{1, 0};
  if (px_ == 1) return {1, global.nx};
  const int shift = coarsening_ == Coarsening::Full ? level - 1 : 0;
  return {(x_edges_[std::size_t(rx)] >> shift) + 1, x_edges_[std::size_t(rx) + 1] >> shift};
}

IndexRange Decomposition::y_range(int level, int ry) const {
  const GridShape global = global_shape(level);
  if (!distributed(level)) return ry == 0 ? IndexRange{1, global.ny} : IndexRange{1, 0};
  if (py_ == 1) return {1, global.ny};
  return {(y_edges_[std::size_t(ry)] >> (level - 1)) + 1, y_edges_[std::size_t(ry) + 1] >> (level - 1)};
}

int Decomposition::level_of(GridShape shape) const {
  for (int l = 1; l <= levels_; ++l)
    if (global_shape(l) == shape) return l;
  return 0;
}

}  // namespace kcycle
