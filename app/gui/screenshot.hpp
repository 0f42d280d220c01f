#pragma once
#include <string>

namespace kcycle::gui {

// Writes the current default framebuffer (width x height) to a PNG. Throws on failure.
void save_screenshot(const std::string& path, int width, int height);

}  // namespace kcycle::gui
