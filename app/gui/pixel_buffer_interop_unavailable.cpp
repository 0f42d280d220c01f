// Built when the CUDA backend is not: there is no device image to draw from.
#include <stdexcept>

#include "kcycle/backends/backend_selection.hpp"
#include "pixel_buffer_interop.hpp"

namespace kcycle::gui {

PixelBufferInterop::PixelBufferInterop(unsigned) {
  throw std::runtime_error("CUDA-OpenGL interop: " + cuda_device_status().reason);
}
PixelBufferInterop::~PixelBufferInterop() = default;
void PixelBufferInterop::write(const DeviceImage&) {}

}  // namespace kcycle::gui
