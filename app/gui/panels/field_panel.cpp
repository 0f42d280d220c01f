// The error field (or residual, or a coarse correction, or a coarse right-hand side): the
// picture, its colour bar, the Fourier inset, the 1D slice, and before | after a relaxation
// phase or a coarse-grid correction.
#include "panels.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // LogEnabled: print-text

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>

#include "drawing.hpp"
#include "narration.hpp"
#include "panels/widgets.hpp"
#include "plot.hpp"

namespace kcycle::gui {

namespace {

// The field's floats into its texture: through CUDA-OpenGL interop when the image is on the
// device and interop works, else from the host. Records which path the status bar shows.
void upload_field(UiState& ui, const FieldImage& img, FieldRenderer& field) {
  const bool on_device = ui.interop && img.device && field.upload_from_device(*img.device, img.version);
  if (!on_device) field.upload(img.values, img.nx, img.ny, img.version);  // no floats here: keeps the last
  ui.view.host_draws = !on_device && img.device;  // interop cannot draw it: every picture's floats must come
  ui.field_path = on_device     ? "CUDA-OpenGL interop"
                  : !img.device ? "host upload"
                  : !ui.interop ? "host upload (interop off)"
                                : "host upload (" + field.interop_error() + ")";
}

// The part of the field shown, (u0, v0, du, dv), after zoom about the pan centre.
std::array<float, 4> visible_part(UiState& ui) {
  const float extent = 1.0f / ui.zoom;
  ui.pan[0] = std::clamp(ui.pan[0], extent / 2, 1 - extent / 2);
  ui.pan[1] = std::clamp(ui.pan[1], extent / 2, 1 - extent / 2);
  return {ui.pan[0] - extent / 2, ui.pan[1] - extent / 2, extent, extent};
}

// Under the cursor: the point's value as a tooltip; drag pans, the wheel zooms.
// `host`: the newest picture of this view with its floats on the host (null: none yet).
void hover_pan_zoom(UiState& ui, const FieldImage& img, const FieldImage* host, ImVec2 p0, float side,
                    const std::array<float, 4>& view) {
  if (!ImGui::IsItemHovered()) return;
  ui.view.host_values = true;  // the value under the cursor comes from the host's copy
  const ImVec2 m = ImGui::GetIO().MousePos;
  const float u = view[0] + (m.x - p0.x) / side * view[2], v = view[1] + (1 - (m.y - p0.y) / side) * view[3];
  const int i = std::clamp(int(u * img.nx), 0, img.nx - 1), j = std::clamp(int(v * img.ny), 0, img.ny - 1);
  if (host)
    ImGui::SetTooltip("(i, j) = (%d, %d)\nx = %.4f, y = %.4f\nvalue = %.4e", i + 1, j + 1, (i + 1.0) / (img.nx + 1),
                      (j + 1.0) / (img.ny + 1), host->values[std::size_t(j) * std::size_t(img.nx) + std::size_t(i)]);
  else
    ImGui::SetTooltip("(i, j) = (%d, %d)\nx = %.4f, y = %.4f\nvalue: copying from the GPU", i + 1, j + 1,
                      (i + 1.0) / (img.nx + 1), (j + 1.0) / (img.ny + 1));
  if (ImGui::IsMouseDragging(ImGuiMouseButton_Left)) {
    const ImVec2 d = ImGui::GetIO().MouseDelta;
    ui.pan[0] -= d.x / side * view[2];
    ui.pan[1] += d.y / side * view[3];
  }
  const float wheel = ImGui::GetIO().MouseWheel;
  if (wheel != 0) ui.zoom = std::clamp(ui.zoom * std::pow(1.25f, wheel), 1.0f, 16.0f);
}

// Problem 4 (drawing.hpp): a click on the finest level's error draws a bump (left) or a rough
// patch (right) there; a left drag still pans, so the bump comes on the release of a click that
// did not move. The tooltip says so.
void draw_with_mouse(UiState& ui, const FieldImage& img, ImVec2 p0, float side, const std::array<float, 4>& view) {
  if (!drawing(ui) || img.level != 1 || img.view != FieldView::Iterate || !ImGui::IsItemHovered()) return;
  ImGui::BeginTooltip();
  ImGui::TextDisabled("click: a smooth bump here; right click: a rough patch; Ctrl: negative");
  ImGui::EndTooltip();
  const ImGuiIO& io = ImGui::GetIO();
  const bool left = ImGui::IsMouseReleased(ImGuiMouseButton_Left) && io.MouseDragMaxDistanceSqr[0] < 16;
  const bool right = ImGui::IsMouseClicked(ImGuiMouseButton_Right);
  if (!left && !right) return;
  const double x = view[0] + (io.MousePos.x - p0.x) / side * view[2],
               y = view[1] + (1 - (io.MousePos.y - p0.y) / side) * view[3];
  add_drawn_shape(ui, brush_shape(ui, left ? Brush::Bump : Brush::Rough, x, y, io.KeyCtrl));
}

// The diverging map from -range (bottom) to +range (top) beside the field, with labels.
void colourbar(ImVec2 p0, float side, float range) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 b0(p0.x + side + 10, p0.y), b1(p0.x + side + 26, p0.y + side);
  static const ImU32 stops[] = {IM_COL32(180, 4, 38, 255), IM_COL32(244, 154, 123, 255), IM_COL32(221, 221, 221, 255),
                                IM_COL32(141, 176, 254, 255), IM_COL32(59, 76, 192, 255)};
  for (int k = 0; k < 4; ++k) {
    const float y0 = b0.y + (b1.y - b0.y) * k / 4, y1 = b0.y + (b1.y - b0.y) * (k + 1) / 4;
    dl->AddRectFilledMultiColor(ImVec2(b0.x, y0), ImVec2(b1.x, y1), stops[k], stops[k], stops[k + 1], stops[k + 1]);
  }
  char text[32];
  std::snprintf(text, sizeof text, "%+.1e", range);
  ImGui::SetCursorScreenPos(ImVec2(b1.x + 4, b0.y));
  ImGui::TextUnformatted(text);
  // The labels within the bar's height, whatever the UI scale makes a line; in a bar shorter
  // than three lines, the ends only (or the top), not one over another.
  const float line = ImGui::GetTextLineHeight();
  if (side >= 3 * line) {
    ImGui::SetCursorScreenPos(ImVec2(b1.x + 4, (b0.y + b1.y) / 2 - line / 2));
    ImGui::TextUnformatted(" 0");
  }
  if (side >= 2 * line) {
    std::snprintf(text, sizeof text, "%+.1e", -range);
    ImGui::SetCursorScreenPos(ImVec2(b1.x + 4, b1.y - line));
    ImGui::TextUnformatted(text);
  }
}

// The inset's colour scale: log10 |c_kl| over eight decades up to the largest.
float spectrum_top(const FieldImage& img) {
  float top = -300;
  for (float v : img.spectrum) top = std::max(top, v);
  return top;
}

// Fourier inset: sine-series magnitudes, low wave numbers at the lower left. Rough error
// sits at the upper right and vanishes under relaxation; smooth error stays lower left.
// Drawn at q0, inset x inset pixels, beside or under the field (over it, it hid a third of the
// picture), on the scale whose top is `top`. `tag`: "before" or "after" over a pair's insets.
void fourier_inset(UiState& ui, const FieldImage& img, ImVec2 q0, float inset, float top, FieldRenderer& spectrum,
                   const char* tag = nullptr) {
  if (img.spectrum.empty()) {
    ImGui::SetCursorScreenPos(q0);
    ImGui::PushTextWrapPos(q0.x + inset - ImGui::GetWindowPos().x);  // wrap positions are window-local
    ImGui::TextDisabled("Fourier inset: levels of up to 511 x 511 points");
    ImGui::PopTextWrapPos();
    return;
  }
  spectrum.upload(img.spectrum, img.nx, img.ny, img.version);
  // Nearest wave numbers, not averages: a mipmap pyramid per publish costs software renderers
  // several fps, and the inset is read for where the energy sits, not point by point.
  spectrum.set_average_minification(false);
  const float full[4] = {0, 0, 1, 1};
  const GLuint stex = spectrum.render(int(inset), int(inset), false, top - 8, top, full);
  const float line = ImGui::GetTextLineHeight();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddImage(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(stex)), q0, ImVec2(q0.x + inset, q0.y + inset),
               ImVec2(0, 1), ImVec2(1, 0));
  dl->AddRect(q0, ImVec2(q0.x + inset, q0.y + inset), IM_COL32(255, 255, 255, 200));
  const bool current = !tag || std::string(tag) != "before";
  ui.panel_rects.push_back({current ? "Fourier inset" : "Fourier inset before", q0.x, q0.y, inset, inset});
  // Problem 4: a click adds the sine mode under the cursor to the drawn start (drawing.hpp).
  if (current && drawing(ui) && img.level == 1 && ImGui::IsWindowHovered() &&
      ImGui::IsMouseHoveringRect(q0, ImVec2(q0.x + inset, q0.y + inset))) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    const int k = std::clamp(1 + int((m.x - q0.x) / inset * float(img.nx)), 1, img.nx);
    const int l = std::clamp(1 + int((q0.y + inset - m.y) / inset * float(img.ny)), 1, img.ny);
    ImGui::SetTooltip("mode (k, l) = (%d, %d)\nclick: add sin(%d pi x) sin(%d pi y) to the start (Ctrl: negative)", k,
                      l, k, l);
    if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) add_drawn_shape(ui, mode_shape(k, l, ImGui::GetIO().KeyCtrl));
  }
  // Axes: wave numbers k (x) from 1 at the left to nx, l (y) from 1 at the bottom to ny.
  const ImU32 text = IM_COL32(255, 255, 255, 230), box = IM_COL32(20, 20, 24, 220);
  const float below = q0.y + inset + 1;
  const char* title = ImGui::CalcTextSize("Fourier |c_kl|, log").x + 4 <= inset ? "Fourier |c_kl|, log" : "|c_kl|, log";
  const bool titled = ImGui::CalcTextSize(title).x + 4 <= inset;
  dl->AddRectFilled(ImVec2(q0.x, below), ImVec2(q0.x + inset, below + (titled ? 2 : 1) * line + 2), box);
  // The last line: the colour scale, |c_kl| from 1e(top - 8) (dark, the left) to 1e(top)
  // (yellow), its numbers written on its ends where they fit.
  const float scale_y = below + (titled ? 2 : 1) * line + 3;
  sequential_colour_strip(ImVec2(q0.x, scale_y), inset, line);
  char high[24], low[24];
  std::snprintf(high, sizeof high, "%.0e", std::pow(10.0, double(top)));
  std::snprintf(low, sizeof low, "%.0e", std::pow(10.0, double(top) - 8));
  const float high_w = ImGui::CalcTextSize(high).x, low_w = ImGui::CalcTextSize(low).x;
  if (high_w + 4 <= inset) dl->AddText(ImVec2(q0.x + inset - high_w - 2, scale_y), IM_COL32(0, 0, 0, 255), high);
  if (low_w + high_w + 12 <= inset) dl->AddText(ImVec2(q0.x + 2, scale_y), text, low);
  const std::string kmax = "k=" + std::to_string(img.nx), lmax = "l=" + std::to_string(img.ny);
  const float kmax_w = ImGui::CalcTextSize(kmax.c_str()).x, arrow_w = ImGui::CalcTextSize("k ->").x;
  if (inset >= kmax_w + ImGui::CalcTextSize("1").x + 8) dl->AddText(ImVec2(q0.x + 2, below), text, "1");
  if (kmax_w + 4 <= inset) dl->AddText(ImVec2(q0.x + inset - kmax_w - 2, below), text, kmax.c_str());
  if (inset - kmax_w - 16 > arrow_w + 8)  // room between "1" and "k=nx"
    dl->AddText(ImVec2(q0.x + 14 + (inset - kmax_w - 16 - arrow_w) / 2, below), text, "k ->");
  if (titled) dl->AddText(ImVec2(q0.x + 2, below + line), text, title);
  // Each label only where the inset has room for it (a small inset at a projector's scale).
  const float lmax_w = ImGui::CalcTextSize(lmax.c_str()).x;
  if (lmax_w + 6 <= inset) {
    dl->AddRectFilled(ImVec2(q0.x + 1, q0.y + 1), ImVec2(q0.x + lmax_w + 5, q0.y + line + 1), box);
    dl->AddText(ImVec2(q0.x + 3, q0.y + 1), text, lmax.c_str());
  }
  if (tag) {  // which of the pair, at the upper right (the upper left has l=ny)
    const float tag_w = ImGui::CalcTextSize(tag).x;
    if (ImGui::CalcTextSize("before").x + lmax_w + 12 <= inset) {  // both of the pair or neither
      dl->AddRectFilled(ImVec2(q0.x + inset - tag_w - 5, q0.y + 1), ImVec2(q0.x + inset - 1, q0.y + line + 1), box);
      dl->AddText(ImVec2(q0.x + inset - tag_w - 3, q0.y + 1), text, tag);
    }
  }
  if (ImGui::GetCurrentContext()->LogEnabled)  // print-text: what the inset's axes and scale say
    ImGui::LogText(
        "Fourier inset%s%s%s: k = 1..%d (x), l = 1..%d (y), log |c_kl| over 8 decades, from %s (dark) to %s (yellow)\n",
        tag ? " (" : "", tag ? tag : "", tag ? ")" : "", img.nx, img.ny, low, high);
}

// What an all-zero picture means: on coarse levels a correction before its first sweep.
const char* zero_caption(const FieldImage& img) {
  if (img.view == FieldView::Residual) return "zero field: the residual is zero everywhere";
  if (img.view == FieldView::RightHandSide) return "zero field: the right-hand side is zero everywhere";
  if (img.level == 1) return "zero field: the error is zero everywhere (the iterate is exact)";
  return "zero field: this correction starts from zero; its first sweep fills it";
}

// The colour range of a level's picture: its own largest magnitude (auto), or with the lock
// the range that level's picture of the same kind (correction, residual, right-hand side) had
// when first shown in the current cycle, or the fixed one. Keyed by the kind too: a restriction
// shows the coarse right-hand side, thousands of times the correction that follows it there.
static_assert(int(FieldView::RightHandSide) + 1 == UiState::kLockedViews, "a lock per kind of picture");
float colour_range(UiState& ui, const Snapshot& snap, const FieldImage& img) {
  const float own = std::max(std::abs(img.min), std::abs(img.max));
  if (!ui.auto_range) return ui.fixed_range;
  if (!ui.lock_range) return own;
  const std::size_t cycle = snap.history.size();  // cycles finished: the one under way is the next
  if (ui.locked_generation != snap.generation || ui.locked_cycle != cycle || ui.locked_ranges.empty()) {
    ui.locked_ranges.assign(std::size_t(UiState::kLockedLevels * UiState::kLockedViews), 0.0f);
    ui.locked_generation = snap.generation;
    ui.locked_cycle = cycle;
  }
  const int level = std::clamp(img.level, 0, UiState::kLockedLevels - 1);
  const int view = std::clamp(int(img.view), 0, UiState::kLockedViews - 1);
  float& locked = ui.locked_ranges[std::size_t(level * UiState::kLockedViews + view)];
  if (!(locked > 0)) locked = own;  // a zero correction sets nothing: its first sweep does
  return locked;
}

// Before | after: the relaxation phase (or the coarse-grid correction, at its prolongation)
// under way on the shown level, and the field it started from (kept by the worker while
// stepping with ViewRequest::before_after).
const FieldImage* phase_start(const Snapshot& snap, const FieldImage& now) {
  const Trace* trace = snap.cycle_trace.get();
  const FieldImage* before = snap.phase_before.get();
  if (!snap.stepping || !before || !trace || snap.trace_position < 1 ||
      std::size_t(snap.trace_position) > trace->size())
    return nullptr;
  const TraceEvent& e = (*trace)[std::size_t(snap.trace_position - 1)];
  const bool relaxing = e.kind == OpKind::PreRelax || e.kind == OpKind::PostRelax;
  const bool correcting = e.kind == OpKind::Prolong;  // the coarse-grid correction, its other half
  if (!(relaxing || correcting) || e.level != now.level || before->level != now.level || before->nx != now.nx ||
      before->view != now.view)
    return nullptr;
  return before;
}

// What the picture is of, in words.
std::string picture_name(const FieldImage& img) {
  const std::string l = std::to_string(img.level);
  switch (img.view) {
    case FieldView::Residual: return "residual f - Av";
    case FieldView::RightHandSide: return img.level == 1 ? "right-hand side f" : "right-hand side f" + l;
    case FieldView::Iterate: break;
  }
  return img.level == 1 ? "error u - u*" : "correction v" + l;
}

// Words over a zero picture, so an all-zero map does not read as "no data".
void zero_note(ImVec2 p0, float side, const char* note) {
  const ImVec2 size = ImGui::CalcTextSize(note, nullptr, false, side - 16);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 at(p0.x + std::max(8.0f, (side - size.x) / 2), p0.y + side / 2 - size.y / 2);
  dl->AddRectFilled(ImVec2(at.x - 6, at.y - 4), ImVec2(at.x + size.x + 6, at.y + size.y + 4),
                    IM_COL32(30, 30, 36, 230));
  ImGui::SetCursorScreenPos(at);
  ImGui::PushTextWrapPos(ImGui::GetCursorPos().x + side - 16);
  ImGui::TextUnformatted(note);
  ImGui::PopTextWrapPos();
}

// One picture of a field at p0, side x side pixels, through `renderer`.
void draw_field(UiState& ui, FieldRenderer& renderer, ImVec2 p0, float side, float range,
                const std::array<float, 4>& view) {
  renderer.set_average_minification(ui.average_minify);
  const GLuint tex = renderer.render(int(side), int(side), true, -range, range, view.data());
  ImGui::SetCursorScreenPos(p0);
  // The offscreen texture's rows run bottom-up like the field's y: flip v so y points up.
  ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(tex)), ImVec2(side, side), ImVec2(0, 1),
               ImVec2(1, 0));
}

// The slice's row (or column), 1-based, in a level of `count` rows (columns).
int slice_index(const UiState& ui, int count) {
  return std::clamp(int(std::lround(ui.slice_y * (count + 1))), 1, count);
}

// The slice's line on a picture at p0: a row across it, or a column down it.
void mark_slice(const UiState& ui, const FieldImage& img, ImVec2 p0, float side, const std::array<float, 4>& view) {
  const int count = ui.slice_column ? img.nx : img.ny;
  const float u = (float(slice_index(ui, count)) - 0.5f) / float(count);  // texture coordinate of its centre
  const float t = ui.slice_column ? (u - view[0]) / view[2] : (u - view[1]) / view[3];
  if (t < 0 || t > 1) return;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 yellow = IM_COL32(255, 255, 80, 200);
  if (ui.slice_column)
    dl->AddLine(ImVec2(p0.x + t * side, p0.y), ImVec2(p0.x + t * side, p0.y + side), yellow, 1.5f);
  else
    dl->AddLine(ImVec2(p0.x, p0.y + (1 - t) * side), ImVec2(p0.x + side, p0.y + (1 - t) * side), yellow, 1.5f);
}

// The values along the slice: now, and (grey) where the relaxation phase started.
void slice_plot(const UiState& ui, const FieldImage& now, const FieldImage* before, float range, ImVec2 size) {
  const bool column = ui.slice_column;
  const int at = slice_index(ui, column ? now.nx : now.ny), length = column ? now.ny : now.nx;
  auto line = [&](const FieldImage& img, const char* label, ImU32 colour) {
    Series s{label, {}, {}, colour, 1.5f};
    for (int k = 1; k <= length; ++k) {
      const std::size_t i = std::size_t(column ? at : k) - 1, j = std::size_t(column ? k : at) - 1;
      s.x.push_back(double(k) / (length + 1));
      s.y.push_back(img.values[j * std::size_t(img.nx) + i]);
    }
    return s;
  };
  std::vector<Series> series;
  if (before) series.push_back(line(*before, "before", IM_COL32(170, 170, 170, 255)));
  series.push_back(line(now, before ? "after" : "values", IM_COL32(255, 255, 80, 255)));
  char xlabel[64];
  if (column)
    std::snprintf(xlabel, sizeof xlabel, "y along column %d (x = %.3f)", at, double(at) / (now.nx + 1));
  else
    std::snprintf(xlabel, sizeof xlabel, "x along row %d (y = %.3f)", at, double(at) / (now.ny + 1));
  const PlotSpec spec{xlabel, "value", false, false, 0.0, 1.0, -double(range), double(range)};
  draw_plot("slice", spec, series, {}, size);
}

}  // namespace

void field_panel(UiState& ui, const Snapshot& snap, FieldRenderers& renderers) {
  // In the lecture layout the header says what the picture is: the title's height goes to the picture.
  const PanelWindow window(ui, "Error field", ui.lecture ? ImGuiWindowFlags_NoTitleBar : 0);
  if (!window) return;
  const FieldImage* img = snap.field.get();
  if (!snap.error.empty()) {  // the field of the last accepted parameters would not match them
    text_wrapped("Not solving: %s", snap.error.c_str());
    return;
  }
  if (!snap.setting_up.empty()) {
    text_wrapped("%s...", snap.setting_up.c_str());
    return;
  }
  if (!img || (img->values.empty() && !img->device)) {
    text_wrapped("starting...");
    return;
  }
  // The host's floats of this view: this picture's, or the newest copied (HostCopyRule).
  if (!img->values.empty()) ui.host_field = snap.field;
  const FieldImage* host = ui.host_field.get();
  if (host && (host->level != img->level || host->nx != img->nx || host->ny != img->ny || host->view != img->view))
    host = nullptr;
  ui.view.host_values = ui.show_slice;  // and below: hovering
  const bool finest = img->level == 1;
  ImGui::PushTextWrapPos(0.0f);  // the header wraps at the panel's edge (a projector's large type)
  ImGui::Text("%s on level %d of %d (%d x %d)%s", picture_name(*img).c_str(), img->level, snap.options.levels, img->nx,
              img->ny, snap.stepping && !ui.lecture ? "  [stepping]" : "");
  if (!finest && !ui.lecture)  // which equation this level's pictures belong to (the lecture's narration says it)
    ImGui::TextDisabled("%s", coarse_equation(img->level).c_str());
  // A semi-coarsened level covers the same unit square with fewer lines one way: drawn square,
  // its cells are as much taller (or wider) as its spacing is, and the header says so.
  if (img->nx != img->ny)
    ImGui::TextDisabled("the same unit square: cells h_x = 1/%d wide, h_y = 1/%d tall (coarsened in %s only)",
                        img->nx + 1, img->ny + 1, img->nx > img->ny ? "y" : "x");
  // A restricted residual looks rougher than the error it came from: said, so a class does not
  // read it as the smoother having failed.
  if (!finest && img->view == FieldView::RightHandSide) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    text_wrapped(
        "Why it looks rough: it is the residual f - Av restricted, and A (second differences) weighs an error's "
        "wiggles by their frequency squared, so what little rough error the smoother left dominates it.");
    ImGui::PopStyleColor();
  }
  // A coarse correction is zero between its zeroing and its first sweep: said in words, not
  // drawn as a blank map with an all-"maximum" spectrum.
  const bool zero = img->min == 0.0f && img->max == 0.0f;
  const FieldImage* before = ui.view.before_after ? phase_start(snap, *img) : nullptr;
  float range = colour_range(ui, snap, *img);
  if (before && ui.auto_range && !ui.lock_range)  // one scale for both: the drop shows
    range = std::max({range, std::abs(before->min), std::abs(before->max)});
  if (!(range > 0)) range = 1.0f;
  if (ui.lock_range && ui.auto_range)
    ImGui::TextDisabled("colour range locked through cycle %zu: +/-%.2e", snap.history.size() + 1, double(range));
  ImGui::PopTextWrapPos();
  upload_field(ui, *img, renderers.field);

  const ImVec2 avail = ImGui::GetContentRegionAvail();
  // The colour bar and its labels (they grow with the UI scale); the gap between two pictures.
  const float bar_w = 44 + ImGui::CalcTextSize("+7.7e+01").x, gap = 8;
  // Before | after: what the pair shows, over the whole width, then "before" and "after" over
  // their pictures (a long label over each overlapped the other at a projector's scale).
  std::string caption;
  if (before) {
    const std::size_t op = std::size_t(snap.trace_position - 1);
    const OpKind kind = (*snap.cycle_trace)[op].kind;
    caption = kind == OpKind::Prolong ? "before | after the coarse-grid correction on level " +
                                            std::to_string(img->level) + " (smoothing's other half)"
                                      : "before | after the " + std::string(kind == OpKind::PreRelax ? "pre" : "post") +
                                            "-relaxation: " + narrate(*snap.cycle_trace, op, snap.options);
  }
  const float label_h = before ? ImGui::CalcTextSize(caption.c_str(), nullptr, false, avail.x).y +
                                     2 * ImGui::GetStyle().ItemSpacing.y + ImGui::GetTextLineHeightWithSpacing()
                               : 0.0f;
  const float slice_h = ui.show_slice ? std::max(90.0f, avail.y * 0.28f) : 0.0f;
  const int panes = before ? 2 : 1;
  // The Fourier inset, none for grids too small to have a spectrum worth showing (1 x 1 was a
  // solid yellow square): beside the colour bar, or under the pictures where that leaves them
  // larger (two pictures in a narrow panel at a projector's scale); never over the field, where
  // it hid a third of it. Its caption needs two lines under it.
  const bool inset_on = ui.view.spectrum && !zero && img->nx >= 3 && img->ny >= 3;
  // Before | after: each picture's spectrum under it on one scale, so a class sees which modes
  // the sweep took (there is no room under the pictures with the slice on).
  bool before_inset = inset_on && before && host && !before->spectrum.empty() && !ui.show_slice &&
                      !(before->min == 0.0f && before->max == 0.0f);
  // On a coarse level, the finest level's error as the cycle left it goes in the same column.
  const FieldImage* fine = img->level > 1 ? snap.finest_left.get() : nullptr;
  const bool thumb_on = fine && !fine->values.empty();
  // The inset's caption: its axes, its title and its colour scale (three lines).
  const float ratio = inset_on || thumb_on ? 0.45f : 0.0f, caption_h = 3 * ImGui::GetTextLineHeightWithSpacing();
  const float width = avail.x - bar_w - gap * (panes - 1), height = avail.y - 8 - label_h - slice_h;
  const float side_beside = std::min(width / (panes + ratio), height);
  const float side_under = ui.show_slice ? 0.0f : std::min(width / panes, (height - caption_h) / (1 + ratio));
  // The pair of insets only where the pictures keep most of their size (at 1280x720 x2 in the
  // lecture layout they would shrink to 50 pixels): else the one inset, beside them.
  if (before_inset && side_under < 0.6f * side_beside) before_inset = false;
  const bool inset_under = inset_on && (before_inset || side_under > side_beside);
  const float side = std::max(50.0f, inset_under ? side_under : side_beside);
  const float inset = std::max(40.0f, ratio * side);
  const std::array<float, 4> view = visible_part(ui);
  ImVec2 p0 = ImGui::GetCursorScreenPos();
  const ImVec2 left = p0;  // the before picture's corner, or the only picture's
  if (before) {
    text_wrapped("%s", caption.c_str());
    if (ImGui::CalcTextSize("before").x + ImGui::GetStyle().ItemSpacing.x <= side + gap) {
      ImGui::TextUnformatted("before");
      ImGui::SameLine(side + gap + ImGui::GetStyle().WindowPadding.x);
      ImGui::TextUnformatted("after");
    } else {  // pictures narrower than the word: one label over both, not two over one another
      ImGui::TextUnformatted("before | after");
    }
    p0 = ImGui::GetCursorScreenPos();
    renderers.before.upload(before->values, before->nx, before->ny, before->version);
    draw_field(ui, renderers.before, p0, side, range, view);
    ui.panel_rects.push_back({"field picture before", p0.x, p0.y, side, side});  // the layout file
    if (before->min == 0.0f && before->max == 0.0f) zero_note(p0, side, "zero: a coarse correction starts from zero");
    if (ui.show_slice) mark_slice(ui, *before, p0, side, view);
    p0.x += side + gap;
  }
  draw_field(ui, renderers.field, p0, side, range, view);
  ui.panel_rects.push_back({"field picture", p0.x, p0.y, side, side});
  hover_pan_zoom(ui, *img, host, p0, side, view);
  draw_with_mouse(ui, *img, p0, side, view);
  if (ui.show_slice) mark_slice(ui, *img, p0, side, view);
  // The inset under its picture, or beside the colour bar.
  const ImVec2 inset_at = inset_under ? ImVec2(p0.x, p0.y + side + 6) : ImVec2(p0.x + side + bar_w, p0.y);
  if (zero) {
    zero_note(p0, side, zero_caption(*img));
  } else {
    colourbar(p0, side, range);
    if (inset_on && host) {
      float top = spectrum_top(*host);
      if (before_inset) {
        top = std::max(top, spectrum_top(*before));
        fourier_inset(ui, *before, ImVec2(p0.x - side - gap, inset_at.y), inset, top, renderers.spectrum_before,
                      "before");
      }
      fourier_inset(ui, *host, inset_at, inset, top, renderers.spectrum, before_inset ? "after" : nullptr);
    }
  }
  // On a coarse level: the finest level's error as the cycle left it, small, beside the inset
  // under the pictures (or under it beside them), or under a before picture that has no inset.
  if (thumb_on) {
    const char* thumb_caption = "level 1 as the cycle left it";
    ImVec2 at = inset_under ? ImVec2(inset_at.x + (inset_on ? inset + 2 * gap : 0.0f), inset_at.y)
                            : ImVec2(inset_at.x, p0.y + (inset_on ? inset + caption_h + 6 : 0.0f));
    if (before && !before_inset && inset_under) at = ImVec2(left.x, inset_at.y);
    const float room_x = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x - at.x;
    // Down to the panel's bottom, less the caption as it wraps in the room beside.
    const float bottom = ImGui::GetWindowPos().y + ImGui::GetWindowContentRegionMax().y;
    const float room_y = bottom - at.y - ImGui::CalcTextSize(thumb_caption, nullptr, false, room_x).y - 4;
    const float thumb = std::min({inset, room_x, room_y});
    if (thumb >= 40) {
      renderers.finest.upload(fine->values, fine->nx, fine->ny, fine->version);
      const float fine_range = std::max({std::abs(fine->min), std::abs(fine->max), 1e-30f});
      draw_field(ui, renderers.finest, at, thumb, fine_range, {0, 0, 1, 1});
      ui.panel_rects.push_back({"finest thumbnail", at.x, at.y, thumb, thumb});
      ImGui::SetCursorScreenPos(ImVec2(at.x, at.y + thumb + 2));
      ImGui::PushTextWrapPos(at.x + room_x - ImGui::GetWindowPos().x);  // wrap positions are window-local
      ImGui::TextDisabled("%s", thumb_caption);
      ImGui::PopTextWrapPos();
    }
  }
  if (ui.show_slice && host) {
    ImGui::SetCursorScreenPos(ImVec2(ImGui::GetWindowPos().x + ImGui::GetStyle().WindowPadding.x, p0.y + side + 6));
    slice_plot(ui, *host, before, range, ImVec2(avail.x, slice_h - 10));
  }
}

}  // namespace kcycle::gui
