#pragma once
// The headless driver: a script of parameter changes and UI actions, one command a line,
// applied between frames, so tests (and the README's main job on a server) can run the
// visualizer under Xvfb and take screenshots.
//
//   set NAME VALUE     any solver option, by the key the CLI and parameters files use
//                      (kcycle/io/options_io.hpp: levels eps angle kappa smoother ...), or a view
//                      setting (view_settings.hpp: view-level follow residual zoom speed ...)
//   run | pause | step | step-op | step-relax | step-call | reset | pin | calibrate N
//   autoplay N         step by itself, N operations a second (0: stop, holding the operation)
//   lesson K           teaching preset K (lessons.hpp), as the lesson combo applies it
//   print-tooltip L    the tooltip of the control labelled L (fails if it has none)
//   print-controls     every control the last frame drew, with its tooltip
//   wait-cycles N      until the current run has done N cycles (timeout 120 s; 480 s for
//                      sweep-kappa and wait-calibrated)
//   wait-done          until the current run stops (converged, limit, ...)
//   wait-calibrated    until a calibration is in use and none is running
//   wait-predicted     until the predictions without solving (LFA's factor, each kappa's time)
//                      of the current run are shown (they are made on their own thread)
//   sweep-kappa PATH [N]  the advisor's probes, then solve with kappa = 1, 2, 3, 4, W in turn at
//                      the current settings (N solves of each: for tests); write kappa_sweep_csv
//                      (kcycle/model/kappa_sweep.hpp)
//   start-sweep-kappa  press Sweep kappa and go on; wait-sweeping: until a sweep is under way
//   stop-sweep         press Stop sweep (the sweep ends within an iteration, the solve restarts)
//   wait-stepping      until the worker is paused inside a cycle
//   wait-operation N   until stepping has reached the cycle's N-th operation
//   wait-at-operation N  until stepping holds at exactly the N-th operation (after a step back)
//   key K              a press of key K, as the window reports one: PageDown, PageUp, Left, Right,
//                      Space, R, B, S, F1, H; Shift+K, Ctrl+K (lecture_keys.hpp)
//   print-field-hash   the shown field's level, size and a hash of its values (bitwise checks)
//   print-stepping     the operation just done, its level and the level the field shows
//   describe           the narration line of the operation just done (narration.hpp)
//   frames N | wait-ms N
//   wait-timeout S     every later wait fails after at most S seconds (0.1 .. 480)
//   screenshot PATH | layout PATH (panel rectangles, JSON) | csv PATH
//   parameters PATH    the parameters file the Parameters button writes (kcycle solve --config)
//   figure PATH        Figure 2.1 at the current levels (kappa = 1, 2, 3, W): PATH.svg or PATH.png
//   record FOLDER N [F]  step N operations, F frames each (1), as PNG frames in FOLDER and, with
//                      ffmpeg, FOLDER.mp4 and FOLDER.gif (recording.hpp); waits until written
//   print-summary | fps-reset | fps-report | print-field-path
//   print-text         every text the next frame draws (labels, values, messages)
//   check-text-fits [across] [WINDOW]  fails, naming each, if any text of the last frame (of
//                      the window WINDOW, e.g. Convergence; only at its sides: across) is cut off
//                      (text_fit.hpp)
//   print-pins         the pinned runs' legend lines
//   ui-scale X         fonts and sizes times X (0.5 .. 3), for a projector (= set ui-scale X)
//   stress N           N random parameter changes, one per frame
//   quit
//
// Every number is checked: finite, and within its command's bounds (frames and stress at most
// 100000, wait-ms at most 600000, calibrate 3 .. 12 levels, positions and counts whole), so
// that every line ends in bounded time. A refused argument or option ends the script with exit
// status 2 (bad input, as the CLI); a failed check, wait or write with 1. The script file
// itself is read as the CLI reads --config: a regular file of at most 1 MiB.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "solver_worker.hpp"
#include "ui_state.hpp"

namespace kcycle::gui {

class ScriptRunner {
 public:
  // Throws std::runtime_error naming the line of an unknown command.
  explicit ScriptRunner(const std::string& path);

  // Once per frame, before the panels. Returns false when the script has finished; then
  // exit_code() says whether it failed (a wait timed out, a command was refused).
  bool advance(UiState& ui, SolverWorker& worker, const Snapshot& snap);
  int exit_code() const { return exit_code_; }

 private:
  struct Frame;
  using Action = bool (*)(Frame&);  // false: still waiting (see Frame in script.cpp)
  struct Verb {
    const char* name;
    Action action;
  };
  struct Command {
    Action action;
    std::string verb;
    std::vector<std::string> args;
    int line;
  };
  static const std::vector<Verb>& verbs();
  static bool set(Frame& f);
  static bool write_layout(Frame& f);
  static bool print_summary(Frame& f);
  static bool print_stepping(Frame& f);
  static bool press_key(Frame& f);
  void stress_change(UiState& ui, SolverWorker& worker);
  // Ends the script: exit 2 for a refused argument (bad input), 1 for a failed check or write.
  void fail(const Command& c, const std::string& why, int exit_code = 1);
  double now() const;

  std::vector<Command> commands_;
  std::size_t next_ = 0;
  int exit_code_ = 0;
  std::uint64_t generation_ = 0;  // of the run the waits refer to
  int frames_left_ = 0;
  bool text_requested_ = false;
  bool record_started_ = false;  // record: the request is made, the recording not yet over
  int sweeps_before_ = -1;       // sweep-kappa: the sweeps finished when it was asked for
  double wait_until_ = 0;
  double wait_started_ = -1;
  double wait_timeout_ = 1e9;  // wait-timeout: a bound below each wait's own
  int stress_left_ = 0;
  std::mt19937 rng_{7};
  double fps_start_ = 0;
  long fps_frames_ = 0;
};

}  // namespace kcycle::gui
