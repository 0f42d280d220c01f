// The lecture layout's step bar: back, the three steps, run or pause, the way back to the desk,
// the keys; and what the solve is doing, in words.
#include <imgui.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "panels.hpp"
#include "panels/widgets.hpp"

namespace kcycle::gui {

namespace {

// The lecture's convergence in one line: the cycles, the error norm after the last one against
// the start's, and the last factor ("12 cycles, error 3.1e-04, 1.2e-03 of the start, last factor
// 0.571"); the residual's where the error is not known.
std::string progress_line(const Snapshot& snap) {
  char line[160];
  if (snap.history.empty()) {
    std::snprintf(line, sizeof line, "0 cycles");
    return line;
  }
  const IterationRecord& last = snap.history.back();
  const bool error = std::isfinite(last.error_norm) && std::isfinite(snap.initial_error) && snap.initial_error > 0;
  const double now = error ? last.error_norm : last.residual_norm,
               start = error ? snap.initial_error : snap.initial_residual;
  std::snprintf(line, sizeof line, "%zu cycles, %s %.2g, %.2g of the start, last factor %.3f", snap.history.size(),
                error ? "error" : "residual", now, start > 0 ? now / start : NAN, last.factor);
  return line;
}

}  // namespace

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
  // A watchable pace for Run in front of a class: the desk's cycles/s slider, at 2 or unlimited.
  bool slow = ui.speed > 0;
  if (checkbox(ui, "slow", slow,
               "Run at 2 cycles a second, to watch the error fall (the desk's cycles/s sets any pace)"))
    ui.speed = slow ? 2.0f : 0.0f;
  ImGui::SameLine();
  if (button(ui, "Desk", "Back to the desk layout, every panel (B)")) ui.lecture = false;
  ImGui::SameLine();
  if (button(ui, "Keys", "The keys (F1, H)")) ui.show_keys = !ui.show_keys;
  text_wrapped("%s | %s", progress_line(snap).c_str(), activity(snap).c_str());
}

}  // namespace kcycle::gui
