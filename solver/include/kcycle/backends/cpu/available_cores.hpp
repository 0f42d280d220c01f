#pragma once
// How many threads this process can really run at once: the cores its affinity mask allows
// (taskset, a batch system's binding), capped by its cgroup's CPU quota (a container's --cpus),
// not the machine's core count.
#include <optional>
#include <string_view>

namespace kcycle {

// At least 1.
int available_cores();

// Threads of the whole machine running or ready to run right now, the caller's included
// (/proc/stat's procs_running); -1 where the system does not say.
int runnable_threads();

// Whether other processes' threads take cores a team of `team` threads needs: of the
// `runnable` threads (runnable_threads()), the caller and the team's `awake_workers` (spinning
// for a pass) are the team's own; the rest need cores beyond the `cores` the team leaves.
bool others_take_team_cores(int runnable, int awake_workers, int team, int cores);

// The parts, for tests: the cores a CPU quota amounts to (rounded up), from a cgroup v2
// cpu.max line ("max 100000": none; "150000 100000": 2) or v1's cfs_quota_us and cfs_period_us
// ("-1": none).
std::optional<int> quota_cores(std::string_view cpu_max);
std::optional<int> quota_cores(long long quota_us, long long period_us);

}  // namespace kcycle
