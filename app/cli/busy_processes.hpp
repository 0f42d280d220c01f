#pragma once
// Busy processes beside a measurement (`kcycle bench --load N`): each spins on one core as a
// browser tab, a screen recorder or a neighbour's job would, so that anyone can see what the
// solver's threads do on a machine that is not idle.
#include <sys/types.h>

#include <vector>

namespace kcycle::cli {

class BusyProcesses {
 public:
  // Starts `count` child processes that spin until stopped (or until this process dies).
  explicit BusyProcesses(int count);
  ~BusyProcesses();  // stops them
  BusyProcesses(const BusyProcesses&) = delete;
  BusyProcesses& operator=(const BusyProcesses&) = delete;

 private:
  void stop();
  std::vector<pid_t> children_;
};

}  // namespace kcycle::cli
