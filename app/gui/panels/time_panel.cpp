// Time per cycle: the calibrated model T = alpha launches + beta operations against the level
// count for each kappa, the measured times, the turning points, and the kappa sweep.
#include "panels.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // LogEnabled: print-text

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "kcycle/cycle/cycle_schedule.hpp"
#include "kcycle/model/cost_model.hpp"
#include "kcycle/model/level_cost_model.hpp"
#include "kcycle/model/timing.hpp"
#include "kcycle/solve/execution_target.hpp"
#include "kcycle/solve/resolved_run.hpp"
#include "panels/widgets.hpp"
#include "plot.hpp"
#include "view_settings.hpp"

namespace kcycle::gui {

namespace {

const ImU32 kKappaColors[] = {IM_COL32(31, 119, 180, 255), IM_COL32(255, 127, 14, 255), IM_COL32(44, 160, 44, 255),
                              IM_COL32(214, 39, 40, 255), IM_COL32(148, 103, 189, 255)};

// A prediction and its band: "126" where the probe simply solved (exact), else "108 (83-140)".
std::string with_band(double value, double low, double high, bool exact, const char* format) {
  const std::string f = exact ? std::string(format) : std::string(format) + " (" + format + "-" + format + ")";
  char text[96];
  std::snprintf(text, sizeof text, f.c_str(), value, low, high);
  return text;
}

// The sweep as a chart: each kappa's measured time to the tolerance as a bar (green: the
// fastest, or tied with it), the prediction as a magenta tick with its band as a whisker; the
// kappas under the bars, the seconds over them. Recorded as "sweep chart" for the layout file.
void sweep_chart(UiState& ui, const KappaSweep& sweep) {
  const float line = ImGui::GetTextLineHeight(), width = ImGui::GetContentRegionAvail().x;
  const float height = std::max(5 * line, std::min(9 * line, 0.5f * width));
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::Dummy(ImVec2(width, height));
  ui.panel_rects.push_back({"sweep chart", p.x, p.y, width, height});
  const std::vector<int> tied = sweep.tied_with_best();
  double top = 0;
  for (std::size_t k = 0; k < sweep.rows.size(); ++k) {
    top = std::max(top, sweep.rows[k].seconds_total);
    if (k < sweep.advice.candidates.size() && std::isfinite(sweep.advice.candidates[k].predicted_seconds))
      top = std::max(top, sweep.advice.candidates[k].seconds_high());
  }
  if (!(top > 0) || sweep.rows.empty()) return;
  top *= 1.15;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float base = p.y + height - line - 2, chart_h = height - 2 * line - 4;
  const float slot = width / float(sweep.rows.size()), bar = 0.5f * slot;
  auto y_of = [&](double seconds) { return base - float(seconds / top) * chart_h; };
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), magenta = IM_COL32(230, 120, 230, 255);
  dl->AddLine(ImVec2(p.x, base), ImVec2(p.x + width, base), IM_COL32(160, 160, 160, 255));
  for (std::size_t k = 0; k < sweep.rows.size(); ++k) {
    const KappaSweepRow& r = sweep.rows[k];
    const float x0 = p.x + float(k) * slot + 0.25f * slot, x1 = x0 + bar;
    const bool fastest = r.kappa == sweep.best_kappa || std::find(tied.begin(), tied.end(), r.kappa) != tied.end();
    if (r.converged)
      dl->AddRectFilled(ImVec2(x0, y_of(r.seconds_total)), ImVec2(x1, base),
                        fastest ? IM_COL32(90, 200, 90, 255) : IM_COL32(90, 120, 170, 255));
    char label[32];
    std::snprintf(label, sizeof label, r.converged ? "%.3g s" : "no", r.seconds_total);
    const float label_w = ImGui::CalcTextSize(label).x;
    if (label_w <= slot) dl->AddText(ImVec2(x0 + bar / 2 - label_w / 2, y_of(r.seconds_total) - line - 1), text, label);
    const std::string name = kappa_to_string(r.kappa);
    dl->AddText(ImVec2(x0 + bar / 2 - ImGui::CalcTextSize(name.c_str()).x / 2, base + 2), text, name.c_str());
    if (k < sweep.advice.candidates.size() && std::isfinite(sweep.advice.candidates[k].predicted_seconds)) {
      const KappaPrediction& c = sweep.advice.candidates[k];
      const float xm = x0 + bar / 2, s = ImGui::GetIO().FontGlobalScale;
      dl->AddLine(ImVec2(xm, y_of(c.seconds_low())), ImVec2(xm, y_of(c.seconds_high())), magenta, 1.5f * s);
      dl->AddLine(ImVec2(x0 - 3, y_of(c.predicted_seconds)), ImVec2(x1 + 3, y_of(c.predicted_seconds)), magenta, 3 * s);
    }
  }
  text_wrapped("bars: measured seconds solving (green: fastest or tied); magenta: predicted, with its band");
}

// The last kappa sweep: time to the tolerance per kappa, measured (the median of round-robin
// solves) beside the advisor's prediction with its band (the paper's Table 4.1 at the current
// settings); the fastest and the recommended marked, and where the time came from.
void kappa_sweep_table(UiState& ui, const Snapshot& snap) {
  if (snap.sweeping) {
    ImGui::Text("sweeping kappa: %s", snap.sweep_note.c_str());
    return;
  }
  if (!snap.sweep_note.empty()) text_wrapped("%s", snap.sweep_note.c_str());  // stopped, or failed
  const KappaSweep* sweep = snap.kappa_sweep.get();
  if (!sweep) return;
  const Advice& advice = sweep->advice;
  text_wrapped("advisor: %s", advice.time_note.c_str());
  if (button(ui, "Pin each kappa's run",
             "Keep each kappa's median solve of this sweep as a curve in the convergence plot, labelled with its "
             "kappa, cycles and time (replaces the oldest pins)"))
    pin_sweep(ui, snap);
  // Scrolls sideways rather than squeezing its columns at a projector's UI scale.
  const ImGuiTableFlags flags = ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollX;
  const float height = ImGui::GetTextLineHeightWithSpacing() * 7.5f;
  if (!ImGui::BeginTable("kappa sweep", 7, flags, ImVec2(0, height))) return;
  ImGui::TableSetupScrollFreeze(1, 1);
  for (const char* h : {"kappa", "cycles", "predicted", "ms/cycle", "s solving", "predicted s", "error"})
    ImGui::TableSetupColumn(h);
  ImGui::TableHeadersRow();
  const std::vector<int> tied = sweep->tied_with_best();  // more than one: no kappa is fastest
  for (std::size_t k = 0; k < sweep->rows.size(); ++k) {
    const KappaSweepRow& r = sweep->rows[k];
    const KappaPrediction* p = k < advice.candidates.size() ? &advice.candidates[k] : nullptr;
    ImGui::TableNextRow();
    const bool tie = tied.size() > 1 && std::find(tied.begin(), tied.end(), r.kappa) != tied.end();
    const bool best = r.kappa == sweep->best_kappa || tie, picked = r.kappa == advice.recommended_kappa;
    const ImVec4 colour = best ? ImVec4(0.5f, 1.0f, 0.5f, 1.0f) : ImGui::GetStyleColorVec4(ImGuiCol_Text);
    const std::string marks = std::string(tie ? " tied" : best ? " fastest" : "") + (picked ? " advised" : "");
    ImGui::TableNextColumn();
    ImGui::TextColored(colour, "%s%s", kappa_to_string(r.kappa).c_str(), marks.c_str());
    ImGui::TableNextColumn();
    ImGui::Text(r.converged ? "%d" : "%d (not converged)", r.iterations);
    ImGui::TableNextColumn();
    if (p)
      ImGui::TextUnformatted(
          with_band(p->predicted_iterations, p->iterations_low, p->iterations_high, p->converged_in_probe, "%.0f")
              .c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%.3g", r.seconds_per_cycle * 1e3);
    ImGui::TableNextColumn();
    ImGui::TextColored(colour, "%.4g", r.seconds_total);
    ImGui::TableNextColumn();
    if (p && std::isfinite(p->predicted_seconds))
      ImGui::TextUnformatted(
          with_band(p->predicted_seconds, p->seconds_low(), p->seconds_high(), p->converged_in_probe, "%.3g").c_str());
    else
      ImGui::TextDisabled("-");
    ImGui::TableNextColumn();
    if (p && std::isfinite(p->predicted_seconds) && r.seconds_total > 0)
      ImGui::Text("%+.0f%%", 100.0 * (p->predicted_seconds / r.seconds_total - 1.0));
  }
  ImGui::EndTable();
  sweep_chart(ui, *sweep);
  int fewest = 0, most = 0;
  for (const KappaSweepRow& r : sweep->rows)
    fewest = fewest == 0 ? r.solves : std::min(fewest, r.solves), most = std::max(most, r.solves);
  text_wrapped(
      "advised kappa=%s took %.1f%% longer than the fastest (kappa=%s); measured: the median of %d-%d "
      "solves of each kappa, taken in turn. Every time here, as the pins' and the status bar's, is time "
      "solving: the cycles and their norms, set-up excluded",
      kappa_to_string(advice.recommended_kappa).c_str(), 100.0 * sweep->recommendation_excess(),
      kappa_to_string(sweep->best_kappa).c_str(), fewest, most);
  if (tied.size() > 1) {  // the medians' order inside the noise is chance: no crown
    std::string names;
    double best_total = 0, slowest = 0, spread = 1;
    for (const KappaSweepRow& r : sweep->rows) {
      if (std::find(tied.begin(), tied.end(), r.kappa) == tied.end()) continue;
      names += (names.empty() ? "kappa=" : ", ") + kappa_to_string(r.kappa);
      if (r.kappa == sweep->best_kappa) best_total = r.seconds_total;
      slowest = std::max(slowest, r.seconds_total), spread = std::max(spread, r.spread);
    }
    text_wrapped("no fastest kappa: %s tie, their medians %.1f%% apart while their solves varied up to %.2fx",
                 names.c_str(), 100.0 * (slowest / best_total - 1.0), spread);
  }
  // The advice's level of time is its probes': a change of the machine's speed between them and
  // the measured solves shows in every kappa's error alike.
  for (const std::string& note : sweep->machine_notes()) text_wrapped("%s", note.c_str());
}

// How far each model is off the cycles the calibration timed: the paper's fit, and the
// per-level model the advisor prices cycles with where the calibration has it.
void model_errors_line(const Calibration& c) {
  const ErrorRange paper = error_range(c, paper_model_error), levels = error_range(c, level_model_error);
  std::string line;
  char text[160];
  if (paper.cases > 0) {
    std::snprintf(text, sizeof text, "its error on the %d cycles timed: %+.0f%% to %+.0f%%", paper.cases,
                  100 * paper.low, 100 * paper.high);
    line = text;
  }
  if (levels.cases > 0) {
    std::snprintf(text, sizeof text, "; per-level model (solid): %+.0f%% to %+.0f%%", 100 * levels.low,
                  100 * levels.high);
    line += text;
  }
  if (!line.empty()) text_wrapped("%s", line.c_str());
}

// The calibration's model in words: its fit, its errors, whether it applies, the faint one's.
void model_lines(const Snapshot& snap, const Calibration* c, const Calibration* other, const std::string& mismatch) {
  if (snap.calibrating) {
    ImGui::Text("calibrating: timing cycles for kappa = 1, 2, 3, 4, W: %s", snap.calibration_note.c_str());
    ImGui::ProgressBar(float(snap.calibration_progress), ImVec2(-1, 0));
  } else if (c) {
    text_wrapped("paper's model T = a L + b W (%s, dashed): alpha %.3g us/launch, beta %.3g ns/unknown  %s",
                 c->backend.c_str(), c->model.alpha * 1e6, c->model.beta * 1e9, snap.calibration_note.c_str());
    model_errors_line(*c);
  } else
    text_wrapped("No calibration yet: press Calibrate, or run `kcycle calibrate` (kcycle-calibration.json).");
  if (!mismatch.empty())
    warning("Warning: this calibration does not match the run (" + mismatch +
            "). Its predictions do not apply: press Calibrate.");
  if (c && c->noisy()) warning(noise_note(*c) + ": its predictions are rough; calibrate on a quieter machine.");
  if (other && c)
    ImGui::TextDisabled("faint: %s, alpha %.3g us/launch, beta %.3g ns/unknown (alpha ratio %.2f)",
                        other->backend.c_str(), other->model.alpha * 1e6, other->model.beta * 1e9,
                        other->model.alpha > 0 ? c->model.alpha / other->model.alpha : 0.0);
}

}  // namespace

// Each kappa's time to the tolerance predicted without solving (LFA's iterations, the
// calibration's price), and the pick: it follows every change of the parameters.
// `brief`: the pick on one line, the times in its tooltip (a short panel keeps its plot in view).
void predicted_kappas_line(const Snapshot& snap, bool brief) {
  const Advice* advice = snap.predicted_kappas.get();
  if (!advice) {
    if (!snap.predicted_kappas_note.empty()) text_wrapped("%s", snap.predicted_kappas_note.c_str());
    return;
  }
  std::string line = "predicted without solving (LFA x calibration):";
  for (const KappaPrediction& p : advice->candidates) {
    char part[64];
    if (std::isfinite(p.predicted_seconds))
      std::snprintf(part, sizeof part, " %s: %.3g s,", kappa_to_string(p.kappa).c_str(), p.predicted_seconds);
    else
      std::snprintf(part, sizeof part, " %s: never,", kappa_to_string(p.kappa).c_str());
    line += part;
  }
  line.back() = ';';
  line += " pick kappa=" + kappa_to_string(advice->recommended_kappa);
  if (advice->fastest_kappa != advice->recommended_kappa)  // AdvisorSettings::near_tie
    line += " (a near-tie: in fewer iterations than kappa=" + kappa_to_string(advice->fastest_kappa) + ")";
  line += " (LFA misses the growth with the levels: Sweep kappa measures)";
  if (!brief) {
    text_wrapped("%s", line.c_str());
    return;
  }
  ImGui::Text("predicted pick kappa=%s (hover: the times)", kappa_to_string(advice->recommended_kappa).c_str());
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
    ImGui::TextUnformatted(line.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  if (ImGui::GetCurrentContext()->LogEnabled) ImGui::LogText("%s\n", line.c_str());  // print-text: the whole line
}

void time_panel(UiState& ui, SolverWorker& worker, const Snapshot& snap) {
  const PanelWindow window(ui, "Time per cycle");
  if (!window) return;
  // While a sweep runs (minutes at 10 levels) its Stop comes first, in view at a projector's scale.
  if (snap.sweeping &&
      button(ui, "Stop sweep", "End the kappa sweep now (within an iteration); what it measured so far is dropped"))
    worker.stop_sweep();
  const Calibration* c = snap.calibration.get();
  std::string mismatch;  // a model of another cycle predicts nothing here
  if (c && !snap.calibrating && snap.run)
    mismatch = calibration_mismatch(*c, snap.run->settings, describe(snap.run->target), snap.threads);
  const Calibration* other = snap.compare_calibration.get();
  // A short panel (the desk at a projector's scale) would push the plot below its fold: there
  // the pick takes one line and the plot comes before the model's lines, which scroll under it.
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const bool short_panel = ImGui::GetContentRegionAvail().y < 16 * line;
  // First what tuning needs (a projector's scale shows only the panel's first lines).
  if (c && !snap.calibrating && mismatch.empty()) predicted_kappas_line(snap, short_panel);
  if (!short_panel || snap.calibrating || !c) model_lines(snap, c, other, mismatch);
  // The slider leaves its label room in a narrow panel (a projector's scale).
  ImGui::SetNextItemWidth(
      std::max(40.0f * ui.ui_scale,
               std::min(120 * ui.ui_scale, ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize("max levels").x -
                                               2 * ImGui::GetStyle().ItemInnerSpacing.x)));
  view_control(ui, "max-levels");
  same_line_if_fits(button_width("Calibrate"));
  if (button(ui, "Calibrate",
             "Time cycles of this configuration and fit T = alpha launches + beta operations (the paper's model)") &&
      !snap.calibrating)
    worker.calibrate(ui.calibrate_levels);
  if (!snap.sweeping) {
    same_line_if_fits(button_width("Sweep kappa"));
    if (button(ui, "Sweep kappa",
               "Solve to the tolerance with kappa = 1, 2, 3, 4 and W at these settings: measured total time "
               "beside the model's prediction"))
      worker.sweep_kappa();
  }
  kappa_sweep_table(ui, snap);

  std::vector<Series> series;
  std::vector<VLine> vlines;
  const SolverOptions& o = snap.options;
  // The model's launches at each level count as the planner schedules them there (fused passes,
  // the coarse tail's levels one launch a call), as the advisor prices them.
  const MultigridSettings as_run = snap.run ? snap.run->settings : resolve(o, o.backend).settings;
  const int per_call = CycleSchedule::per_call(as_run, kAsResolved).launches_per_call(1);
  const int tail_depth = as_run.coarse_tail_unknowns.value_or(0) > 0
                             ? coarse_tail_depth(*as_run.coarse_tail_unknowns, as_run.coarsening)
                             : 0;
  std::vector<CycleSchedule> schedules;  // index n - 3
  for (int n = 3; n <= 13; ++n) {
    MultigridSettings s = as_run;
    s.levels = n;
    schedules.push_back(CycleSchedule::plan(s, kAsResolved, CycleMode::Normal));
  }
  const auto launches = [&](int kappa, int n) {
    return double(schedules[std::size_t(n - 3)].launches_per_cycle(kappa));
  };
  for (int k = 0; k < 5; ++k) {
    const std::string name = "kappa=" + kappa_to_string(kKappaCandidates[k]);
    if (c) {
      Series model{name + " model", {}, {}, kKappaColors[k], 1.5f, true};
      Series measured{"", {}, {}, kKappaColors[k], 1.5f, false, true, false};
      for (int n = 3; n <= 13; ++n) {
        model.x.push_back(n);
        model.y.push_back(1e3 * c->model.predict(launches(kKappaCandidates[k], n),
                                                 cycle_ops(kKappaCandidates[k], n, o.coarsening, o.coarsest_calls)));
      }
      for (const TimingSample& s : c->samples)
        if (s.kappa == kKappaCandidates[k]) measured.x.push_back(s.levels), measured.y.push_back(s.seconds * 1e3);
      // The per-level model at each level count the calibration timed level by level.
      Series per_level{k == 0 ? "per-level model (solid)" : "", {}, {}, kKappaColors[k], 1.0f};
      for (int n = 3; n <= 13; ++n)
        if (const std::optional<LevelCosts> costs = level_costs(*c, n))
          per_level.x.push_back(n),
              per_level.y.push_back(1e3 * costs->cycle_seconds(kKappaCandidates[k], o.coarsest_calls));
      series.push_back(model);
      series.push_back(measured);
      if (!per_level.x.empty()) series.push_back(per_level);
      if (other) {  // the other backend's model, faint and without markers
        Series faint{"", {}, {}, (kKappaColors[k] & 0x00FFFFFFu) | 0x60000000u, 1.0f, true};
        for (int n = 3; n <= 13; ++n) {
          faint.x.push_back(n);
          faint.y.push_back(1e3 *
                            other->model.predict(launches(kKappaCandidates[k], n),
                                                 cycle_ops(kKappaCandidates[k], n, o.coarsening, o.coarsest_calls)));
        }
        series.push_back(faint);
      }
      const double tp = turning_point_levels(kKappaCandidates[k], c->model, per_call, tail_depth);
      if (std::isfinite(tp)) vlines.push_back({tp, kKappaColors[k], "tp"});
    }
  }
  // The fastest recent cycle, as calibrations keep the fastest repetition of each case.
  if (snap.fastest_seconds_per_cycle > 0 && o.solver == SolverKind::Multigrid)
    series.push_back({"this run (fastest cycle)",
                      {double(o.levels)},
                      {snap.fastest_seconds_per_cycle * 1e3},
                      IM_COL32(255, 255, 255, 255),
                      2.0f,
                      false,
                      true,
                      false});
  std::string busy;  // over the plot, or under it with the model's lines
  if (snap.cycle_time_spread >= kBusySpread) {
    char text[96];
    std::snprintf(text, sizeof text, "Cycle times varied %.1fx: the machine is busy (the fastest is shown).",
                  snap.cycle_time_spread);
    busy = text;
  }
  // A short panel with a calibration keeps its plot at a readable height and what else it says
  // under it; without one the plot takes what room is left.
  const bool lines_after = short_panel && !snap.calibrating && c;
  if (!busy.empty() && !lines_after) warning(busy);
  PlotSpec spec{"levels n", "ms per cycle (log)", false, true, 3, 13, 0, 0};
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImVec2 size = ImGui::GetContentRegionAvail();
  // draw_plot's margins and three lines of plot at least, else the room left (scrolling on).
  if (lines_after) size.y = std::max(size.y, 56 * ImGui::GetIO().FontGlobalScale + 3 * line);
  draw_plot("times", spec, series, vlines, size);
  if (size.x > 0 && size.y > 0) ui.panel_rects.push_back({"time plot", at.x, at.y, size.x, size.y});
  if (!busy.empty() && lines_after) warning(busy);
  if (lines_after) model_lines(snap, c, other, mismatch);
}

}  // namespace kcycle::gui
