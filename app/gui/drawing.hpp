#pragma once
// The student draws the error (problem 4, kcycle/core/drawn_error.hpp): a click on the finest
// level's picture adds a smooth bump (left button) or a rough patch (right button) under the
// cursor, the brush's radius wide (Ctrl: negative); a click on the Fourier inset adds the sine
// mode under the cursor. Each shape goes into the parameters' text, so the drawing is a problem
// like any other: saved in the parameters file, `kcycle solve --config` solves the same start.
#include "kcycle/core/drawn_error.hpp"
#include "ui_state.hpp"

namespace kcycle::gui {

enum class Brush { Bump, Rough };

// The shape a click with `brush` at (x, y) on the unit square draws.
ErrorShape brush_shape(const UiState& ui, Brush brush, double x, double y, bool negative);
// Sine mode (k, l) at amplitude 1 (negative: -1).
ErrorShape mode_shape(int k, int l, bool negative);

// Appends `shape` to the drawing in ui.params (its oldest dropped past kMaxErrorShapes) and
// asks for the parameters to be sent to the worker (UiState::send_params).
void add_drawn_shape(UiState& ui, const ErrorShape& shape);

// Whether clicks draw: problem 4 is being solved.
bool drawing(const UiState& ui);

}  // namespace kcycle::gui
