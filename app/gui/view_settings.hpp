#pragma once
// The visualizer's view settings (what is shown and how, never what is solved), in one table
// like the solver's options (kcycle/solve/solver_options.hpp): the panels draw their controls
// from it (view_control) and the script sets them through it (`set KEY VALUE`), with the same
// names, ranges and messages. The main loop passes what the worker must know (the view
// request, the speeds) on to it.
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "ui_state.hpp"

namespace kcycle::gui {

struct ViewSetting {
  std::string_view key;      // the script's name
  std::string_view label;    // the control's
  std::string_view tooltip;  // the control's
  std::variant<bool UiState::*, float UiState::*, int UiState::*, bool ViewRequest::*, int ViewRequest::*> field;
  float min = 0, max = 1;           // a slider's range (a toggle: 0 or 1)
  const char* format = "%.2f";      // a slider's
  bool logarithmic = false;         // a slider's scale
  const char* zero_text = nullptr;  // a slider's text at 0 ("unlimited")
};

const std::vector<ViewSetting>& view_settings();
const ViewSetting* find_view_setting(std::string_view key);
// "view-level, follow, ...": for messages.
std::string view_setting_keys();
// The setting from a number (the script): std::invalid_argument when not finite, outside the
// slider's range, or neither 0 nor 1 for a toggle.
void set_view_setting(UiState& ui, const ViewSetting& setting, double value);
// The setting's control (a checkbox or a slider) with its label and tooltip; true when
// changed. `max`: a slider's top where the run sets it (level shown: the level count).
bool view_control(UiState& ui, std::string_view key, std::optional<float> max = {});

}  // namespace kcycle::gui
