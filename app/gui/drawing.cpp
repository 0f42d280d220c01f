#include "drawing.hpp"

#include <algorithm>

namespace kcycle::gui {

ErrorShape brush_shape(const UiState& ui, Brush brush, double x, double y, bool negative) {
  ErrorShape s;
  s.kind = brush == Brush::Bump ? ErrorShape::Kind::Bump : ErrorShape::Kind::Rough;
  s.x = std::clamp(x, 0.0, 1.0);
  s.y = std::clamp(y, 0.0, 1.0);
  s.radius = std::clamp(double(ui.brush_radius), 1e-4, 1.0);
  // A rough patch at half a bump's height draws about as strongly: a checkerboard's every point
  // is at the envelope, a bump's fall off at once.
  s.amplitude = (brush == Brush::Bump ? 1.0 : 0.5) * (negative ? -1 : 1);
  return s;
}

ErrorShape mode_shape(int k, int l, bool negative) {
  ErrorShape s;
  s.kind = ErrorShape::Kind::Mode;
  s.k = k;
  s.l = l;
  s.amplitude = negative ? -1 : 1;
  return s;
}

void add_drawn_shape(UiState& ui, const ErrorShape& shape) {
  std::vector<ErrorShape> shapes = parse_error_shapes(ui.params.drawn_error).shapes;  // none when it was cleared
  shapes.push_back(shape);
  if (shapes.size() > kMaxErrorShapes) shapes.erase(shapes.begin(), shapes.end() - kMaxErrorShapes);
  ui.params.problem = ProblemKind::Drawn;
  ui.params.drawn_error = error_shapes_text(shapes);
  ui.send_params = true;
}

bool drawing(const UiState& ui) { return ui.params.problem == ProblemKind::Drawn; }

}  // namespace kcycle::gui
