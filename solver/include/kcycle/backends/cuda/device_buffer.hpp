#pragma once
// Device memory for the CUDA backend: cudaMalloc'd (never managed memory), owned, move-only.
// Declared without CUDA headers so host code can hold device data.
#include <cstddef>
#include <utility>

namespace kcycle::cuda {

// Both throw std::runtime_error naming the CUDA error; the CPU-only build throws always.
void* device_allocate(std::size_t bytes);
void device_free(void* pointer) noexcept;

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count)
      : data_(count ? static_cast<T*>(device_allocate(count * sizeof(T))) : nullptr), size_(count) {}
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { device_free(data_); }

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace kcycle::cuda
