#pragma once
// Whether every text of the last frame is wholly visible: the check behind the GUI tests'
// "no text outside its window's visible region" at projector sizes and UI scales. Two views of the
// frame ImGui just drew (call it between frames, after render):
// - each window's content (every Text, wrapped or not, every button and canvas: what ImGui laid
//   out) ends inside the window's content region (past it ImGui adds a scroll bar), and no
//   panel shows a scroll bar; a child region that scrolls (a wide table) may;
// - no glyph of any text drawn straight onto a draw list (diagram and plot labels, captions)
//   crosses the clipping rectangle it was drawn under: a cut glyph is a cut text;
// - no two texts of one window are drawn over one another (stacked labels read as neither).
#include <string>
#include <vector>

namespace kcycle::gui {

// One line for each text cut off (empty: everything fits), naming the window and by how much;
// only in the window named `window` (and its child regions) where one is named; only at the
// sides where `across` (a form that scrolls down, but must not be cut at its right edge).
std::vector<std::string> texts_cut_off(const std::string& window = "", bool across = false);

// The top-level windows the last frame drew (not their child regions), by name: a check naming a
// window that is not among them checks nothing, and is refused.
std::vector<std::string> drawn_window_names();

}  // namespace kcycle::gui
