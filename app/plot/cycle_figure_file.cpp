#include "cycle_figure_file.hpp"

#include <algorithm>

#include "cycle_figure.hpp"
#include "kcycle/io/file_output.hpp"
#include "svg_raster.hpp"

namespace kcycle::plot {

namespace {

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

void write_cycle_figure(const std::vector<CycleFigurePanel>& panels, const std::string& path, FigureFormat format) {
  const bool png = ends_with(path, ".png");
  if (!png && !ends_with(path, ".svg")) throw FigureRefused("the figure's file name must end in .svg or .png");
  if (png && !can_render_svg())
    throw FigureRefused("this build has no librsvg (librsvg2-dev), so it writes .svg figures only");
  std::size_t most = 0;
  for (const CycleFigurePanel& p : panels) most = std::max(most, cycle_figure_nodes(p.plan).size());
  if (most > kMostFigureNodes)
    throw FigureRefused("a diagram of " + std::to_string(most) + " nodes is unreadable (at most " +
                        std::to_string(kMostFigureNodes) + "): fewer levels or a smaller kappa");
  const float width = format.width > 0 ? format.width : std::max(960.0f, 10.0f * float(most) + 110);
  const std::string svg = cycle_figure_svg(panels, width);
  if (!png) return write_file_replacing(path, svg);
  std::string bytes;
  try {
    bytes = svg_to_png(svg, format.png_scale);
  } catch (const std::invalid_argument& e) {  // too large: the width and scale asked for
    throw FigureRefused(e.what());
  }
  write_file_replacing(path, bytes);
}

}  // namespace kcycle::plot
