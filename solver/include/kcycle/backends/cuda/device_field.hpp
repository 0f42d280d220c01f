#pragma once
// A grid function in device memory, laid out exactly like Field: (nx+2) x (ny+2) doubles,
// rows along x, a ghost ring for the Dirichlet boundary. Move-only; the CUDA backend copies
// between host and device explicitly (upload / download).
#include "kcycle/backends/cuda/device_buffer.hpp"
#include "kcycle/core/grid.hpp"

namespace kcycle {

class DeviceField {
 public:
  DeviceField() = default;
  explicit DeviceField(GridShape shape) : shape_(shape), data_(shape.storage()) {}

  const GridShape& shape() const { return shape_; }
  int stride() const { return shape_.stride(); }
  double* data() { return data_.data(); }
  const double* data() const { return data_.data(); }

 private:
  GridShape shape_{0, 0};  // not yet a grid (see Field): upload allocates before it copies
  cuda::DeviceBuffer<double> data_;
};

}  // namespace kcycle
