#include "dashboard.hpp"

#include <imgui.h>

#include <algorithm>

#include "lecture_keys.hpp"

namespace kcycle::gui {

namespace {

// The lecture layout: the field as large as the window allows beside the cycle diagram (with
// its narration), the step bar under them; nothing else.
void draw_lecture(UiState& ui, SolverWorker& worker, const Snapshot& snap, FieldRenderers& renderers) {
  const ImVec2 size = ImGui::GetMainViewport()->Size;
  const ImGuiStyle& style = ImGui::GetStyle();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float bar = ImGui::GetFrameHeight() + ImGui::GetFrameHeightWithSpacing() + line +
                    2 * style.WindowPadding.y;  // title, buttons, a line of words
  const float H = size.y - bar, W = size.x;
  // The picture is square beside its colour bar (about 110 px at scale 1): as wide as the height
  // left under the panel's title and caption allows.
  const float field_w = std::min(W * 0.55f, H - 3 * line + 110 * ui.ui_scale);
  place_panel(ui, ImVec2(0, 0), ImVec2(field_w, H));
  field_panel(ui, snap, renderers);
  place_panel(ui, ImVec2(field_w, 0), ImVec2(W - field_w, H));
  cycle_diagram_panel(ui, snap);
  place_panel(ui, ImVec2(0, H), ImVec2(W, bar));
  step_bar(ui, worker, snap);
}

}  // namespace

void draw_dashboard(UiState& ui, SolverWorker& worker, const Snapshot& snap, FieldRenderers& renderers) {
  ui.controls_drawn.clear();
  ui.panel_rects.clear();                           // the panels this frame draws (the layout file)
  ui.relayout = ui.lecture != ui.laid_out_lecture;  // a switch places every panel anew
  ui.laid_out_lecture = ui.lecture;
  if (ui.lecture) {
    draw_lecture(ui, worker, snap, renderers);
    keys_overlay(ui);
    return;
  }
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
  keys_overlay(ui);
}

WorkerSync::WorkerSync(const UiState& ui, SolverWorker& worker)
    : view_(ui.view), speed_(ui.speed), autoplay_rate_(ui.autoplay_rate) {
  worker.set_view(view_);
  worker.set_speed(speed_);
}

void WorkerSync::operator()(const UiState& ui, SolverWorker& worker, const Snapshot& snap) {
  if (!(ui.view == view_)) worker.set_view(view_ = ui.view);
  if (ui.speed != speed_) worker.set_speed(speed_ = ui.speed);
  if (ui.autoplay_rate != autoplay_rate_) {
    autoplay_rate_ = ui.autoplay_rate;
    if (snap.autoplay > 0) worker.autoplay(autoplay_rate_);  // a new pace; autoplay itself is the button's
  }
}

}  // namespace kcycle::gui
