#pragma once
// The pictures a solve publishes (the CUDA backend's device images), made once per level and
// reused: a picture is handed out again only when no reader (the visualizer's snapshot) holds
// it any more. A level then has as many pictures as readers keep at once (one or two), and a
// publish allocates nothing, nor frees device memory on the reader's thread, which would wait
// for the device and stall the solver's stream.
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace kcycle {

// Device work that a reader left running and that still reads a picture: interop's copy into
// the pixel buffer runs after the call that issued it has returned, and after the reader has
// let go of the picture. done() once that work has finished (a CUDA event, say).
struct ReadFence {
  virtual ~ReadFence() = default;
  virtual bool done() const = 0;
};

// A picture's last reader's fence: set on the reader's thread, checked on the pool's. Work
// on one reader's stream finishes in order, so the last fence stands for every earlier one.
class ReadFences {
 public:
  void read_until(std::shared_ptr<const ReadFence> fence) const {
    std::lock_guard lock(mutex_);
    fence_ = std::move(fence);
  }
  bool done() const {
    std::lock_guard lock(mutex_);
    if (fence_ && fence_->done()) fence_.reset();
    return !fence_;
  }

 private:
  mutable std::mutex mutex_;
  mutable std::shared_ptr<const ReadFence> fence_;
};

template <class Picture>
class ImagePool {
 public:
  // A picture of `level` that only the pool holds and no reader's device work still reads,
  // made by make() when none is free.
  template <class Make>
  std::shared_ptr<Picture> acquire(int level, Make&& make) {
    std::vector<std::shared_ptr<Picture>>& pictures = pictures_[level];
    // use_count() == 1: the pool's own reference only. Readers only ever drop theirs, so a
    // picture seen free stays free until handed out here.
    for (const std::shared_ptr<Picture>& p : pictures)
      if (p.use_count() == 1 && reads_done(*p)) return p;
    pictures.push_back(std::shared_ptr<Picture>(make()));
    ++made_;
    return pictures.back();
  }
  std::size_t made() const { return made_; }  // pictures allocated so far

  // Every picture made, to outlive the pool (see SolverWorker: freed on the solver's thread).
  std::vector<std::shared_ptr<const Picture>> all() const {
    std::vector<std::shared_ptr<const Picture>> out;
    for (const auto& [level, pictures] : pictures_) out.insert(out.end(), pictures.begin(), pictures.end());
    return out;
  }

 private:
  static bool reads_done(const Picture& p) {
    if constexpr (requires { p.readers.done(); })
      return p.readers.done();
    else
      return true;
  }
  std::map<int, std::vector<std::shared_ptr<Picture>>> pictures_;
  std::size_t made_ = 0;
};

}  // namespace kcycle
