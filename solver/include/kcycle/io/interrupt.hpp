#pragma once
// Ctrl-C (SIGINT) and SIGTERM. While a StopOnInterrupt is alive, the first signal asks the
// work to stop at its next cycle boundary (requested() turns true) and a second one ends the
// process at once; without one, the first ends the process at once. Either way the exit status
// is kInterruptedExit. A second signal within kSameRequestSeconds of the first is a copy of it
// (GNU timeout sends one to the process and one to its process group), not a second request.
// The flags live in the signal handler's file: a handler can reach nothing else.
#include <string>

namespace kcycle {

inline constexpr int kInterruptedExit = 130;
inline constexpr double kSameRequestSeconds = 0.25;

// Installs the handlers (once, at the start of main).
void install_interrupt_handlers();

class StopOnInterrupt {
 public:
  StopOnInterrupt();
  ~StopOnInterrupt();
  StopOnInterrupt(const StopOnInterrupt&) = delete;
  StopOnInterrupt& operator=(const StopOnInterrupt&) = delete;

  // Whether a signal asked to stop (this process only).
  bool requested() const;
  // The same agreed by every MPI rank: a collective every rank calls at the same point.
  bool requested_on_any_rank() const;
  // "SIGINT", "SIGTERM" (or "a signal" on another rank).
  std::string signal_name() const;
};

// What a command throws to end its work at a boundary; main says what was done and exits
// with kInterruptedExit.
struct Interrupted {
  std::string what_was_done;  // "after 12 of 40 cases", ...
};

}  // namespace kcycle
