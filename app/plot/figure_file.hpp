#pragma once
// A figure drawn as SVG written to a file, as its name asks: FILE.svg, or FILE.png rendered from
// that SVG (librsvg). Shared by the cycle figure (Figure 2.1) and the Fourier analysis figure.
#include <stdexcept>
#include <string>

namespace kcycle::plot {

// A name, size or build this figure cannot be written with (the caller's input is at fault).
class FigureRefused : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Throws FigureRefused when `path` ends in neither .svg nor .png, or is .png in a build without
// librsvg: before any drawing.
void check_figure_path(const std::string& path);

// Writes `svg` (or its PNG at png_scale pixels per unit). Throws FigureRefused as above or for a
// PNG over kMostPngSide pixels a side, std::runtime_error if the file cannot be written (the
// file that was there stays).
void write_figure_file(const std::string& svg, const std::string& path, double png_scale);

}  // namespace kcycle::plot
