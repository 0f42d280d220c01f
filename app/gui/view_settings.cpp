#include "view_settings.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "panels/widgets.hpp"

namespace kcycle::gui {

const std::vector<ViewSetting>& view_settings() {
  static const std::vector<ViewSetting> table = {
      {"view-level", "level shown",
       "The grid level the field panel shows when it does not follow the cycle (1 = finest)", &ViewRequest::level, 1,
       16, "%d"},
      {"follow", "follow the cycle when stepping", "While stepping, show the level the last operation wrote",
       &ViewRequest::follow_cycle},
      {"before-after", "before | after relaxation",
       "While stepping through a relaxation phase, show its level as the phase found it beside how it is now",
       &ViewRequest::before_after},
      {"residual", "residual instead of error",
       "Show f - A v instead of the error (finest level) or the correction (coarser levels)", &ViewRequest::residual},
      {"spectrum", "Fourier inset",
       "The field's sine-series magnitudes: smooth error at the lower left, rough error at the upper right",
       &ViewRequest::spectrum},
      {"slice", "1D slice", "The values along one row (or column) of the field, plotted under it",
       &UiState::show_slice},
      {"slice-y", "at", "Where the slice runs: its row's y (or its column's x), between 0 and 1", &UiState::slice_y, 0,
       1, "%.2f"},
      {"slice-column", "along a column",
       "The slice runs along a column (values against y) instead of a row: stripes that vary in y show in it",
       &UiState::slice_column},
      {"auto-range", "auto range", "Colour range from the field's largest magnitude; off: a fixed range",
       &UiState::auto_range},
      {"lock-range", "lock for the cycle",
       "Keep each level's colour range through a cycle, so the colours fade as the error shrinks",
       &UiState::lock_range},
      {"range", "range +/-", "The fixed colour range", &UiState::fixed_range, 1e-10f, 10.0f, "%.2e", true},
      {"zoom", "zoom", "Magnify the field (the mouse wheel does the same; drag to pan)", &UiState::zoom, 1, 16, "%.1fx",
       true},
      {"average-minify", "average when minifying",
       "A grid larger than the panel: each pixel shows the average of its points (off: one point in k)",
       &UiState::average_minify},
      {"interop", "CUDA-OpenGL interop",
       "Draw the field from the GPU's memory through CUDA-OpenGL interop (off: copy it to the host first)",
       &UiState::interop},
      {"speed", "cycles/s",
       "Run's speed: slow it down to watch the error fall cycle by cycle (0 = as fast as possible)", &UiState::speed, 0,
       30, "%.1f", false, "unlimited"},
      {"operations-rate", "operations/s", "Autoplay's speed", &UiState::autoplay_rate, 0.5f, 30, "%.1f", true},
      {"shapes", "cycle shapes",
       "The paper's Figure 2.1: V, F, kappa=3 and W at this level count, and totalCalls against levels",
       &UiState::show_shapes},
      {"brush", "brush radius",
       "Problem 4: how wide a bump (left click on the field) or a rough patch (right click) is, on the unit square",
       &UiState::brush_radius, 0.01f, 0.5f, "%.2f", true},
      {"lfa", "Fourier analysis",
       "Local Fourier analysis beside the field: what the smoother, the two-grid cycle and this kappa-cycle leave of "
       "each Fourier mode, predicted without solving (key L)",
       &UiState::show_lfa},
      {"advanced", "advanced",
       "Show the time panel and the expert parameters (precision, backend, coarse operator, ...)",
       &UiState::show_advanced},
      {"ui-scale", "UI scale", "Fonts, markers and lines larger for a projector (remembered)", &UiState::ui_scale, 0.5f,
       3.0f, "%.2f"},
      {"x-seconds", "x: seconds",
       "Plot against the time the cycles took instead of the cycle count: what kappa tuning is about",
       &UiState::x_in_seconds},
      {"max-levels", "max levels",
       "The largest level count Calibrate times (it times 3 .. this, kappa = 1, 2, 3, 4, W)",
       &UiState::calibrate_levels, 5, 11, "%d"},
  };
  return table;
}

const ViewSetting* find_view_setting(std::string_view key) {
  for (const ViewSetting& s : view_settings())
    if (s.key == key) return &s;
  return nullptr;
}

std::string view_setting_keys() {
  std::string keys;
  for (const ViewSetting& s : view_settings()) keys += (keys.empty() ? "" : ", ") + std::string(s.key);
  return keys;
}

namespace {

// The field a setting names, in the UI state or its view request.
// 0.5, 16, 1e-10: a range's ends as a person writes them.
std::string shown(float x) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", double(x));
  return text;
}

template <class T>
T& field_of(UiState& ui, T UiState::*member) {
  return ui.*member;
}
template <class T>
T& field_of(UiState& ui, T ViewRequest::*member) {
  return ui.view.*member;
}

}  // namespace

void set_view_setting(UiState& ui, const ViewSetting& s, double value) {
  const std::string key(s.key);
  if (!std::isfinite(value)) throw std::invalid_argument(key + " must be a finite number");
  std::visit(
      [&](auto member) {
        auto& field = field_of(ui, member);
        using T = std::remove_reference_t<decltype(field)>;
        if constexpr (std::is_same_v<T, bool>) {
          if (value != 0 && value != 1) throw std::invalid_argument(key + " is 0 (off) or 1 (on)");
          field = value != 0;
        } else {
          if (value < s.min || value > s.max)
            throw std::invalid_argument(key + " must be between " + shown(s.min) + " and " + shown(s.max));
          if (std::is_same_v<T, int> && value != std::floor(value))
            throw std::invalid_argument(key + " must be a whole number");
          field = T(value);
        }
      },
      s.field);
}

bool view_control(UiState& ui, std::string_view key, std::optional<float> max) {
  const ViewSetting* s = find_view_setting(key);
  if (!s) throw std::logic_error("no view setting " + std::string(key));
  const std::string label(s->label), tooltip(s->tooltip);
  return std::visit(
      [&](auto member) {
        auto& field = field_of(ui, member);
        using T = std::remove_reference_t<decltype(field)>;
        if constexpr (std::is_same_v<T, bool>) {
          return checkbox(ui, label.c_str(), field, tooltip.c_str());
        } else if constexpr (std::is_same_v<T, int>) {
          return slider(ui, label.c_str(), field, int(s->min), int(max.value_or(s->max)), s->format, tooltip.c_str());
        } else {
          const char* format = s->zero_text && field == 0 ? s->zero_text : s->format;
          return slider(ui, label.c_str(), field, s->min, max.value_or(s->max), format, tooltip.c_str(),
                        s->logarithmic ? ImGuiSliderFlags_Logarithmic : 0);
        }
      },
      s->field);
}

}  // namespace kcycle::gui
