#pragma once
// Draws a FieldImage through the colormap shader into an offscreen texture that ImGui shows.
// The renderer has one interface for both sources of data: on the CPU backend the field is
// uploaded with glTexSubImage2D when (and only when) its version changes; a CUDA backend will
// write the same texture through CUDA-OpenGL interop (issue 6).
#include <epoxy/gl.h>

#include <cstdint>
#include <vector>

namespace kcycle::gui {

class FieldRenderer {
 public:
  FieldRenderer();
  ~FieldRenderer();
  FieldRenderer(const FieldRenderer&) = delete;
  FieldRenderer& operator=(const FieldRenderer&) = delete;

  // Uploads values (nx * ny floats, row-major) if `version` differs from the last upload.
  void upload(const std::vector<float>& values, int nx, int ny, std::uint64_t version);
  // Renders the field into a width x height colour texture and returns it. view = (u0, v0,
  // du, dv): the part of the field shown (zoom and pan).
  GLuint render(int width, int height, bool diverging, float lo, float hi, const float view[4]);
  int uploads() const { return uploads_; }

 private:
  GLuint program_ = 0, vao_ = 0, vbo_ = 0, data_ = 0, fbo_ = 0, color_ = 0;
  int data_w_ = 0, data_h_ = 0, target_w_ = 0, target_h_ = 0;
  std::uint64_t version_ = ~std::uint64_t(0);
  int uploads_ = 0;
};

}  // namespace kcycle::gui
