#include "busy_processes.hpp"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <stdexcept>
#include <string>

extern char** environ;

namespace kcycle::cli {

BusyProcesses::BusyProcesses(int count) {
  // A shell that spins as long as this process lives (it asks with kill -0 each turn), so that
  // none outlives a crash. Spawned, not forked: a fork would mark every page of this process
  // copy-on-write, and the next runs would pay a page fault per page for it.
  const std::string loop = "while kill -0 " + std::to_string(getpid()) + " 2>/dev/null; do :; done";
  for (int k = 0; k < count; ++k) {
    pid_t pid = 0;
    char* argv[] = {const_cast<char*>("sh"), const_cast<char*>("-c"), const_cast<char*>(loop.c_str()), nullptr};
    if (const int error = posix_spawn(&pid, "/bin/sh", nullptr, nullptr, argv, environ); error != 0) {
      stop();  // those started so far
      throw std::runtime_error(std::string("could not start a busy process: ") + std::strerror(error));
    }
    children_.push_back(pid);
  }
  usleep(20000);  // let the scheduler see them busy before anything is timed
}

BusyProcesses::~BusyProcesses() { stop(); }

void BusyProcesses::stop() {
  for (pid_t pid : children_) kill(pid, SIGKILL);
  for (pid_t pid : children_) waitpid(pid, nullptr, 0);
  children_.clear();
}

}  // namespace kcycle::cli
