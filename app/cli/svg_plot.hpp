#pragma once
// A small line-plot writer for the experiment figures: SVG that any browser opens, log or
// linear axes, markers for measurements, dashed lines for model predictions, vertical
// marker lines (turning points), axis labels and a legend.
#include <string>
#include <vector>

namespace kcycle::cli {

struct PlotSeries {
  std::string label;
  std::vector<double> x, y;
  std::string color;    // empty: from the palette
  bool dashed = false;  // model curves
  bool markers = true;  // measurements
};

struct PlotMarkerLine {
  double x;
  std::string label;
  std::string color;
};

struct Plot {
  std::string title, xlabel, ylabel;
  bool logx = false, logy = true;
  std::vector<PlotSeries> series;
  std::vector<PlotMarkerLine> vlines;
  std::vector<std::string> xtick_labels;  // categorical x (x = 0, 1, ...) when not empty
};

// One or more plots side by side, as an SVG document.
std::string svg_text(const std::vector<Plot>& panels);
// The same, written to `path`. Throws std::runtime_error if the file cannot be written.
void write_svg(const std::vector<Plot>& panels, const std::string& path);

// A fixed palette, one colour per kappa (1, 2, 3, 4, W) and then more.
std::string palette(std::size_t index);

}  // namespace kcycle::cli
