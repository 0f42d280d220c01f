#include "kcycle/io/interrupt.hpp"

#include <time.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdint>

#include "kcycle/backends/mpi/mpi_runtime.hpp"

namespace kcycle {

namespace {

// A signal handler may only touch lock-free atomics of static storage: these are the
// process's one piece of global mutable state, because a signal is.
volatile std::sig_atomic_t stop_points = 0;  // live StopOnInterrupt objects
volatile std::sig_atomic_t caught = 0;       // the signal that asked to stop, or 0
std::atomic<std::int64_t> caught_at_ns{0};   // when it came (CLOCK_MONOTONIC)
static_assert(std::atomic<std::int64_t>::is_always_lock_free);
constexpr auto kSameRequestNs = std::int64_t(kSameRequestSeconds * 1e9);

std::int64_t monotonic_ns() {  // clock_gettime is async-signal-safe (POSIX)
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return std::int64_t(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

void on_signal(int signal) {
  const std::int64_t now = monotonic_ns();
  // GNU timeout, and whatever ends a job by its process group, sends the signal to the process
  // and to its group: two copies microseconds apart. A repeat this soon is the same request,
  // not a person's second Ctrl-C.
  if (caught != 0 && now - caught_at_ns.load() < kSameRequestNs) return;
  if (caught != 0 || stop_points == 0) {  // write() and _exit() are all a handler may call here
    static const char interrupted[] = "\nkcycle: interrupted (SIGINT)\n";
    static const char terminated[] = "\nkcycle: terminated (SIGTERM)\n";
    const bool sigint = signal == SIGINT;
    [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, sigint ? interrupted : terminated,
                                                     (sigint ? sizeof interrupted : sizeof terminated) - 1);
    ::_exit(kInterruptedExit);
  }
  caught_at_ns.store(now);
  caught = signal;
}

}  // namespace

void install_interrupt_handlers() {
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  sigaddset(&action.sa_mask, SIGINT);  // one handler at a time: a SIGTERM waits for a SIGINT's
  sigaddset(&action.sa_mask, SIGTERM);
  action.sa_flags = SA_RESTART;  // a read or write the signal lands in goes on
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

StopOnInterrupt::StopOnInterrupt() { stop_points = stop_points + 1; }
StopOnInterrupt::~StopOnInterrupt() { stop_points = stop_points - 1; }

bool StopOnInterrupt::requested() const { return caught != 0; }
bool StopOnInterrupt::requested_on_any_rank() const { return on_any_rank(requested()); }

std::string StopOnInterrupt::signal_name() const {
  return caught == SIGINT ? "SIGINT" : caught == SIGTERM ? "SIGTERM" : "a signal on another rank";
}

}  // namespace kcycle
