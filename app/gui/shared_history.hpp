#pragma once
// An append-only iteration history that snapshots share: full blocks are immutable and
// shared between copies, so publishing a snapshot after n iterations copies at most one
// block and n / kBlock pointers, not the whole history.
#include <cstddef>
#include <iterator>
#include <memory>
#include <vector>

#include "kcycle/solve/solve.hpp"

namespace kcycle::gui {

class SharedHistory {
 public:
  static constexpr std::size_t kBlock = 256;

  void push_back(const IterationRecord& record) {
    tail_.push_back(record);
    if (tail_.size() == kBlock) {
      full_.push_back(std::make_shared<const std::vector<IterationRecord>>(std::move(tail_)));
      tail_ = {};
      tail_.reserve(kBlock);
    }
  }
  std::size_t size() const { return full_.size() * kBlock + tail_.size(); }
  bool empty() const { return size() == 0; }
  const IterationRecord& operator[](std::size_t k) const {
    return k < full_.size() * kBlock ? (*full_[k / kBlock])[k % kBlock] : tail_[k - full_.size() * kBlock];
  }
  const IterationRecord& back() const { return (*this)[size() - 1]; }

  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = IterationRecord;
    using difference_type = std::ptrdiff_t;
    using pointer = const IterationRecord*;
    using reference = const IterationRecord&;
    const_iterator(const SharedHistory* h, std::size_t k) : h_(h), k_(k) {}
    reference operator*() const { return (*h_)[k_]; }
    pointer operator->() const { return &(*h_)[k_]; }
    const_iterator& operator++() {
      ++k_;
      return *this;
    }
    bool operator==(const const_iterator& o) const { return k_ == o.k_; }

   private:
    const SharedHistory* h_;
    std::size_t k_;
  };
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size()}; }

 private:
  std::vector<std::shared_ptr<const std::vector<IterationRecord>>> full_;
  std::vector<IterationRecord> tail_;
};

}  // namespace kcycle::gui
