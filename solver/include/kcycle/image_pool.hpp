#pragma once
// The pictures a solve publishes (the CUDA backend's device images), made once per level and
// reused: a picture is handed out again only when no reader (the visualizer's snapshot) holds
// it any more. A level then has as many pictures as readers keep at once (one or two), and a
// publish allocates nothing, nor frees device memory on the reader's thread, which would wait
// for the device and stall the solver's stream.
#include <cstddef>
#include <map>
#include <memory>
#include <vector>

namespace kcycle {

template <class Picture>
class ImagePool {
 public:
  // A picture of `level` that only the pool holds, made by make() when none is free.
  template <class Make>
  std::shared_ptr<Picture> acquire(int level, Make&& make) {
    std::vector<std::shared_ptr<Picture>>& pictures = pictures_[level];
    // use_count() == 1: the pool's own reference only. Readers only ever drop theirs, so a
    // picture seen free stays free until handed out here.
    for (const std::shared_ptr<Picture>& p : pictures)
      if (p.use_count() == 1) return p;
    pictures.push_back(std::shared_ptr<Picture>(make()));
    ++made_;
    return pictures.back();
  }
  std::size_t made() const { return made_; }  // pictures allocated so far

 private:
  std::map<int, std::vector<std::shared_ptr<Picture>>> pictures_;
  std::size_t made_ = 0;
};

}  // namespace kcycle
