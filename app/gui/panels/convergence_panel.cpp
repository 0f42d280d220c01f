// The convergence panel: error and residual per cycle (or against time), the factor per
// cycle, and pinned runs to compare.
#include "panels.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "kcycle/io/file_output.hpp"
#include "kcycle/io/options_io.hpp"
#include "panels/widgets.hpp"
#include "plot.hpp"
#include "view_settings.hpp"

namespace kcycle::gui {

namespace {

// What LFA predicts per cycle, for the panel's first line ("" where it predicts nothing).
std::string lfa_part(const Snapshot& snap) {
  const auto& lfa = snap.lfa_prediction;
  if (!lfa || !lfa->available()) return "";
  char part[64];
  std::snprintf(part, sizeof part, ", LFA %.4f", lfa->factor);
  return part;
}

// The convergence panel's first line: the outcome of a finished solve, or what it is doing and
// how far it got (no factor before the first cycle), and the factor LFA predicts. Short: at
// 1280x720 and UI scale 2 it wraps to five lines (a finished solve's message has its count).
std::string convergence_line(const Snapshot& snap) {
  const auto& h = snap.history;
  char line[256];
  if (snap.status != SolveStatus::Running && snap.error.empty()) {
    std::snprintf(line, sizeof line, "%s  |  last factor %.4f%s", snap.message.c_str(),
                  h.empty() ? 0.0 : h.back().factor, lfa_part(snap).c_str());
    return line;
  }
  if (h.empty()) return activity(snap) + ", no cycle done yet" + lfa_part(snap);
  const IterationRecord& last = h.back();
  std::snprintf(line, sizeof line, "%s  |  %zu cycles, last factor %.4f%s", activity(snap).c_str(), h.size(),
                last.factor, lfa_part(snap).c_str());
  return line;
}

}  // namespace

// A pinned run's legend: its kappa, the settings in which it differs from the current run, and
// its cycles, time per cycle and total cycle time.
std::string pinned_label(const PinnedRun& pin, const SolverOptions& current) {
  std::string label = pin.options.solver == SolverKind::Multigrid ? "kappa=" : "CG kappa=";
  label += kappa_to_string(pin.options.cycle.counter);
  for (const OptionSpec& spec : option_specs()) {
    if (!spec.in_parameters_file || spec.key == "kappa" || spec.key == "preset") continue;
    const std::string value = spec.get(pin.options);
    if (value != spec.get(current)) label += " " + std::string(spec.key) + "=" + value;
  }
  double total = 0;
  for (const IterationRecord& r : pin.history) total += r.seconds;
  char tail[96];
  std::snprintf(tail, sizeof tail, ": %zu cycles, %.3g ms/cycle, %.3g s solving", pin.history.size(),
                pin.seconds_per_cycle * 1e3, total);
  return label + tail;
}

void pin_run(UiState& ui, const Snapshot& snap) {
  const bool by_error = std::isfinite(snap.initial_error);
  ui.pinned.push_back(
      {snap.options, snap.history, by_error ? snap.initial_error : snap.initial_residual, snap.seconds_per_cycle});
  if (ui.pinned.size() > 6) ui.pinned.erase(ui.pinned.begin());
}

void pin_sweep(UiState& ui, const Snapshot& snap) {
  const KappaSweep* sweep = snap.kappa_sweep.get();
  if (!sweep) return;
  for (const KappaSweepRow& row : sweep->rows) {
    if (row.history.empty()) continue;
    PinnedRun pin{sweep->options, {}, row.initial_norm, row.seconds_per_cycle};
    pin.options.cycle = {CycleType::Kappa, row.kappa};
    for (const IterationRecord& r : row.history) pin.history.push_back(r);
    ui.pinned.push_back(std::move(pin));
  }
  while (ui.pinned.size() > 6) ui.pinned.erase(ui.pinned.begin());
}

void export_history_csv(const Snapshot& snap, const std::string& path) {
  std::ostringstream f;
  f << "iteration,error,residual,factor,seconds\n";
  for (const IterationRecord& h : snap.history)
    f << h.iteration << "," << h.error_norm << "," << h.residual_norm << "," << h.factor << "," << h.seconds << "\n";
  write_file_replacing(path, f.str());
}

void convergence_panel(UiState& ui, const Snapshot& snap) {
  const PanelWindow window(ui, "Convergence");
  if (!window) return;
  const auto& h = snap.history;
  text_wrapped("%s", convergence_line(snap).c_str());
  if (button(ui, "Pin this run",
             "Keep this run's curve for comparison (labelled with the settings in which it differs)"))
    pin_run(ui, snap);
  same_line_if_fits(button_width("Clear pins"));
  if (button(ui, "Clear pins", "Remove the pinned curves")) ui.pinned.clear();
  same_line_if_fits(view_control_width("x-seconds"));
  view_control(ui, "x-seconds");
  // x of a record: its cycle, or the cycle time summed up to it.
  auto x_of = [&](const IterationRecord& r, double& seconds) {
    seconds += r.seconds;
    return ui.x_in_seconds ? seconds : double(r.iteration);
  };

  std::vector<Series> series;
  static const ImU32 pin_colors[] = {IM_COL32(150, 150, 150, 255), IM_COL32(190, 160, 110, 255),
                                     IM_COL32(120, 170, 120, 255), IM_COL32(170, 120, 170, 255),
                                     IM_COL32(120, 150, 190, 255), IM_COL32(190, 120, 120, 255)};
  double x_max = 0;  // no floor: runs of a few milliseconds fill the axis too
  for (std::size_t p = 0; p < ui.pinned.size(); ++p) {
    const PinnedRun& pin = ui.pinned[p];
    Series s{pinned_label(pin, snap.options), {0.0}, {pin.initial_norm}, pin_colors[p % 6], 1.5f};
    double seconds = 0;
    for (const IterationRecord& r : pin.history) {
      s.x.push_back(x_of(r, seconds));
      s.y.push_back(std::isfinite(r.error_norm) ? r.error_norm : r.residual_norm);
    }
    x_max = std::max(x_max, s.x.back());
    series.push_back(s);
  }
  // The current run: error (cyan) and residual (orange), cycle 0 = the initial guess.
  Series err{"error", {}, {}, IM_COL32(80, 200, 255, 255), 2.5f},
      res{"residual", {}, {}, IM_COL32(255, 150, 40, 255), 1.5f};
  Series fac{"factor per cycle", {}, {}, IM_COL32(200, 200, 90, 255), 1.5f};
  if (snap.error.empty()) {  // cycle 0: the initial guess
    err.x.push_back(0), err.y.push_back(snap.initial_error);
    res.x.push_back(0), res.y.push_back(snap.initial_residual);
  }
  double seconds = 0;
  for (const IterationRecord& r : h) {
    const double x = x_of(r, seconds);
    err.x.push_back(x), err.y.push_back(r.error_norm);
    res.x.push_back(x), res.y.push_back(r.residual_norm);
    fac.x.push_back(x), fac.y.push_back(r.factor);
    x_max = std::max(x_max, x);
  }
  series.push_back(res);
  series.push_back(err);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  // Both plots over the same x: cycles 0 .. the last (ticks at whole cycles) or seconds.
  if (!(x_max > 0)) x_max = ui.x_in_seconds ? 1e-3 : 1.0;  // nothing run yet
  x_max += 0.02 * x_max;                                   // the last marker inside the frame
  ui.convergence_x_end = x_max;
  const char* x_label = ui.x_in_seconds ? "seconds solving (set-up excluded)" : "cycle";
  const bool whole = !ui.x_in_seconds;
  PlotSpec spec{x_label, "norm (log)", false, true, 0.0, x_max, 0, 0, whole};
  // The two plots share the height left, less the spacing between them (a short panel at a
  // projector's scale scrolled by that much). Where that leaves either one too short to draw
  // (1280x720 at UI scale 1.5 drew neither), the norms take it all: the factor is in the line above.
  const float both = std::max(0.0f, avail.y - ImGui::GetStyle().ItemSpacing.y);
  const float readable = 56 * ImGui::GetIO().FontGlobalScale + 20 + 60;  // draw_plot's margins and 60 px of plot
  const bool two = both >= 2 * readable;
  const float norms_h = two ? std::floor(both * 0.69f) : avail.y;
  draw_plot("norms", spec, series, {}, ImVec2(avail.x, norms_h));
  if (!two) return;
  std::vector<Series> factors{fac};
  // LFA's prediction for these parameters: the factor the measured ones should settle at (on
  // the infinite grid; the boundary and the levels below the analysis make the difference).
  if (const auto& lfa = snap.lfa_prediction; lfa && lfa->available()) {
    char label[96];
    std::snprintf(label, sizeof label, "LFA predicts %.3f%s", lfa->factor, lfa->cg ? " (CG's bound)" : "");
    factors.push_back({label, {0.0, x_max}, {lfa->factor, lfa->factor}, IM_COL32(230, 120, 230, 255), 2.0f, true});
  }
  PlotSpec fspec{x_label, "convergence factor", false, false, 0.0, x_max, 0.0, 1.05, whole};
  draw_plot("factor", fspec, factors, {}, ImVec2(avail.x, both - norms_h));
}

}  // namespace kcycle::gui
