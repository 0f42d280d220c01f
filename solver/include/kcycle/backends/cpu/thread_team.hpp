#pragma once
// The CPU backend's threads: one team for a backend's whole life, not a fork and join per pass.
//
// A pass hands the team `chunks` pieces of work (blocks of rows). Each thread has its own share
// of them, the same every pass (its rows stay in its core's cache), and claims them one at a
// time; a thread done with its share claims the others' unclaimed chunks from the far end. So
// a thread the OS has descheduled delays a pass by at most the one chunk it holds: the others
// take over the rest. A pass is over when all its chunks are done, not when every thread has
// arrived: a worker that sleeps through a pass is simply not needed for it.
//
// Waiting (a worker for the next pass, the caller for the last chunk) spins briefly, then
// sleeps on std::atomic::wait (a futex): a busy machine costs a pass a few microseconds of
// spinning, not a time slice, and an idle team costs no CPU.
//
// One thing no split of the work can help: a thread the OS deschedules in the middle of a
// chunk holds that chunk (and the pass) until it runs again, a time slice later. So the
// caller keeps a balance of what the team saves: each pass, the time it would have taken
// alone (its own chunks' time, scaled to all of them) against the time it took; and how many
// chunks the workers ran at all (on a busy machine they wake too late to claim any, while
// their spinning takes the caller's core). When the team loses, or the workers ran no chunk
// in 64 passes, the caller runs the passes alone for a while (20 ms, doubling while the loss
// repeats, up to a second) and the workers sleep; then it tries the team again, unless other
// processes are still running on the cores the workers would need (then the spell goes on,
// doubling). A team made while they run starts with a spell (2 ms, doubling while they still
// run: one look may have caught a passing process): a short solve on a busy machine would
// otherwise spend itself finding out. (KCYCLE_TEAM_ADAPTIVE=0 in the environment turns
// this off: the team then always runs as a team, as the tests of its threads need.)
//
// (team.hpp's teams are another thing: the members of one cooperative body, as a GPU block.)
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <thread>
#include <type_traits>
#include <vector>

namespace kcycle {

// How long a team's thread spins before it sleeps: a worker waiting for the next pass, and the
// caller waiting for chunks another thread holds. Measured (docs/performance.md, "Threads that
// hold on a busy machine"): spinning longer wins nothing on a quiet machine and costs a busy one.
struct TeamSpin {
  std::chrono::microseconds worker{50};
  std::chrono::microseconds caller{20};
};

class ThreadTeam {
 public:
  using Spin = TeamSpin;
  using Clock = std::chrono::steady_clock;
  // threads - 1 workers are started; the calling thread is member 0. threads >= 1.
  explicit ThreadTeam(int threads, Spin spin = {});
  ~ThreadTeam();
  ThreadTeam(const ThreadTeam&) = delete;
  ThreadTeam& operator=(const ThreadTeam&) = delete;

  int size() const { return size_; }
  // True during a solo spell (see above): the caller may as well split a pass into one chunk.
  // Called by the caller only (between passes).
  bool alone_for_now();

  // The most chunks one pass may have.
  static constexpr int kMaxChunks = 1024;

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
    std::uint64_t inline_passes = 0;  // passes of one chunk, or of a team of one
    std::uint64_t solo_passes = 0;    // passes the caller ran alone because the team was losing
    std::uint64_t solo_spells = 0;    // times it decided so
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
  // A test hook: asked instead of /proc/stat whether other processes' threads take the cores the
  // workers need (at the first pass and when a solo spell ends). Set it before the first pass.
  using LoadProbe = std::function<bool()>;
  void set_load_probe(LoadProbe probe) { load_probe_ = std::move(probe); }

 private:
  struct Job {
    void* body;
    void (*call)(void* body, int chunk, int member);
  };
  void dispatch(const Job& job, int chunks);
  // Whether other processes' threads run on the cores the workers would need (the caller's
  // own not counted; sleeping workers do not run).
  bool cores_taken() const;  // load_probe_'s answer where set
  void start_solo_spell(Clock::time_point now);
  // After a team pass: `worked` the caller's time until it had no chunk left to claim (it ran
  // `mine`), `took` the whole pass's.
  void judge(Clock::duration worked, Clock::duration took, int mine, int chunks, Clock::time_point now);
  bool claim(int chunk, std::uint64_t pass);
  void run_chunk(int chunk, int chunks, int member);
  int run_claimed(std::uint64_t pass, int member);  // the chunks it ran
  void work(int member);                            // a worker's life: wait for a pass, help with it, again

  int size_;
  Spin spin_;
  bool adaptive_;              // solo spells allowed
  bool load_checked_ = false;  // the first pass has asked whether the cores are taken
  LoadProbe load_probe_;
  // The current pass: its id (high 48 bits, from 1) and chunk count (low 16), one word so that
  // a worker reads both of the same pass.
  std::atomic<std::uint64_t> current_{0};
  // Per chunk, the id of the last pass that claimed it: a claim raises it to the current pass,
  // so a worker still on a pass that is over claims nothing. A team of one runs every pass
  // whole and has none: the 64 KiB cost 16 page faults, 0.2-0.3 ms on the build VM, at every
  // construction (each coarse solve of the advisor's first stage builds one).
  struct alignas(64) ClaimFlag {
    std::atomic<std::uint64_t> pass{0};
  };
  std::unique_ptr<ClaimFlag[]> claimed_;
  std::atomic<std::uint32_t> pass_{0};  // the newest pass's id (low 32 bits): the workers wait on it
  std::atomic<const Job*> job_{nullptr};
  std::atomic<int> done_{0};  // chunks of the current pass finished: the caller waits on it
  std::atomic<int> sleeping_workers_{0};
  std::atomic<bool> caller_sleeping_{false};
  std::atomic<bool> stopping_{false};
  std::atomic<int> started_{0};  // workers running
  std::atomic<std::uint64_t> worker_chunks_{0};
  ChunkHook hook_;
  Stats stats_;
  // The team's balance (seconds saved, decaying), and the solo spell (judge()).
  double balance_ = 0;
  int window_passes_ = 0, window_long_passes_ = 0, window_worker_chunks_ = 0;
  Clock::time_point solo_until_{};
  Clock::duration solo_spell_ = kFirstSoloSpell;
  static constexpr Clock::duration kFirstSoloSpell = std::chrono::milliseconds(20);
  static constexpr Clock::duration kFirstLookSpell = std::chrono::milliseconds(2);  // a team made on a busy machine
  static constexpr Clock::duration kLongestSoloSpell = std::chrono::seconds(1);
  std::vector<std::thread> workers_;
};

}  // namespace kcycle
