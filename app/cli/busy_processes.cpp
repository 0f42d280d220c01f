#include "busy_processes.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace kcycle::cli {

BusyProcesses::BusyProcesses(int count) {
  for (int k = 0; k < count; ++k) {
    const pid_t pid = fork();
    if (pid < 0) {
      const std::string why = std::strerror(errno);
      stop();  // those started so far
      throw std::runtime_error("could not start a busy process: " + why);
    }
    if (pid == 0) {
      // The child: dies with its parent, touches nothing the parent owns, and spins.
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      volatile unsigned long spin = 0;
      for (;;) spin = spin + 1;
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
