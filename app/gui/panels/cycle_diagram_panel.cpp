// The cycle diagram: the whole cycle from its plan, what has run solid; while stepping the
// operation in words, the call stack and Algorithm 3; under it the passes the backend runs.
#include "panels.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "cycle_diagram.hpp"
#include "kcycle/cycle/cycle_counts.hpp"
#include "kcycle/cycle/cycle_plan.hpp"
#include "kcycle/cycle/cycle_schedule.hpp"
#include "kcycle/solve/execution_target.hpp"
#include "kcycle/solve/resolved_run.hpp"
#include "narration.hpp"
#include "panels/widgets.hpp"

namespace kcycle::gui {

namespace {

// What the backend physically runs per call on the finest level (the cycle's schedule): the
// diagram shows the operations, this line how a fast multigrid groups them into passes.
void physical_passes(const Snapshot& snap, bool stepping, int kappa) {
  const SolverOptions& o = snap.options;
  // The solve's own run; with none (parameters refused, a sweep running), the CPU's.
  const ResolvedRun run = snap.run ? *snap.run : resolve(o, BackendKind::Cpu);
  const BackendKind kind = run.target.backend;
  const CycleSchedule schedule =
      stepping ? CycleSchedule::plan(run.settings, kAsResolved, CycleMode::Watched) : run.schedule;
  if (schedule.levels() < 2) return;
  const std::string backend(backend_title(kind));
  const std::string full =
      backend + " passes per call on level 1" + (stepping ? " while stepping (each operation on its own)" : "") + ": " +
      schedule.describe_level(1) + "; " + std::to_string(schedule.launches_per_cycle(kappa)) + " launches a cycle";
  // The whole line where it leaves the diagram most of the panel (a projector's large UI scale
  // would wrap it over the diagram); else a one-line summary, the whole line on hover, and
  // nothing while stepping, where the narration needs the room.
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float height = ImGui::CalcTextSize(full.c_str(), nullptr, false, avail.x).y;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  if (height <= 0.25f * avail.y) {
    text_wrapped("%s", full.c_str());
  } else if (!stepping) {  // while stepping the narration has the room
    ImGui::Text("%s: %d launches a call, %llu a cycle", backend.c_str(), schedule.launches_per_call(1),
                (unsigned long long)schedule.launches_per_cycle(kappa));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", full.c_str());
  }
  ImGui::PopStyleColor();
}

// The cycle's plan (the same recursion without arithmetic), kept while the options that shape it stay.
const Trace& current_plan(UiState& ui, const SolverOptions& o) {
  const int n = o.levels;
  if (!ui.plan || !(ui.plan->choice == o.cycle) || ui.plan->levels != n || ui.plan->nu1 != o.nu1 ||
      ui.plan->nu2 != o.nu2 || ui.plan->coarsest_calls != o.coarsest_calls || ui.plan->coarse_krylov != o.coarse_krylov)
    ui.plan = std::make_shared<CyclePlan>(
        CyclePlan{o.cycle, n, o.nu1, o.nu2, o.coarsest_calls, o.coarse_krylov,
                  planned_cycle(o.cycle, n, o.nu1, o.nu2, o.coarsest_calls, o.coarse_krylov)});
  return ui.plan->trace;
}

bool stepping_in(const Snapshot& snap) { return snap.stepping && snap.cycle_trace && snap.trace_position > 0; }

// kappa, totalCalls and levelCalls: the paper's counts of the cycle drawn.
void counts_line(const Snapshot& snap) {
  const int n = snap.options.levels, kappa = std::min(snap.options.cycle.counter, n);
  const CoarsestCalls coarsest = snap.options.coarsest_calls;
  char head[128];
  // Krylov-accelerated, a second call is skipped where the first left little: the counts are the most.
  std::snprintf(head, sizeof head, "kappa=%s, %d levels: totalCalls %s %llu%s;  levelCalls%s:",
                kappa_to_string(snap.options.cycle.counter).c_str(), n, snap.options.coarse_krylov ? "<=" : "=",
                (unsigned long long)total_calls(kappa, n, coarsest),
                coarsest == CoarsestCalls::Once ? " (coarsest solved once a call)" : "",
                snap.options.coarse_krylov ? " at most" : "");
  std::string counts = head;
  for (int l = 1; l <= n; ++l) counts.append(" ").append(std::to_string(level_calls(kappa, l, n, coarsest)));
  ImGui::TextUnformatted(counts.c_str());
}

// While stepping: the operation in words, the call stack and Algorithm 3 with the line just
// carried out marked, as many of its lines around that one as the window holds above the last
// `keep` pixels (none where not even that one fits).
void step_narration(const Snapshot& snap, std::size_t plan_size, float keep) {
  const SolverOptions& o = snap.options;
  const Trace& trace = *snap.cycle_trace;
  const std::size_t op = std::size_t(snap.trace_position - 1);
  text_wrapped("step %d of %s%zu: %s", snap.trace_position, o.coarse_krylov ? "at most " : "", plan_size,
               narrate(trace, op, o).c_str());
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  text_wrapped("call stack: %s", describe_call_stack(call_stack(trace, op)).c_str());
  ImGui::PopStyleColor();
  if (o.cycle.type != CycleType::Kappa) return;
  const int current = algorithm3_line(trace, op);
  const std::vector<std::string>& lines = algorithm3_lines();
  // Each line's height as drawn, wrapped at the window's edge (a long line takes two on a
  // projector); the window of lines grows around the current one while it fits, and a line
  // at a cut end is shown as "..." (one line high).
  const float spacing = ImGui::GetStyle().ItemSpacing.y, wrap = ImGui::GetContentRegionAvail().x;
  const float dots = ImGui::GetTextLineHeightWithSpacing();
  auto height = [&](int i) {
    return ImGui::CalcTextSize(("> " + lines[std::size_t(i)]).c_str(), nullptr, false, wrap).y + spacing;
  };
  const int count = int(lines.size());
  const float room = ImGui::GetContentRegionAvail().y - keep + spacing;
  if (current < 0 || height(current) > room) return;  // the step's words above say what the line would
  int first = current, last = current;
  // What the window [f, l] takes, its cut ends shown as dots.
  auto cost = [&](int f, int l) {
    float h = 0;
    for (int i = f; i <= l; ++i) {
      const bool cut = i != current && ((i == f && f > 0) || (i == l && l < count - 1));
      h += cut ? dots : height(i);
    }
    return h;
  };
  for (bool grew = true; grew;) {
    grew = false;
    if (last + 1 < count && cost(first, last + 1) <= room) ++last, grew = true;
    if (first > 0 && cost(first - 1, last) <= room) --first, grew = true;
  }
  for (int i = first; i <= last; ++i) {
    const bool cut = i != current && ((i == first && first > 0) || (i == last && last < count - 1));
    if (i == current)
      ImGui::TextColored(ImVec4(0.55f, 1.0f, 0.55f, 1.0f), "> %s", lines[std::size_t(i)].c_str());
    else if (cut)
      ImGui::TextDisabled("  ...");
    else
      ImGui::TextDisabled("  %s", lines[std::size_t(i)].c_str());
  }
}

// The diagram in the rest of the window: what has run this cycle solid, the rest faint, so
// nothing moves while stepping; the operation just done highlighted. A Krylov-accelerated
// cycle's plan makes every second call; where the cycle stepped skipped one it stays faint.
void diagram(const Snapshot& snap, const Trace& plan) {
  const bool stepping = stepping_in(snap);
  std::size_t done = stepping ? std::size_t(snap.trace_position) : snap.history.empty() ? 0 : plan.size();
  std::vector<bool> skipped;
  if (stepping && snap.options.coarse_krylov) {
    const Trace& trace = *snap.cycle_trace;
    const Trace so_far(trace.begin(), trace.begin() + std::ptrdiff_t(std::min(done, trace.size())));
    done = aligned_with_plan(plan, so_far, &skipped);
  }
  const ImVec2 origin = ImGui::GetCursorScreenPos(), avail = ImGui::GetContentRegionAvail();
  ImGui::Dummy(avail);
  draw_cycle_diagram(ImGui::GetWindowDrawList(), origin, avail, plan, snap.options.levels, done,
                     stepping ? int(done) - 1 : -1, skipped);
}

}  // namespace

void cycle_diagram_panel(UiState& ui, const Snapshot& snap) {
  const PanelWindow window(ui, "Cycle diagram");
  if (!window) return;
  const int n = snap.options.levels;
  // Every text of this panel wraps at its edge: on a projector the window is narrow for its words.
  ImGui::PushTextWrapPos(0.0f);
  counts_line(snap);
  const Trace& plan = current_plan(ui, snap.options);
  const bool stepping = stepping_in(snap);
  if (stepping) {
    // A short panel (1280 x 720, a large UI scale) shows the lines of Algorithm 3 around the
    // current one, so the diagram keeps at least 35% of the panel and a text line per level.
    const float avail_h = ImGui::GetContentRegionAvail().y;
    step_narration(snap, plan.size(), std::max(avail_h * 0.35f, float(n) * ImGui::GetTextLineHeight()));
  } else {
    ImGui::TextDisabled("%zu operations a cycle; press Operation to step through one", plan.size());
  }
  physical_passes(snap, stepping, std::min(snap.options.cycle.counter, n));
  ImGui::PopTextWrapPos();
  diagram(snap, plan);
}

std::string coarse_equation(int level) {
  char line[128];
  std::snprintf(line, sizeof line, "level %d solves A%d v%d = f%d, f%d the restricted residual of level %d", level,
                level, level, level, level, level - 1);
  return line;
}

void lecture_narration_panel(UiState& ui, const Snapshot& snap) {
  const PanelWindow window(ui, "Narration");
  if (!window) return;
  ImGui::PushTextWrapPos(0.0f);
  const Trace& plan = current_plan(ui, snap.options);
  if (stepping_in(snap)) {
    if (snap.field && snap.field->level > 1)  // the picture beside is a coarse level's
      ImGui::TextColored(ImVec4(0.55f, 0.8f, 1.0f, 1.0f), "%s", coarse_equation(snap.field->level).c_str());
    step_narration(snap, plan.size(), 0.0f);
  } else {
    ImGui::TextDisabled("%zu operations a cycle: PageDown steps through them one at a time", plan.size());
  }
  ImGui::PopTextWrapPos();
}

void lecture_diagram_panel(UiState& ui, const Snapshot& snap) {
  const PanelWindow window(ui, "Cycle diagram", ImGuiWindowFlags_NoTitleBar);
  if (!window) return;
  ImGui::PushTextWrapPos(0.0f);
  counts_line(snap);  // the counts of what is drawn under it, on one line across the window
  ImGui::PopTextWrapPos();
  diagram(snap, current_plan(ui, snap.options));
}

}  // namespace kcycle::gui
