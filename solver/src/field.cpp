#include "kcycle/field.hpp"

namespace kcycle {

// Zero-filled: the ghost ring of every field is the homogeneous Dirichlet boundary.
Field::Field(GridShape shape) : shape_(shape), data_(new double[shape.storage()]()) {}

}  // namespace kcycle
