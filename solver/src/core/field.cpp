#include "kcycle/core/field.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <new>

namespace kcycle {

namespace {
constexpr std::size_t kHugePage = std::size_t(2) << 20;  // also where fields are mapped (kFreshPagesFrom)

// Fresh zero pages from the kernel, 2 MiB-aligned, `bytes` rounded up to whole huge pages.
void* map_zero_pages(std::size_t bytes) {
  const std::size_t length = bytes + kHugePage;  // room to align the start
  void* p = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t aligned = (start + kHugePage - 1) / kHugePage * kHugePage;
  if (aligned > start) munmap(p, aligned - start);
  const std::size_t tail = start + length - (aligned + bytes);
  if (tail > 0) munmap(reinterpret_cast<void*>(aligned + bytes), tail);
  return reinterpret_cast<void*>(aligned);
}
// This process's resident pages (/proc/self/statm); -1 where it cannot say.
long resident_pages() {
  std::ifstream statm("/proc/self/statm");
  long size = 0, resident = -1;
  if (!(statm >> size >> resident)) return -1;
  return resident;
}
}  // namespace

bool fresh_page_reads_take_memory() {
  static const bool takes = [] {
    const std::size_t bytes = 2 * kHugePage;
    void* p = map_zero_pages(bytes);
    madvise(p, bytes, MADV_HUGEPAGE);  // as a large field is mapped
    const long before = resident_pages();
    const volatile char* page = static_cast<const volatile char*>(p);
    for (std::size_t i = 0; i < bytes; i += 4096) static_cast<void>(page[i]);
    const long after = resident_pages();
    munmap(p, bytes);
    // More than half of it: another thread's allocations in between may add a little.
    return before >= 0 && after - before > long(bytes / 4096 / 2);
  }();
  return takes;
}

// Fields of 2 MiB and more are mapped fresh from the kernel, 2 MiB-aligned, and ask for
// transparent huge pages. Their pages are zero and not resident until first written: a zero
// field costs no memory until used (problem 0's right-hand side, a hierarchy before its first
// cycle), and the thread that first writes a page is the one that sweeps it. In a VM 4 KiB
// faults made building an 11-level hierarchy take 0.3 s; huge pages also spare the sweeps TLB
// misses. Where THP is off, madvise fails harmlessly. Smaller fields come from malloc, which
// the executables keep from unmapping them (keep_small_fields_in_the_heap).
template <class T>
std::unique_ptr<T[], typename BasicField<T>::Free> BasicField<T>::allocate(std::size_t count, bool* zero) {
  const std::size_t bytes = std::max<std::size_t>(count * sizeof(T), sizeof(T));
  if (bytes >= kFreshPagesFrom) {
    const std::size_t mapped = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    void* p = map_zero_pages(mapped);
    madvise(p, mapped, MADV_HUGEPAGE);
    if (zero) *zero = true;
    return std::unique_ptr<T[], Free>(static_cast<T*>(p), Free{mapped});
  }
  void* p = std::malloc(bytes);
  if (!p) throw std::bad_alloc();
  if (zero) *zero = false;
  return std::unique_ptr<T[], Free>(static_cast<T*>(p), Free{0});
}

template <class T>
void BasicField<T>::Free::operator()(T* p) const {
  if (mapped > 0)
    munmap(p, mapped);
  else
    std::free(p);
}

// Zero-filled: the ghost ring of every field is the homogeneous Dirichlet boundary.
template <class T>
BasicField<T>::BasicField(GridShape shape) : shape_(shape) {
  bool zero = false;
  data_ = allocate(shape.storage(), &zero);
  if (!zero) std::fill(data_.get(), data_.get() + shape.storage(), T(0));
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

// Into the same shape: copied in place, never a second array beside the first.
template <class T>
BasicField<T>& BasicField<T>::operator=(const BasicField& other) {
  if (this == &other) return *this;
  if (data_ && other.data_ && shape_ == other.shape_)
    std::copy(other.data_.get(), other.data_.get() + shape_.storage(), data_.get());
  else
    *this = BasicField(other);
  return *this;
}

template class BasicField<double>;
template class BasicField<float>;

}  // namespace kcycle
