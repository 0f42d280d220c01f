#pragma once
#include <cstddef>
#include <memory>
#include <span>

#include "kcycle/grid.hpp"

namespace kcycle {

// A grid function in host memory: (nx+2) x (ny+2) doubles, rows contiguous along x, the
// outer ring holding Dirichlet boundary values. A value type (copies are deep); the solver
// allocates its fields once at set-up and only moves or swaps them afterwards.
class Field {
 public:
  Field() = default;
  explicit Field(GridShape shape);  // zero-filled
  // Not filled: the owner writes every value first (CpuBackend zeroes it on all threads, so
  // the pages are first touched in parallel).
  struct Uninitialized {};
  Field(GridShape shape, Uninitialized);
  Field(const Field& other);
  Field& operator=(const Field& other);
  Field(Field&&) noexcept = default;
  Field& operator=(Field&&) noexcept = default;

  const GridShape& shape() const { return shape_; }
  int stride() const { return shape_.stride(); }
  double* data() { return data_.get(); }
  const double* data() const { return data_.get(); }
  double* row(int j) { return data_.get() + std::size_t(j) * std::size_t(stride()); }
  const double* row(int j) const { return data_.get() + std::size_t(j) * std::size_t(stride()); }
  double& operator()(int i, int j) { return row(j)[i]; }
  double operator()(int i, int j) const { return row(j)[i]; }
  std::span<double> values() { return {data_.get(), shape_.storage()}; }
  std::span<const double> values() const { return {data_.get(), shape_.storage()}; }

 private:
  struct Free {
    void operator()(double* p) const;
  };
  static std::unique_ptr<double[], Free> allocate(std::size_t count);

  GridShape shape_{};
  std::unique_ptr<double[], Free> data_;
};

}  // namespace kcycle
