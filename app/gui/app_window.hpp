#pragma once
// The visualizer's window: GLFW with an OpenGL 3.3 core context, and Dear ImGui on it (the
// Dear ImGui examples' set-up and frame, in one place).
#include <string>
#include <utility>
#include <vector>

#include <imgui.h>

#include "key_press.hpp"

struct GLFWwindow;

namespace kcycle::gui {

class AppWindow {
 public:
  // Throws std::runtime_error saying what to do when no window can be opened (no display).
  // Scripted: a fixed layout (no imgui.ini) and no mouse; else the layout is kept in ini_path.
  AppWindow(int width, int height, bool scripted, const std::string& ini_path);
  ~AppWindow();
  AppWindow(const AppWindow&) = delete;
  AppWindow& operator=(const AppWindow&) = delete;

  bool closing() const;
  // Polls events; sizes fonts, paddings and lines for the UI scale; starts an ImGui frame.
  void begin_frame(float ui_scale);
  // Draws the frame into the back buffer; its size in pixels (for a screenshot).
  std::pair<int, int> render();
  void present();
  // The keys pressed since the last call (begin_frame polls them), in order.
  std::vector<KeyPress> take_key_presses();

 private:
  static void on_key(GLFWwindow* window, int key, int scancode, int action, int mods);
  std::vector<KeyPress> key_presses_;
  GLFWwindow* window_ = nullptr;
  std::string ini_path_;   // ImGui keeps a pointer to it
  ImGuiStyle base_style_;  // sizes at scale 1
  float applied_scale_ = 1.0f;
};

}  // namespace kcycle::gui
