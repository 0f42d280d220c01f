#include "figure_file.hpp"

#include "kcycle/io/file_output.hpp"
#include "svg_raster.hpp"

namespace kcycle::plot {

namespace {

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

void check_figure_path(const std::string& path) {
  const bool png = ends_with(path, ".png");
  if (!png && !ends_with(path, ".svg")) throw FigureRefused("the figure's file name must end in .svg or .png");
  if (png && !can_render_svg())
    throw FigureRefused("this build has no librsvg (librsvg2-dev), so it writes .svg figures only");
}

void write_figure_file(const std::string& svg, const std::string& path, double png_scale) {
  check_figure_path(path);
  if (!ends_with(path, ".png")) return write_file_replacing(path, svg);
  std::string bytes;
  try {
    bytes = svg_to_png(svg, png_scale);
  } catch (const std::invalid_argument& e) {  // too large: the width and scale asked for
    throw FigureRefused(e.what());
  }
  write_file_replacing(path, bytes);
}

}  // namespace kcycle::plot
