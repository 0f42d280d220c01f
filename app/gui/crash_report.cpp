#include "crash_report.hpp"

#include <execinfo.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <initializer_list>

namespace kcycle::gui {

namespace {

void write_text(const char* text) {
  [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, text, std::strlen(text));
}

// Only async-signal-safe calls: write(), backtrace() (primed below) and backtrace_symbols_fd(),
// which allocates nothing; the heap may be what is broken.
void on_fatal_signal(int signal) {
  write_text("\nkcycle-gui: fatal signal ");
  write_text(signal == SIGABRT   ? "SIGABRT (abort)"
             : signal == SIGSEGV ? "SIGSEGV (segmentation fault)"
             : signal == SIGBUS  ? "SIGBUS (bus error)"
             : signal == SIGFPE  ? "SIGFPE (arithmetic error)"
                                 : "SIGILL (illegal instruction)");
  write_text("; the stack of the thread it hit:\n");
  void* frames[64];
  backtrace_symbols_fd(frames, backtrace(frames, 64), STDERR_FILENO);
  // SA_RESETHAND restored the default action: the signal, raised again once this returns,
  // ends the process as it would have ended (a core dump where those are on).
  ::raise(signal);
}

}  // namespace

void install_crash_report() {
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
  void* prime[1];
  backtrace(prime, 1);  // loads libgcc's unwinder now: the handler must not
  struct sigaction action {};
  action.sa_handler = on_fatal_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND;
  for (const int signal : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL}) sigaction(signal, &action, nullptr);
#endif
}

}  // namespace kcycle::gui
