#include "pixel_buffer_interop.hpp"

#include <cuda_gl_interop.h>
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "kcycle/backends/backend_selection.hpp"

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

// The copy's end on the interop stream. A device error also counts as done: nothing reads
// the picture after it.
class EventFence final : public ReadFence {
 public:
  explicit EventFence(cudaStream_t stream) {
    check(cudaEventCreateWithFlags(&event_, cudaEventDisableTiming), "cudaEventCreate");
    const cudaError_t recorded = cudaEventRecord(event_, stream);
    if (recorded != cudaSuccess) cudaEventDestroy(event_);
    check(recorded, "cudaEventRecord");
  }
  ~EventFence() override { cudaEventDestroy(event_); }
  EventFence(const EventFence&) = delete;
  EventFence& operator=(const EventFence&) = delete;
  bool done() const override { return cudaEventQuery(event_) != cudaErrorNotReady; }

 private:
  cudaEvent_t event_ = nullptr;
};

}  // namespace

PixelBufferInterop::PixelBufferInterop(unsigned pixel_buffer) {
  if (!cuda_device_status().usable) throw std::runtime_error("CUDA-OpenGL interop: " + cuda_device_status().reason);
  cudaGraphicsResource_t resource = nullptr;
  check(cudaGraphicsGLRegisterBuffer(&resource, pixel_buffer, cudaGraphicsRegisterFlagsWriteDiscard),
        "cudaGraphicsGLRegisterBuffer (is the OpenGL context on the CUDA device?)");
  resource_ = resource;
  cudaStream_t stream = nullptr;
  const cudaError_t created = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  if (created != cudaSuccess) cudaGraphicsUnregisterResource(resource);
  check(created, "cudaStreamCreate");
  stream_ = stream;
}

PixelBufferInterop::~PixelBufferInterop() {
  if (resource_) cudaGraphicsUnregisterResource(static_cast<cudaGraphicsResource_t>(resource_));
  if (stream_) cudaStreamDestroy(static_cast<cudaStream_t>(stream_));
}

void PixelBufferInterop::write(const DeviceImage& image) {
  const std::size_t count = std::size_t(image.nx) * std::size_t(image.ny);
  auto resource = static_cast<cudaGraphicsResource_t>(resource_);
  auto stream = static_cast<cudaStream_t>(stream_);
  check(cudaGraphicsMapResources(1, &resource, stream), "cudaGraphicsMapResources");
  float* pixels = nullptr;
  std::size_t mapped = 0;
  cudaError_t status = cudaGraphicsResourceGetMappedPointer(reinterpret_cast<void**>(&pixels), &mapped, resource);
  if (status == cudaSuccess && mapped < count * sizeof(float)) status = cudaErrorInvalidValue;
  if (status == cudaSuccess) {
    write_pixels<<<unsigned((count + 255) / 256), 256, 0, stream>>>(image.data(), pixels, count);
    status = cudaGetLastError();
  }
  // The picture is written again only after this copy (ImagePool checks the fence).
  if (status == cudaSuccess) {
    try {
      image.readers.read_until(std::make_shared<EventFence>(stream));
    } catch (const std::runtime_error&) {  // no fence: wait for the copy here instead
      status = cudaStreamSynchronize(stream);
    }
  }
  // Unmapping orders the kernel before any GL use of the buffer.
  const cudaError_t unmapped = cudaGraphicsUnmapResources(1, &resource, stream);
  check(status, "writing the pixel buffer");
  check(unmapped, "cudaGraphicsUnmapResources");
}

}  // namespace kcycle::gui
