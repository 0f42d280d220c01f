#include "screenshot.hpp"

#include <epoxy/gl.h>

#include <stdexcept>
#include <string>
#include <vector>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

#include "kcycle/io/file_output.hpp"

namespace kcycle::gui {

void save_screenshot(const std::string& path, int width, int height) {
  std::vector<unsigned char> pixels(std::size_t(width) * std::size_t(height) * 3);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
  stbi_flip_vertically_on_write(1);  // OpenGL's rows run bottom-up
  std::string png;                   // encoded in memory, then written checked (write_file_replacing)
  const auto append = [](void* out, void* data, int size) {
    static_cast<std::string*>(out)->append(static_cast<const char*>(data), std::size_t(size));
  };
  if (!stbi_write_png_to_func(append, &png, width, height, 3, pixels.data(), width * 3))
    throw std::runtime_error("cannot encode the screenshot " + path);
  write_file_replacing(path, png);
}

}  // namespace kcycle::gui
