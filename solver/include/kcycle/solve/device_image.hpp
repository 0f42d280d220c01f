#pragma once
// What a solve on the GPU publishes for the visualizer to draw: a level's picture kept in
// device memory, drawn by CUDA-OpenGL interop without a copy through the host.
#include <memory>

#include "kcycle/solve/image_pool.hpp"

namespace kcycle {

// A level's picture as floats on the device (CUDA backend): what CUDA-OpenGL interop draws
// without a copy through the host. Owns its device memory; immutable once made.
struct DeviceImage {
  virtual ~DeviceImage() = default;
  virtual const float* data() const = 0;  // nx * ny floats, row-major, device memory
  int nx = 0, ny = 0;
  // A reader whose device work still reads the values after it lets go (interop) leaves its
  // fence here; the solve writes the picture again only once that work has finished.
  ReadFences readers;
};

}  // namespace kcycle
