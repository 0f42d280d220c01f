#pragma once
// The visualizer's panels, one function each, one file each (panels/). They read the worker's
// latest snapshot, edit the UI state, and send commands to the worker; none of them touches
// solver data directly. They draw with panels/widgets.hpp.
#include <imgui.h>

#include "field_renderer.hpp"
#include "solver_worker.hpp"
#include "ui_state.hpp"

namespace kcycle::gui {

void parameters_panel(UiState& ui, SolverWorker& worker, const Snapshot& snap);
void controls_panel(UiState& ui, SolverWorker& worker, const Snapshot& snap);
// The field panel's renderers: the field, the start of a relaxation phase beside it, their
// Fourier insets, and the finest level's thumbnail; and the Fourier analysis view's three maps.
struct FieldRenderers {
  FieldRenderer field, before, spectrum, spectrum_before, finest;
  FieldRenderer lfa_maps[3];
};
void field_panel(UiState& ui, const Snapshot& snap, FieldRenderers& renderers);
// Keeps the current run for comparison in the convergence plot (at most six).
void pin_run(UiState& ui, const Snapshot& snap);
// Keeps each kappa's median solve of the last sweep the same way (five of the six).
void pin_sweep(UiState& ui, const Snapshot& snap);
// Its legend in the plot: kappa, the settings in which it differs from `current`, and its
// cycles, time per cycle and total cycle time.
std::string pinned_label(const PinnedRun& pin, const SolverOptions& current);
// Lecture view: V, F, kappa=3 and W at the current level count, and totalCalls against levels.
void cycle_shapes_panel(UiState& ui, const Snapshot& snap);
void cycle_diagram_panel(UiState& ui, const Snapshot& snap);
// Local Fourier analysis mode by mode for the run's options (the L key, "Fourier analysis").
void lfa_panel(UiState& ui, const Snapshot& snap, FieldRenderers& renderers);
// The lecture layout's halves of it: the words (the equation the pictured level solves, the
// step, the call stack, Algorithm 3), and the diagram with its counts across the window's width.
void lecture_narration_panel(UiState& ui, const Snapshot& snap);
// "level 3 solves A3 v3 = f3, f3 the restricted residual of level 2": what a coarse level's
// pictures belong to.
std::string coarse_equation(int level);
void lecture_diagram_panel(UiState& ui, const Snapshot& snap);
void convergence_panel(UiState& ui, const Snapshot& snap);
void time_panel(UiState& ui, SolverWorker& worker, const Snapshot& snap);
void status_bar(UiState& ui, const Snapshot& snap);
// The lecture layout's one row of steps (back, operation, relaxation, call, run) and the activity.
void step_bar(UiState& ui, SolverWorker& worker, const Snapshot& snap);
// What the solve is doing, in words (the status bar's and the convergence panel's).
std::string activity(const Snapshot& snap);
// Whether cycles are running now (Run shows Pause, R pauses).
bool solving(const Snapshot& snap);
// Operation, Relaxation and Call on one row, with their keys in the tooltips (the Controls
// panel's and the step bar's).
void step_buttons(UiState& ui, SolverWorker& worker);

// Places the next panel: fixed in scripted runs (tests look for panels by position), a
// default the user may move otherwise (remembered in imgui.ini).
void place_panel(const UiState& ui, ImVec2 pos, ImVec2 size);

// Files the Export buttons write; also used by the script. Each throws std::runtime_error with
// the OS's reason when the file cannot be written (write_file_replacing: the old one stays).
void export_history_csv(const Snapshot& snap, const std::string& path);
// The Parameters button's file (to_parameters_file): `kcycle solve --config` reads it.
void export_parameters(const SolverOptions& params, const std::string& path);
// The paper's Figure 2.1 (kappa = 1, 2, 3, W) at these options' levels and sweeps, as
// `kcycle figure cycles` writes it (FILE.svg or FILE.png). Returns the line to show: "wrote ..."
// or why it could not.
std::string export_cycle_figure(const SolverOptions& options, const std::string& path);
// The Fourier analysis view as a figure (`kcycle lfa --figure` writes the same); the line to show.
std::string export_lfa_figure(const SolverOptions& options, const lfa::SolvePrediction& prediction,
                              const std::string& path);

}  // namespace kcycle::gui
