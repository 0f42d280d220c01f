// The script's verbs, one table grouped by family: each verb's arguments (kind, range, whether
// it may be left out), whether it waits, what it does and its help. ScriptRunner checks every
// line against its verb's row when the script is read, so an action reads arguments that hold.
#include <algorithm>
#include <cstdio>
#include <sstream>
#include <utility>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include "drawing.hpp"
#include "kcycle/io/file_output.hpp"
#include "kcycle/io/options_io.hpp"
#include "kcycle/solve/enum_names.hpp"
#include "lessons.hpp"
#include "narration.hpp"
#include "panels.hpp"
#include "script_parts.hpp"
#include "text_fit.hpp"
#include "view_settings.hpp"

namespace kcycle::gui {

namespace {

using Kind = ScriptRunner::Param::Kind;
using Waits = ScriptRunner::Waits;

// The bounds of the waits and repetitions a script may ask for: each line ends in bounded time.
constexpr double kMaxWaitMs = 600'000;  // wait-ms: ten minutes
constexpr int kMaxFrames = 100'000;     // frames, stress: about half an hour at 60 fps
constexpr int kMaxCalibrationLevels = 12;
constexpr double kMaxPosition = 1 << 30;

ScriptRunner::Param integer(const char* name, double lo, double hi, bool optional = false) {
  return {name, Kind::Integer, lo, hi, nullptr, optional};
}
ScriptRunner::Param number(const char* name, double lo, double hi) { return {name, Kind::Number, lo, hi}; }
ScriptRunner::Param word(const char* name, const char* choices = nullptr, bool optional = false) {
  return {name, Kind::Word, 0, 0, choices, optional};
}
ScriptRunner::Param text(const char* name, bool optional = false) {
  return {name, Kind::Text, 0, 0, nullptr, optional};
}
const ScriptRunner::Param kPath = word("PATH");

// A view setting (`set KEY VALUE`, `ui-scale VALUE`) within its slider's range, on `ui`.
void set_view_setting_from_script(UiState& ui, std::string_view key, const std::string& value) {
  try {
    set_view_setting(ui, *find_view_setting(key), script_number(value));
  } catch (const std::invalid_argument& e) {
    throw BadArgument(e.what());
  }
}

// `set`'s option and value as the CLI checks them, or a view setting within its range.
void check_set(const std::vector<std::string>& args) {
  if (find_option(args[0])) {
    SolverOptions scratch;
    set_option(scratch, {args[0], args[1], "set " + args[0]});
    return;
  }
  if (!find_view_setting(args[0]))
    throw BadArgument("unknown parameter " + args[0] + " (solver options: " + option_keys() +
                      "; view: " + view_setting_keys() + ")");
  UiState scratch;
  set_view_setting_from_script(scratch, args[0], args[1]);
}

void check_ui_scale(const std::vector<std::string>& args) {
  UiState scratch;
  set_view_setting_from_script(scratch, "ui-scale", args[0]);
}

// The keys a script may press, as the window reports them (lecture_keys.hpp).
const std::vector<std::pair<std::string, int>>& key_names() {
  static const std::vector<std::pair<std::string, int>> keys = {{"PageDown", GLFW_KEY_PAGE_DOWN},
                                                                {"PageUp", GLFW_KEY_PAGE_UP},
                                                                {"Left", GLFW_KEY_LEFT},
                                                                {"Right", GLFW_KEY_RIGHT},
                                                                {"Space", GLFW_KEY_SPACE},
                                                                {"R", GLFW_KEY_R},
                                                                {"B", GLFW_KEY_B},
                                                                {"S", GLFW_KEY_S},
                                                                {"L", GLFW_KEY_L},
                                                                {"F1", GLFW_KEY_F1},
                                                                {"H", GLFW_KEY_H}};
  return keys;
}

// "Shift+PageDown" as a press; throws BadArgument for a key the window does not handle.
KeyPress key_press(const std::string& spelled) {
  std::string name = spelled;
  KeyPress press;
  for (const auto& [prefix, flag] : {std::pair<const char*, bool*>{"Shift+", &press.shift}, {"Ctrl+", &press.ctrl}})
    if (name.rfind(prefix, 0) == 0) name = name.substr(std::string(prefix).size()), *flag = true;
  const auto& keys = key_names();
  const auto key = std::find_if(keys.begin(), keys.end(), [&](const auto& k) { return k.first == name; });
  if (key == keys.end()) throw BadArgument("unknown key: " + spelled);
  press.key = key->second;
  return press;
}

void check_key(const std::vector<std::string>& args) { (void)key_press(args[0]); }

// draw's shapes: bump|rough X Y with X, Y in [0, 1], mode K L with whole K, L >= 1, clear alone.
void check_draw(const std::vector<std::string>& args) {
  const std::string& kind = args[0];
  if (kind == "clear") {
    if (args.size() > 1) throw BadArgument("draw clear takes nothing more");
    return;
  }
  if (args.size() < 3) throw BadArgument("draw " + kind + " needs two numbers");
  for (std::size_t i = 1; i < 3; ++i) {
    const double v = script_number(args[i]);
    if (kind == "mode" ? (v < 1 || v > (1 << 16) || v != std::floor(v)) : (v < 0 || v > 1))
      throw BadArgument(kind == "mode" ? "draw mode K L: whole numbers from 1 (got " + quoted_value(args[i]) + ")"
                                       : "draw " + kind + " X Y: from 0 to 1 (got " + quoted_value(args[i]) + ")");
  }
}

}  // namespace

const std::vector<ScriptRunner::Verb>& ScriptRunner::verbs() {
  static const std::vector<Verb> table = {
      // --- the solve: parameters and controls, as the panels set them ---
      {"solve",
       "set",
       {word("NAME"), word("VALUE")},
       Waits::Never,
       &ScriptRunner::set,
       "a solver option by its CLI key (levels eps angle kappa smoother ...) or a view setting",
       check_set},
      {"solve", "run", {}, Waits::Never, [](Frame& f) { return f.worker.run(), true; }, "Run"},
      {"solve", "pause", {}, Waits::Never, [](Frame& f) { return f.worker.pause(), true; }, "Pause"},
      {"solve", "step", {}, Waits::Never, [](Frame& f) { return f.worker.step_cycle(), true; }, "one cycle"},
      {"solve",
       "step-op",
       {},
       Waits::Never,
       [](Frame& f) { return f.worker.step_operation(), true; },
       "one operation of the cycle"},
      {"solve",
       "step-relax",
       {},
       Waits::Never,
       [](Frame& f) { return f.worker.step_operation(SolverWorker::StepTo::Relaxation), true; },
       "to the next relaxation"},
      {"solve",
       "step-call",
       {},
       Waits::Never,
       [](Frame& f) { return f.worker.step_operation(SolverWorker::StepTo::Call), true; },
       "to the next call"},
      {"solve",
       "autoplay",
       {number("RATE", 0, 1000)},
       Waits::Never,
       [](Frame& f) {
         const double rate = f.number(0);
         if (rate > 0) f.ui.autoplay_rate = float(rate);
         f.worker.autoplay(rate);
         return true;
       },
       "step by itself, RATE operations a second (0: stop, holding the operation)"},
      {"solve",
       "reset",
       {},
       Waits::Never,
       [](Frame& f) { return f.runner.generation_ = f.worker.reset(), true; },
       "Reset"},
      {"solve",
       "lesson",
       {integer("K", 0, double(lessons().size()) - 1)},
       Waits::Never,
       [](Frame& f) {
         apply_lesson(f.ui, f.integer(0));
         f.worker.pause();
         f.worker.set_view(f.ui.view);
         f.runner.generation_ = f.worker.set_options(f.ui.params);
         return true;
       },
       "teaching preset K (lessons.hpp), as the lesson combo applies it"},
      {"solve",
       "draw",
       {word("SHAPE", "bump|rough|mode|clear"),
        {"X|K", Kind::Number, 0, 1 << 16, nullptr, true},
        {"Y|L", Kind::Number, 0, 1 << 16, nullptr, true},
        word("SIGN", "-", true)},
       Waits::Never,
       &ScriptRunner::draw,
       "problem 4's drawing, as a click draws it: bump|rough X Y [-], mode K L [-], or clear",
       check_draw},
      {"solve",
       "mouse",
       {word("STATE", "on|off")},
       Waits::Never,
       [](Frame& f) {
         ImGuiIO& io = ImGui::GetIO();
         if (f.args[0] == "on")
           io.ConfigFlags &= ~ImGuiConfigFlags_NoMouse;
         else
           io.ConfigFlags |= ImGuiConfigFlags_NoMouse;
         return true;
       },
       "on: the real pointer reaches the panels (xdotool's clicks); off (a script's default): no hovering"},
      {"solve",
       "key",
       {word("KEY")},
       Waits::Never,
       &ScriptRunner::press_key,
       "a key press, as the window reports one: PageDown PageUp Left Right Space R B S L F1 H, Shift+K, Ctrl+K",
       check_key},
      {"solve", "pin", {}, Waits::Never, [](Frame& f) { return pin_run(f.ui, f.snap), true; }, "Pin this run"},
      {"solve",
       "pin-sweep",
       {},
       Waits::Never,
       [](Frame& f) { return pin_sweep(f.ui, f.snap), true; },
       "the sweep table's Pin each kappa's run"},
      {"solve",
       "calibrate",
       {integer("LEVELS", 3, kMaxCalibrationLevels)},
       Waits::Never,
       [](Frame& f) {
         f.worker.calibrate(f.integer(0));
         f.runner.generation_ = 0;
         return true;
       },
       "Calibrate, timing cycles up to LEVELS levels"},
      {"solve",
       "sweep-kappa",
       {kPath, integer("SOLVES", 1, 15, true)},
       Waits::Long,
       &ScriptRunner::sweep_kappa,
       "solve with kappa = 1, 2, 3, 4, W in turn (SOLVES of each), wait, write kappa_sweep_csv to PATH"},
      {"solve",
       "start-sweep-kappa",
       {},
       Waits::Never,
       [](Frame& f) { return f.worker.sweep_kappa(), true; },
       "press Sweep kappa and go on"},
      {"solve",
       "stop-sweep",
       {},
       Waits::Never,
       [](Frame& f) { return f.worker.stop_sweep(), true; },
       "press Stop sweep (it ends within an iteration)"},

      // --- waits: each ends in bounded time ---
      {"wait",
       "wait-cycles",
       {integer("N", 0, kMaxIterations)},
       Waits::Briefly,
       [](Frame& f) {
         if (!f.snap.error.empty() && f.current())
           throw std::invalid_argument("the solver refused the parameters: " + f.snap.error);
         return f.current() && !f.snap.calibrating && f.snap.history.size() >= std::size_t(f.integer(0));
       },
       "until the current run has done N cycles"},
      {"wait",
       "wait-done",
       {},
       Waits::Briefly,
       [](Frame& f) {
         return f.current() && !f.snap.calibrating && (f.snap.status != SolveStatus::Running || !f.snap.error.empty());
       },
       "until the current run stops (converged, limit, ...)"},
      {"wait",
       "wait-drawn",
       {integer("N", 1, double(kMaxErrorShapes))},
       Waits::Briefly,
       [](Frame& f) {
         return f.snap.options.problem == ProblemKind::Drawn &&
                parse_error_shapes(f.snap.options.drawn_error).shapes.size() >= std::size_t(f.integer(0)) &&
                f.snap.field;
       },
       "until the run solves a drawing of at least N shapes (clicks from xdotool)"},
      {"wait",
       "wait-sweeping",
       {},
       Waits::Briefly,
       [](Frame& f) { return f.snap.sweeping; },
       "until a sweep is under way"},
      {"wait",
       "wait-calibrated",
       {},
       Waits::Long,
       [](Frame& f) { return f.snap.calibration && !f.snap.calibrating; },
       "until a calibration is in use and none is running"},
      {"wait",
       "wait-predicted",
       {},
       Waits::Briefly,
       [](Frame& f) { return f.current() && f.snap.lfa_prediction != nullptr; },
       "until the current run's predictions without solving are shown"},
      {"wait",
       "wait-setting-up",
       {},
       Waits::Briefly,
       [](Frame& f) { return !f.snap.setting_up.empty(); },
       "until a hierarchy is being set up"},
      {"wait",
       "wait-stepping",
       {},
       Waits::Briefly,
       [](Frame& f) { return f.current() && f.snap.stepping; },
       "until the worker is paused inside a cycle"},
      {"wait",
       "wait-operation",
       {integer("N", 0, kMaxPosition)},
       Waits::Briefly,
       [](Frame& f) { return f.current() && f.snap.stepping && f.snap.trace_position >= f.integer(0); },
       "until stepping has reached the cycle's N-th operation"},
      {"wait",
       "wait-at-operation",
       {integer("N", 0, kMaxPosition)},
       Waits::Briefly,
       [](Frame& f) { return f.current() && f.snap.stepping && f.snap.trace_position == f.integer(0); },
       "until stepping holds at exactly the N-th operation (after a step back)"},
      {"wait",
       "frames",
       {integer("N", 0, kMaxFrames)},
       Waits::Never,
       [](Frame& f) { return f.runner.frames_left_ = f.integer(0), true; },
       "draw N frames"},
      {"wait",
       "wait-ms",
       {number("MS", 0, kMaxWaitMs)},
       Waits::Never,
       [](Frame& f) { return f.runner.wait_until_ = f.runner.now() + f.number(0) / 1000.0, true; },
       "let MS milliseconds pass"},
      {"wait",
       "wait-timeout",
       {number("S", 0.1, kLongWorkTimeout)},
       Waits::Never,
       [](Frame& f) { return f.runner.wait_timeout_ = f.number(0), true; },
       "every later wait fails after at most S seconds"},
      {"wait",
       "stress",
       {integer("N", 0, kMaxFrames)},
       Waits::Never,
       [](Frame& f) { return f.runner.stress_left_ = f.integer(0), true; },
       "N random parameter changes, one a frame"},
      {"wait",
       "quit",
       {},
       Waits::Never,
       [](Frame& f) { return f.runner.next_ = f.runner.commands_.size(), true; },
       "end the script here"},

      // --- files: what the panels' buttons write ---
      {"file",
       "screenshot",
       {kPath},
       Waits::Never,
       [](Frame& f) { return f.ui.screenshot_path = f.args[0], true; },
       "the next frame as a PNG"},
      {"file", "layout", {kPath}, Waits::Never, &ScriptRunner::write_layout, "the panels' rectangles, as JSON"},
      {"file",
       "csv",
       {kPath},
       Waits::Never,
       [](Frame& f) { return export_history_csv(f.snap, f.args[0]), true; },
       "the run's history"},
      {"file",
       "parameters",
       {kPath},
       Waits::Never,
       [](Frame& f) { return export_parameters(f.ui.params, f.args[0]), true; },
       "the parameters file the Parameters button writes (kcycle solve --config)"},
      {"file",
       "figure",
       {kPath},
       Waits::Never,
       [](Frame& f) {
         const std::string notice = export_cycle_figure(f.snap.options, f.args[0]);
         if (notice.rfind("wrote ", 0) != 0) throw std::invalid_argument(notice);
         std::printf("%s\n", notice.c_str());
         return true;
       },
       "Figure 2.1 at the current levels, PATH.svg or PATH.png"},
      {"file",
       "record",
       {word("FOLDER"), integer("OPERATIONS", 1, 100'000), integer("FRAMES", 1, 600, true)},
       Waits::Long,
       &ScriptRunner::record,
       "step OPERATIONS operations, FRAMES frames each, as PNG frames in FOLDER (and FOLDER.mp4, .gif)"},

      // --- what the frame shows, printed ---
      {"print", "print-summary", {}, Waits::Never, &ScriptRunner::print_summary, "the run's parameters and last cycle"},
      {"print",
       "print-controls",
       {},
       Waits::Never,
       [](Frame& f) {
         for (const DrawnControl& c : f.ui.controls_drawn)
           std::printf("control %s\t%s%s\n", c.label.c_str(), c.tooltip.c_str(),
                       c.in_view ? "" : "\t(out of view: its panel must scroll to it)");
         std::fflush(stdout);
         return true;
       },
       "every control the last frame drew, with its tooltip"},
      {"print",
       "print-tooltip",
       {text("LABEL")},
       Waits::Briefly,
       &ScriptRunner::print_tooltip,
       "the tooltip of the control labelled LABEL (fails if it has none)"},
      {"print",
       "print-field-hash",
       {},
       Waits::Never,
       [](Frame& f) {
         const FieldImage* field = f.snap.field.get();
         if (!field || field->values.empty()) {
           std::printf("field: none on the host\n");
           return true;
         }
         std::uint64_t hash = 1469598103934665603ull;  // FNV-1a over the floats' bytes
         const auto* bytes = reinterpret_cast<const unsigned char*>(field->values.data());
         for (std::size_t i = 0; i < field->values.size() * sizeof(float); ++i)
           hash = (hash ^ bytes[i]) * 1099511628211ull;
         std::printf("field: level %d, %dx%d, hash %016llx\n", field->level, field->nx, field->ny,
                     static_cast<unsigned long long>(hash));
         return true;
       },
       "the shown field's level, size and a hash of its values"},
      {"print",
       "print-stepping",
       {},
       Waits::Never,
       &ScriptRunner::print_stepping,
       "the operation just done, its level and the level the field shows"},
      {"print",
       "describe",
       {},
       Waits::Never,
       [](Frame& f) {
         const Trace* trace = f.snap.cycle_trace.get();
         const int k = f.snap.trace_position;
         if (!f.snap.stepping || !trace || k < 1 || std::size_t(k) > trace->size())
           std::printf("narration: not stepping\n");
         else {
           const std::size_t op = std::size_t(k - 1);
           const int line = algorithm3_line(*trace, op);
           std::printf("narration: operation %d: %s\n  call stack: %s\n  algorithm 3: %s\n", k,
                       narrate(*trace, op, f.snap.options).c_str(), describe_call_stack(call_stack(*trace, op)).c_str(),
                       line < 0 ? "" : algorithm3_lines()[std::size_t(line)].c_str());
         }
         std::fflush(stdout);
         return true;
       },
       "the narration of the operation just done"},
      {"print",
       "print-pins",
       {},
       Waits::Never,
       [](Frame& f) {
         for (const PinnedRun& pin : f.ui.pinned) std::printf("pinned %s\n", pinned_label(pin, f.snap.options).c_str());
         std::printf("x axis: 0 to %.6g %s\n", f.ui.convergence_x_end, f.ui.x_in_seconds ? "seconds" : "cycles");
         std::fflush(stdout);
         return true;
       },
       "the pinned runs' legend lines"},
      {"print",
       "print-text",
       {},
       Waits::Briefly,
       &ScriptRunner::print_text,
       "every text the next frame draws, as a person reads it"},
      {"print",
       "check-text-fits",
       {text("[across] WINDOW", true)},
       Waits::Never,
       &ScriptRunner::check_text_fits,
       "fails, naming each, if a text of the last frame (of WINDOW; at its sides only: across) is cut off; fails "
       "if the frame has no WINDOW"},
      {"print",
       "fps-reset",
       {},
       Waits::Never,
       [](Frame& f) {
         f.runner.fps_start_ = f.runner.now();
         f.runner.fps_frames_ = 0;
         return true;
       },
       "start counting frames"},
      {"print",
       "fps-report",
       {},
       Waits::Never,
       [](Frame& f) {
         const double seconds = f.runner.now() - f.runner.fps_start_;
         const ImDrawData* frame = ImGui::GetDrawData();  // the last frame's geometry: what llvmpipe rasterizes
         std::printf("fps: %.1f (%ld frames in %.2f s) at %d levels, %zu cycles done; the last frame %d vertices\n",
                     f.runner.fps_frames_ / seconds, f.runner.fps_frames_, seconds, f.snap.options.levels,
                     f.snap.history.size(), frame ? frame->TotalVtxCount : 0);
         std::fflush(stdout);
         return true;
       },
       "frames a second since fps-reset"},
      {"print",
       "print-field-path",
       {},
       Waits::Never,
       [](Frame& f) {  // how the last frame's field reached its texture
         const std::string_view backend = f.snap.run ? to_string(f.snap.run->target.backend) : "";
         std::printf("backend: %.*s; field: %s\n", int(backend.size()), backend.data(), f.ui.field_path.c_str());
         std::fflush(stdout);
         return true;
       },
       "the backend and how the field reached its texture"},

      // --- the view ---
      {"view",
       "ui-scale",
       {word("X")},
       Waits::Never,
       [](Frame& f) { return set_view_setting_from_script(f.ui, "ui-scale", f.args[0]), true; },
       "fonts and sizes times X, for a projector (= set ui-scale X)",
       check_ui_scale},
  };
  return table;
}

// `set NAME VALUE`: a solver option through the library's option table (the same names and
// messages as the CLI), or one of the view's settings (checked when the script was read).
bool ScriptRunner::set(Frame& f) {
  const std::string& name = f.args[0];
  const std::string& value = f.args[1];
  if (find_option(name)) {
    set_option(f.ui.params, {name, value, "set " + name});
    f.runner.generation_ = f.worker.set_options(f.ui.params);
    return true;
  }
  set_view_setting_from_script(f.ui, name, value);
  // The worker is told at once, not at the frame's end: a `run` on the next line of the same
  // frame must not start at full speed (the dashboard repeats it, to the same effect).
  f.worker.set_view(f.ui.view);
  f.worker.set_speed(f.ui.speed);
  return true;
}

bool ScriptRunner::draw(Frame& f) {
  if (f.args[0] == "clear") {  // the Parameters panel's Clear drawing
    f.ui.params.problem = ProblemKind::Drawn;
    f.ui.params.drawn_error.clear();
    return true;  // nothing to solve until the first shape
  }
  const bool negative = f.has(3);
  if (f.args[0] == "mode")
    add_drawn_shape(f.ui, mode_shape(f.integer(1), f.integer(2), negative));
  else
    add_drawn_shape(
        f.ui, brush_shape(f.ui, f.args[0] == "bump" ? Brush::Bump : Brush::Rough, f.number(1), f.number(2), negative));
  f.ui.send_params = false;
  f.runner.generation_ = f.worker.set_options(f.ui.params);
  return true;
}

bool ScriptRunner::print_tooltip(Frame& f) {
  const std::string& label = f.args[0];
  if (f.ui.tooltip_probe.empty()) {
    f.ui.tooltip_probe = label;
    f.ui.tooltip_found.clear();
    f.runner.frames_left_ = 1;  // let one frame draw the panels with the probe set
    return false;
  }
  const std::string found = f.ui.tooltip_found;
  f.ui.tooltip_probe.clear();
  if (found.empty()) throw std::invalid_argument("no tooltip for the control '" + label + "'");
  std::printf("tooltip %s: %s\n", label.c_str(), found.c_str());
  std::fflush(stdout);
  return true;
}

bool ScriptRunner::sweep_kappa(Frame& f) {
  if (f.runner.sweeps_before_ < 0) {
    f.runner.sweeps_before_ = f.snap.kappa_sweeps;
    f.worker.sweep_kappa(f.has(1) ? f.integer(1) : 0);
    f.runner.generation_ = 0;
    return false;
  }
  if (f.snap.kappa_sweeps <= f.runner.sweeps_before_ || f.snap.sweeping) return false;
  f.runner.sweeps_before_ = -1;
  if (!f.snap.kappa_sweep) throw std::invalid_argument(f.snap.sweep_note);
  write_file_replacing(f.args[0], kappa_sweep_csv(*f.snap.kappa_sweep));
  return true;
}

bool ScriptRunner::record(Frame& f) {
  if (!f.runner.record_started_) {
    RecordRequest r;
    r.folder = f.args[0];
    r.operations = f.integer(1);
    if (f.has(2)) r.frames_per_step = f.integer(2);
    f.ui.notice.clear();
    f.ui.record_request = r;
    f.runner.record_started_ = true;
    return false;
  }
  if (f.ui.record_request || f.ui.recording) return false;  // under way
  f.runner.record_started_ = false;
  if (f.ui.notice.rfind("wrote ", 0) != 0) throw std::runtime_error(f.ui.notice);
  std::printf("%s\n", f.ui.notice.c_str());
  std::fflush(stdout);
  return true;
}

bool ScriptRunner::print_text(Frame& f) {
  if (!f.runner.text_requested_) {
    f.ui.capture_text = true;
    f.runner.text_requested_ = true;
    return false;
  }
  if (f.ui.capture_text) return false;  // that frame has not been drawn yet
  f.runner.text_requested_ = false;
  std::printf("--- text shown ---\n%s\n--- end of text ---\n", f.ui.shown_text.c_str());
  std::fflush(stdout);
  return true;
}

bool ScriptRunner::check_text_fits(Frame& f) {
  std::string window = f.has(0) ? f.args[0] : "";  // window names have spaces
  const bool across = window == "across" || window.rfind("across ", 0) == 0;
  if (across) window = window.size() > 7 ? window.substr(7) : "";
  if (const std::vector<std::string> drawn = drawn_window_names();
      !window.empty() && std::none_of(drawn.begin(), drawn.end(), [&](const std::string& name) {
        return window == name || window.rfind(name + "/", 0) == 0;  // a panel, or a child region of one
      })) {
    std::string names;
    for (const std::string& name : drawn) names += (names.empty() ? "'" : ", '") + name + "'";
    throw std::runtime_error("no window named '" + window + "' in the last frame: it checks nothing (drawn: " + names +
                             ")");
  }
  const std::vector<std::string> cut = texts_cut_off(window, across);
  std::string lines;
  for (const std::string& line : cut) lines += "\n  " + line;
  if (!cut.empty()) throw std::runtime_error(std::to_string(cut.size()) + " texts cut off:" + lines);
  std::printf("text fits: every text of the frame is wholly visible\n");
  std::fflush(stdout);
  return true;
}

bool ScriptRunner::write_layout(Frame& f) {
  std::ostringstream out;
  out << "{\n";
  const auto& rects = f.ui.panel_rects;
  for (std::size_t k = 0; k < rects.size(); ++k)
    out << "  \"" << rects[k].name << "\": [" << rects[k].x << ", " << rects[k].y << ", " << rects[k].w << ", "
        << rects[k].h << "]" << (k + 1 < rects.size() ? "," : "") << "\n";
  out << "}\n";
  write_file_replacing(f.args[0], out.str());
  return true;
}

// A key press, as the window would report it (lecture_keys.hpp).
bool ScriptRunner::press_key(Frame& f) {
  f.ui.key_presses.push_back(key_press(f.args[0]));
  return true;
}

// What stepping shows: the operation just done, where, and the level the field shows.
bool ScriptRunner::print_stepping(Frame& f) {
  const Trace* trace = f.snap.cycle_trace.get();
  if (!f.snap.stepping || !trace || f.snap.trace_position < 1 || std::size_t(f.snap.trace_position) > trace->size()) {
    std::printf("not stepping\n");
  } else {
    const TraceEvent& e = (*trace)[std::size_t(f.snap.trace_position - 1)];
    std::printf("stepping: operation %d is %s on level %d; field shows level %d\n", f.snap.trace_position,
                std::string(to_string(e.kind)).c_str(), int(e.level), f.snap.field ? f.snap.field->level : 0);
  }
  std::fflush(stdout);
  return true;
}

bool ScriptRunner::print_summary(Frame& f) {
  const SolverOptions& o = f.snap.options;
  std::printf("%d levels, eps=%g, angle=%g, kappa=%s, %s(%d,%d), %s: %s\n", o.levels, o.eps, o.angle_degrees,
              kappa_to_string(o.cycle.counter).c_str(), std::string(to_string(o.smoother)).c_str(), o.nu1, o.nu2,
              std::string(to_string(o.solver)).c_str(), f.snap.message.c_str());
  if (!f.snap.history.empty()) {
    const IterationRecord& last = f.snap.history.back();
    std::printf("last cycle: error %.3e, residual %.3e, factor %.4f; %.3f ms per cycle (median)\n", last.error_norm,
                last.residual_norm, last.factor, f.snap.seconds_per_cycle * 1e3);
  }
  std::fflush(stdout);
  return true;
}

}  // namespace kcycle::gui
