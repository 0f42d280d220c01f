#pragma once
#include <cstddef>
#include <memory>
#include <span>

#include "kcycle/core/grid.hpp"

namespace kcycle {

// A grid function in host memory: (nx+2) x (ny+2) values of T (double; float in a
// mixed-precision hierarchy), rows contiguous along x, the outer ring holding Dirichlet
// boundary values. A value type (copies are deep); the solver allocates its fields once at
// set-up and only moves or swaps them afterwards.
// Fields of this many bytes and more are fresh pages from the kernel: zero, and resident only
// where written.
inline constexpr std::size_t kFreshPagesFrom = std::size_t(2) << 20;

// Whether this kernel backs a read of a fresh page, never written, with memory of its own.
// Linux usually maps such reads to its shared zero page, so a zero field that is only read (problem
// 0's right-hand side) costs nothing; some kernels allocate (a 6.18 Firecracker guest: 32 MiB read,
// 32 MiB resident, with transparent huge pages or without). Measured once per process, on 4 MiB
// mapped as large fields are.
bool fresh_page_reads_take_memory();

template <class T>
class BasicField {
 public:
  using value_type = T;
  BasicField() = default;
  // Zero-filled; a large field's pages (2 MiB and more) are fresh from the kernel and take no
  // memory until written.
  explicit BasicField(GridShape shape);
  // Not filled: the owner writes every value first.
  struct Uninitialized {};
  BasicField(GridShape shape, Uninitialized);
  BasicField(const BasicField& other);
  BasicField& operator=(const BasicField& other);
  BasicField(BasicField&&) noexcept = default;
  BasicField& operator=(BasicField&&) noexcept = default;

  const GridShape& shape() const { return shape_; }
  int stride() const { return shape_.stride(); }
  T* data() { return data_.get(); }
  const T* data() const { return data_.get(); }
  T* row(int j) { return data_.get() + std::size_t(j) * std::size_t(stride()); }
  const T* row(int j) const { return data_.get() + std::size_t(j) * std::size_t(stride()); }
  T& operator()(int i, int j) { return row(j)[i]; }
  T operator()(int i, int j) const { return row(j)[i]; }
  std::span<T> values() { return {data_.get(), data_ ? shape_.storage() : 0}; }
  std::span<const T> values() const { return {data_.get(), data_ ? shape_.storage() : 0}; }

 private:
  struct Free {
    std::size_t mapped = 0;  // bytes mapped from the kernel (else malloc's)
    void operator()(T* p) const;
  };
  // `zero`, where given, says whether the memory is known to be zero (fresh pages).
  static std::unique_ptr<T[], Free> allocate(std::size_t count, bool* zero = nullptr);

  // Not yet a grid: 0 x 0, which no level has (a 1 x 1 default would pass for the coarsest
  // level of a one-level hierarchy, and a copy would go to a null pointer).
  GridShape shape_{0, 0};
  std::unique_ptr<T[], Free> data_;
};
using Field = BasicField<double>;
using FloatField = BasicField<float>;
extern template class BasicField<double>;
extern template class BasicField<float>;

}  // namespace kcycle
