#include "lecture_keys.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "panels.hpp"
#include "panels/widgets.hpp"

namespace kcycle::gui {

namespace {

struct KeyHelp {
  const char *keys, *what;
};
constexpr KeyHelp kKeys[] = {
    {"PageDown, Right, Space", "step one operation"},
    {"Shift + PageDown", "step on to the next relaxation sweep (a circle)"},
    {"Ctrl + PageDown", "step on to the next recursive call (an X)"},
    {"PageUp, Left", "step back one operation (the cycle is replayed to there)"},
    {"R", "run or pause"},
    {"B", "lecture layout or desk layout"},
    {"S", "the cycle shapes (Figure 2.1) or the run"},
    {"L", "the Fourier analysis (LFA) beside the field, or the run"},
    {"F1, H", "this list"},
};

}  // namespace

std::string lecture_keys_text() {
  std::string text;
  for (const KeyHelp& k : kKeys)
    text += "  " + std::string(k.keys) +
            std::string(24 - std::min<std::size_t>(22, std::string_view(k.keys).size()), ' ') + k.what + "\n";
  return text;
}

void handle_lecture_keys(UiState& ui, SolverWorker& worker, const Snapshot& snap) {
  const std::vector<KeyPress> presses = std::exchange(ui.key_presses, {});
  if (ImGui::GetIO().WantTextInput) return;  // typing a value
  for (const KeyPress& k : presses) {
    switch (k.key) {
      case GLFW_KEY_PAGE_DOWN:
      case GLFW_KEY_RIGHT:
      case GLFW_KEY_SPACE:
        worker.step_operation(k.ctrl    ? SolverWorker::StepTo::Call
                              : k.shift ? SolverWorker::StepTo::Relaxation
                                        : SolverWorker::StepTo::Operation);
        break;
      case GLFW_KEY_PAGE_UP:
      case GLFW_KEY_LEFT: worker.step_back(); break;
      case GLFW_KEY_R: solving(snap) ? worker.pause() : worker.run(); break;
      case GLFW_KEY_B: ui.lecture = !ui.lecture; break;
      case GLFW_KEY_S: ui.show_shapes = !ui.show_shapes; break;
      case GLFW_KEY_L: ui.show_lfa = !ui.show_lfa; break;
      case GLFW_KEY_F1:
      case GLFW_KEY_H: ui.show_keys = !ui.show_keys; break;
      default: break;
    }
  }
}

void keys_overlay(UiState& ui) {
  if (!ui.show_keys) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + vp->Size.x * 0.5f, vp->Pos.y + vp->Size.y * 0.5f), ImGuiCond_Always,
                          ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowBgAlpha(0.92f);
  const PanelWindow window(
      ui, "Keys", ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings,
      &ui.show_keys);
  if (!window) return;
  if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_SizingFixedFit)) {
    for (const KeyHelp& k : kKeys) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(k.keys);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(k.what);
    }
    ImGui::EndTable();
  }
  ImGui::TextDisabled("A presentation clicker sends PageDown, PageUp and B.");
}

}  // namespace kcycle::gui
