#include "kcycle/backends/cpu/available_cores.hpp"

#include <sched.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

namespace kcycle {

std::optional<int> quota_cores(long long quota_us, long long period_us) {
  if (quota_us <= 0 || period_us <= 0) return std::nullopt;
  return int(std::max(1LL, (quota_us + period_us - 1) / period_us));
}

std::optional<int> quota_cores(std::string_view cpu_max) {
  std::istringstream in{std::string(cpu_max)};
  std::string quota;
  long long period = 0;
  if (!(in >> quota >> period) || quota == "max") return std::nullopt;
  try {
    return quota_cores(std::stoll(quota), period);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

namespace {

std::optional<std::string> read_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  return line;
}

// The tightest CPU quota on this process's cgroup and its ancestors (v2), or v1's.
std::optional<int> cgroup_quota() {
  std::optional<int> tightest;
  auto take = [&](std::optional<int> q) {
    if (q) tightest = tightest ? std::min(*tightest, *q) : *q;
  };
  std::ifstream groups("/proc/self/cgroup");
  for (std::string line; std::getline(groups, line);) {
    if (line.rfind("0::", 0) != 0) continue;  // the v2 hierarchy
    for (std::string dir = line.substr(3);; dir = dir.substr(0, dir.rfind('/'))) {
      if (auto max = read_line("/sys/fs/cgroup" + dir + "/cpu.max")) take(quota_cores(*max));
      if (dir.empty() || dir == "/") break;
    }
  }
  auto v1_quota = read_line("/sys/fs/cgroup/cpu/cpu.cfs_quota_us");
  auto v1_period = read_line("/sys/fs/cgroup/cpu/cpu.cfs_period_us");
  if (v1_quota && v1_period) {
    try {
      take(quota_cores(std::stoll(*v1_quota), std::stoll(*v1_period)));
    } catch (const std::exception&) {
    }
  }
  return tightest;
}

}  // namespace

int runnable_threads() {
  std::ifstream stat("/proc/stat");
  for (std::string line; std::getline(stat, line);)
    if (line.rfind("procs_running ", 0) == 0) {
      try {
        return std::stoi(line.substr(14));
      } catch (const std::exception&) {
        return -1;
      }
    }
  return -1;
}

bool others_take_team_cores(int runnable, int awake_workers, int team, int cores) {
  if (runnable < 0) return false;  // the system does not say: try the team
  const int others = runnable - 1 - std::max(0, awake_workers);
  return others > cores - team;
}

int available_cores() {
  int cores = 0;
  cpu_set_t mask;
  if (sched_getaffinity(0, sizeof mask, &mask) == 0) cores = CPU_COUNT(&mask);
  if (cores <= 0) cores = int(std::thread::hardware_concurrency());
  if (auto quota = cgroup_quota()) cores = std::min(cores, *quota);
  return std::max(1, cores);
}

}  // namespace kcycle
