#pragma once
// A solve that advances one iteration at a time: the stand-alone cycle, or CG / flexible CG
// preconditioned by one cycle, on the backend the options select. solve() loops over it;
// the visualizer's worker steps it, draws any level's field between steps, and may watch
// every operation inside a cycle. The stopping rules live here once for all backends.
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "kcycle/backends/backend_selection.hpp"
#include "kcycle/backends/mpi/mpi_decomposition.hpp"
#include "kcycle/core/field.hpp"
#include "kcycle/core/field_view.hpp"
#include "kcycle/core/problem.hpp"
#include "kcycle/solve/device_image.hpp"
#include "kcycle/solve/memory_account.hpp"
#include "kcycle/solve/multigrid.hpp"
#include "kcycle/solve/resolved_run.hpp"
#include "kcycle/solve/solve.hpp"

namespace kcycle {

class IterativeSolver {
 public:
  // Validates the options (throws InvalidOptions, also when --backend cuda finds no GPU),
  // picks the backend and sets up hierarchy, problem and norms.
  IterativeSolver(const SolverOptions& options, DiscreteProblem problem);
  ~IterativeSolver();
  IterativeSolver(const IterativeSolver&) = delete;
  IterativeSolver& operator=(const IterativeSolver&) = delete;

  // One iteration; updates the status (Running until converged, diverged, NaN, breakdown or
  // the iteration limit). The record it returns is complete: the norms of the new iterate. hooks.observer sees every
  // operation of the cycle and may throw; the time it holds an operation is not counted as cycle time. hooks.stop
  // cancels the cycle at its next call: the status becomes Cancelled and CycleCancelled is thrown. An error the backend
  // raises (a CUDA error, say) ends the solve: the status becomes Failed, the message says why, and the error is thrown
  // on.
  const IterationRecord& step(const CycleHooks& hooks = {});
  void cancel() { status_ = SolveStatus::Cancelled; }

  // A test seam: `fault` runs where the backend does device work ("cycle" before each step,
  // "picture" before each picture) and may throw, as a failing device would.
  using EngineFault = std::function<void(std::string_view operation)>;
  void inject_fault(EngineFault fault) { fault_ = std::move(fault); }

  // Per-level counters and timers of every cycle from now on (see Multigrid::set_level_timing);
  // index 0 is level 1.
  void set_level_timing(bool on);
  std::vector<LevelStats> level_stats() const;
  // The MPI backend's halo exchanges, messages, bytes and collectives per level, over all
  // ranks (a collective: every rank calls it); empty on the other backends.
  std::vector<CommStats> comm_stats_all_ranks();
  // The MPI backend's process grid, ranks across x and y ({1, 1} on the other backends).
  std::array<int, 2> process_grid() const;

  SolveStatus status() const { return status_; }
  bool running() const { return status_ == SolveStatus::Running; }
  const std::vector<IterationRecord>& history() const { return history_; }
  const SolverOptions& options() const { return options_; }
  Monitor monitor() const { return monitor_; }  // what the tolerance is measured on
  double initial_error() const { return initial_error_; }
  double initial_residual() const { return initial_residual_; }

  // The grid arrays the solve holds (memory_account.hpp's names; MPI: this rank's blocks).
  std::vector<HeldArray> held_arrays() const;

  // The run this solve makes, resolved once when it was set up (resolved_run.hpp): what runs it
  // (the backend, threads, graphs, ranks), auto's fallback line (or ""), the settings as that
  // backend runs them and the normal cycle's schedule.
  const ResolvedRun& run() const { return run_; }
  const ExecutionTarget& target() const { return run_.target; }
  std::string_view backend_name() const;  // "cpu", "cuda" or "mpi"
  const std::string& backend_note() const { return run_.note; }
  int levels() const;
  GridShape level_shape(int level) const;
  // What the visualizer draws of `level` (kernels::image_value, FieldView): the error on the
  // finest level or the correction v on coarser ones, the residual, or the right-hand side;
  // nx * ny floats, row-major.
  void level_image(int level, FieldView view, std::vector<float>& out);
  // The same kept on the device (null on a host backend), with its smallest and largest value;
  // the floats come to the host only when `host_copy` is given (on a host backend the picture
  // is drawn there anyway). The visualizer copies only what something on the host shows.
  struct LevelPicture {
    std::shared_ptr<const DeviceImage> device;
    float min = 0, max = 0;
  };
  LevelPicture level_device_image(int level, FieldView view, std::vector<float>* host_copy);
  // Whether level_device_image keeps pictures on the device (the CUDA backend).
  bool pictures_on_device() const;
  // Every device picture this solve made. Freeing one waits for the device; a caller that
  // lets the solve go while readers still hold pictures keeps these, to free them on its own
  // thread once the readers are done (the visualizer's worker), not on a reader's.
  std::vector<std::shared_ptr<const DeviceImage>> device_pictures() const;
  // The current iterate on the finest level, copied to the host.
  Field iterate() const;

  // The summary so far: norms, reductions, times, status message, and (unless asked not
  // to: a copy per call) the whole history. On a process grid its times are the slowest rank's,
  // so it is a collective there: every rank calls it at the same point, as it calls step().
  SolveResult result(bool with_history = true) const;

  class Engine;  // the hierarchy and Krylov state on one backend (solver_engine.hpp)

 private:
  SolverOptions options_;
  Monitor monitor_;  // the problem's; its fields live in the engine alone (at 13 levels 0.5 GiB each)
  ResolvedRun run_;
  std::unique_ptr<Engine> engine_;
  SolveStatus status_ = SolveStatus::Running;
  std::vector<IterationRecord> history_;
  std::vector<double> step_seconds_;
  double initial_error_ = 0, initial_residual_ = 0, monitored0_ = 0, previous_ = 0;
  double best_ = 0;         // the smallest monitored norm that halved the one before it
  int best_iteration_ = 0;  // when it was reached (stall detection)
  EngineFault fault_;
  std::string failure_;  // what the backend raised (status Failed)
  double seconds_setup_ = 0, seconds_loop_ = 0;
  std::uint64_t launches_per_iteration_ = 0;
};

}  // namespace kcycle
