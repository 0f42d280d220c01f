// The Controls panel: run, step and autoplay; the view; the lecture switches; the exports.
#include "panels.hpp"

#include <imgui.h>

#include <algorithm>

#include "lessons.hpp"
#include "panels/widgets.hpp"
#include "view_settings.hpp"

namespace kcycle::gui {

namespace {

// What to do next: the lesson's instructions, and before the first cycle how to start.
void guidance(UiState& ui, const Snapshot& snap) {
  const ImVec4 hint(0.55f, 0.85f, 1.0f, 1.0f);
  ImGui::PushStyleColor(ImGuiCol_Text, hint);
  if (ui.lesson >= 0) text_wrapped("Lesson: %s", lessons()[std::size_t(ui.lesson)].what_to_do.c_str());
  const bool at_start = snap.error.empty() && snap.history.empty() && !snap.running && !snap.stepping &&
                        snap.autoplay == 0 && snap.status == SolveStatus::Running;
  if (at_start)
    text_wrapped(
        "Paused on the initial error (cycle 0). Press Operation to step through the first cycle, Relaxation to "
        "watch the smoother work, autoplay to let it play, or Run to solve.");
  ImGui::PopStyleColor();
}

}  // namespace

void controls_panel(UiState& ui, SolverWorker& worker, const Snapshot& snap) {
  const PanelWindow window(ui, "Controls");
  if (!window) return;
  const LabelColumn labels("operations/s");
  // The buttons first: at a projector's scale the guidance's lines would push them out of view.
  if (button(ui, solving(snap) ? "Pause" : "Run",
             "Solve cycle after cycle (at most 'cycles/s' a second); Pause stops at the end of the cycle",
             ImVec2(70 * ui.ui_scale, 0)))
    solving(snap) ? worker.pause() : worker.run();
  same_line_if_fits(button_width("Reset"));
  if (button(ui, "Reset", "Start again from the initial error, keeping every setting")) worker.reset();
  same_line_if_fits(button_width("Cycle"));
  if (button(ui, "Cycle", "Run to the end of the cycle (one whole cycle when not inside one)")) worker.step_cycle();
  ImGui::TextUnformatted("step:");
  ImGui::SameLine();
  step_buttons(ui, worker);
  guidance(ui, snap);
  bool autoplay = snap.autoplay > 0;
  if (checkbox(ui, "autoplay", autoplay,
               "Step through the cycles by itself, operation by operation, at 'operations/s'"))
    worker.autoplay(autoplay ? ui.autoplay_rate : 0.0);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(std::max(60.0f, ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize("operations/s").x -
                                              ImGui::GetStyle().ItemInnerSpacing.x));
  view_control(ui, "operations-rate");
  view_control(ui, "speed");

  section("view");
  view_control(ui, "view-level", float(std::max(1, snap.options.levels)));
  view_control(ui, "follow");
  view_control(ui, "before-after");
  view_control(ui, "residual");
  view_control(ui, "spectrum");
  view_control(ui, "slice");
  if (ui.show_slice) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(120 * ui.ui_scale);
    view_control(ui, "slice-y");
    same_line_if_fits(view_control_width("slice-column"));
    view_control(ui, "slice-column");
  }
  view_control(ui, "auto-range");
  same_line_if_fits(view_control_width("lock-range"));
  view_control(ui, "lock-range");
  if (!ui.auto_range) view_control(ui, "range");
  view_control(ui, "zoom");
  view_control(ui, "average-minify");
  if (snap.run && snap.run->target.backend == BackendKind::Cuda) view_control(ui, "interop");

  section("lecture");
  view_control(ui, "shapes");
  same_line_if_fits(view_control_width("lfa"));
  view_control(ui, "lfa");
  same_line_if_fits(view_control_width("advanced"));
  view_control(ui, "advanced");
  view_control(ui, "ui-scale");

  section("export");
  if (button(ui, "Screenshot", "Write the window to kcycle-screenshot.png"))
    ui.screenshot_path = "kcycle-screenshot.png";
  same_line_if_fits(button_width("History CSV"));
  // Each export says what it wrote, or the OS's reason it could not.
  auto exported = [&](const std::string& done, auto&& write) {
    try {
      write();
      ui.notice = done;
    } catch (const std::exception& e) {
      ui.notice = e.what();
    }
  };
  if (button(ui, "History CSV", "Write every cycle's error, residual, factor and time to kcycle-history.csv"))
    exported("wrote kcycle-history.csv", [&] { export_history_csv(snap, "kcycle-history.csv"); });
  same_line_if_fits(button_width("Parameters"));
  if (button(ui, "Parameters",
             "Write these settings to kcycle-parameters.toml, for `kcycle solve --config` or --config here"))
    exported("wrote kcycle-parameters.toml (kcycle solve --config kcycle-parameters.toml)",
             [&] { export_parameters(ui.params, "kcycle-parameters.toml"); });
  same_line_if_fits(button_width("Record"));
  if (ui.recording) {
    ImGui::TextDisabled("recording...");
  } else if (button(ui, "Record",
                    "Step through the next 24 operations, a frame each, into kcycle-recording/ (PNG frames) and, "
                    "where ffmpeg is installed, kcycle-recording.mp4 and .gif at 4 operations a second: for slides")) {
    ui.record_request = RecordRequest{"kcycle-recording"};
  }
  if (!ui.notice.empty()) text_wrapped("%s", ui.notice.c_str());
}

}  // namespace kcycle::gui
