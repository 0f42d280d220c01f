#pragma once
// What the field renderer's two GPU resources are sized for: the data texture, which every
// upload writes (from the host or, through interop, from the device), and the interop pixel
// buffer, which only device uploads write. They are tracked apart because a host upload
// resizes the texture alone: sizing the buffer by the texture lost interop after CUDA at 127²,
// the CPU at 255², CUDA at 255² (the buffer stayed 127², its write failed the size check).
// No GL here, so the logic is tested without a display or a GPU.
namespace kcycle::gui {

class FieldSizes {
 public:
  // The texture must be reallocated for an nx x ny upload.
  bool texture_resize(int nx, int ny) const { return nx != texture_w_ || ny != texture_h_; }
  void texture_sized(int nx, int ny) {
    texture_w_ = nx;
    texture_h_ = ny;
  }
  // The pixel buffer must be reallocated (and registered again) for an nx x ny device image.
  bool buffer_realloc(int nx, int ny, bool registered) const {
    return !registered || nx != buffer_w_ || ny != buffer_h_;
  }
  void buffer_sized(int nx, int ny) {
    buffer_w_ = nx;
    buffer_h_ = ny;
  }
  int texture_width() const { return texture_w_; }
  int texture_height() const { return texture_h_; }

 private:
  int texture_w_ = 0, texture_h_ = 0, buffer_w_ = 0, buffer_h_ = 0;
};

}  // namespace kcycle::gui
