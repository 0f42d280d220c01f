#include "kcycle/backends/cpu/thread_team.hpp"

#include "kcycle/backends/cpu/available_cores.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

namespace kcycle {

namespace {

void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  std::this_thread::yield();
#endif
}

// Spins until done() or `budget` has passed; returns done(). After the first few microseconds
// it also yields the core between checks: on a quiet machine nobody else wants it and this is
// still a spin; on a busy one the other processes run instead of this thread's wait.
template <class Done>
bool spin_until(Done&& done, std::chrono::microseconds budget) {
  const auto start = std::chrono::steady_clock::now();
  const auto yield_from = start + std::chrono::microseconds(5), until = start + budget;
  for (;;) {
    for (int k = 0; k < 64; ++k) {
      if (done()) return true;
      cpu_relax();
    }
    const auto now = std::chrono::steady_clock::now();
    if (now >= until) return done();
    if (now >= yield_from) std::this_thread::yield();
  }
}

}  // namespace

ThreadTeam::ThreadTeam(int threads, Spin spin)
    : size_(threads),
      spin_(spin),
      adaptive_(!(std::getenv("KCYCLE_TEAM_ADAPTIVE") && std::string_view(std::getenv("KCYCLE_TEAM_ADAPTIVE")) == "0")),
      claimed_(threads > 1 ? std::make_unique<ClaimFlag[]>(std::size_t(kMaxChunks)) : nullptr) {
  if (threads < 1) throw std::invalid_argument("ThreadTeam: needs at least one thread");
  workers_.reserve(std::size_t(threads - 1));
  for (int member = 1; member < threads; ++member) workers_.emplace_back([this, member] { work(member); });
  // Not before every worker runs: the first passes would count them idle.
  for (int started = started_.load(); started < threads - 1; started = started_.load()) started_.wait(started);
}

ThreadTeam::~ThreadTeam() {
  stopping_.store(true);
  pass_.fetch_add(1);
  pass_.notify_all();
  for (auto& w : workers_) w.join();
}

ThreadTeam::Stats ThreadTeam::stats() const {
  Stats s = stats_;
  s.worker_chunks = worker_chunks_.load(std::memory_order_relaxed);
  return s;
}

void ThreadTeam::reset_stats() {
  stats_ = {};
  worker_chunks_.store(0, std::memory_order_relaxed);
}

bool ThreadTeam::claim(int chunk, std::uint64_t pass) {
  std::atomic<std::uint64_t>& flag = claimed_[std::size_t(chunk)].pass;
  std::uint64_t last = flag.load(std::memory_order_acquire);
  return last < pass && flag.compare_exchange_strong(last, pass, std::memory_order_acq_rel);
}

void ThreadTeam::run_chunk(int chunk, int chunks, int member) {
  // The pass cannot end before this chunk is done, so job_ is still this pass's job.
  const Job* job = job_.load(std::memory_order_acquire);
  if (hook_) hook_(member, chunk);
  job->call(job->body, chunk, member);
  // Counted before the chunk is marked done: once the last one is, the caller's pass returns and
  // its stats() must include it (counted after, a worker descheduled in between went missing).
  if (member != 0) worker_chunks_.fetch_add(1, std::memory_order_relaxed);
  if (done_.fetch_add(1) + 1 == chunks && caller_sleeping_.load()) done_.notify_one();
}

// This member's share first, in order; then the others' unclaimed chunks, each share from its
// far end (where its owner, if it is running, will come last).
int ThreadTeam::run_claimed(std::uint64_t pass, int member) {
  const std::uint64_t now = current_.load(std::memory_order_acquire);
  if ((now >> 16) != pass) return 0;  // over already
  const int chunks = int(now & 0xffff);
  auto share = [&](int m) {  // chunks [first, last) of member m
    return std::pair{int(std::int64_t(chunks) * m / size_), int(std::int64_t(chunks) * (m + 1) / size_)};
  };
  std::uint64_t ran = 0;
  const auto [first, last] = share(member);
  for (int c = first; c < last; ++c)
    if (claim(c, pass)) run_chunk(c, chunks, member), ++ran;
  for (int k = 1; k < size_; ++k) {
    const auto [other_first, other_last] = share((member + k) % size_);
    for (int c = other_last - 1; c >= other_first; --c)
      if (claim(c, pass)) run_chunk(c, chunks, member), ++ran;
  }
  return int(ran);
}

void ThreadTeam::dispatch(const Job& job, int chunks) {
  if (chunks > kMaxChunks) throw std::logic_error("ThreadTeam::run: too many chunks");
  const auto start = Clock::now();
  if (alone_for_now()) {
    ++stats_.solo_passes;
    for (int c = 0; c < chunks; ++c) job.call(job.body, c, 0);
    return;
  }
  ++stats_.team_passes;
  const std::uint64_t pass = (current_.load(std::memory_order_relaxed) >> 16) + 1;
  done_.store(0, std::memory_order_relaxed);
  job_.store(&job, std::memory_order_relaxed);
  current_.store((pass << 16) | std::uint64_t(chunks), std::memory_order_release);  // publishes done_ and job_
  pass_.store(std::uint32_t(pass));
  if (sleeping_workers_.load() > 0) pass_.notify_all();
  const int mine = run_claimed(pass, 0);
  const auto worked = Clock::now();
  // The chunks other threads still hold: spin a little, then sleep (a worker the OS has
  // descheduled may need this core to finish).
  auto all_done = [&] { return done_.load(std::memory_order_acquire) == chunks; };
  if (!spin_until(all_done, spin_.caller)) {
    ++stats_.caller_sleeps;
    caller_sleeping_.store(true);
    for (int seen = done_.load(); seen != chunks; seen = done_.load()) done_.wait(seen);
    caller_sleeping_.store(false);
  }
  const auto end = Clock::now();
  judge(worked - start, end - start, mine, chunks, end);
}

void ThreadTeam::judge(Clock::duration worked, Clock::duration took, int mine, int chunks, Clock::time_point now) {
  // Idle workers: none ran a chunk in 64 passes, some of which were long enough for a worker
  // just woken to join (a worker on a quiet machine always joins those).
  ++window_passes_;
  window_worker_chunks_ += chunks - mine;
  if (took >= std::chrono::microseconds(50)) ++window_long_passes_;
  bool idle_workers = false;
  if (window_passes_ == 64) {
    idle_workers = window_worker_chunks_ == 0 && window_long_passes_ > 0;
    window_passes_ = window_long_passes_ = window_worker_chunks_ = 0;
  }
  if (mine > 0) {  // else the workers ran it all: no estimate of the time alone
    using Seconds = std::chrono::duration<double>;
    const double alone = Seconds(worked).count() * chunks / mine;
    balance_ = 0.98 * balance_ + (alone - Seconds(took).count());
  }
  constexpr double kLoss = 500e-6;  // a time slice's stall, or many small ones
  if (balance_ < -kLoss || idle_workers) {
    window_passes_ = window_long_passes_ = window_worker_chunks_ = 0;
    balance_ = 0;
    start_solo_spell(now);
  } else if (balance_ > kLoss) {
    solo_spell_ = kFirstSoloSpell;  // the team pays again: a later loss starts short
  }
}

void ThreadTeam::start_solo_spell(Clock::time_point now) {
  if (!adaptive_) return;
  ++stats_.solo_spells;
  solo_until_ = now + solo_spell_;
  solo_spell_ = std::min(2 * solo_spell_, kLongestSoloSpell);
}

bool ThreadTeam::cores_taken() const {
  if (load_probe_) return load_probe_();
  // The team's own workers still awake (a team just made has them spinning for its first pass)
  // are no other process: counted as one, they started every new team alone.
  return others_take_team_cores(runnable_threads(), size_ - 1 - sleeping_workers_.load(), size_, available_cores());
}

bool ThreadTeam::alone_for_now() {
  if (size_ == 1) return true;
  if (!load_checked_) {  // a team made on a busy machine starts alone
    load_checked_ = true;
    if (adaptive_ && cores_taken()) {
      // One look may catch a passing process: a short first spell, doubling while it lasts.
      solo_spell_ = kFirstLookSpell;
      start_solo_spell(Clock::now());
      return true;
    }
  }
  if (solo_until_ == Clock::time_point{}) return false;
  const auto now = Clock::now();
  if (now < solo_until_) return true;
  // The spell is over: go on alone while others still run on the workers' cores.
  if (cores_taken()) {
    start_solo_spell(now);
    return true;
  }
  solo_until_ = {};
  return false;
}

void ThreadTeam::work(int member) {
  started_.fetch_add(1);
  started_.notify_one();
  std::uint32_t seen = 0;
  for (;;) {
    auto new_pass = [&] { return pass_.load(std::memory_order_acquire) != seen; };
    if (!spin_until(new_pass, spin_.worker)) {
      sleeping_workers_.fetch_add(1);
      pass_.wait(seen);
      sleeping_workers_.fetch_sub(1);
    }
    seen = pass_.load(std::memory_order_acquire);
    if (stopping_.load()) return;
    run_claimed(current_.load(std::memory_order_acquire) >> 16, member);
  }
}

}  // namespace kcycle
