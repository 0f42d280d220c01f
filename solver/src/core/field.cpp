#include "kcycle/core/field.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <new>

namespace kcycle {

namespace {
constexpr std::size_t kHugePage = std::size_t(2) << 20;
}

// Fields of 2 MiB and more are 2 MiB-aligned and ask for transparent huge pages: the first
// touch of fresh memory faults once per page, and in a VM 4 KiB faults made building an
// 11-level hierarchy take 0.3 s (most of the visualizer's restart time); huge pages also
// spare the sweeps TLB misses. Where THP is off, madvise fails harmlessly.
template <class T>
std::unique_ptr<T[], typename BasicField<T>::Free> BasicField<T>::allocate(std::size_t count) {
  const std::size_t bytes = count * sizeof(T);
  void* p = nullptr;
  if (bytes >= kHugePage) {
    p = std::aligned_alloc(kHugePage, (bytes + kHugePage - 1) / kHugePage * kHugePage);
    if (p) madvise(p, bytes, MADV_HUGEPAGE);
  } else {
    p = std::malloc(std::max<std::size_t>(bytes, sizeof(T)));
  }
  if (!p) throw std::bad_alloc();
  return std::unique_ptr<T[], Free>(static_cast<T*>(p));
}

template <class T>
void BasicField<T>::Free::operator()(T* p) const {
  std::free(p);
}

// Zero-filled: the ghost ring of every field is the homogeneous Dirichlet boundary.
template <class T>
BasicField<T>::BasicField(GridShape shape) : shape_(shape), data_(allocate(shape.storage())) {
  std::fill(data_.get(), data_.get() + shape.storage(), T(0));
}

template <class T>
BasicField<T>::BasicField(GridShape shape, Uninitialized) : shape_(shape), data_(allocate(shape.storage())) {}

template <class T>
BasicField<T>::BasicField(const BasicField& other) : shape_(other.shape_) {
  if (other.data_) {
    data_ = allocate(shape_.storage());
    std::copy(other.data_.get(), other.data_.get() + shape_.storage(), data_.get());
  }
}

template <class T>
BasicField<T>& BasicField<T>::operator=(const BasicField& other) {
  if (this != &other) *this = BasicField(other);
  return *this;
}

template class BasicField<double>;
template class BasicField<float>;

}  // namespace kcycle
