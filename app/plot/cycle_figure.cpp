#include "cycle_figure.hpp"

#include <algorithm>

#include "kcycle/solve/solver_options.hpp"

namespace kcycle::plot {

std::vector<CycleFigureNode> cycle_figure_nodes(const Trace& plan) {
  std::vector<CycleFigureNode> nodes;
  for (std::size_t k = 0; k < plan.size(); ++k) {
    const TraceEvent& e = plan[k];
    if (e.kind == OpKind::Call) {
      if (e.level > 1) nodes.push_back({e.level, true, e.counter, k, k});
    } else if (e.kind == OpKind::KrylovWeigh || e.kind == OpKind::KrylovCombine) {
      nodes.push_back({level_written(e), false, 0, k, k, true});
    } else if (e.kind == OpKind::PreRelax || e.kind == OpKind::PostRelax) {
      if (!nodes.empty() && !nodes.back().call && !nodes.back().krylov && nodes.back().level == e.level &&
          plan[nodes.back().last_event].kind == e.kind)
        nodes.back().last_event = k;
      else
        nodes.push_back({e.level, false, 0, k, k});
    }
  }
  return nodes;
}

std::size_t calls_in(const Trace& plan) {
  return std::size_t(
      std::count_if(plan.begin(), plan.end(), [](const TraceEvent& e) { return e.kind == OpKind::Call; }));
}

std::string counter_label(int counter) {
  // The W-cycle's calls pass kKappaW - 1, - 2 ... down: still "W" to a reader.
  return counter > kKappaW - 64 ? "W" : std::to_string(counter);
}

CycleFigureLayout layout_cycle_figure(Box box, int levels, std::size_t nodes, float label_column, float min_radius,
                                      float max_radius) {
  CycleFigureLayout layout;
  layout.area = {box.x0 + label_column, box.y0, box.x1, box.y1};
  layout.dx = (layout.area.x1 - layout.area.x0) / float(std::max<std::size_t>(nodes, 2) - 1);
  layout.dy = (layout.area.y1 - layout.area.y0) / float(std::max(levels - 1, 1));
  // A quarter of the spacing each side keeps neighbouring X's apart; a level's row height
  // bounds it too where the path is long and the levels few.
  layout.radius = std::clamp(0.28f * std::min(layout.dx, layout.dy), min_radius, max_radius);
  return layout;
}

Box counter_label_box(Point x_centre, float radius, float width, float height, int place) {
  // Beside the X's arms, by a unit; at a corner the box overlaps the X's square by two (text
  // has leading), above and below it is centred and clear of it.
  const float r = radius, x = x_centre.x, y = x_centre.y;
  switch (place) {
    case 0: return {x + r + 1, y - r + 2 - height, x + r + 1 + width, y - r + 2};   // upper right
    case 1: return {x - r - 1 - width, y - r + 2 - height, x - r - 1, y - r + 2};   // upper left
    case 2: return {x - width / 2, y - r - 1 - height, x + width / 2, y - r - 1};   // above
    case 3: return {x - width / 2, y + r + 1, x + width / 2, y + r + 1 + height};   // below
    case 4: return {x + r + 1, y + r - 2, x + r + 1 + width, y + r - 2 + height};   // lower right
    default: return {x - r - 1 - width, y + r - 2, x - r - 1, y + r - 2 + height};  // lower left
  }
}

}  // namespace kcycle::plot
