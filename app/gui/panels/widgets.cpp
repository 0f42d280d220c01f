#include "panels/widgets.hpp"

#include <imgui_internal.h>  // LogToBuffer (print-text), HoveredIdTimer

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <string>
#include <variant>

#include "line_breaks.hpp"
#include "view_settings.hpp"

namespace kcycle::gui {

namespace {

void record_rect(UiState& ui, const char* name) {
  const ImVec2 p = ImGui::GetWindowPos(), s = ImGui::GetWindowSize();
  for (PanelRect& r : ui.panel_rects)
    if (r.name == name) {
      r = {name, p.x, p.y, s.x, s.y};
      return;
    }
  ui.panel_rects.push_back({name, p.x, p.y, s.x, s.y});
}

// The tooltip of the control just drawn, after a short hover; or at once when the script
// probes that control (print-tooltip: scripted runs have no mouse). Records the control.
void tip(UiState& ui, const char* label, const char* text) {
  ui.controls_drawn.push_back({label, text, ImGui::IsItemVisible()});
  const bool probed = ui.tooltip_probe == label;
  if (probed) ui.tooltip_found = text;
  if (!probed && !(ImGui::IsItemHovered() && GImGui->HoveredIdTimer > 0.35f)) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.0f);
  ImGui::TextUnformatted(text);
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

}  // namespace

PanelWindow::PanelWindow(UiState& ui, const char* name, ImGuiWindowFlags flags, bool* open) : ui_(ui) {
  open_ = ImGui::Begin(name, open, flags);
  if (!open_) return;
  record_rect(ui_, name);
  if (ui_.capture_text) ImGui::LogToBuffer();
}

PanelWindow::~PanelWindow() {
  if (open_ && ui_.capture_text) ui_.shown_text += std::string(ImGui::GetCurrentContext()->LogBuffer.c_str()) + "\n";
  ImGui::End();
}

void place_panel(const UiState& ui, ImVec2 pos, ImVec2 size) {
  const ImGuiCond cond = ui.scripted || ui.relayout ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
  ImGui::SetNextWindowPos(pos, cond);
  ImGui::SetNextWindowSize(size, cond);
}

void section(const char* label) {
  ImGui::Spacing();
  ImGui::TextDisabled("%s", label);
  ImGui::Separator();
}

void text_wrapped(const char* format, ...) {
  va_list args, copy;
  va_start(args, format);
  va_copy(copy, args);
  std::string text(std::size_t(std::max(0, std::vsnprintf(nullptr, 0, format, copy))), '\0');
  va_end(copy);
  std::vsnprintf(text.data(), text.size() + 1, format, args);
  va_end(args);
  const std::string lines =
      plot::broken_at_spaces(text, std::max(ImGui::GetContentRegionAvail().x, 1.0f),
                             [](const std::string& line) { return double(ImGui::CalcTextSize(line.c_str()).x); });
  // Drawn as one item, logged as TextWrapped logs: the text as written, not the breaks.
  ImGuiContext& g = *ImGui::GetCurrentContext();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const bool logging = g.LogEnabled;
  g.LogEnabled = false;
  ImGui::TextUnformatted(lines.c_str(), lines.c_str() + lines.size());
  g.LogEnabled = logging;
  if (logging) ImGui::LogRenderedText(&at, text.c_str(), text.c_str() + text.size());
}

void warning(const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.6f, 0.2f, 1.0f));
  text_wrapped("%s", text.c_str());
  ImGui::PopStyleColor();
}

bool button(UiState& ui, const char* label, const char* tooltip, ImVec2 size) {
  const bool pressed = ImGui::Button(label, size);
  tip(ui, label, tooltip);
  return pressed;
}

bool checkbox(UiState& ui, const char* label, bool& value, const char* tooltip) {
  const bool changed = ImGui::Checkbox(label, &value);
  tip(ui, label, tooltip);
  return changed;
}

bool slider(UiState& ui, const char* label, float& value, float min, float max, const char* format, const char* tooltip,
            ImGuiSliderFlags flags) {
  const bool changed = ImGui::SliderFloat(label, &value, min, max, format, flags);
  tip(ui, label, tooltip);
  return changed;
}

bool slider(UiState& ui, const char* label, int& value, int min, int max, const char* format, const char* tooltip) {
  const bool changed = ImGui::SliderInt(label, &value, min, max, format);
  tip(ui, label, tooltip);
  return changed;
}

bool input_int(UiState& ui, const char* label, int& value, const char* tooltip) {
  // An InputInt is a group (field, "-", "+"): the tooltip shows over any of its parts.
  ImGui::BeginGroup();
  const bool changed = ImGui::InputInt(label, &value);
  ImGui::EndGroup();
  tip(ui, label, tooltip);
  return changed;
}

int choose(UiState& ui, const char* label, const std::string& preview, const std::vector<std::string>& names,
           int selected, const char* tooltip) {
  int picked = -1;
  if (ImGui::BeginCombo(label, preview.c_str())) {
    for (std::size_t k = 0; k < names.size(); ++k)
      if (ImGui::Selectable(names[k].c_str(), int(k) == selected)) picked = int(k);
    ImGui::EndCombo();
  }
  tip(ui, label, tooltip);
  return picked;
}

LabelColumn::LabelColumn(const char* widest) {
  ImGui::PushItemWidth(-(ImGui::CalcTextSize(widest).x + 2 * ImGui::GetStyle().ItemInnerSpacing.x));
}

LabelColumn::~LabelColumn() { ImGui::PopItemWidth(); }

void same_line_if_fits(float width) {
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + width <= right) ImGui::SameLine();
}

float button_width(const char* label) {
  return ImGui::CalcTextSize(label, nullptr, true).x + 2 * ImGui::GetStyle().FramePadding.x;
}

float checkbox_width(const char* label) {
  return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label, nullptr, true).x;
}

float view_control_width(const char* key) {
  const ViewSetting* s = find_view_setting(key);
  if (!s) return 0;
  const std::string label(s->label);
  const bool toggle =
      std::holds_alternative<bool UiState::*>(s->field) || std::holds_alternative<bool ViewRequest::*>(s->field);
  return toggle ? checkbox_width(label.c_str())
                : ImGui::CalcItemWidth() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label.c_str()).x;
}

namespace {
// The stops of shaders/colormap.frag's sequential ramp.
constexpr ImU32 kSequentialStops[5] = {IM_COL32(68, 1, 84, 255), IM_COL32(59, 82, 139, 255),
                                       IM_COL32(33, 145, 140, 255), IM_COL32(94, 201, 98, 255),
                                       IM_COL32(253, 231, 37, 255)};
}  // namespace

void sequential_colour_strip(ImVec2 p, float w, float h) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (int k = 0; k < 4; ++k)
    dl->AddRectFilledMultiColor(ImVec2(p.x + float(k) * w / 4, p.y), ImVec2(p.x + float(k + 1) * w / 4, p.y + h),
                                kSequentialStops[k], kSequentialStops[k + 1], kSequentialStops[k + 1],
                                kSequentialStops[k]);
}

void sequential_colour_bar(ImVec2 p, float w, float h, const char* top, const char* bottom) {
  const auto& kStops = kSequentialStops;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (int k = 0; k < 4; ++k) {
    const float y0 = p.y + h - float(k + 1) * h / 4, y1 = p.y + h - float(k) * h / 4;
    dl->AddRectFilledMultiColor(ImVec2(p.x, y0), ImVec2(p.x + w, y1), kStops[k + 1], kStops[k + 1], kStops[k],
                                kStops[k]);
  }
  dl->AddRect(p, ImVec2(p.x + w, p.y + h), IM_COL32(255, 255, 255, 160));
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  dl->AddText(ImVec2(p.x + w + 3, p.y), text, top);
  dl->AddText(ImVec2(p.x + w + 3, p.y + h - ImGui::GetTextLineHeight()), text, bottom);
}

}  // namespace kcycle::gui
