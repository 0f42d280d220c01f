#pragma once
// Measurements for benchmarks and the run-time model: median time of one cycle, and the
// memory bandwidth of a relaxation sweep beside a STREAM triad on the same data.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "kcycle/backends/backend_selection.hpp"
#include "kcycle/model/cost_model.hpp"
#include "kcycle/solve/execution_target.hpp"
#include "kcycle/solve/multigrid.hpp"

namespace kcycle {

// Repeated timings of one thing: the median, the fastest, and how much they varied (the
// slowest tenth's time over the fastest: p90 / min). About 1 on a quiet machine; from
// kBusySpread the machine was busy (another process took the cores), and the fastest is the
// estimate to keep.
struct TimingSpread {
  double median = 0, fastest = 0, spread = 1;
};
TimingSpread summarize_timings(std::vector<double> seconds);  // seconds not empty
inline constexpr double kBusySpread = Calibration::kNoisySpread;

struct TimingPolicy {
  int warmup = 2;  // untimed cycles first
  int min_repetitions = 5;
  double min_seconds = 0.2;  // keep repeating until this much time was measured
  int max_repetitions = 2000;
  // Then as many cycles again with the per-level timers on (CycleTiming::level_seconds_per_call).
  bool per_level = false;
};

struct CycleTiming {
  double median_seconds = 0;
  double min_seconds = 0;
  int repetitions = 0;
  std::uint64_t launches = 0;  // backend launches in one cycle
  // On a process grid (MPI): the ranks, and the model's counts of one cycle there, the busiest
  // rank's ops and messages level by level (distributed_model.hpp). Else 1, 0, 0.
  int ranks = 1, px = 1, py = 1;
  double ops = 0, messages = 0;
  // The CPU backend: the passes one cycle hands to the thread team (a synchronisation point
  // each), level by level (index 0 unused; a level run on the calling thread alone has none).
  // Empty for the other backends.
  std::vector<std::uint64_t> team_passes;
  // How much the repetitions varied: the slowest tenth's time over the fastest (p90 / min).
  // About 1 on a quiet machine; 2 and more when other processes took the cores.
  double spread = 1;
  // With TimingPolicy::per_level: each level's seconds per call (index l - 1), the median over
  // the timed cycles of the passes a normal cycle runs (LevelStats), as a stand-alone solve runs
  // them (the finest up pass summing the norms); a coarse tail's time is on its top level, the
  // levels below it cost nothing of their own.
  std::vector<double> level_seconds_per_call;
};

// Times single cycles of problem 0 (random error). The iterate is reset to the same random
// guess before every cycle, outside the timing, so no repetition runs on denormal numbers.
// On the GPU a cycle's time ends when the device has finished it.
CycleTiming time_cycle(const MultigridSettings& settings, CycleChoice cycle, const ExecutionTarget& target,
                       const TimingPolicy& policy = {});
// Several cycles on one hierarchy, timed in turns (one repetition of each per round) so that a
// change in the machine's speed while timing falls on all of them alike: what calibrate uses,
// whose cycles the advisor compares.
std::vector<CycleTiming> time_cycles(const MultigridSettings& settings, const std::vector<CycleChoice>& cycles,
                                     const ExecutionTarget& target, const TimingPolicy& policy = {});

struct BandwidthMeasurement {
  double jacobi_gbps = 0;            // 24 bytes per unknown: read v, read f, write the output
  double triad_gbps = 0;             // 24 bytes per element: a = b + s c
  double jacobi_seconds = 0;         // median
  double triad_seconds = 0;          // median
  std::uint64_t unknowns = 0;        // of the finest level (the sweep)
  std::uint64_t triad_unknowns = 0;  // per triad array: at least 2^25, beyond every cache
};

// A Jacobi sweep on the finest level of `levels` levels, and a STREAM triad on arrays of at
// least 2^25 doubles each (memory, not cache).
BandwidthMeasurement measure_bandwidth(int levels, const ExecutionTarget& target, int repetitions = 30);

// time_cycle on the first `ranks` ranks of MPI_COMM_WORLD (a px x py grid; 0, 0: MPI's choice),
// for a scaling study: every rank of the world calls it, the others wait, and all return rank
// 0's timing. target.backend must be Mpi; without MPI in the build, ranks must be 1.
CycleTiming time_cycle_on_ranks(const MultigridSettings& settings, CycleChoice cycle, const ExecutionTarget& target,
                                int ranks, const TimingPolicy& policy = {});

// The model's lambda, seconds per message (MpiBackend::message_latency on `levels` levels);
// 0 for a target that sends no messages.
double measure_message_latency(const ExecutionTarget& target, int levels, Coarsening coarsening);

// The paper's calibration (section 3.2): time one cycle for every kappa and level count (the
// kappas in turns at each level count, time_cycles), then fit alpha and beta. On a process
// grid, lambda is measured first and the fit is of the rest of the time (fit_cost_model).
// `as_run`: the settings as the sweep's target runs them (resolve()); they say what the
// calibration records (fused, launches per call, the tail).
// `on_case` (optional) is told each finished case, for progress.
struct CalibrationSweep {
  int min_levels = 4;
  int max_levels = 11;
  std::vector<int> kappas;  // empty: 1, 2, 3, 4, W
  ExecutionTarget target;
  TimingPolicy policy;
};
Calibration calibrate(const MultigridSettings& as_run, const CalibrationSweep& sweep,
                      const std::function<void(const TimingSample&)>& on_case = {});

}  // namespace kcycle
