#pragma once
// What the panels edit and remember between frames. The solver's state is not here: the
// panels read it from the worker's latest Snapshot.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "key_press.hpp"
#include "recording.hpp"
#include "solver_worker.hpp"

namespace kcycle::gui {

// A finished or running solve kept for comparison (pin_run, panels.hpp).
struct PinnedRun {
  SolverOptions options;
  SharedHistory history;
  double initial_norm = 0;       // of the monitored quantity, cycle 0
  double seconds_per_cycle = 0;  // median, as the status bar shows it
};

// The cycle the diagram draws, planned once per cycle choice (kcycle/cycle/cycle_plan.hpp).
struct CyclePlan {
  CycleChoice choice;
  int levels = 0, nu1 = 0, nu2 = 0;
  CoarsestCalls coarsest_calls = CoarsestCalls::Repeated;
  bool coarse_krylov = false;
  Trace trace;
};

// A panel's rectangle in window pixels (the script's write-layout, for tests).
struct PanelRect {
  std::string name;
  float x, y, w, h;
};

// A control the frame drew, and its tooltip (the script's print-controls).
struct DrawnControl {
  std::string label, tooltip;
  bool in_view = true;  // some of it inside its panel's visible area (not scrolled away)
};

struct UiState {
  SolverOptions params;  // edited by the Parameters panel; sent to the worker on change
  ViewRequest view;
  bool auto_range = true;
  float fixed_range = 1.0f;
  // Lock: each level's picture of each kind (FieldView) keeps the range it had when first shown
  // in the cycle, so the colours fade as the cycle reduces the error instead of being rescaled
  // at every step.
  bool lock_range = false;
  static constexpr int kLockedLevels = 32, kLockedViews = 3;  // FieldView's three kinds
  std::vector<float> locked_ranges;                           // by level and kind, for the cycle below
  std::uint64_t locked_generation = ~std::uint64_t(0);
  std::size_t locked_cycle = 0;
  bool show_slice = false;     // a 1D slice across the field, under it
  float slice_y = 0.5f;        // its row, as y in (0, 1) (its column's x where slice_column)
  bool slice_column = false;   // along a column (values against y) instead of a row
  bool average_minify = true;  // grids larger than the panel: average points, not pick every k-th
  float autoplay_rate = 4.0f;  // operations per second when autoplay is switched on
  bool show_advanced = true;   // the time panel and the expert parameters
  int lesson = -1;             // the teaching preset whose hint is shown (lessons.hpp), or none
  // The script's print-tooltip: the control whose tooltip the next frame shows without a
  // mouse, and what that tooltip said.
  std::string tooltip_probe, tooltip_found;
  float zoom = 1.0f;
  float pan[2] = {0.0f, 0.0f};  // centre of the view in field coordinates [0,1]
  float speed = 0.0f;           // cycles per second; 0 = unlimited
  int calibrate_levels = 9;
  std::vector<PinnedRun> pinned;
  bool x_in_seconds = false;          // convergence plot: cycles or seconds (cycle time, cumulative)
  double convergence_x_end = 0;       // where the last frame's convergence plots' x axis ended (print-pins)
  bool show_shapes = false;           // lecture view: V, F, kappa=3 and W side by side, and totalCalls
  bool show_lfa = false;              // the Fourier analysis view beside the field (lfa_panel)
  float brush_radius = 0.08f;         // problem 4: the width of a drawn bump or rough patch (drawing.hpp)
  bool send_params = false;           // params changed outside the Parameters panel (a drawing): send them
  bool lecture = false;               // the lecture layout: field, diagram and step bar only (B, --lecture)
  bool show_keys = false;             // the keys overlay (F1, H)
  std::vector<KeyPress> key_presses;  // this frame's, from the window and the script (lecture_keys.hpp)
  // The layout switched this frame: every panel is placed anew (they stay where a person
  // moved them otherwise).
  bool relayout = false;
  bool laid_out_lecture = false;                // the layout the last frame drew
  float ui_scale = 1.0f;                        // fonts and sizes, for a projector (persisted in ui-scale.txt)
  std::string notice;                           // result of the last export or action
  std::string screenshot_path;                  // taken after this frame renders
  std::optional<RecordRequest> record_request;  // taken up by the main loop's Recorder
  bool recording = false;                       // a recording is under way (recording.hpp)
  bool scripted = false;                        // fixed layout, no saved state
  float fps = 0.0f;
  bool interop = true;     // CUDA backend: draw the field through CUDA-OpenGL interop
  std::string field_path;  // how the field reached the texture last frame (status bar)
  // The newest picture whose floats came to the host (HostCopyRule): the slice, the hover value
  // and the Fourier inset read it while the newest picture stays on the GPU.
  std::shared_ptr<const FieldImage> host_field;
  // The script's print-text: the next frame logs every text it draws (ImGui's logging), and
  // the text is kept here for the script to print.
  std::shared_ptr<const CyclePlan> plan;
  bool capture_text = false;
  std::string shown_text;
  std::vector<PanelRect> panel_rects;
  std::vector<DrawnControl> controls_drawn;  // this frame's, in the order drawn
};

}  // namespace kcycle::gui
