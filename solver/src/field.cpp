#include "kcycle/field.hpp"

#include <algorithm>

namespace kcycle {

// Zero-filled: the ghost ring of every field is the homogeneous Dirichlet boundary.
Field::Field(GridShape shape) : shape_(shape), data_(new double[shape.storage()]()) {}

Field::Field(const Field& other) : shape_(other.shape_) {
  if (other.data_) {
    data_.reset(new double[shape_.storage()]);
    std::copy(other.data_.get(), other.data_.get() + shape_.storage(), data_.get());
  }
}

Field& Field::operator=(const Field& other) {
  if (this != &other) *this = Field(other);
  return *this;
}

}  // namespace kcycle
