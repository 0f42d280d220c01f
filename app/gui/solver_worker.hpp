#pragma once
// The visualizer's solver thread. The UI thread never waits on it: it sends commands and
// picks up the latest immutable Snapshot, which the worker publishes after every cycle (at
// most every 15 ms while running, after every operation while stepping). A parameter change
// cancels the running solve through a stop token, which the cycle checks at every call, so
// it restarts mid-cycle; only a cycle stepped operation by operation has an observer, so
// every other cycle runs as fast as the solver can (CUDA Graphs included).
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "host_copy.hpp"
#include "kcycle/cycle/trace.hpp"
#include "kcycle/lfa/solve_prediction.hpp"
#include "kcycle/model/advisor.hpp"
#include "kcycle/model/cost_model.hpp"
#include "kcycle/model/kappa_sweep.hpp"
#include "kcycle/solve/iterative_solver.hpp"
#include "kcycle/solve/solve.hpp"
#include "prediction_thread.hpp"
#include "shared_history.hpp"
#include "sine_spectrum.hpp"

namespace kcycle::gui {

// A picture of one level's field: the error (finest level) or the correction v (coarser
// levels), or the residual f - A v, as floats, with its Fourier (sine-series) magnitudes.
struct FieldImage {
  int level = 1;
  FieldView view = FieldView::Iterate;
  int nx = 0, ny = 0;
  // Row-major, nx * ny interior points; empty when the picture stayed on the device (device
  // set, HostCopyRule): min and max are still the picture's.
  std::vector<float> values;
  float min = 0, max = 0;
  std::vector<float> spectrum;                // log10 |DST-I coefficient|, same layout; empty if not computed
  std::shared_ptr<const DeviceImage> device;  // the same values on the GPU (CUDA backend), or null
  std::uint64_t version = 0;                  // changes whenever values do
};

struct Snapshot {
  std::uint64_t generation = 0;  // bumps on every restart (parameters, reset)
  SolverOptions options;
  std::string error;  // why the parameters were refused; empty if fine
  // While a large hierarchy is being built (seconds at 12-13 levels): what, in words; else empty.
  std::string setting_up;
  SolveStatus status = SolveStatus::Running;
  std::string message;
  SharedHistory history;                               // shares its full blocks with earlier snapshots
  double initial_error = NAN, initial_residual = NAN;  // of the initial guess (cycle 0)
  std::shared_ptr<const FieldImage> field;
  // While stepping with ViewRequest::before_after: the level as it was before the relaxation
  // phase under way (or just finished) began, for a side-by-side "before | after".
  std::shared_ptr<const FieldImage> phase_before;
  // While stepping on a coarse level (following the cycle): the finest level's error as the
  // cycle left it, at its restriction to level 2 (the coarse pictures' thumbnail).
  std::shared_ptr<const FieldImage> finest_left;
  std::shared_ptr<const Trace> cycle_trace;  // the last cycle executed (partial while stepping)
  int trace_position = -1;                   // operations done in the current cycle (stepping)
  bool running = false;
  bool stepping = false;                 // paused inside a cycle, waiting for "next op"
  double autoplay = 0;                   // operations per second while autoplaying, else 0
  double seconds_per_cycle = 0;          // median of the recent cycles
  double fastest_seconds_per_cycle = 0;  // the fastest of them (what a cycle costs undisturbed)
  double cycle_time_spread = 1;          // how much they varied (TimingSpread::spread)
  std::shared_ptr<const Calibration> calibration;
  std::shared_ptr<const Calibration> compare_calibration;  // the previous one, of another backend
  bool calibrating = false;
  std::string calibration_note;                   // while calibrating: how far the sweep got
  double calibration_progress = 0;                // 0..1 while calibrating
  std::shared_ptr<const KappaSweep> kappa_sweep;  // the last kappa sweep's measured and predicted totals
  int kappa_sweeps = 0;                           // sweeps finished so far
  bool sweeping = false;
  std::string sweep_note;  // while sweeping: which solve runs
  int threads = 1;
  // What local Fourier analysis predicts for these options (made with the solve, no solving):
  // the factor per iteration the convergence plot draws beside the measured one.
  std::shared_ptr<const lfa::SolvePrediction> lfa_prediction;
  // The same analysis mode by mode over [-pi, pi)^2 (the Fourier analysis view); null with none.
  std::shared_ptr<const lfa::AmplificationMaps> lfa_maps;
  // Each kappa's time to the tolerance predicted without solving: LFA's iterations priced by the
  // calibration (advise() with IterationSource::Lfa, what `kcycle advise --iterations lfa`
  // prints); null where there is none, and predicted_kappas_note says why.
  std::shared_ptr<const Advice> predicted_kappas;
  std::string predicted_kappas_note;
  // The run the solve makes (resolved_run.hpp: what runs it, the settings as run, the normal
  // cycle's schedule), resolved once when the solver was made; none while there is no solver.
  std::shared_ptr<const ResolvedRun> run;
  std::string backend_note;  // --backend auto's reason for running on the CPU
};

struct ViewRequest {
  int level = 1;  // the level to show when not following the cycle
  bool residual = false;
  bool follow_cycle = true;  // while stepping, show the level the operation touched
  bool spectrum = true;
  bool before_after = false;  // while stepping, keep each relaxation phase's starting field
  // The field's texture is filled from the host (interop off or failing): every picture's
  // floats must come. And: something else on the host shows its values (the slice plot, the
  // hover value). See HostCopyRule.
  bool host_draws = false;
  bool host_values = false;
  friend bool operator==(const ViewRequest&, const ViewRequest&) = default;
};

// Makes the solve for a set of options (the worker's own: an IterativeSolver; tests wrap it).
using SolverFactory = std::function<std::unique_ptr<IterativeSolver>(const SolverOptions&)>;

class SolverWorker {
 public:
  // threads: OpenMP threads for the solver (leave a core to the UI and the renderer).
  // A backend that fails while solving or drawing (a CUDA error) never ends the program: the
  // snapshot says what failed, and a solve not asked to run on the CPU goes on there.
  SolverWorker(const SolverOptions& initial, int threads, bool start_running = true, SolverFactory make_solver = {});
  ~SolverWorker();
  SolverWorker(const SolverWorker&) = delete;
  SolverWorker& operator=(const SolverWorker&) = delete;

  // Both restart the solve and return the new generation (see Snapshot::generation).
  std::uint64_t set_options(const SolverOptions& options);
  void set_view(const ViewRequest& view);
  void run();
  void pause();
  void step_cycle();
  // One step of a cycle watched operation by operation: the next operation, or on to the
  // next relaxation sweep or the next recursive call (possibly in the next cycle).
  enum class StepTo { Operation, Relaxation, Call };
  void step_operation(StepTo to = StepTo::Operation);
  // Back one operation of the cycle being stepped (from a cycle's start: to the end of the one
  // before): the solve is rebuilt and replayed unwatched to there (iterates are deterministic),
  // and holds. Does nothing before the first operation. Presses during a replay are queued and
  // each goes one further back once the replay holds (a clicker's taps come faster than a
  // replay at 11 levels).
  void step_back();
  // Steps on by itself, `operations_per_second` operations a second (0: stops, paused).
  void autoplay(double operations_per_second);
  std::uint64_t reset();
  void set_speed(double cycles_per_second);  // 0: as fast as possible
  void calibrate(int max_levels);            // runs the timing sweep in the worker
  // Solves with kappa = 1, 2, 3, 4, W in the worker, round-robin (RepeatPolicy's defaults; or
  // exactly `solves` solves of each, as a test asks for).
  void sweep_kappa(int solves = 0);
  // Ends the kappa sweep under way (or asked for) after the iteration it runs; the solve then
  // starts again. A parameter change, Reset and closing end it the same way.
  void stop_sweep();
  void set_calibration(std::shared_ptr<const Calibration> calibration);

  std::shared_ptr<const Snapshot> snapshot() const;
  // Also keep each drawn level on the device (CUDA backend), for CUDA-OpenGL interop.
  void keep_device_images(bool on) { device_images_ = on; }

 private:
  enum class Mode { Paused, Running, StepCycle, StepOperation, Autoplay };
  // What the loop does next: stop, rebuild the solve (after a calibration sweep if one was
  // asked for), or run one iteration.
  // Where a replay stops: after `cycles` whole cycles and `operations` of the next.
  struct ReplayTo {
    int cycles = 0, operations = 0;
  };
  struct Work {
    enum Kind { Stop, Rebuild, Iterate, Publish } kind = Iterate;
    SolverOptions options;
    int calibrate_levels = 0;
    bool sweep_kappa = false;
    int sweep_solves = 0;
    std::optional<ReplayTo> replay;  // after the rebuild
    std::stop_token stop;            // the run's: a parameter change, Reset or closing ends the sweep too
  };

  void loop();
  Work next_work();
  // What the loop does when the solve's backend throws (anything but a cancellation).
  void backend_failed(const std::exception& e);
  void run_calibration(const SolverOptions& options, int max_levels);
  void rebuild(const SolverOptions& options);
  void iterate();
  void throttle(std::chrono::steady_clock::time_point cycle_start, double speed);
  // Called after each operation of a cycle stepped operation by operation: publishes it and
  // waits for the next step; throws CycleCancelled when the run is restarted.
  // `hold` false: a replayed operation, passed without stopping.
  void hold_operation(const TraceEvent& e, const std::shared_ptr<Trace>& trace, int position, const ViewRequest& view,
                      bool hold = true, bool replay_done = false);
  void step_back_locked();
  // The replay has reached its position and published it: the next queued step back, if any.
  void replay_done_locked();
  void cancel_run_locked();
  bool interrupted_locked() const;
  // shown: what of the level to draw (default: the view request's iterate or residual).
  void publish(bool with_field, int field_level, int trace_position, bool stepping,
               std::optional<FieldView> shown = std::nullopt);
  void publish_idle();  // between iterations: the current state and field
  // A picture of `level`; `running`: cycles are running, so its host copy may be throttled.
  std::shared_ptr<const FieldImage> capture(int level, bool running = false,
                                            std::optional<FieldView> shown = std::nullopt);

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  // Guarded by mutex_: commands and the published snapshot.
  SolverOptions options_;
  ViewRequest view_;
  Mode mode_;
  // The steps asked for and not yet taken, each with where it stops: two calls then a sweep
  // pressed before the worker wakes still take two calls and then a sweep.
  std::deque<StepTo> pending_steps_;
  StepTo next_stop_locked() const;  // where the step in progress stops (Operation if none is queued)
  double autoplay_rate_ = 0;
  // The UI's last snapshot is older than the state (a throttled publish, a pause or a step
  // asked for): the idle worker publishes once more, so a paused solve says it is paused.
  bool unpublished_ = false;
  double speed_ = 0;
  bool stop_ = false;
  bool restart_ = true;
  int calibrate_levels_ = 0;
  std::optional<ReplayTo> replay_requested_;
  bool replay_in_flight_ = false;  // from step_back until the replay has published its position
  int queued_backs_ = 0;           // step_back presses while one was in flight
  bool sweep_requested_ = false, sweeping_ = false;
  int sweep_solves_ = 0;  // sweep_kappa's `solves`
  std::shared_ptr<const KappaSweep> kappa_sweep_;
  int kappa_sweeps_ = 0;
  std::string sweep_note_;
  // Whether the sweep ran to its end (else `stop` ended it).
  bool run_kappa_sweep(const SolverOptions& options, int solves, std::stop_token stop);
  std::uint64_t generation_ = 0;
  std::shared_ptr<const Snapshot> latest_;
  std::shared_ptr<const Calibration> calibration_, compare_calibration_;
  bool calibrating_ = false;
  std::string calibration_note_;
  double calibration_progress_ = 0.0;
  std::stop_source run_stop_;  // of the running solve; a restart requests a stop

  std::atomic<bool> device_images_{false};

  // Worker thread only.
  int threads_;
  SolverFactory make_solver_;
  std::unique_ptr<IterativeSolver> solver_;
  std::shared_ptr<const ResolvedRun> solver_run_;  // solver_->run(), as snapshots share it
  // Device pictures of solves gone that a snapshot still holds: freed here once the UI lets
  // go of them, since freeing device memory on the UI thread would wait for the device.
  std::vector<std::shared_ptr<const DeviceImage>> retired_pictures_;
  void retire_solver();                   // lets the solve go, keeping its pictures (above)
  std::string failure_note_;              // the backend that failed and why, until new parameters come
  std::uint64_t failure_generation_ = 0;  // the generation of the CPU solve that replaced it
  SharedHistory history_;
  // A replay under way (step_back): whole cycles still to run unwatched and unpublished, then
  // operations of the next cycle to pass before it holds.
  ReplayTo replaying_;
  std::chrono::steady_clock::time_point last_publish_;
  std::string error_;
  std::string setting_up_;                          // Snapshot::setting_up (worker thread only)
  static constexpr int kAnnouncedSetUpLevels = 11;  // 4M unknowns: 0.6 s to build, 20-30 s at 13
  std::shared_ptr<const Trace> last_trace_;
  // Before/after: the level written by the last call entry or prolongation (the field a
  // relaxation phase starts from) and, once that phase began, its starting field.
  std::shared_ptr<const FieldImage> phase_start_candidate_, phase_before_;
  // By level: the field its restriction found (after the pre-smoothing): the "before" of the
  // coarse-grid correction, shown at the prolongation.
  std::vector<std::shared_ptr<const FieldImage>> correction_start_;
  std::shared_ptr<const FieldImage> finest_left_;  // Snapshot::finest_left
  std::vector<double> recent_seconds_;
  std::uint64_t field_version_ = 0;
  // The last picture whose floats came to the host (HostCopyRule): when, and of what.
  std::chrono::steady_clock::time_point last_host_copy_;
  std::array<int, 4> last_host_view_{};  // level, nx, ny, residual
  SineSpectrum spectrum_;
  std::uint64_t running_generation_ = 0;
  // The predictions asked of predictions_ last: for which run and calibration (worker thread only).
  std::uint64_t predictions_generation_ = ~std::uint64_t(0);
  std::shared_ptr<const Calibration> predictions_calibration_;
  // After mutex_, wake_ and unpublished_, which its results' wake-up uses; destroyed before them.
  PredictionThread predictions_{[this] {
    {
      std::lock_guard lock(mutex_);
      unpublished_ = true;  // the idle worker shows the predictions at once
    }
    wake_.notify_all();
  }};

  std::thread thread_;
};

}  // namespace kcycle::gui
