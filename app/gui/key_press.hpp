#pragma once
// One key pressed, as GLFW reported it (or a script sent it): the lecture keys act on these,
// not on Dear ImGui's polled key state, which misses a press and release that both fall
// between two frames (a clicker's, or xdotool's, under a slow software renderer).
namespace kcycle::gui {

struct KeyPress {
  int key = 0;  // GLFW_KEY_*
  bool shift = false, ctrl = false;
};

}  // namespace kcycle::gui
