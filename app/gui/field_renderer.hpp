#pragma once
// Draws a FieldImage through the colormap shader into an offscreen texture that ImGui shows.
// The field reaches the texture in one of two ways, only when its version changes: uploaded
// from host memory with glTexSubImage2D, or, on the CUDA backend, written on the GPU through
// CUDA-OpenGL interop (a CUDA-registered pixel buffer, then a GPU-side copy to the texture).
#include <epoxy/gl.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "field_sizes.hpp"
#include "kcycle/solve/iterative_solver.hpp"
#include "pixel_buffer_interop.hpp"

namespace kcycle::gui {

class FieldRenderer {
 public:
  FieldRenderer();
  ~FieldRenderer();
  FieldRenderer(const FieldRenderer&) = delete;
  FieldRenderer& operator=(const FieldRenderer&) = delete;

  // Uploads values (nx * ny floats, row-major) if `version` differs from the last upload.
  void upload(const std::vector<float>& values, int nx, int ny, std::uint64_t version);
  // Whether the texture holds `version` already (a caller can skip making the floats).
  bool holds(std::uint64_t version) const { return version_ == version; }
  // The same from device memory through CUDA-OpenGL interop. Returns false when interop is
  // unavailable here (interop_error() says why; it is not tried again): then call upload().
  bool upload_from_device(const DeviceImage& image, std::uint64_t version);
  const std::string& interop_error() const { return interop_error_; }
  // Renders the field into a width x height colour texture and returns it. view = (u0, v0,
  // du, dv): the part of the field shown (zoom and pan).
  GLuint render(int width, int height, bool diverging, float lo, float hi, const float view[4]);
  // Fields with more points than pixels: each pixel averages its points (a mipmap pyramid,
  // built once per upload) instead of showing the one nearest its centre.
  void set_average_minification(bool on) { average_ = on; }

 private:
  void size_data_texture(int nx, int ny);

  GLuint program_ = 0, vao_ = 0, vbo_ = 0, data_ = 0, fbo_ = 0, color_ = 0, pixel_buffer_ = 0;
  FieldSizes sizes_;  // of the data texture and of the interop pixel buffer, apart
  int target_w_ = 0, target_h_ = 0;
  std::uint64_t version_ = ~std::uint64_t(0);
  std::uint64_t mipmap_version_ = ~std::uint64_t(0);  // the upload the mipmaps were built from
  std::chrono::steady_clock::time_point mipmap_time_;
  bool average_ = true;
  std::unique_ptr<PixelBufferInterop> interop_;  // registered pixel_buffer_
  std::string interop_error_;
};

}  // namespace kcycle::gui
