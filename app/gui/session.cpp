#include "session.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "bash_completion.hpp"
#include "calibration_cache.hpp"
#include "kcycle/backends/cpu/available_cores.hpp"
#include "kcycle/core/version.hpp"
#include "kcycle/io/file_output.hpp"
#include "kcycle/io/options_io.hpp"
#include "lecture_keys.hpp"
#include "man_page.hpp"
#include "script.hpp"

namespace kcycle::gui {

std::filesystem::path config_dir() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  const char* home = std::getenv("HOME");
  std::filesystem::path dir =
      xdg && *xdg ? std::filesystem::path(xdg) : std::filesystem::path(home ? home : ".") / ".config";
  return dir / "kcycle";
}

namespace {

SolverOptions default_parameters() {
  SolverOptions o;
  o.levels = 7;
  o.eps = 1e-4;
  o.angle_degrees = 45;
  o.cycle = {CycleType::Kappa, 2};
  o.problem = ProblemKind::ZeroMeanRandomError;  // both halves of the colour map from the start
  o.max_iterations = 100000;
  return o;
}

// kcycle-gui(1): the parser's options, the keys, the script's verbs and the files a session keeps.
std::string manual(const CLI::App& app) {
  cli_docs::ManPage page;
  page.name = "kcycle-gui";
  page.summary = "watch multigrid kappa-cycles solve rotated anisotropic diffusion";
  page.version = std::string(version());
  page.sections = {
      {"USE",
       "The window opens paused on the initial error. Step through a cycle (Operation, Relaxation, Call): the cycle "
       "diagram marks each relaxation with a circle and each recursive call with an X, the narration says which line "
       "of Algorithm 3 ran, and the error field shows the level the operation wrote. Run solves to the tolerance; "
       "the convergence and time panels plot what was measured beside what the models predict. Lessons set up the "
       "classic demonstrations; the UI scale makes the window readable on a projector; B (or --lecture) switches to "
       "the lecture layout.\n\nWithout a display, run it under xvfb-run with --script and --screenshot."},
      {"KEYS", lecture_keys_text()},
      {"SCRIPT VERBS",
       "A script (--script FILE) has one verb per line; # starts a comment. These are its verbs:\n\n" +
           [] {  // indented, so that the page keeps the table's columns
             std::string verbs, line;
             std::istringstream in(ScriptRunner::verbs_help());
             while (std::getline(in, line)) verbs += line.empty() ? "\n" : "  " + line + "\n";
             return verbs;
           }()},
      {"FILES",
       "$XDG_CONFIG_HOME/kcycle (else ~/.config/kcycle): last-parameters.toml and ui-scale.txt, the last "
       "session's parameters and UI scale (not kept under --script).\n\n$XDG_CACHE_HOME/kcycle (else "
       "~/.cache/kcycle, or --cache-dir): the calibration cache, one time model per configuration timed.\n\n"
       "kcycle-calibration.json in the working folder: a machine's time model from kcycle calibrate (--calibration)."},
      {"EXAMPLES",
       "  kcycle-gui\n  kcycle-gui --lecture --width 1920 --height 1080\n"
       "  xvfb-run -a kcycle-gui --script session.txt --screenshot shot.png"}};
  page.see_also = {"kcycle(1)", "xvfb-run(1)", "/usr/share/doc/kcycle/visualizer.md"};
  return cli_docs::man_page(cli_docs::describe(app), page);
}

}  // namespace

std::optional<int> parse_gui_options(int argc, char** argv, GuiOptions& o) {
  CLI::App app{"kcycle-gui: watch multigrid kappa-cycles solve rotated anisotropic diffusion"};
  app.name("kcycle-gui");
  o.threads = std::max(1, available_cores() - 1);
  o.cache_dir = default_cache_dir().string();
  std::string interop = "on", start, auto_calibrate;
  app.add_option("--script", o.script_path, "Drive the UI from a script (--script-verbs lists its verbs), then exit");
  bool list_verbs = false;
  app.add_flag("--script-verbs", list_verbs, "Print the script's verbs, their arguments and what they do, and exit");
  app.add_option("--screenshot", o.screenshot_path, "Write a PNG of the window when the script ends");
  app.add_option("--config", o.config_path, "Start with these parameters (a file from Export or `kcycle`)");
  app.add_option("--calibration", o.calibration_path,
                 "Cost-model calibration for the time plot (default: ./kcycle-calibration.json)");
  app.add_option("--width", o.width, "Window width")->capture_default_str()->check(CLI::Range(kMinWindow, kMaxWindow));
  app.add_option("--height", o.height, "Window height")
      ->capture_default_str()
      ->check(CLI::Range(kMinWindow, kMaxWindow));
  app.add_option("--threads", o.threads, "Solver threads (default: all cores but one, left to drawing)")
      ->capture_default_str()
      ->check(CLI::Range(1, max_solver_threads()));
  app.add_option("--start", start, "paused (on the initial error, the default) or running (the default under --script)")
      ->check(CLI::IsMember({"paused", "running"}));
  app.add_option(
         "--auto-calibrate", auto_calibrate,
         "on: time each configuration in the background, the first time it is shown, when no cached calibration "
         "fits it (default on; off under --script)")
      ->check(CLI::IsMember({"on", "off"}));
  app.add_flag("--lecture", o.lecture,
               "Start in the lecture layout: the field, the cycle diagram and a step bar (B switches; F1 the keys)");
  app.add_option("--cache-dir", o.cache_dir, "Where calibrations are kept")->capture_default_str();
  app.add_option("--interop", interop, "CUDA backend: draw the field through CUDA-OpenGL interop (on/off)")
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  app.set_version_flag("--version", "kcycle-gui " + std::string(version()));
  // What the build writes the manual page and the shell completion from (their one source).
  if (argc == 2 && argv[1] == std::string("--man-page")) {
    // The page is the same on every machine: no build machine's home or core count in it.
    app.get_option("--threads")->default_str("");
    app.get_option("--cache-dir")->default_str("$XDG_CACHE_HOME/kcycle, else ~/.cache/kcycle");
    std::fputs(manual(app).c_str(), stdout);
    return 0;
  }
  if (argc == 2 && argv[1] == std::string("--bash-completion")) {
    std::fputs(cli_docs::bash_completion(cli_docs::describe(app)).c_str(), stdout);
    return 0;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  if (list_verbs) {
    std::fputs(ScriptRunner::verbs_help().c_str(), stdout);
    return 0;
  }
  for (const char* path_option : {"--script", "--screenshot", "--config", "--calibration", "--cache-dir"})
    if (app.count(path_option) > 0 && app.get_option(path_option)->as<std::string>().empty()) {
      std::fprintf(stderr, "kcycle-gui: %s is empty: give a path\n", path_option);
      return 2;
    }
  if (!o.screenshot_path.empty())
    if (const std::string why = why_not_writable(o.screenshot_path); !why.empty()) {
      std::fprintf(stderr, "kcycle-gui: --screenshot %s: cannot write it: %s\n", o.screenshot_path.c_str(),
                   why.c_str());
      return 2;
    }
  o.interop = interop == "on";
  if (!start.empty()) o.running = start == "running";
  if (!auto_calibrate.empty()) o.auto_calibrate = auto_calibrate == "on";
  return std::nullopt;
}

std::shared_ptr<const Calibration> starting_calibration(const GuiOptions& options, UiState& ui) {
  if (!options.calibration_path.empty())
    return std::make_shared<Calibration>(load_calibration(options.calibration_path));
  if (!std::filesystem::exists("kcycle-calibration.json")) return nullptr;
  try {
    return std::make_shared<Calibration>(load_calibration("kcycle-calibration.json"));
  } catch (const std::exception& e) {
    ui.notice = e.what();
    return nullptr;
  }
}

UiState starting_ui_state(const GuiOptions& options) {
  UiState ui;
  ui.scripted = !options.script_path.empty();
  ui.interop = options.interop;
  ui.lecture = options.lecture;
  ui.params = default_parameters();
  const std::filesystem::path last = config_dir() / "last-parameters.toml";
  if (!ui.scripted) {  // the UI scale the last session used
    float scale = 1.0f;
    if (std::ifstream(config_dir() / "ui-scale.txt") >> scale) ui.ui_scale = std::clamp(scale, 0.5f, 3.0f);
  }
  if (!options.config_path.empty()) {
    ui.params = load_parameters_file(options.config_path);
  } else if (!ui.scripted && std::filesystem::exists(last)) {
    try {
      ui.params = load_parameters_file(last.string());
    } catch (const std::exception& e) {  // an old or damaged file: start from the defaults, saying why
      ui.notice = std::string("started from the defaults: ") + e.what();
    }
  }
  return ui;
}

void save_session(const UiState& ui) {
  if (ui.scripted) return;
  try {  // a session that cannot be kept is said, not fatal: the work was done
    std::filesystem::create_directories(config_dir());
    write_file_replacing((config_dir() / "last-parameters.toml").string(), to_parameters_file(ui.params));
    write_file_replacing((config_dir() / "ui-scale.txt").string(), std::to_string(ui.ui_scale) + "\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kcycle-gui: the session was not saved: %s\n", e.what());
  }
}

}  // namespace kcycle::gui
