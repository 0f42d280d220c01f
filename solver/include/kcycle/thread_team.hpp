#pragma once
// The CPU backend's threads: one team for a backend's whole life, not a fork and join per pass.
//
// A pass hands the team `chunks` pieces of work (blocks of rows). The caller and whichever
// workers are awake claim chunks one at a time from a shared counter until none is left, so a
// thread the OS has descheduled delays a pass by at most the one chunk it holds: the others
// take over the rest. A pass is over when all its chunks are done, not when every thread has
// arrived: a worker that sleeps through a pass is simply not needed for it.
//
// Waiting (a worker for the next pass, the caller for the last chunk) spins briefly, then
// sleeps on std::atomic::wait (a futex): a busy machine costs a pass a few microseconds of
// spinning, not a time slice, and an idle team costs no CPU.
//
// (team.hpp's teams are another thing: the members of one cooperative body, as a GPU block.)
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <thread>
#include <type_traits>
#include <vector>

namespace kcycle {

// How long a team's thread spins before it sleeps: a worker waiting for the next pass, and the
// caller waiting for chunks another thread holds. Measured (README, Performance): spinning
// longer wins nothing on a quiet machine and costs a busy one.
struct TeamSpin {
  std::chrono::microseconds worker{50};
  std::chrono::microseconds caller{20};
};

class ThreadTeam {
 public:
  using Spin = TeamSpin;
  // threads - 1 workers are started; the calling thread is member 0. threads >= 1.
  explicit ThreadTeam(int threads, Spin spin = {});
  ~ThreadTeam();
  ThreadTeam(const ThreadTeam&) = delete;
  ThreadTeam& operator=(const ThreadTeam&) = delete;

  int size() const { return size_; }

  // The most chunks one pass may have.
  static constexpr int kMaxChunks = 0xffff;

  // body(chunk, member) once for every chunk in [0, chunks), `member` being the thread that
  // claimed it (0..size()-1: an index for per-thread scratch); returns when every chunk is
  // done, and everything the chunks wrote is visible to the caller. One chunk, or a team of
  // one, runs on the caller alone (in chunk order) without waking anyone. Bodies must not throw
  // and must not call run(); run() is called from one thread at a time.
  template <class Body>
  void run(int chunks, Body&& body) {
    if (chunks <= 0) return;
    if (chunks == 1 || size_ == 1) {
      ++stats_.inline_passes;
      for (int c = 0; c < chunks; ++c) body(c, 0);
      return;
    }
    const Job job{&body, [](void* b, int chunk, int member) {
                    (*static_cast<std::remove_reference_t<Body>*>(b))(chunk, member);
                  }};
    dispatch(job, chunks);
  }

  struct Stats {
    std::uint64_t team_passes = 0;    // passes handed to the team: one synchronisation point each
    std::uint64_t inline_passes = 0;  // passes the caller ran alone
    std::uint64_t worker_chunks = 0;  // chunks the workers ran (the rest ran on the caller)
    std::uint64_t caller_sleeps = 0;  // times the caller slept waiting for a chunk another thread held
  };
  // Counted by the caller; worker_chunks as of the last pass's end.
  Stats stats() const;
  void reset_stats();

  // A test hook: called by a member just before it runs a chunk it has claimed (a test sleeps
  // one member there, as the OS does to a descheduled thread). Set it only between passes.
  using ChunkHook = std::function<void(int member, int chunk)>;
  void set_chunk_hook(ChunkHook hook) { hook_ = std::move(hook); }

 private:
  struct Job {
    void* body;
    void (*call)(void* body, int chunk, int member);
  };
  struct Claim {
    int chunk, chunks;
  };
  void dispatch(const Job& job, int chunks);
  bool claim(std::uint32_t pass, Claim& claim);
  void run_claimed(std::uint32_t pass, int member);
  void work(int member);  // a worker's life: wait for a pass, help with it, again

  int size_;
  Spin spin_;
  // The current pass: its id (high 32 bits), its chunk count (bits 16-31) and the next
  // unclaimed chunk (bits 0-15). One word, so a claim is one compare-and-swap that fails for
  // a pass that is over or no longer current.
  std::atomic<std::uint64_t> claims_{0};
  std::atomic<std::uint32_t> pass_{0};  // the newest pass's id: the workers wait on it
  std::atomic<const Job*> job_{nullptr};
  std::atomic<int> done_{0};  // chunks of the current pass finished: the caller waits on it
  std::atomic<int> sleeping_workers_{0};
  std::atomic<bool> caller_sleeping_{false};
  std::atomic<bool> stopping_{false};
  std::atomic<std::uint64_t> worker_chunks_{0};
  ChunkHook hook_;
  Stats stats_;
  std::vector<std::thread> workers_;
};

}  // namespace kcycle
