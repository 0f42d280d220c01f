#pragma once
// What the visualizer takes from its command line, and what it keeps between sessions (the
// last parameters and the UI scale, in $XDG_CONFIG_HOME/kcycle; never under --script).
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "kcycle/model/cost_model.hpp"
#include "ui_state.hpp"

namespace kcycle::gui {

// Window sizes the visualizer accepts (GLFW asserts on a negative one; X refuses huge ones).
inline constexpr int kMinWindow = 320, kMaxWindow = 8192;

struct GuiOptions {
  std::string script_path, screenshot_path, config_path, calibration_path, cache_dir;
  int width = 1600, height = 1000;
  int threads = 1;              // solver threads
  bool interop = true;          // CUDA-OpenGL interop
  bool lecture = false;         // start in the lecture layout
  std::optional<bool> running;  // start solving (default: under --script), or paused
  std::optional<bool> auto_calibrate;
};

// $XDG_CONFIG_HOME/kcycle (or ~/.config/kcycle): imgui.ini, the last parameters, the UI scale.
std::filesystem::path config_dir();

// The options, or the exit code to leave with (--help: 0; a refused option: 2, said why).
std::optional<int> parse_gui_options(int argc, char** argv, GuiOptions& options);

// The UI state a session starts from: the parameters of --config, else (not scripted) the last
// session's, else the defaults; the last UI scale. Throws what --config's file is refused for.
UiState starting_ui_state(const GuiOptions& options);
// The calibration the time plot starts with: --calibration's file (refused as --config's is:
// the exception says why), else ./kcycle-calibration.json when there is one (a broken one is
// said in ui.notice), else none.
std::shared_ptr<const Calibration> starting_calibration(const GuiOptions& options, UiState& ui);
// Keeps the parameters and the UI scale for the next session (not scripted).
void save_session(const UiState& ui);

}  // namespace kcycle::gui
