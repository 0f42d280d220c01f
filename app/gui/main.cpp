// kcycle-gui: the interactive visualizer. A thin loop in the style of the Dear ImGui
// examples: pick up the worker's latest snapshot, let the script act, draw the dashboard,
// tell the worker what changed, render, maybe take a screenshot. All solving happens in the
// SolverWorker thread.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

#include "app_window.hpp"
#include "calibration_cache.hpp"
#include "crash_report.hpp"
#include "dashboard.hpp"
#include "kcycle/core/heap_policy.hpp"
#include "kcycle/core/invalid_options.hpp"
#include "kcycle/io/interrupt.hpp"
#include "kcycle/model/cost_model.hpp"
#include "lecture_keys.hpp"
#include "recording.hpp"
#include "screenshot.hpp"
#include "script.hpp"
#include "session.hpp"

using namespace kcycle;
using namespace kcycle::gui;

int main(int argc, char** argv) {
  keep_small_fields_in_the_heap();
  install_interrupt_handlers();
  install_crash_report();
  const StopOnInterrupt stop;  // Ctrl-C or SIGTERM close the window as its close button does
  GuiOptions options;
  if (const std::optional<int> exit_code = parse_gui_options(argc, argv, options)) return *exit_code;
  UiState ui;
  std::optional<ScriptRunner> script;
  std::shared_ptr<const Calibration> calibration;
  try {
    if (!options.script_path.empty()) script.emplace(options.script_path);
    ui = starting_ui_state(options);
    calibration = starting_calibration(options, ui);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kcycle-gui: %s\n", kcycle::printable(e.what()).c_str());
    return 2;
  }
  std::optional<AppWindow> window;
  try {
    window.emplace(options.width, options.height, ui.scripted, (config_dir() / "imgui.ini").string());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kcycle-gui: %s\n", kcycle::printable(e.what()).c_str());
    return 1;
  }

  int rc = 0;
  {  // the worker and the GL objects go before the window
    std::unique_ptr<FieldRenderers> renderers;
    try {
      renderers = std::make_unique<FieldRenderers>();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "kcycle-gui: %s\n", kcycle::printable(e.what()).c_str());
      return 1;
    }
    // A person starts on the initial error, paused, with a hint; a script starts solving.
    SolverWorker worker(ui.params, options.threads, options.running.value_or(ui.scripted));
    worker.keep_device_images(true);  // the CUDA backend's images stay on the GPU for interop
    CalibrationCache calibration_cache(options.cache_dir, options.auto_calibrate.value_or(!ui.scripted));
    const bool use_cache = !ui.scripted || options.auto_calibrate;
    if (calibration) worker.set_calibration(calibration);
    WorkerSync sync(ui, worker);

    Recorder recorder;
    auto last = std::chrono::steady_clock::now();
    bool finishing = false;
    while (!window->closing() && !stop.requested()) {
      const std::shared_ptr<const Snapshot> snap = worker.snapshot();
      if (use_cache) calibration_cache.update(ui, worker, *snap);
      if (script && !finishing && !script->advance(ui, worker, *snap)) {
        if (script->exit_code() != 0) rc = script->exit_code();  // a failed write before stays failed
        if (options.screenshot_path.empty()) break;
        ui.screenshot_path = options.screenshot_path;  // one more frame for the final picture
        finishing = true;
      }
      if (ui.record_request) {
        try {
          recorder.start(*ui.record_request);
        } catch (const std::exception& e) {
          ui.notice = e.what();
        }
        ui.record_request.reset();
      }
      ui.recording = recorder.busy();
      window->begin_frame(ui.ui_scale);
      if (ui.capture_text) ui.shown_text.clear();
      for (const KeyPress& k : window->take_key_presses()) ui.key_presses.push_back(k);
      handle_lecture_keys(ui, worker, *snap);
      draw_dashboard(ui, worker, *snap, *renderers);  // each panel adds the text it drew
      sync(ui, worker, *snap);                        // e.g. host_values, set while drawing
      ui.capture_text = false;
      const auto [width, height] = window->render();
      if (!ui.screenshot_path.empty()) {
        try {
          save_screenshot(ui.screenshot_path, width, height);
          ui.notice = "wrote " + ui.screenshot_path;
        } catch (const std::exception& e) {
          ui.notice = e.what();
          if (ui.scripted)
            std::fprintf(stderr, "kcycle-gui: %s\n",
                         kcycle::printable(e.what()).c_str());  // the script's exit says it too
          rc = rc ? rc : 1;
        }
        ui.screenshot_path.clear();
        if (finishing) break;
      }
      if (const std::optional<std::string> outcome = recorder.after_render(*snap, worker, width, height)) {
        ui.notice = *outcome;  // the Controls panel shows it; the script's record verb prints it
      }
      ui.recording = recorder.busy();
      window->present();
      const auto now = std::chrono::steady_clock::now();
      const float dt = std::max(std::chrono::duration<float>(now - last).count(), 1e-6f);
      last = now;
      ui.fps = ui.fps == 0 ? 1.0f / dt : 0.95f * ui.fps + 0.05f / dt;
    }
    save_session(ui);
  }
  if (stop.requested()) {
    std::fprintf(stderr, "kcycle-gui: closed on %s\n", stop.signal_name().c_str());
    return kInterruptedExit;
  }
  return rc;
}
