#pragma once
// SVG to PNG through librsvg and cairo (Debian's librsvg2-dev): the figures are drawn once, as
// SVG, and a PNG for a slide is that SVG rendered, text and all.
#include <string>

namespace kcycle::plot {

// Whether this build has librsvg (else svg_to_png throws saying so).
bool can_render_svg();

// The PNG file's bytes: `svg` rendered at `scale` times its own size on its own background.
// Throws std::runtime_error with librsvg's or cairo's message.
// Throws std::invalid_argument when the picture would exceed kMostPngSide pixels a side.
inline constexpr int kMostPngSide = 32767;  // cairo's image surfaces
std::string svg_to_png(const std::string& svg, double scale);

}  // namespace kcycle::plot
