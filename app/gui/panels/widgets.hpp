#pragma once
// What every panel draws with: its window, headings, warnings and controls. Every control is
// drawn through these functions, each of which takes the control's tooltip, and each records
// the control in UiState::controls_drawn: the frame can say what it drew (the script's
// print-controls), and Layout.PanelsDrawControlsOnlyThroughWidgets keeps every panel on them.
#include <imgui.h>

#include <string>
#include <vector>

#include "kcycle/solve/enum_names.hpp"
#include "ui_state.hpp"

namespace kcycle::gui {

// One panel's window for the scope of a panel function: Begin, its rectangle (UiState's
// panel_rects, for the layout file), and for the script's print-text the text it drew (ImGui
// logs a window's text until its End, which clears the log: so each window reads its own).
class PanelWindow {
 public:
  // open: where given, the window has a close button that clears it.
  PanelWindow(UiState& ui, const char* name, ImGuiWindowFlags flags = 0, bool* open = nullptr);
  ~PanelWindow();
  PanelWindow(const PanelWindow&) = delete;
  PanelWindow& operator=(const PanelWindow&) = delete;
  explicit operator bool() const { return open_; }

 private:
  UiState& ui_;
  bool open_ = false;
};

// A labelled separator (ImGui 1.86 has no SeparatorText).
void section(const char* label);
// Text wrapped to the panel, printf-style, as ImGui::TextWrapped but broken at spaces only:
// ImGui also breaks after '.', ',' and ';', which split numbers across lines at projector
// scales ("error reduced by 8." / "42878e-09"). Logged (the script's print-text) unbroken.
void text_wrapped(const char* format, ...) IM_FMTARGS(1);
// A warning in orange, wrapped to the panel (at projector scales a line runs past its edge).
void warning(const std::string& text);

// The controls: each true when the user changed the value (a button: pressed).
bool button(UiState& ui, const char* label, const char* tooltip, ImVec2 size = ImVec2(0, 0));
bool checkbox(UiState& ui, const char* label, bool& value, const char* tooltip);
bool slider(UiState& ui, const char* label, float& value, float min, float max, const char* format, const char* tooltip,
            ImGuiSliderFlags flags = 0);
bool slider(UiState& ui, const char* label, int& value, int min, int max, const char* format, const char* tooltip);
bool input_int(UiState& ui, const char* label, int& value, const char* tooltip);
// A combo over `names`, showing `preview` while closed: the index picked this frame, or -1.
int choose(UiState& ui, const char* label, const std::string& preview, const std::vector<std::string>& names,
           int selected, const char* tooltip);

// A combo over an enum's name table (kcycle/solve/enum_names.hpp), showing its labels.
template <class Enum>
bool enum_combo(UiState& ui, const char* label, Enum& value, const char* tooltip) {
  const auto& table = name_table<Enum>();
  std::vector<std::string> names;
  int selected = -1;
  for (const auto& entry : table) {
    if (entry.value == value) selected = int(names.size());
    names.emplace_back(entry.label);
  }
  const int picked = choose(ui, label, std::string(enum_label(value)), names, selected, tooltip);
  if (picked < 0 || table[std::size_t(picked)].value == value) return false;
  value = table[std::size_t(picked)].value;
  return true;
}

// The panel's widgets as wide as the window leaves beside a column of labels as wide as
// `widest` (ImGui's default gives widgets 65% of the window, which cut long labels at a
// projector's UI scale); for the scope of the object.
class LabelColumn {
 public:
  explicit LabelColumn(const char* widest);
  ~LabelColumn();
  LabelColumn(const LabelColumn&) = delete;
  LabelColumn& operator=(const LabelColumn&) = delete;
};

// The sequential (viridis-like) colour map of spectra and Fourier maps as a vertical bar, w x h
// at p, low at the bottom, with `top` and `bottom` written beside its ends.
void sequential_colour_bar(ImVec2 p, float w, float h, const char* top, const char* bottom);
// The same map as a horizontal strip, w x h at p, low at the left.
void sequential_colour_strip(ImVec2 p, float w, float h);

// Keeps the next widget (`width` wide) on the line of the last one where it fits, else starts a
// new line: a row of buttons reflows at a projector's UI scale instead of running off the panel.
void same_line_if_fits(float width);
float button_width(const char* label);
float checkbox_width(const char* label);
// A view setting's control (view_control), by its key: a checkbox or a labelled slider.
float view_control_width(const char* key);

}  // namespace kcycle::gui
