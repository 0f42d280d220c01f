#include "script.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include "drawing.hpp"
#include "kcycle/io/file_input.hpp"
#include "kcycle/io/file_output.hpp"
#include "kcycle/io/nearest_name.hpp"
#include "kcycle/io/options_io.hpp"
#include "kcycle/solve/enum_names.hpp"
#include "lessons.hpp"
#include "narration.hpp"
#include "panels.hpp"
#include "text_fit.hpp"
#include "view_settings.hpp"

namespace kcycle::gui {

namespace {

constexpr double kWaitTimeout = 120.0;
constexpr double kLongWorkTimeout = 480.0;

// A command's argument refused: bad input, so the script exits 2, as the CLI does.
struct BadArgument : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// The bounds of the waits and repetitions a script may ask for: each line ends in bounded time.
constexpr double kMaxWaitMs = 600'000;  // wait-ms: ten minutes
constexpr int kMaxFrames = 100'000;     // frames, stress: about half an hour at 60 fps
constexpr int kMaxCalibrationLevels = 12;

double number(const std::string& s) {
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(s, &used);
  } catch (const std::exception&) {
    throw BadArgument("not a number: " + quoted_value(s));
  }
  if (used != s.size() || !std::isfinite(v)) throw BadArgument("not a finite number: " + quoted_value(s));
  return v;
}

// args[i], a number from lo to hi.
double number_in(const std::vector<std::string>& args, std::size_t i, double lo, double hi) {
  const double v = number(args[i]);
  if (v < lo || v > hi) {
    std::ostringstream range;
    range << "must be from " << lo << " to " << hi << " (got " << quoted_value(args[i]) << ")";
    throw BadArgument(range.str());
  }
  return v;
}

// args[i], a whole number from lo to hi.
int integer_in(const std::vector<std::string>& args, std::size_t i, int lo, int hi) {
  const double v = number_in(args, i, lo, hi);
  if (v != std::floor(v)) throw BadArgument("must be a whole number (got " + quoted_value(args[i]) + ")");
  return int(v);
}

// A view setting (`set KEY VALUE`, `ui-scale VALUE`) within its slider's range.
void set_view_setting_from_script(UiState& ui, std::string_view key, const std::string& value) {
  try {
    set_view_setting(ui, *find_view_setting(key), number(value));
  } catch (const std::invalid_argument& e) {
    throw BadArgument(e.what());
  }
}

void need(const std::vector<std::string>& args, std::size_t n) {
  if (args.size() < n) throw BadArgument("needs " + std::to_string(n) + " argument(s)");
}

}  // namespace

// What one command does, given the frame's state. Returns false while it waits (it is then
// tried again next frame, within the timeout); throws std::exception to fail the script.
struct ScriptRunner::Frame {
  ScriptRunner& runner;
  UiState& ui;
  SolverWorker& worker;
  const Snapshot& snap;
  const std::vector<std::string>& args;
  int line;
  // Waits refer to the run started by the script's last parameter change (or any run).
  bool current() const { return runner.generation_ == 0 || snap.generation >= runner.generation_; }
};

const std::vector<ScriptRunner::Verb>& ScriptRunner::verbs() {
  static const std::vector<Verb> table = {
      {"set", &ScriptRunner::set},
      {"run", [](Frame& f) { return f.worker.run(), true; }},
      {"pause", [](Frame& f) { return f.worker.pause(), true; }},
      {"step", [](Frame& f) { return f.worker.step_cycle(), true; }},
      {"step-op", [](Frame& f) { return f.worker.step_operation(), true; }},
      {"step-relax", [](Frame& f) { return f.worker.step_operation(SolverWorker::StepTo::Relaxation), true; }},
      {"step-call", [](Frame& f) { return f.worker.step_operation(SolverWorker::StepTo::Call), true; }},
      {"autoplay",
       [](Frame& f) {
         need(f.args, 1);
         const double rate = number_in(f.args, 0, 0, 1000);  // operations a second
         if (rate > 0) f.ui.autoplay_rate = float(rate);
         f.worker.autoplay(rate);
         return true;
       }},
      {"draw",  // problem 4's drawing, as a click draws it: bump|rough X Y [-], mode K L [-], or clear (drawing.hpp)
       [](Frame& f) {
         need(f.args, 1);
         if (f.args[0] == "clear") {  // the Parameters panel's Clear drawing
           f.ui.params.problem = ProblemKind::Drawn;
           f.ui.params.drawn_error.clear();
           return true;  // nothing to solve until the first shape
         }
         need(f.args, 3);
         const bool negative = f.args.size() > 3 && f.args[3] == "-";
         const std::string& kind = f.args[0];
         if (kind == "mode")
           add_drawn_shape(f.ui,
                           mode_shape(integer_in(f.args, 1, 1, 1 << 16), integer_in(f.args, 2, 1, 1 << 16), negative));
         else if (kind == "bump" || kind == "rough")
           add_drawn_shape(f.ui, brush_shape(f.ui, kind == "bump" ? Brush::Bump : Brush::Rough,
                                             number_in(f.args, 1, 0, 1), number_in(f.args, 2, 0, 1), negative));
         else
           throw std::invalid_argument("draw: bump X Y, rough X Y or mode K L (then - for a negative one)");
         f.ui.send_params = false;
         f.runner.generation_ = f.worker.set_options(f.ui.params);
         return true;
       }},
      {"mouse",  // on: the real pointer reaches the panels (xdotool's clicks); off, a script's default: no hovering
       [](Frame& f) {
         need(f.args, 1);
         if (f.args[0] != "on" && f.args[0] != "off") throw std::invalid_argument("mouse: on or off");
         ImGuiIO& io = ImGui::GetIO();
         if (f.args[0] == "on")
           io.ConfigFlags &= ~ImGuiConfigFlags_NoMouse;
         else
           io.ConfigFlags |= ImGuiConfigFlags_NoMouse;
         return true;
       }},
      {"wait-drawn",  // until the run solves a drawing of at least N shapes (clicks from xdotool)
       [](Frame& f) {
         need(f.args, 1);
         const std::size_t n = std::size_t(integer_in(f.args, 0, 1, int(kMaxErrorShapes)));
         return f.snap.options.problem == ProblemKind::Drawn &&
                parse_error_shapes(f.snap.options.drawn_error).shapes.size() >= n && f.snap.field;
       }},
      {"lesson",  // a teaching preset, as the Parameters panel's lesson combo applies it
       [](Frame& f) {
         need(f.args, 1);
         const int k = integer_in(f.args, 0, 0, int(lessons().size()) - 1);
         apply_lesson(f.ui, k);
         f.worker.pause();
         f.worker.set_view(f.ui.view);
         f.runner.generation_ = f.worker.set_options(f.ui.params);
         return true;
       }},
      {"print-controls",  // every control the last frame drew: "control LABEL<tab>TOOLTIP[<tab>(out of view...)]"
       [](Frame& f) {
         for (const DrawnControl& c : f.ui.controls_drawn)
           std::printf("control %s\t%s%s\n", c.label.c_str(), c.tooltip.c_str(),
                       c.in_view ? "" : "\t(out of view: its panel must scroll to it)");
         std::fflush(stdout);
         return true;
       }},
      {"print-tooltip",  // the tooltip of the control labelled ARGS (shown as if hovered)
       [](Frame& f) {
         need(f.args, 1);
         std::string label;
         for (const std::string& w : f.args) label += (label.empty() ? "" : " ") + w;
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
       }},
      {"reset", [](Frame& f) { return f.runner.generation_ = f.worker.reset(), true; }},
      {"pin",
       [](Frame& f) {
         pin_run(f.ui, f.snap);
         return true;
       }},
      {"pin-sweep",  // the sweep table's "Pin each kappa's run"
       [](Frame& f) {
         pin_sweep(f.ui, f.snap);
         return true;
       }},
      {"calibrate",
       [](Frame& f) {
         need(f.args, 1);
         f.worker.calibrate(integer_in(f.args, 0, 3, kMaxCalibrationLevels));  // the largest level count
         f.runner.generation_ = 0;
         return true;
       }},
      {"wait-cycles",
       [](Frame& f) {
         need(f.args, 1);
         if (!f.snap.error.empty() && f.current())
           throw std::invalid_argument("the solver refused the parameters: " + f.snap.error);
         return f.current() && !f.snap.calibrating &&
                f.snap.history.size() >= std::size_t(integer_in(f.args, 0, 0, kMaxIterations));
       }},
      {"wait-done",
       [](Frame& f) {
         return f.current() && !f.snap.calibrating && (f.snap.status != SolveStatus::Running || !f.snap.error.empty());
       }},
      {"sweep-kappa",  // runs the sweep, waits for it and writes its rows
       [](Frame& f) {
         need(f.args, 1);
         if (f.runner.sweeps_before_ < 0) {
           f.runner.sweeps_before_ = f.snap.kappa_sweeps;
           const int solves = f.args.size() > 1 ? integer_in(f.args, 1, 1, 15) : 0;  // of each kappa
           f.worker.sweep_kappa(solves);
           f.runner.generation_ = 0;
           return false;
         }
         if (f.snap.kappa_sweeps <= f.runner.sweeps_before_ || f.snap.sweeping) return false;
         f.runner.sweeps_before_ = -1;
         if (!f.snap.kappa_sweep) throw std::invalid_argument(f.snap.sweep_note);
         write_file_replacing(f.args[0], kappa_sweep_csv(*f.snap.kappa_sweep));
         return true;
       }},
      {"start-sweep-kappa",  // asks for the sweep and goes on (Sweep kappa pressed)
       [](Frame& f) { return f.worker.sweep_kappa(), true; }},
      {"stop-sweep", [](Frame& f) { return f.worker.stop_sweep(), true; }},  // Stop sweep pressed
      {"wait-sweeping", [](Frame& f) { return f.snap.sweeping; }},
      {"wait-calibrated", [](Frame& f) { return f.snap.calibration && !f.snap.calibrating; }},
      {"wait-predicted", [](Frame& f) { return f.current() && f.snap.lfa_prediction != nullptr; }},
      {"wait-setting-up", [](Frame& f) { return !f.snap.setting_up.empty(); }},
      {"wait-stepping", [](Frame& f) { return f.current() && f.snap.stepping; }},
      {"wait-operation",  // until stepping has reached operation N of the cycle
       [](Frame& f) {
         need(f.args, 1);
         return f.current() && f.snap.stepping && f.snap.trace_position >= integer_in(f.args, 0, 0, 1 << 30);
       }},
      {"wait-at-operation",
       [](Frame& f) {
         need(f.args, 1);
         return f.current() && f.snap.stepping && f.snap.trace_position == integer_in(f.args, 0, 0, 1 << 30);
       }},
      {"key", &ScriptRunner::press_key},
      {"print-field-hash",
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
       }},
      {"print-stepping", &ScriptRunner::print_stepping},
      {"describe",  // the narration line of the current step
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
       }},
      {"frames",
       [](Frame& f) {
         need(f.args, 1);
         f.runner.frames_left_ = integer_in(f.args, 0, 0, kMaxFrames);
         return true;
       }},
      {"wait-timeout",  // no wait after this one lasts longer than S seconds (the fuzz test's bound)
       [](Frame& f) {
         need(f.args, 1);
         f.runner.wait_timeout_ = number_in(f.args, 0, 0.1, kLongWorkTimeout);
         return true;
       }},
      {"wait-ms",
       [](Frame& f) {
         need(f.args, 1);
         f.runner.wait_until_ = f.runner.now() + number_in(f.args, 0, 0, kMaxWaitMs) / 1000.0;
         return true;
       }},
      {"screenshot",
       [](Frame& f) {
         need(f.args, 1);
         f.ui.screenshot_path = f.args[0];
         return true;
       }},
      {"layout", &ScriptRunner::write_layout},
      {"csv",
       [](Frame& f) {
         need(f.args, 1);
         export_history_csv(f.snap, f.args[0]);
         return true;
       }},
      {"figure",  // the Cycle shapes panel's "Save as figure", to PATH.svg or PATH.png
       [](Frame& f) {
         need(f.args, 1);
         const std::string notice = export_cycle_figure(f.snap.options, f.args[0]);
         if (notice.rfind("wrote ", 0) != 0) throw std::invalid_argument(notice);
         std::printf("%s\n", notice.c_str());
         return true;
       }},
      {"record",
       [](Frame& f) {
         if (!f.runner.record_started_) {
           need(f.args, 2);
           RecordRequest r;
           r.folder = f.args[0];
           r.operations = integer_in(f.args, 1, 1, 100'000);
           if (f.args.size() > 2) r.frames_per_step = integer_in(f.args, 2, 1, 600);
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
       }},
      {"parameters",  // the file the Parameters button writes
       [](Frame& f) {
         need(f.args, 1);
         export_parameters(f.ui.params, f.args[0]);
         return true;
       }},
      {"print-summary", &ScriptRunner::print_summary},
      {"ui-scale",  // fonts and sizes, as the Controls slider sets them
       [](Frame& f) {
         need(f.args, 1);
         set_view_setting_from_script(f.ui, "ui-scale", f.args[0]);
         return true;
       }},
      {"print-pins",  // the pinned runs' legend lines, as the convergence plot draws them
       [](Frame& f) {
         for (const PinnedRun& pin : f.ui.pinned) std::printf("pinned %s\n", pinned_label(pin, f.snap.options).c_str());
         std::printf("x axis: 0 to %.6g %s\n", f.ui.convergence_x_end, f.ui.x_in_seconds ? "seconds" : "cycles");
         std::fflush(stdout);
         return true;
       }},
      {"print-text",  // every text the next frame draws, as a person reads it
       [](Frame& f) {
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
       }},
      {"check-text-fits",  // every text of the last frame (of one window) wholly visible (text_fit.hpp)
       [](Frame& f) {
         const bool across = !f.args.empty() && f.args[0] == "across";
         std::string window;  // the rest of the line: window names have spaces
         for (std::size_t k = across ? 1 : 0; k < f.args.size(); ++k) window += (window.empty() ? "" : " ") + f.args[k];
         const std::vector<std::string> cut = texts_cut_off(window, across);
         std::string lines;
         for (const std::string& line : cut) lines += "\n  " + line;
         if (!cut.empty()) throw std::runtime_error(std::to_string(cut.size()) + " texts cut off:" + lines);
         std::printf("text fits: every text of the frame is wholly visible\n");
         std::fflush(stdout);
         return true;
       }},
      {"fps-reset",
       [](Frame& f) {
         f.runner.fps_start_ = f.runner.now();
         f.runner.fps_frames_ = 0;
         return true;
       }},
      {"fps-report",
       [](Frame& f) {
         const double seconds = f.runner.now() - f.runner.fps_start_;
         const ImDrawData* frame = ImGui::GetDrawData();  // the last frame's geometry: what llvmpipe rasterizes
         std::printf("fps: %.1f (%ld frames in %.2f s) at %d levels, %zu cycles done; the last frame %d vertices\n",
                     f.runner.fps_frames_ / seconds, f.runner.fps_frames_, seconds, f.snap.options.levels,
                     f.snap.history.size(), frame ? frame->TotalVtxCount : 0);
         std::fflush(stdout);
         return true;
       }},
      {"print-field-path",
       [](Frame& f) {  // how the last frame's field reached its texture
         const std::string_view backend = f.snap.target ? to_string(f.snap.target->backend) : "";
         std::printf("backend: %.*s; field: %s\n", int(backend.size()), backend.data(), f.ui.field_path.c_str());
         std::fflush(stdout);
         return true;
       }},
      {"stress",
       [](Frame& f) {
         need(f.args, 1);
         f.runner.stress_left_ = integer_in(f.args, 0, 0, kMaxFrames);
         return true;
       }},
      {"quit",
       [](Frame& f) {
         f.runner.next_ = f.runner.commands_.size();
         return true;
       }},
  };
  return table;
}

ScriptRunner::ScriptRunner(const std::string& path) {
  std::istringstream in(read_input_file(path, "script"));
  std::string text;
  for (int line = 1; std::getline(in, text); ++line) {
    std::istringstream words(text);
    Command c{nullptr, "", {}, line};
    if (!(words >> c.verb) || c.verb[0] == '#') continue;
    for (std::string w; words >> w;) c.args.push_back(w);
    for (const Verb& v : verbs())
      if (c.verb == v.name) c.action = v.action;
    if (!c.action) {
      std::vector<std::string> names;
      for (const Verb& v : verbs()) names.emplace_back(v.name);
      throw std::runtime_error(path + ":" + std::to_string(line) + ": unknown command " + quoted_value(c.verb) +
                               did_you_mean(c.verb, names));
    }
    commands_.push_back(c);
  }
  fps_start_ = now();
}

double ScriptRunner::now() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void ScriptRunner::fail(const Command& c, const std::string& why, int exit_code) {
  std::fprintf(stderr, "kcycle-gui: script line %d (%s): %s\n", c.line, c.verb.c_str(), why.c_str());
  exit_code_ = exit_code;
  next_ = commands_.size();
}

void ScriptRunner::stress_change(UiState& ui, SolverWorker& worker) {
  SolverOptions o = ui.params;
  o.levels = std::uniform_int_distribution<int>(3, 9)(rng_);
  const int k = std::uniform_int_distribution<int>(1, 6)(rng_);
  o.cycle = {CycleType::Kappa, k == 6 ? kKappaW : k};
  o.eps = std::pow(10.0, -std::uniform_int_distribution<int>(0, 5)(rng_));
  o.angle_degrees = std::uniform_int_distribution<int>(0, 90)(rng_);
  const auto& smoothers = name_table<Smoother>();
  o.smoother = smoothers[std::uniform_int_distribution<std::size_t>(0, smoothers.size() - 1)(rng_)].value;
  o.coarsening = std::uniform_int_distribution<int>(0, 3)(rng_) == 0 ? Coarsening::SemiY : Coarsening::Full;
  o.solver = SolverKind(std::uniform_int_distribution<int>(0, 2)(rng_));
  if (std::uniform_int_distribution<int>(0, 9)(rng_) == 0) worker.step_operation();
  if (std::uniform_int_distribution<int>(0, 9)(rng_) == 0) worker.run();
  ui.params = o;
  generation_ = worker.set_options(o);
}

bool ScriptRunner::advance(UiState& ui, SolverWorker& worker, const Snapshot& snap) {
  ++fps_frames_;
  if (stress_left_ > 0) {  // one random change a frame, while the worker solves
    stress_change(ui, worker);
    --stress_left_;
    return true;
  }
  if (frames_left_ > 0) {
    --frames_left_;
    return true;
  }
  if (wait_until_ > 0) {
    if (now() < wait_until_) return true;
    wait_until_ = 0;
  }
  while (next_ < commands_.size()) {
    const Command& c = commands_[next_];
    bool done = true;
    try {
      Frame frame{*this, ui, worker, snap, c.args, c.line};
      done = c.action(frame);
    } catch (const BadArgument& e) {
      fail(c, e.what(), 2);
    } catch (const InvalidOptions& e) {
      fail(c, e.what(), 2);
    } catch (const std::exception& e) {
      fail(c, e.what());
    }
    if (exit_code_ != 0) return false;
    if (!done) {  // a wait: try again next frame, within the timeout
      if (wait_started_ < 0) wait_started_ = now();
      // A kappa sweep or a calibration is minutes of solving under a sanitizer on a busy
      // machine; every other wait is for a cycle or a frame.
      const bool long_work = c.verb == "sweep-kappa" || c.verb == "wait-calibrated" || c.verb == "record";
      const double limit = std::min(long_work ? kLongWorkTimeout : kWaitTimeout, wait_timeout_);
      if (now() - wait_started_ > limit) {
        fail(c, "timed out after " + std::to_string(int(limit)) + " s");
        return false;
      }
      return true;
    }
    wait_started_ = -1;
    ++next_;
    if (frames_left_ > 0 || wait_until_ > 0 || stress_left_ > 0 || !ui.screenshot_path.empty()) return true;
  }
  return false;
}

// `set KEY VALUE`: a solver option through the library's option table (the same names and
// messages as the CLI), or one of the view's settings.
bool ScriptRunner::set(Frame& f) {
  need(f.args, 2);
  const std::string& name = f.args[0];
  const std::string& value = f.args[1];
  if (find_option(name)) {
    set_option(f.ui.params, {name, value, "set " + name});
    f.runner.generation_ = f.worker.set_options(f.ui.params);
    return true;
  }
  const ViewSetting* setting = find_view_setting(name);
  if (!setting)
    throw BadArgument("unknown parameter " + name + " (solver options: " + option_keys() +
                      "; view: " + view_setting_keys() + ")");
  set_view_setting_from_script(f.ui, name, value);  // the main loop tells the worker
  return true;
}

bool ScriptRunner::write_layout(Frame& f) {
  need(f.args, 1);
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

// What stepping shows: the operation just done, where, and the level the field shows.
// A key press, as the window would report it (lecture_keys.hpp).
bool ScriptRunner::press_key(Frame& f) {
  need(f.args, 1);
  std::string name = f.args[0];
  KeyPress press;
  for (const auto& [prefix, flag] : {std::pair<const char*, bool*>{"Shift+", &press.shift}, {"Ctrl+", &press.ctrl}})
    if (name.rfind(prefix, 0) == 0) name = name.substr(std::string(prefix).size()), *flag = true;
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
  const auto key = std::find_if(keys.begin(), keys.end(), [&](const auto& k) { return k.first == name; });
  if (key == keys.end()) throw std::invalid_argument("unknown key: " + f.args[0]);
  press.key = key->second;
  f.ui.key_presses.push_back(press);
  return true;
}

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
