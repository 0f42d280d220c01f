#include "pixel_buffer_interop.hpp"

#include <cuda_gl_interop.h>
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "kcycle/backend_selection.hpp"

namespace kcycle::gui {

namespace {

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    cudaGetLastError();
    throw std::runtime_error(std::string("CUDA-OpenGL interop: ") + what + ": " + cudaGetErrorString(status));
  }
}

__global__ void write_pixels(const float* values, float* pixels, std::size_t count) {
  const std::size_t k = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k < count) pixels[k] = values[k];
}

}  // namespace

PixelBufferInterop::PixelBufferInterop(unsigned pixel_buffer) {
  if (!cuda_device_status().usable) throw std::runtime_error("CUDA-OpenGL interop: " + cuda_device_status().reason);
  cudaGraphicsResource_t resource = nullptr;
  check(cudaGraphicsGLRegisterBuffer(&resource, pixel_buffer, cudaGraphicsRegisterFlagsWriteDiscard),
        "cudaGraphicsGLRegisterBuffer (is the OpenGL context on the CUDA device?)");
  resource_ = resource;
}

PixelBufferInterop::~PixelBufferInterop() {
  if (resource_) cudaGraphicsUnregisterResource(static_cast<cudaGraphicsResource_t>(resource_));
}

void PixelBufferInterop::write(const float* device_values, std::size_t count) {
  auto resource = static_cast<cudaGraphicsResource_t>(resource_);
  check(cudaGraphicsMapResources(1, &resource, nullptr), "cudaGraphicsMapResources");
  float* pixels = nullptr;
  std::size_t mapped = 0;
  cudaError_t status = cudaGraphicsResourceGetMappedPointer(reinterpret_cast<void**>(&pixels), &mapped, resource);
  if (status == cudaSuccess && mapped < count * sizeof(float)) status = cudaErrorInvalidValue;
  if (status == cudaSuccess) {
    write_pixels<<<unsigned((count + 255) / 256), 256>>>(device_values, pixels, count);
    status = cudaGetLastError();
  }
  // Unmapping orders the kernel before any GL use of the buffer.
  const cudaError_t unmapped = cudaGraphicsUnmapResources(1, &resource, nullptr);
  check(status, "writing the pixel buffer");
  check(unmapped, "cudaGraphicsUnmapResources");
}

}  // namespace kcycle::gui
