#include "kcycle/backends/mpi/mpi_decomposition.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "kcycle/core/invalid_options.hpp"

namespace kcycle {

template <class Unit>
std::vector<int> Decomposition::split(int points, int parts, Unit unit) {
  // Edge r near r (points + 1) / parts, rounded to its unit, never before the one before it.
  std::vector<int> e(std::size_t(parts) + 1, 0);
  e[std::size_t(parts)] = points;
  for (int r = 1; r < parts; ++r) {
    const int u = unit(r);
    const long ideal = std::lround(double(r) * double(points + 1) / double(parts) / double(u));
    e[std::size_t(r)] = std::clamp(int(ideal) * u, e[std::size_t(r) - 1], points);
  }
  return e;
}

std::vector<int> Decomposition::edges(int points, int parts, bool coarsens) const {
  return split(points, parts, [&](int r) {
    if (!coarsens) return 2;
    // The last stage in which edge r bounds a block: r a multiple of 2^s.
    int level = 1;
    for (int s = 0; s < final_stage() && r % (1 << s) == 0; ++s) level = std::max(level, last_level_[std::size_t(s)]);
    return 1 << level;
  });
}

int Decomposition::smallest_block(int s) const {
  const int level = last_level_[std::size_t(s)], step = 1 << s;
  const int shift = level - 1;
  int least = 1 << 30;
  const auto across = [&](const std::vector<int>& e, int parts, bool coarsens) {
    if ((parts + step - 1) / step == 1) return;  // not split at this stage
    for (int r = 0; r < parts; r += step) {
      const int to = std::min(r + step, parts), sh = coarsens ? shift : 0;
      least = std::min(least, (e[std::size_t(to)] >> sh) - (e[std::size_t(r)] >> sh));
    }
  };
  across(x_edges_, px_, coarsening_ == Coarsening::Full);
  across(y_edges_, py_, true);
  return least;
}

Decomposition::Decomposition(int levels, Coarsening coarsening, int px, int py, int min_points)
    : levels_(levels), coarsening_(coarsening), px_(px), py_(py) {
  if (levels < 1) throw std::invalid_argument("the MPI backend needs at least one level");
  if (px < 1 || py < 1) throw std::invalid_argument("the process grid needs at least one rank a side");
  const GridShape fine = global_shape(1);
  const bool x_coarsens = coarsening == Coarsening::Full;
  int stages = 0;  // until one rank is left: the final stage
  while ((px + (1 << stages) - 1) >> stages > 1 || (py + (1 << stages) - 1) >> stages > 1) ++stages;
  const int least = std::max(min_points, 2);
  last_level_.assign(std::size_t(stages), 1);
  // From the last split stage back to the first: each keeps the deepest level (above the
  // coarsest, and not below what a later stage keeps) on which its blocks have `least` points a
  // side. A stage's blocks depend only on the edges it and the later stages share.
  for (int s = stages - 1; s >= 0; --s) {
    int d = s + 1 < stages ? last_level_[std::size_t(s) + 1] : levels - 1;
    for (; d >= 1; --d) {
      for (int t = 0; t <= s; ++t) last_level_[std::size_t(t)] = d;
      x_edges_ = edges(fine.nx, px, x_coarsens);
      y_edges_ = edges(fine.ny, py, true);
      if (smallest_block(s) >= least) break;
    }
    last_level_[std::size_t(s)] = std::max(d, 1);
  }
  for (int s = 1; s < stages; ++s)  // a stage that keeps no level ends where the one before it does
    last_level_[std::size_t(s)] = std::max(last_level_[std::size_t(s)], last_level_[std::size_t(s) - 1]);
  x_edges_ = edges(fine.nx, px, x_coarsens);
  y_edges_ = edges(fine.ny, py, true);
  for (int s = 0; s < stages; ++s) {
    const bool empty = s > 0 && last_level_[std::size_t(s)] == last_level_[std::size_t(s) - 1];
    if (!empty && smallest_block(s) < (s == 0 && last_level_[0] == 1 ? 2 : least))
      throw InvalidOptions(std::to_string(px) + " x " + std::to_string(py) + " ranks are too many for " +
                           std::to_string(fine.nx) + " x " + std::to_string(fine.ny) +
                           " points: some rank would own fewer than 2 points a side");
  }
}

int Decomposition::stage_of(int level) const {
  for (int s = 0; s < final_stage(); ++s)
    if (level <= last_level_[std::size_t(s)]) return s;
  return final_stage();
}

IndexRange Decomposition::x_range(int level, int rx) const {
  if (!holds(level, rx, 0)) return {1, 0};
  const int shift = coarsening_ == Coarsening::Full ? level - 1 : 0, to = std::min(rx + step(level), px_);
  return {(x_edges_[std::size_t(rx)] >> shift) + 1, x_edges_[std::size_t(to)] >> shift};
}

IndexRange Decomposition::y_range(int level, int ry) const {
  if (!holds(level, 0, ry)) return {1, 0};
  const int to = std::min(ry + step(level), py_);
  return {(y_edges_[std::size_t(ry)] >> (level - 1)) + 1, y_edges_[std::size_t(to)] >> (level - 1)};
}

int Decomposition::level_of(GridShape shape) const {
  for (int l = 1; l <= levels_; ++l)
    if (global_shape(l) == shape) return l;
  return 0;
}

std::array<int, 2> process_grid(int ranks, int ranks_x, int ranks_y) {
  if (ranks_x > 0 && ranks_y > 0) {
    if (ranks_x * ranks_y != ranks) throw InvalidOptions("their product must be the number of ranks");
    return {ranks_x, ranks_y};
  }
  if (ranks_x > 0 || ranks_y > 0) {
    const int given = std::max(ranks_x, ranks_y);
    if (ranks % given != 0) throw InvalidOptions("the number of ranks is no multiple of " + std::to_string(given));
    return ranks_x > 0 ? std::array{ranks_x, ranks / given} : std::array{ranks / given, ranks_y};
  }
  int py = 1;
  for (int f = 1; f * f <= ranks; ++f)
    if (ranks % f == 0) py = f;
  return {ranks / py, py};
}

}  // namespace kcycle
