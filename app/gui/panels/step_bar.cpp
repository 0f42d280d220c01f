// The lecture layout's step bar: back, the three steps, run or pause, the way back to the desk,
// the keys; and what the solve is doing, in words.
#include <imgui.h>

#include "panels.hpp"
#include "panels/widgets.hpp"

namespace kcycle::gui {

void step_buttons(UiState& ui, SolverWorker& worker) {
  if (button(ui, "Operation",
             "Carry out the cycle's next operation (a sweep, a transfer, a zeroing or a call) and stop (PageDown, "
             "Right, Space)"))
    worker.step_operation();
  same_line_if_fits(button_width("Relaxation"));
  if (button(ui, "Relaxation",
             "Run on to the end of the next relaxation sweep, a circle in the diagram (Shift + PageDown)"))
    worker.step_operation(SolverWorker::StepTo::Relaxation);
  same_line_if_fits(button_width("Call"));
  if (button(ui, "Call", "Run on to the next recursive call, an X in the diagram (Ctrl + PageDown)"))
    worker.step_operation(SolverWorker::StepTo::Call);
}

void step_bar(UiState& ui, SolverWorker& worker, const Snapshot& snap) {
  // No title: the buttons say what it is, and a projector's height is short.
  const PanelWindow window(ui, "Steps", ImGuiWindowFlags_NoTitleBar);
  if (!window) return;
  if (button(ui, "Back", "Step back one operation (PageUp, Left): the cycle is replayed to there")) worker.step_back();
  ImGui::SameLine();
  step_buttons(ui, worker);
  ImGui::SameLine();
  if (button(ui, solving(snap) ? "Pause" : "Run", "Solve cycle after cycle, or pause (R)"))
    solving(snap) ? worker.pause() : worker.run();
  ImGui::SameLine();
  if (button(ui, "Desk", "Back to the desk layout, every panel (B)")) ui.lecture = false;
  ImGui::SameLine();
  if (button(ui, "Keys", "The keys (F1, H)")) ui.show_keys = !ui.show_keys;
  text_wrapped("%zu cycles | %s", snap.history.size(), activity(snap).c_str());
}

}  // namespace kcycle::gui
