#pragma once
// Local Fourier analysis for a slide: the smoother's, the two-grid cycle's and the kappa-cycle's
// damping of every Fourier mode over [-pi, pi)^2 (kcycle/lfa/amplification_maps.hpp), side by
// side, the smooth modes (those the coarse grid sees) outlined, each titled with its factor.
// `kcycle lfa --figure` and the visualizer's Fourier analysis view write it.
#include <array>
#include <string>

#include "kcycle/lfa/amplification_maps.hpp"
#include "kcycle/solve/solver_options.hpp"

namespace kcycle::plot {

struct LfaFigure {
  lfa::AmplificationMaps maps;
  double smoothing_factor = 0, two_grid_factor = 0, kappa_factor = 0;  // fourier_analysis.hpp's
  std::string caption;                                                 // the problem and the cycle, one line
};

// The figure of the kappa-cycle `options` describe, with the factors its analysis found (mu, the
// two-grid factor, the kappa-cycle's) and the maps at `resolution` samples a side; throws
// std::invalid_argument where amplification_maps() does.
LfaFigure lfa_figure(const SolverOptions& options, double smoothing_factor, double two_grid_factor, double kappa_factor,
                     int resolution = 64);

// "Smoother, per sweep: mu = 0.600", "Two-grid cycle: rho = 0.191", "kappa = 2 cycle, 3 levels:
// rho = 0.213"; with Greek letters where `greek` (SVG), spelled out otherwise (the GUI's font).
std::array<std::string, 3> lfa_map_titles(const lfa::AmplificationMaps& maps, double smoothing_factor,
                                          double two_grid_factor, double kappa_factor, bool greek);

// Values at or above this draw in the colour scale's top colour (the scale runs from 0).
inline constexpr double kLfaScaleTop = 1.0;

std::string lfa_figure_svg(const LfaFigure& figure);

// FILE.svg or FILE.png (figure_file.hpp's rules and errors).
void write_lfa_figure(const LfaFigure& figure, const std::string& path, double png_scale = 2.0);

}  // namespace kcycle::plot
