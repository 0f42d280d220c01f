#include "dashboard.hpp"

#include <imgui.h>

#include <algorithm>
#include <utility>

#include "lecture_keys.hpp"

namespace kcycle::gui {

namespace {

// The lecture layout: the field as large as the window allows beside the narration (the step,
// the call stack, Algorithm 3), the cycle diagram across the whole width under them, and a
// compact step bar; nothing else.
void draw_lecture(UiState& ui, SolverWorker& worker, const Snapshot& snap, FieldRenderers& renderers) {
  const ImVec2 size = ImGui::GetMainViewport()->Size;
  const ImGuiStyle& style = ImGui::GetStyle();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float bar = ImGui::GetFrameHeightWithSpacing() + line + 2 * style.WindowPadding.y;  // buttons, a line
  const float H = size.y - bar, W = size.x;
  // The diagram: most of a text line a level (the kappa labels go between), from a quarter to
  // 38% of the height; the field keeps the rest.
  const float diagram_h = std::clamp(0.8f * float(snap.options.levels) * line, 0.25f * H, 0.38f * H);
  const float top = H - diagram_h;
  // The picture is square beside its colour bar and the Fourier inset (0.45 of its side, as
  // field_panel draws them): as wide as the height under the panel's one header line allows, at
  // most 60% of the width (two pictures, before | after, then share it).
  const float colour_bar = 44 + ImGui::CalcTextSize("+7.7e+01").x + 8;
  const float side = top - line - 2 * style.WindowPadding.y - 8;
  const float inset = ui.view.spectrum ? 0.45f * side : 0.0f;
  const float field_w = std::min(W * 0.6f, side + inset + colour_bar + 2 * style.WindowPadding.x);
  if (ui.show_shapes) {  // S: Figure 2.1 in place of the field, the narration and the run's diagram
    place_panel(ui, ImVec2(0, 0), ImVec2(W, H));
    cycle_shapes_panel(ui, snap);
    place_panel(ui, ImVec2(0, H), ImVec2(W, bar));
    step_bar(ui, worker, snap);
    return;
  }
  if (ui.show_lfa) {  // L: the field (with its measured Fourier inset) beside the predicted maps
    const float lfa_field_w = W * 0.4f;
    place_panel(ui, ImVec2(0, 0), ImVec2(lfa_field_w, H));
    field_panel(ui, snap, renderers);
    place_panel(ui, ImVec2(lfa_field_w, 0), ImVec2(W - lfa_field_w, H));
    lfa_panel(ui, snap, renderers);
    place_panel(ui, ImVec2(0, H), ImVec2(W, bar));
    step_bar(ui, worker, snap);
    return;
  }
  place_panel(ui, ImVec2(0, 0), ImVec2(field_w, top));
  field_panel(ui, snap, renderers);
  place_panel(ui, ImVec2(field_w, 0), ImVec2(W - field_w, top));
  lecture_narration_panel(ui, snap);
  place_panel(ui, ImVec2(0, top), ImVec2(W, diagram_h));
  lecture_diagram_panel(ui, snap);
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
  if (ui.show_shapes) {  // Figure 2.1 in place of the run's field, diagram and plots: room for four diagrams
    place_panel(ui, ImVec2(lw, 0), ImVec2(W - lw, H));
    cycle_shapes_panel(ui, snap);
    status_bar(ui, snap);
    keys_overlay(ui);
    return;
  } else if (ui.show_lfa) {  // the field (its measured Fourier inset) beside the predicted maps: no plots
    const float field_w = (W - lw) * 0.4f;
    place_panel(ui, ImVec2(lw, 0), ImVec2(field_w, H));
    field_panel(ui, snap, renderers);
    place_panel(ui, ImVec2(lw + field_w, 0), ImVec2(W - lw - field_w, H));
    lfa_panel(ui, snap, renderers);
    status_bar(ui, snap);
    keys_overlay(ui);
    return;
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

void WorkerSync::operator()(UiState& ui, SolverWorker& worker, const Snapshot& snap) {
  if (std::exchange(ui.send_params, false)) worker.set_options(ui.params);
  if (!(ui.view == view_)) worker.set_view(view_ = ui.view);
  if (ui.speed != speed_) worker.set_speed(speed_ = ui.speed);
  if (ui.autoplay_rate != autoplay_rate_) {
    autoplay_rate_ = ui.autoplay_rate;
    if (snap.autoplay > 0) worker.autoplay(autoplay_rate_);  // a new pace; autoplay itself is the button's
  }
}

}  // namespace kcycle::gui
