#include "kcycle/thread_team.hpp"

#include <stdexcept>

namespace kcycle {

namespace {

constexpr std::uint64_t pack(std::uint32_t pass, int chunks, int next) {
  return (std::uint64_t(pass) << 32) | (std::uint64_t(chunks) << 16) | std::uint64_t(next);
}

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

ThreadTeam::ThreadTeam(int threads, Spin spin) : size_(threads), spin_(spin) {
  if (threads < 1) throw std::invalid_argument("ThreadTeam: needs at least one thread");
  workers_.reserve(std::size_t(threads - 1));
  for (int member = 1; member < threads; ++member) workers_.emplace_back([this, member] { work(member); });
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

bool ThreadTeam::claim(std::uint32_t pass, Claim& claim) {
  std::uint64_t w = claims_.load(std::memory_order_acquire);
  for (;;) {
    const int next = int(w & 0xffff), chunks = int((w >> 16) & 0xffff);
    if (std::uint32_t(w >> 32) != pass || next >= chunks) return false;
    if (claims_.compare_exchange_weak(w, w + 1, std::memory_order_acq_rel, std::memory_order_acquire)) {
      claim = {next, chunks};
      return true;
    }
  }
}

void ThreadTeam::run_claimed(std::uint32_t pass, int member) {
  Claim c{};
  std::uint64_t ran = 0;
  while (claim(pass, c)) {
    // The pass cannot end before this chunk is done, so job_ is still this pass's job.
    const Job* job = job_.load(std::memory_order_acquire);
    if (hook_) hook_(member, c.chunk);
    job->call(job->body, c.chunk, member);
    ++ran;
    if (done_.fetch_add(1) + 1 == c.chunks && caller_sleeping_.load()) done_.notify_one();
  }
  if (member != 0 && ran) worker_chunks_.fetch_add(ran, std::memory_order_relaxed);
}

void ThreadTeam::dispatch(const Job& job, int chunks) {
  if (chunks > kMaxChunks) throw std::logic_error("ThreadTeam::run: too many chunks");
  ++stats_.team_passes;
  const std::uint32_t pass = pass_.load(std::memory_order_relaxed) + 1;
  done_.store(0, std::memory_order_relaxed);
  job_.store(&job, std::memory_order_relaxed);
  claims_.store(pack(pass, chunks, 0), std::memory_order_release);  // publishes done_ and job_
  pass_.store(pass);
  if (sleeping_workers_.load() > 0) pass_.notify_all();
  run_claimed(pass, 0);
  // The chunks other threads still hold: spin a little, then sleep (a worker the OS has
  // descheduled may need this core to finish).
  auto all_done = [&] { return done_.load(std::memory_order_acquire) == chunks; };
  if (spin_until(all_done, spin_.caller)) return;
  ++stats_.caller_sleeps;
  caller_sleeping_.store(true);
  for (int seen = done_.load(); seen != chunks; seen = done_.load()) done_.wait(seen);
  caller_sleeping_.store(false);
}

void ThreadTeam::work(int member) {
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
    run_claimed(seen, member);
  }
}

}  // namespace kcycle
