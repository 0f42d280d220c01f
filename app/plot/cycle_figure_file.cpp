#include "cycle_figure_file.hpp"

#include <algorithm>

#include "cycle_figure.hpp"

namespace kcycle::plot {

void write_cycle_figure(const std::vector<CycleFigurePanel>& panels, const std::string& path, FigureFormat format) {
  check_figure_path(path);
  std::size_t most = 0;
  for (const CycleFigurePanel& p : panels) most = std::max(most, cycle_figure_nodes(p.plan).size());
  if (most > kMostFigureNodes)
    throw FigureRefused("a diagram of " + std::to_string(most) + " nodes is unreadable (at most " +
                        std::to_string(kMostFigureNodes) + "): fewer levels or a smaller kappa");
  const float width = format.width > 0 ? format.width : std::max(960.0f, 10.0f * float(most) + 110);
  write_figure_file(cycle_figure_svg(panels, width), path, format.png_scale);
}

}  // namespace kcycle::plot
