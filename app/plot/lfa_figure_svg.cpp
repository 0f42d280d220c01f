#include "lfa_figure_svg.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "figure_file.hpp"
#include "kcycle/solve/enum_names.hpp"
#include "kcycle/solve/solve.hpp"

namespace kcycle::plot {

namespace {

constexpr float kMap = 264, kGap = 70, kLeft = 46, kTop = 64, kBar = 16, kWidth = kLeft + 3 * kMap + 2 * kGap + 150;
constexpr float kHeight = kTop + kMap + 78;

// The visualizer's sequential ramp (shaders/colormap.frag): viridis in five stops.
std::string colour(double value) {
  static constexpr double stops[5][3] = {{0.267, 0.005, 0.329},
                                         {0.231, 0.322, 0.545},
                                         {0.129, 0.569, 0.549},
                                         {0.369, 0.788, 0.384},
                                         {0.993, 0.906, 0.144}};
  const double s = std::clamp(value / kLfaScaleTop, 0.0, 1.0) * 4;
  const int i = std::min(int(s), 3);
  const double f = s - i;
  char out[8];
  std::snprintf(out, sizeof out, "#%02x%02x%02x", int(255 * (stops[i][0] + f * (stops[i + 1][0] - stops[i][0]))),
                int(255 * (stops[i][1] + f * (stops[i + 1][1] - stops[i][1]))),
                int(255 * (stops[i][2] + f * (stops[i + 1][2] - stops[i][2]))));
  return out;
}

// The map with theta_y upwards; runs of one colour along a row share a rectangle.
void draw_map(std::ostream& o, const lfa::FrequencyMap& map, float x0, float y0) {
  const int n = map.resolution;
  const float cell = kMap / float(n);
  for (int j = 0; j < n; ++j) {
    const float y = y0 + kMap - float(j + 1) * cell;
    for (int i = 0; i < n;) {
      const std::string c = colour(map.at(i, j));
      int end = i + 1;
      while (end < n && colour(map.at(end, j)) == c) ++end;
      o << "<rect x='" << x0 + float(i) * cell << "' y='" << y << "' width='" << float(end - i) * cell + 0.3f
        << "' height='" << cell + 0.3f << "' fill='" << c << "'/>\n";
      i = end;
    }
  }
}

// The smooth modes' region (the coarse grid's frequencies), dashed, and the axes' ticks.
void draw_frame(std::ostream& o, Coarsening c, float x0, float y0) {
  const float q = kMap / 4;
  if (c == Coarsening::Full)
    o << "<rect x='" << x0 + q << "' y='" << y0 + q << "' width='" << 2 * q << "' height='" << 2 * q << "'";
  else
    o << "<rect x='" << x0 << "' y='" << y0 + q << "' width='" << kMap << "' height='" << 2 * q << "'";
  o << " fill='none' stroke='white' stroke-width='1.6' stroke-dasharray='6 4'/>\n";
  o << "<text x='" << x0 + kMap / 2 << "' y='" << y0 + q + 15 << "' text-anchor='middle' font-size='11' "
    << "fill='white'>smooth modes</text>\n";
  o << "<rect x='" << x0 << "' y='" << y0 << "' width='" << kMap << "' height='" << kMap
    << "' fill='none' stroke='#333'/>\n";
  const char* ticks[3] = {"\u2212\u03c0", "0", "\u03c0"};
  for (int t = 0; t < 3; ++t) {
    const float at = float(t) * kMap / 2;
    o << "<text x='" << x0 + at << "' y='" << y0 + kMap + 15 << "' text-anchor='middle' font-size='12'>" << ticks[t]
      << "</text>\n";
    o << "<text x='" << x0 - 5 << "' y='" << y0 + kMap - at + 4 << "' text-anchor='end' font-size='12'>" << ticks[t]
      << "</text>\n";
  }
  o << "<text x='" << x0 + kMap / 2 << "' y='" << y0 + kMap + 31 << "' text-anchor='middle' font-size='13'>"
    << "\u03b8x</text>\n";
  o << "<text x='" << x0 - 30 << "' y='" << y0 + kMap / 2 << "' text-anchor='middle' font-size='13'>\u03b8y</text>\n";
}

std::string fixed(double v) {
  char s[32];
  std::snprintf(s, sizeof s, "%.3f", v);
  return s;
}

}  // namespace

LfaFigure lfa_figure(const SolverOptions& o, double smoothing_factor, double two_grid_factor, double kappa_factor,
                     int resolution) {
  lfa::LfaSettings settings;
  settings.cycle = multigrid_settings(o);
  LfaFigure f{lfa::amplification_maps(settings, o.cycle.counter, resolution), smoothing_factor, two_grid_factor,
              kappa_factor, ""};
  const std::string omega = o.smoother == Smoother::Jacobi ? " (omega " + fixed(settings.cycle.omega) + ")" : "";
  char caption[320];
  std::snprintf(caption, sizeof caption,
                "eps = %g, angle = %g deg; %s%s, nu = %d + %d; %s coarsening, %s coarse operators", o.eps,
                o.angle_degrees, std::string(enum_label(o.smoother)).c_str(), omega.c_str(), o.nu1, o.nu2,
                o.coarsening == Coarsening::Full ? "full" : "semi (y)",
                o.coarse_operator == CoarseOperator::Galerkin ? "Galerkin" : "rediscretized");
  f.caption = caption;
  return f;
}

std::array<std::string, 3> lfa_map_titles(const lfa::AmplificationMaps& m, double smoothing_factor,
                                          double two_grid_factor, double kappa_factor, bool greek) {
  const std::string mu = greek ? "\u03bc" : "mu", rho = greek ? "\u03c1" : "rho", kappa = greek ? "\u03ba" : "kappa";
  const std::string cycle =
      m.kappa == kKappaW ? std::string("W-cycle") : kappa + " = " + std::to_string(m.kappa) + " cycle";
  return {"Smoother, per sweep: " + mu + " = " + fixed(smoothing_factor),
          "Two-grid cycle: " + rho + " = " + fixed(two_grid_factor),
          cycle + ", " + std::to_string(m.depth) + " levels: " + rho + " = " + fixed(kappa_factor)};
}

std::string lfa_figure_svg(const LfaFigure& f) {
  std::ostringstream o;
  o << "<?xml version='1.0' encoding='UTF-8'?>\n"
    << "<svg xmlns='http://www.w3.org/2000/svg' width='" << kWidth << "' height='" << kHeight << "' viewBox='0 0 "
    << kWidth << ' ' << kHeight << "' font-family='DejaVu Sans, Helvetica, Arial, sans-serif'>\n"
    << "<rect width='100%' height='100%' fill='white'/>\n";
  o << "<text x='" << kWidth / 2 << "' y='22' text-anchor='middle' font-size='15' font-weight='bold'>"
    << "What is left of each Fourier mode e^{i\u03b8\u00b7x} (local Fourier analysis)</text>\n";
  const std::array<std::string, 3> titles =
      lfa_map_titles(f.maps, f.smoothing_factor, f.two_grid_factor, f.kappa_factor, true);
  const lfa::FrequencyMap* maps[3] = {&f.maps.smoother, &f.maps.two_grid, &f.maps.kappa_cycle};
  for (int k = 0; k < 3; ++k) {
    const float x0 = kLeft + float(k) * (kMap + kGap);
    o << "<g class='map'>\n<text x='" << x0 + kMap / 2 << "' y='" << kTop - 10
      << "' text-anchor='middle' font-size='14' font-weight='bold'>" << titles[std::size_t(k)] << "</text>\n";
    draw_map(o, *maps[k], x0, kTop);
    draw_frame(o, f.maps.coarsening, x0, kTop);
    o << "</g>\n";
  }
  // The colour scale, 0 (removed) to 1 (left alone) and above (amplified).
  const float bx = kLeft + 3 * kMap + 2 * kGap + 10;
  for (int s = 0; s < 64; ++s)
    o << "<rect x='" << bx << "' y='" << kTop + kMap - float(s + 1) * kMap / 64 << "' width='" << kBar << "' height='"
      << kMap / 64 + 0.3f << "' fill='" << colour((s + 0.5) / 64 * kLfaScaleTop) << "'/>\n";
  o << "<rect x='" << bx << "' y='" << kTop << "' width='" << kBar << "' height='" << kMap
    << "' fill='none' stroke='#333'/>\n";
  const char* labels[3] = {"0: removed", "0.5", "\u22651: kept or grown"};
  for (int t = 0; t < 3; ++t)
    o << "<text x='" << bx + kBar + 4 << "' y='" << kTop + kMap - float(t) * kMap / 2 + 4 << "' font-size='12'>"
      << labels[t] << "</text>\n";
  o << "<text x='" << kWidth / 2 << "' y='" << kTop + kMap + 54 << "' text-anchor='middle' font-size='12' fill='#444'>"
    << f.caption << "</text>\n";
  o << "<text x='" << kWidth / 2 << "' y='" << kTop + kMap + 70
    << "' text-anchor='middle' font-size='11' fill='#666'>Each mode's value: the norm of what one application "
       "leaves of it, over the modes it couples; infinite grid, no boundary.</text>\n";
  o << "</svg>\n";
  return o.str();
}

void write_lfa_figure(const LfaFigure& figure, const std::string& path, double png_scale) {
  write_figure_file(lfa_figure_svg(figure), path, png_scale);
}

}  // namespace kcycle::plot
