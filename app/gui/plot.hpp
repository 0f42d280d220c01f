#pragma once
// A small line-plot widget on ImGui's draw lists (ImPlot is not packaged in Debian): axes
// with ticks and labels, linear or log scales, solid/dashed lines, markers, vertical marker
// lines and a legend.
#include <imgui.h>

#include <string>
#include <vector>

namespace kcycle::gui {

struct Series {
  std::string label;
  std::vector<double> x, y;
  ImU32 color;
  float thickness = 2.0f;
  bool dashed = false;
  bool markers = false;
  bool line = true;
};

struct VLine {
  double x;
  ImU32 color;
  std::string label;
};

struct PlotSpec {
  std::string xlabel, ylabel;
  bool logx = false, logy = true;
  double xmin = 0, xmax = 0, ymin = 0, ymax = 0;  // equal: automatic
  bool integer_x = false;                         // x counts something: ticks at whole numbers
};

// Draws into the next size.x x size.y pixels of the current window.
void draw_plot(const char* id, const PlotSpec& spec, const std::vector<Series>& series,
               const std::vector<VLine>& vlines, ImVec2 size);

}  // namespace kcycle::gui
