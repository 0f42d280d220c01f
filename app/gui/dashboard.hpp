#pragma once
// The visualizer's one window: where each panel goes, and what of the UI state the worker is
// told after each frame.
#include "panels.hpp"
#include "solver_worker.hpp"
#include "ui_state.hpp"

namespace kcycle::gui {

// Parameters and controls on the left, the field and the time plot in the middle, the cycle
// diagram and convergence on the right, the status bar at the bottom; every panel drawn.
void draw_dashboard(UiState& ui, SolverWorker& worker, const Snapshot& snap, FieldRenderers& renderers);

// Sends the worker what it must know of the UI state (the view request, the run and autoplay
// speeds) when a panel, the script or a lesson changed it.
class WorkerSync {
 public:
  WorkerSync(const UiState& ui, SolverWorker& worker);
  // Also sends the parameters when a panel other than Parameters changed them (send_params).
  void operator()(UiState& ui, SolverWorker& worker, const Snapshot& snap);

 private:
  ViewRequest view_;
  float speed_, autoplay_rate_;
};

}  // namespace kcycle::gui
