#pragma once
// The paper's Figure 2.1 as geometry, for both drawers (the GUI's cycle diagram and the SVG/PNG
// figure of `kcycle figure cycles`): a cycle's plan (kcycle/cycle/cycle_plan.hpp) becomes a path
// of nodes over the levels, an X for every recursive call, a circle for each relaxation phase.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "kcycle/cycle/trace.hpp"

namespace kcycle::plot {

struct CycleFigureNode {
  int level;                            // 1 = finest
  bool call;                            // an X (a recursive call) or a circle (a relaxation phase)
  int counter;                          // the call's kappa (calls only)
  std::size_t first_event, last_event;  // the plan's operations the node stands for
  bool krylov = false;                  // a Krylov step (a diamond) on the coarser level it works on
};

// Not the top call: the paper's figure starts at level 1's first relaxation. Consecutive sweeps
// of one phase are one circle; each Krylov step (a Krylov-accelerated plan) a node of its own.
std::vector<CycleFigureNode> cycle_figure_nodes(const Trace& plan);

// The calls in a plan, the top one included: the paper's totalCalls of the cycle drawn.
std::size_t calls_in(const Trace& plan);

// "W" for the W-cycle's counter (kKappaW and the counters below it it passes down), else the number.
std::string counter_label(int counter);

struct Point {
  float x, y;
};
struct Box {
  float x0, y0, x1, y1;
  bool overlaps(const Box& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
};

// Where the nodes go in a box: evenly across its width (after a column for the level labels),
// one row per level; markers sized to the spacing (so neighbours stay apart), between `min_radius`
// and `max_radius` (the drawer's scale).
struct CycleFigureLayout {
  Box area;              // the path's extent: level 1 at area.y0, the coarsest at area.y1
  float dx = 0, dy = 0;  // between neighbouring nodes, between levels
  float radius = 0;      // of an X's half-diagonal and of a circle
  Point node(std::size_t k, int level) const { return {area.x0 + dx * float(k), area.y0 + dy * float(level - 1)}; }
};
CycleFigureLayout layout_cycle_figure(Box box, int levels, std::size_t nodes, float label_column, float min_radius,
                                      float max_radius);

// Where each call's kappa is written beside its X: the first of its places (upper right, upper
// left, above, below, lower right, lower left) where the label overlaps neither a label already
// placed (left to right) nor another node's marker. None where no place is free, or where
// another call on the same level is nearer than the label is wide (which X it names would be a
// guess), and none outside `bounds` (the drawer's region). label_width(text) and label_height
// are the drawer's font metrics.
template <class Width>
std::vector<std::optional<Box>> placed_counter_labels(const std::vector<CycleFigureNode>& nodes,
                                                      const CycleFigureLayout& layout, Width label_width,
                                                      float label_height, const Box& bounds);
inline constexpr int kCounterLabelPlaces = 6;
// The label's box at one place (0-5, in the order above) by an X centred at x_centre.
Box counter_label_box(Point x_centre, float radius, float width, float height, int place);

template <class Width>
std::vector<std::optional<Box>> placed_counter_labels(const std::vector<CycleFigureNode>& nodes,
                                                      const CycleFigureLayout& layout, Width label_width,
                                                      float label_height, const Box& bounds) {
  std::vector<std::optional<Box>> placed(nodes.size());
  std::vector<Box> taken;
  const float r = layout.radius;
  auto marker = [&](std::size_t k) {
    const Point p = layout.node(k, nodes[k].level);
    return Box{p.x - r, p.y - r, p.x + r, p.y + r};
  };
  auto free = [&](const Box& b, std::size_t k) {
    if (b.x0 < bounds.x0 || b.y0 < bounds.y0 || b.x1 > bounds.x1 || b.y1 > bounds.y1) return false;
    for (const Box& t : taken)
      if (b.overlaps(t)) return false;
    // The markers under its width (nodes go left to right).
    for (std::size_t j = k + 1; j < nodes.size() && marker(j).x0 < b.x1; ++j)
      if (b.overlaps(marker(j))) return false;
    for (std::size_t j = k; j-- > 0 && marker(j).x1 > b.x0;)
      if (b.overlaps(marker(j))) return false;
    return true;
  };
  // A call with another call on its level nearer than its label is wide would share the label
  // with it (a dense diagram's rows): it gets none.
  auto crowded = [&](std::size_t k, float w) {
    const float x = layout.node(k, nodes[k].level).x, near = w + 2 * r;
    for (std::size_t j = k + 1; j < nodes.size() && layout.node(j, 1).x - x < near; ++j)
      if (nodes[j].call && nodes[j].level == nodes[k].level) return true;
    for (std::size_t j = k; j-- > 0 && x - layout.node(j, 1).x < near;)
      if (nodes[j].call && nodes[j].level == nodes[k].level) return true;
    return false;
  };
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    if (!nodes[k].call) continue;
    const float w = label_width(counter_label(nodes[k].counter));
    if (crowded(k, w)) continue;
    for (int place = 0; place < kCounterLabelPlaces && !placed[k]; ++place) {
      const Box b = counter_label_box(layout.node(k, nodes[k].level), r, w, label_height, place);
      if (!free(b, k)) continue;
      placed[k] = b;
      taken.push_back(b);
    }
  }
  return placed;
}

}  // namespace kcycle::plot
