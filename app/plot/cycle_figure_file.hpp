#pragma once
// Figure 2.1 written to a file, as its name asks: FILE.svg, or FILE.png rendered from that SVG.
// Shared by `kcycle figure cycles` and the visualizer's Cycle shapes export.
#include <string>
#include <vector>

#include "cycle_figure_svg.hpp"
#include "figure_file.hpp"

namespace kcycle::plot {

struct FigureFormat {
  float width = 0;         // user units; 0: 10 a node (markers stay apart), at least 960
  double png_scale = 2.0;  // PNG pixels per unit: sharp on a projector
};

// Past this many nodes a diagram is a smear at any width a slide has.
inline constexpr std::size_t kMostFigureNodes = 20000;

// Throws FigureRefused (not .svg / .png, no librsvg for .png, too many nodes, a PNG over 32767
// pixels a side) before writing, std::runtime_error if the file cannot be written (the file
// that was there stays).
void write_cycle_figure(const std::vector<CycleFigurePanel>& panels, const std::string& path, FigureFormat format = {});

}  // namespace kcycle::plot
