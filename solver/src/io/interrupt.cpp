#include "kcycle/io/interrupt.hpp"

#include <unistd.h>

#include <csignal>

#include "kcycle/backends/mpi/mpi_runtime.hpp"

namespace kcycle {

namespace {

// A signal handler may only touch lock-free atomics of static storage: these are the
// process's one piece of global mutable state, because a signal is.
volatile std::sig_atomic_t stop_points = 0;  // live StopOnInterrupt objects
volatile std::sig_atomic_t caught = 0;       // the signal that asked to stop, or 0

void on_signal(int signal) {
  if (caught != 0 || stop_points == 0) {
    static const char line[] = "\nkcycle: interrupted\n";
    [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, line, sizeof line - 1);
    ::_exit(kInterruptedExit);
  }
  caught = signal;
}

}  // namespace

void install_interrupt_handlers() {
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
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
