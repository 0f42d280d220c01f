#pragma once
// CUDA-OpenGL interop for the field texture: an OpenGL pixel buffer registered with CUDA.
// A kernel writes the shown level's floats from device memory into it; OpenGL then copies
// the buffer into the texture on the GPU. The field never passes through the host.
// Declared without CUDA or GL headers (pixel_buffer_interop.cu; a stub without CUDA).
#include <cstddef>

#include "kcycle/solve/device_image.hpp"

namespace kcycle::gui {

class PixelBufferInterop {
 public:
  // Registers the GL buffer object `pixel_buffer` (in the current GL context) with CUDA;
  // write() checks each write against the mapped buffer's size. Throws std::runtime_error with the reason: built
  // without CUDA, no device, or a GL context that is not on the CUDA device (Mesa, Xvfb).
  explicit PixelBufferInterop(unsigned pixel_buffer);
  ~PixelBufferInterop();
  PixelBufferInterop(const PixelBufferInterop&) = delete;
  PixelBufferInterop& operator=(const PixelBufferInterop&) = delete;

  // Maps the buffer, writes the picture's floats into it with a kernel on its own stream, and
  // unmaps (which orders the kernel before OpenGL's use of the buffer). The kernel may still
  // read the picture after this returns: the picture keeps a fence of it (DeviceImage::
  // readers), so the solve does not write the picture again before the copy has finished.
  void write(const DeviceImage& image);

 private:
  void* resource_ = nullptr;  // cudaGraphicsResource_t
  void* stream_ = nullptr;    // cudaStream_t, non-blocking: the solver's stream never waits on it
};

}  // namespace kcycle::gui
