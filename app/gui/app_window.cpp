#include "app_window.hpp"

#include <epoxy/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <utility>

namespace kcycle::gui {

namespace {

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

// Mesa's software renderer (llvmpipe, what Xvfb, VMs and GPU-less laptops draw with) frees a
// fence while its rasterizer thread may still be signalling it: ThreadSanitizer shows the
// fence's mutex destroyed under our frame's GL calls while an llvmpipe thread locks it, and
// CI runs died of it as glibc's "corrupted double-linked list". With LP_NUM_THREADS=0 it
// rasterizes in the calling thread, with no fence crossing threads. Set before the driver
// loads; a value the user set is kept. Hardware drivers ignore it.
void rasterize_software_gl_in_this_thread() { setenv("LP_NUM_THREADS", "0", /*overwrite=*/0); }

}  // namespace

AppWindow::AppWindow(int width, int height, bool scripted, const std::string& ini_path) : ini_path_(ini_path) {
  rasterize_software_gl_in_this_thread();
  pin_graphics_drivers_for_leak_reports();
  glfwSetErrorCallback(
      [](int code, const char* what) { std::fprintf(stderr, "kcycle-gui: GLFW error %d: %s\n", code, what); });
  if (!glfwInit())
    throw std::runtime_error(
        "cannot open a window (no display?). On a server run it under Xvfb: "
        "xvfb-run -s '-screen 0 1600x1000x24' kcycle-gui ...");
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  window_ = glfwCreateWindow(width, height, "kcycle: multigrid kappa-cycles", nullptr, nullptr);
  if (!window_) {
    glfwTerminate();
    throw std::runtime_error("cannot create an OpenGL 3.3 window");
  }
  glfwMakeContextCurrent(window_);
  glfwSwapInterval(scripted ? 0 : 1);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  if (scripted) {
    io.IniFilename = nullptr;  // a fixed layout: tests find panels by position
    // No mouse: wherever Xvfb leaves the pointer, no panel is hovered and no tooltip covers
    // the screenshots (a script drives the UI through its commands, never the mouse).
    io.ConfigFlags |= ImGuiConfigFlags_NoMouse;
  } else {
    std::filesystem::create_directories(std::filesystem::path(ini_path_).parent_path());
    io.IniFilename = ini_path_.c_str();
  }
  const char* font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
  if (std::filesystem::exists(font)) io.Fonts->AddFontFromFileTTF(font, 15.0f);
  ImGui::StyleColorsDark();
  base_style_ = ImGui::GetStyle();
  // Before ImGui's backend installs its callbacks: it chains to this one.
  glfwSetWindowUserPointer(window_, this);
  glfwSetKeyCallback(window_, &AppWindow::on_key);
  ImGui_ImplGlfw_InitForOpenGL(window_, true);
  ImGui_ImplOpenGL3_Init("#version 330");
}

AppWindow::~AppWindow() {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window_);
  glfwTerminate();
}

bool AppWindow::closing() const { return glfwWindowShouldClose(window_); }

void AppWindow::begin_frame(float ui_scale) {
  glfwPollEvents();
  if (ui_scale != applied_scale_) {  // fonts, paddings, rounding and the like, for a projector
    ImGui::GetStyle() = base_style_;
    ImGui::GetStyle().ScaleAllSizes(ui_scale);
    ImGui::GetIO().FontGlobalScale = ui_scale;
    applied_scale_ = ui_scale;
  }
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
}

std::pair<int, int> AppWindow::render() {
  ImGui::Render();
  int w = 0, h = 0;
  glfwGetFramebufferSize(window_, &w, &h);
  glViewport(0, 0, w, h);
  glClearColor(0.08f, 0.08f, 0.10f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  return {w, h};
}

void AppWindow::present() { glfwSwapBuffers(window_); }

void AppWindow::on_key(GLFWwindow* window, int key, int, int action, int mods) {
  if (action != GLFW_PRESS) return;  // a held key's repeats are not steps
  auto* self = static_cast<AppWindow*>(glfwGetWindowUserPointer(window));
  self->key_presses_.push_back({key, (mods & GLFW_MOD_SHIFT) != 0, (mods & GLFW_MOD_CONTROL) != 0});
}

std::vector<KeyPress> AppWindow::take_key_presses() { return std::exchange(key_presses_, {}); }

}  // namespace kcycle::gui
