// kcycle-gui: the interactive visualizer. A thin loop in the style of the Dear ImGui
// examples: poll events, pick up the worker's latest snapshot, draw one function per panel,
// render, maybe take a screenshot. All solving happens in the SolverWorker thread.
#include <epoxy/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <dlfcn.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <thread>

#include "calibration_cache.hpp"
#include "field_renderer.hpp"
#include "kcycle/backends/cpu/available_cores.hpp"
#include "kcycle/io/options_io.hpp"
#include "panels.hpp"
#include "screenshot.hpp"
#include "script.hpp"
#include "solver_worker.hpp"

namespace {

using namespace kcycle;
using namespace kcycle::gui;

std::filesystem::path config_dir() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  const char* home = std::getenv("HOME");
  std::filesystem::path dir =
      xdg && *xdg ? std::filesystem::path(xdg) : std::filesystem::path(home ? home : ".") / ".config";
  return dir / "kcycle";
}

SolverOptions default_parameters() {
  SolverOptions o;
  o.levels = 7;
  o.eps = 1e-4;
  o.angle_degrees = 45;
  o.cycle = {CycleType::Kappa, 2};
  o.max_iterations = 100000;
  return o;
}

// The dashboard: parameters and controls on the left, the field and the time plot in the
// middle, the cycle diagram and convergence on the right, the status bar at the bottom.
void layout_and_draw(UiState& ui, SolverWorker& worker, const Snapshot& snap, FieldRenderers& renderers) {
  const ImVec2 size = ImGui::GetMainViewport()->Size;
  // The status bar's height and the parameters' column grow with the UI scale.
  const float s = ui.ui_scale;
  const float W = size.x, H = size.y - 28 * s, lw = std::min(W * 0.4f, std::max(300.0f * s, W * 0.21f)),
              cw = (W - lw) * 0.5f, rw = W - lw - cw;
  place_panel(ui, ImVec2(0, 0), ImVec2(lw, H * 0.62f));
  parameters_panel(ui, worker, snap);
  place_panel(ui, ImVec2(0, H * 0.62f), ImVec2(lw, H * 0.38f));
  controls_panel(ui, worker, snap);
  if (ui.show_shapes) {  // lecture view: the cycle shapes in place of the field and the times
    place_panel(ui, ImVec2(lw, 0), ImVec2(cw, H));
    cycle_shapes_panel(ui, snap);
  } else if (!ui.show_advanced) {  // the field takes the time panel's place
    place_panel(ui, ImVec2(lw, 0), ImVec2(cw, H));
    field_panel(ui, snap, renderers);
  } else {
    place_panel(ui, ImVec2(lw, 0), ImVec2(cw, H * 0.62f));
    field_panel(ui, snap, renderers);
    place_panel(ui, ImVec2(lw, H * 0.62f), ImVec2(cw, H * 0.38f));
    time_panel(ui, worker, snap);
  }
  // A short window gives the diagram more of the right column: it shares it with Algorithm 3.
  const float diagram_h = H * (H / s < 850 ? 0.52f : 0.40f);
  place_panel(ui, ImVec2(lw + cw, 0), ImVec2(rw, diagram_h));
  cycle_diagram_panel(ui, snap);
  place_panel(ui, ImVec2(lw + cw, diagram_h), ImVec2(rw, H - diagram_h));
  convergence_panel(ui, snap);
  status_bar(ui, snap);
}

// Under AddressSanitizer: keep the GL driver libraries loaded until exit. Mesa unloads them
// at shutdown, and LeakSanitizer would then report their driver-lifetime allocations as an
// "<unknown module>" that no suppression can name (tests/lsan.supp names them instead).
void pin_graphics_drivers_for_leak_reports() {
#if defined(__SANITIZE_ADDRESS__)
  for (const char* lib : {"libGLX_mesa.so.0", "libgallium_dri.so", "swrast_dri.so",
                          "/usr/lib/x86_64-linux-gnu/dri/swrast_dri.so", "libLLVM-15.so.1", "libglapi.so.0"})
    dlopen(lib, RTLD_LAZY | RTLD_NODELETE);
#endif
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"kcycle-gui: watch multigrid kappa-cycles solve rotated anisotropic diffusion"};
  app.name("kcycle-gui");
  std::string script_path, screenshot_path, config_path, calibration_path;
  int width = 1600, height = 1000;
  int threads = std::max(1, kcycle::available_cores() - 1);
  app.add_option("--script", script_path, "Drive the UI from a script (see app/gui/script.hpp), then exit");
  app.add_option("--screenshot", screenshot_path, "Write a PNG of the window when the script ends");
  app.add_option("--config", config_path, "Start with these parameters (a file from Export or `kcycle`)");
  app.add_option("--calibration", calibration_path,
                 "Cost-model calibration for the time plot (default: ./kcycle-calibration.json)");
  app.add_option("--width", width, "Window width")->capture_default_str();
  app.add_option("--height", height, "Window height")->capture_default_str();
  app.add_option("--threads", threads, "Solver threads (default: all cores but one, left to drawing)")
      ->capture_default_str();
  std::string interop = "on", start = "", auto_calibrate = "";
  std::string cache_dir = default_cache_dir().string();
  app.add_option("--start", start, "paused (on the initial error, the default) or running (the default under --script)")
      ->check(CLI::IsMember({"paused", "running"}));
  app.add_option("--auto-calibrate", auto_calibrate,
                 "on: at first start, time the configuration in the background when no cached calibration fits it "
                 "(default on; off under --script)")
      ->check(CLI::IsMember({"on", "off"}));
  app.add_option("--cache-dir", cache_dir, "Where calibrations are kept")->capture_default_str();
  app.add_option("--interop", interop, "CUDA backend: draw the field through CUDA-OpenGL interop (on/off)")
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }

  UiState ui;
  ui.scripted = !script_path.empty();
  ui.interop = interop == "on";
  std::optional<ScriptRunner> script;
  try {
    if (ui.scripted) script.emplace(script_path);
    ui.params = default_parameters();
    const std::filesystem::path last = config_dir() / "last-parameters.toml";
    if (!ui.scripted) {  // the UI scale the last session used
      float scale = 1.0f;
      if (std::ifstream(config_dir() / "ui-scale.txt") >> scale) ui.ui_scale = std::clamp(scale, 0.5f, 3.0f);
    }
    if (!config_path.empty())
      ui.params = load_parameters_file(config_path);
    else if (!ui.scripted && std::filesystem::exists(last)) {
      try {
        ui.params = load_parameters_file(last.string());
      } catch (const std::exception& e) {  // an old or damaged file: start from the defaults, saying why
        ui.notice = std::string("started from the defaults: ") + e.what();
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kcycle-gui: %s\n", e.what());
    return 2;
  }

  pin_graphics_drivers_for_leak_reports();
  glfwSetErrorCallback(
      [](int code, const char* what) { std::fprintf(stderr, "kcycle-gui: GLFW error %d: %s\n", code, what); });
  if (!glfwInit()) {
    std::fprintf(stderr,
                 "kcycle-gui: cannot open a window (no display?). On a server run it under Xvfb: "
                 "xvfb-run -s '-screen 0 1600x1000x24' kcycle-gui ...\n");
    return 1;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  GLFWwindow* window = glfwCreateWindow(width, height, "kcycle: multigrid kappa-cycles", nullptr, nullptr);
  if (!window) {
    std::fprintf(stderr, "kcycle-gui: cannot create an OpenGL 3.3 window\n");
    glfwTerminate();
    return 1;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(ui.scripted ? 0 : 1);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  static std::string ini_path;
  if (ui.scripted) {
    io.IniFilename = nullptr;  // a fixed layout: tests find panels by position
    // No mouse: wherever Xvfb leaves the pointer, no panel is hovered and no tooltip covers
    // the screenshots (a script drives the UI through its commands, never the mouse).
    io.ConfigFlags |= ImGuiConfigFlags_NoMouse;
  } else {
    std::filesystem::create_directories(config_dir());
    ini_path = (config_dir() / "imgui.ini").string();
    io.IniFilename = ini_path.c_str();
  }
  const char* font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
  if (std::filesystem::exists(font)) io.Fonts->AddFontFromFileTTF(font, 15.0f);
  ImGui::StyleColorsDark();
  const ImGuiStyle base_style = ImGui::GetStyle();  // sizes at scale 1, for the UI scale
  float applied_scale = 1.0f;
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 330");

  int rc = 0;
  {
    std::unique_ptr<FieldRenderers> renderers;
    try {
      renderers = std::make_unique<FieldRenderers>();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "kcycle-gui: %s\n", e.what());
      return 1;
    }
    // A person starts on the initial error, paused, with a hint; a script starts solving.
    const bool start_running = start.empty() ? ui.scripted : start == "running";
    SolverWorker worker(ui.params, threads, start_running);
    CalibrationCache calibration_cache(cache_dir, auto_calibrate.empty() ? !ui.scripted : auto_calibrate == "on");
    const bool use_cache = !ui.scripted || !auto_calibrate.empty();
    worker.keep_device_images(true);  // the CUDA backend's images stay on the GPU for interop
    ViewRequest sent_view = ui.view;
    worker.set_view(sent_view);
    const std::string calibration_file = calibration_path.empty() ? "kcycle-calibration.json" : calibration_path;
    if (std::filesystem::exists(calibration_file)) {
      try {
        worker.set_calibration(std::make_shared<Calibration>(load_calibration(calibration_file)));
      } catch (const std::exception& e) {
        ui.notice = e.what();
      }
    }

    auto last = std::chrono::steady_clock::now();
    bool finishing = false;
    while (!glfwWindowShouldClose(window)) {
      glfwPollEvents();
      const std::shared_ptr<const Snapshot> snap = worker.snapshot();
      if (use_cache) calibration_cache.update(ui, worker, *snap);
      if (script && !finishing && !script->advance(ui, worker, *snap)) {
        rc = script->exit_code();
        if (screenshot_path.empty()) break;
        ui.screenshot_path = screenshot_path;  // one more frame for the final picture
        finishing = true;
      }
      if (ui.ui_scale != applied_scale) {  // fonts, paddings, rounding and the like, for a projector
        ImGui::GetStyle() = base_style;
        ImGui::GetStyle().ScaleAllSizes(ui.ui_scale);
        io.FontGlobalScale = ui.ui_scale;
        applied_scale = ui.ui_scale;
      }
      ImGui_ImplOpenGL3_NewFrame();
      ImGui_ImplGlfw_NewFrame();
      ImGui::NewFrame();
      if (ui.capture_text) ui.shown_text.clear();
      layout_and_draw(ui, worker, *snap, *renderers);                     // each panel adds the text it drew
      if (!(ui.view == sent_view)) worker.set_view(sent_view = ui.view);  // e.g. host_values, set while drawing
      ui.capture_text = false;
      ImGui::Render();
      int fb_w = 0, fb_h = 0;
      glfwGetFramebufferSize(window, &fb_w, &fb_h);
      glViewport(0, 0, fb_w, fb_h);
      glClearColor(0.08f, 0.08f, 0.10f, 1.0f);
      glClear(GL_COLOR_BUFFER_BIT);
      ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
      if (!ui.screenshot_path.empty()) {
        try {
          save_screenshot(ui.screenshot_path, fb_w, fb_h);
          ui.notice = "wrote " + ui.screenshot_path;
        } catch (const std::exception& e) {
          ui.notice = e.what();
          rc = rc ? rc : 1;
        }
        ui.screenshot_path.clear();
        if (finishing) break;
      }
      glfwSwapBuffers(window);
      const auto now = std::chrono::steady_clock::now();
      const float dt = std::chrono::duration<float>(now - last).count();
      last = now;
      ui.fps = ui.fps == 0 ? 1.0f / std::max(dt, 1e-6f) : 0.95f * ui.fps + 0.05f / std::max(dt, 1e-6f);
    }
    if (!ui.scripted) {
      std::ofstream(config_dir() / "last-parameters.toml") << to_parameters_file(ui.params);
      std::ofstream(config_dir() / "ui-scale.txt") << ui.ui_scale << "\n";
    }
  }  // the worker and GL objects go before the context
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  glfwTerminate();
  return rc;
}
