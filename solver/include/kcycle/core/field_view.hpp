#pragma once
#include <cstdint>

namespace kcycle {

// What the visualizer draws of a level (kernels::image_value): its iterate (the error on the
// finest level, the correction v on a coarser one), its residual f - A v, or its right-hand
// side f (on a coarse level the restricted residual: the equation A v = f solved there).
enum class FieldView : std::uint8_t { Iterate, Residual, RightHandSide };

}  // namespace kcycle
