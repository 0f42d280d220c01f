#include "screenshot.hpp"

#include <epoxy/gl.h>

#include <stdexcept>
#include <vector>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

namespace kcycle::gui {

void save_screenshot(const std::string& path, int width, int height) {
  std::vector<unsigned char> pixels(std::size_t(width) * std::size_t(height) * 3);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
  stbi_flip_vertically_on_write(1);  // OpenGL's rows run bottom-up
  if (!stbi_write_png(path.c_str(), width, height, 3, pixels.data(), width * 3))
    throw std::runtime_error("cannot write screenshot " + path);
}

}  // namespace kcycle::gui
