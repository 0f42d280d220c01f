#pragma once
// Chained passes: an in-place pass whose chunks first copy the rows just beyond their edges
// (which the neighbouring chunks overwrite), without a barrier between the copies and the pass.
//
// Chunk c may be prepared (its copies taken) only while its neighbours have not written, and may
// write only once it and both neighbours are prepared. So whoever claims chunk c first makes
// sure chunks c-1, c and c+1 are prepared: it prepares each not yet started itself and waits
// for one another thread is preparing (a copy of a few rows). A chunk's neighbours are prepared
// by whichever thread gets there first, once per pass, and no thread ever waits for a chunk
// nobody has claimed. The copies read only rows of the adjacent chunks, so chunks must be
// deeper than the rows copied.
#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>

namespace kcycle::detail {

class ChunkPreparation {
 public:
  // Before a pass of `chunks` chunks is handed out (on the calling thread).
  void start_pass(int chunks) {
    if (chunks > size_) {
      states_ = std::make_unique<std::atomic<std::uint64_t>[]>(std::size_t(chunks));
      size_ = chunks;
    }
    chunks_ = chunks;
    ++pass_;
  }
  // prepare(d) for d = c-1, c, c+1 (those that exist) unless done or under way this pass;
  // returns once all three are done.
  template <class Prepare>
  void around(int c, Prepare&& prepare) {
    for (int d = c - 1; d <= c + 1; ++d)
      if (d >= 0 && d < chunks_) ensure(d, prepare);
  }

 private:
  // A chunk's state: 2 pass + 1 while being prepared in pass `pass`, 2 pass + 2 once done.
  template <class Prepare>
  void ensure(int d, Prepare& prepare) {
    std::atomic<std::uint64_t>& state = states_[std::size_t(d)];
    const std::uint64_t preparing = 2 * pass_ + 1, done = 2 * pass_ + 2;
    std::uint64_t seen = state.load(std::memory_order_acquire);
    if (seen < preparing && state.compare_exchange_strong(seen, preparing, std::memory_order_acq_rel)) {
      prepare(d);
      state.store(done, std::memory_order_release);
      return;
    }
    while (state.load(std::memory_order_acquire) != done) std::this_thread::yield();
  }

  std::unique_ptr<std::atomic<std::uint64_t>[]> states_;
  int size_ = 0, chunks_ = 0;
  std::uint64_t pass_ = 0;
};

}  // namespace kcycle::detail
