#pragma once
// The keys a lecturer uses, most of them what a presentation clicker sends: PageDown (and the
// right arrow, space) steps one operation, with Shift on to the next relaxation, with Ctrl on to
// the next call; PageUp (and the left arrow) steps back one; R runs or pauses; B (a clicker's
// "blank" key) switches between the lecture layout and the desk; F1 or H shows them all.
#include <string>

#include "solver_worker.hpp"
#include "ui_state.hpp"

namespace kcycle::gui {

// Once a frame, after ImGui::NewFrame: acts on the keys pressed (none while a text field has
// the keyboard).
void handle_lecture_keys(UiState& ui, SolverWorker& worker, const Snapshot& snap);

// The keys and what they do, over the window while ui.show_keys.
void keys_overlay(UiState& ui);

// The same list as text, one key per line (the manual page's KEYS).
std::string lecture_keys_text();

}  // namespace kcycle::gui
