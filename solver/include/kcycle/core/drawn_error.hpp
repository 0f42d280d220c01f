#pragma once
// Problem 4: an initial error a person draws (the visualizer's field, with the mouse) or writes
// (`--error`): a sum of shapes on the unit square, each one of
//   bump X Y R A   a smooth bump A exp(-|x - (X, Y)|^2 / R^2): the coarse grids' to remove
//   rough X Y R A  a checkerboard A (-1)^(i+j) under the same bump's envelope: the smoother's
//   mode K L A     a sine mode A sin(K pi x) sin(L pi y)
// With a zero right-hand side and boundary the error is the iterate, as in problems 0 and 3.
// Written as text ("bump 0.3 0.4 0.1 1; rough 0.7 0.6 0.08 0.5"), so a parameters file holds a
// drawing and `kcycle solve --config` reproduces it.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kcycle/core/grid.hpp"

namespace kcycle {

struct ErrorShape {
  enum class Kind { Bump, Rough, Mode };
  Kind kind = Kind::Bump;
  double x = 0.5, y = 0.5, radius = 0.1;  // bump and rough: centre and width on the unit square
  int k = 1, l = 1;                       // mode: wave numbers
  double amplitude = 1;
  friend bool operator==(const ErrorShape&, const ErrorShape&) = default;
};

inline constexpr std::size_t kMaxErrorShapes = 64;

// The shapes from their text, or why not (a message naming the shape and the field at fault).
struct ParsedShapes {
  std::vector<ErrorShape> shapes;
  std::string error;  // empty when parsed
};
ParsedShapes parse_error_shapes(std::string_view text);
std::string error_shapes_text(const std::vector<ErrorShape>& shapes);

// What is wrong with these shapes on a grid of nx x ny interior points ("" when nothing): a
// mode beyond the grid's wave numbers.
std::string error_shapes_problem(const std::vector<ErrorShape>& shapes, int nx, int ny);

// The sum of the shapes at interior point (i, j) of `shape` (x = i h).
double drawn_error_at(const std::vector<ErrorShape>& shapes, const GridShape& shape, int i, int j);

}  // namespace kcycle
