#pragma once
// Teaching presets: a problem, a cycle and a view chosen to show one idea, with what to do
// and what to look for. Each starts paused on a zero-mean random error (problem 2), so the
// whole error is visible in the diverging map before the first sweep.
#include <string>
#include <vector>

#include "kcycle/solve/solver_options.hpp"
#include "solver_worker.hpp"
#include "ui_state.hpp"

namespace kcycle::gui {

struct Lesson {
  std::string name;
  std::string what_to_do;  // shown in the Controls panel while the lesson's settings hold
  SolverOptions options;
  ViewRequest view;
  bool lock_range = true;  // colour range fixed through each cycle: the drop is visible
  bool slice = false;      // the 1D slice under the field, along a column where slice_column
  bool slice_column = false;
  bool advanced = false;  // the time panel and its Sweep kappa button shown
};

const std::vector<Lesson>& lessons();

// Lesson `index`'s settings into the UI (parameters, view, slice, panels) as the lesson combo and
// the script's `lesson` verb apply it; the caller pauses the worker and hands it the settings.
void apply_lesson(UiState& ui, int index);

}  // namespace kcycle::gui
