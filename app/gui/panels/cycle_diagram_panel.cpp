// The cycle diagram: the whole cycle from its plan, what has run solid; while stepping the
// operation in words, the call stack and Algorithm 3; under it the passes the backend runs.
#include "panels.hpp"

#include <imgui.h>

#include <algorithm>
#include <string>

#include "cycle_diagram.hpp"
#include "kcycle/backends/execution_target.hpp"
#include "kcycle/cycle/cycle_counts.hpp"
#include "kcycle/cycle/cycle_plan.hpp"
#include "kcycle/cycle/cycle_schedule.hpp"
#include "kcycle/solve/resolved_run.hpp"
#include "narration.hpp"
#include "panels/widgets.hpp"

namespace kcycle::gui {

namespace {

// What the backend physically runs per call on the finest level (the cycle's schedule): the
// diagram shows the operations, this line how a fast multigrid groups them into passes.
void physical_passes(const Snapshot& snap, bool stepping, int kappa) {
  const SolverOptions& o = snap.options;
  const BackendKind kind = snap.backend == "cuda" ? BackendKind::Cuda : BackendKind::Cpu;
  const ResolvedRun run = resolve(o, kind);
  const CycleSchedule schedule =
      stepping ? CycleSchedule::plan(run.settings, kAsResolved, CycleMode::Watched) : run.schedule;
  if (schedule.levels() < 2) return;
  const std::string backend = kind == BackendKind::Cuda ? "CUDA" : "CPU";
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
    ImGui::TextWrapped("%s", full.c_str());
  } else if (!stepping) {  // while stepping the narration has the room
    ImGui::Text("%s: %d launches a call, %llu a cycle", backend.c_str(), schedule.launches_per_call(1),
                (unsigned long long)schedule.launches_per_cycle(kappa));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", full.c_str());
  }
  ImGui::PopStyleColor();
}

}  // namespace

void cycle_diagram_panel(UiState& ui, const Snapshot& snap) {
  const PanelWindow window(ui, "Cycle diagram");
  if (!window) return;
  const int n = snap.options.levels;
  const int kappa = std::min(snap.options.cycle.counter, n);
  ImGui::Text("kappa=%s, %d levels: totalCalls = %llu;  levelCalls:",
              kappa_to_string(snap.options.cycle.counter).c_str(), n, (unsigned long long)total_calls(kappa, n));
  for (int l = 1; l <= n; ++l) {
    ImGui::SameLine(0, 4);
    ImGui::Text("%llu", (unsigned long long)level_calls(kappa, l));
  }
  // The whole cycle from its plan (the same recursion without arithmetic), drawn before it
  // runs: what has run this cycle solid, the rest faint, so nothing moves while stepping.
  const SolverOptions& o = snap.options;
  if (!ui.plan || !(ui.plan->choice == o.cycle) || ui.plan->levels != n || ui.plan->nu1 != o.nu1 ||
      ui.plan->nu2 != o.nu2)
    ui.plan = std::make_shared<CyclePlan>(CyclePlan{o.cycle, n, o.nu1, o.nu2, planned_cycle(o.cycle, n, o.nu1, o.nu2)});
  const Trace& plan = ui.plan->trace;
  const Trace* trace = snap.cycle_trace.get();
  const bool stepping = snap.stepping && trace && snap.trace_position > 0;
  const std::size_t done = stepping ? std::size_t(snap.trace_position) : snap.history.empty() ? 0 : plan.size();
  if (stepping) {
    const std::size_t op = std::size_t(snap.trace_position - 1);
    ImGui::Text("step %d of %zu: %s", snap.trace_position, plan.size(), narrate(*trace, op, o.nu1, o.nu2).c_str());
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("call stack: %s", describe_call_stack(call_stack(*trace, op)).c_str());
    ImGui::PopStyleColor();
    if (o.cycle.type == CycleType::Kappa) {  // Algorithm 3, the line just carried out marked
      const int current = algorithm3_line(*trace, op);
      const std::vector<std::string>& lines = algorithm3_lines();
      // A short panel (1280 x 720, a large UI scale) shows the lines around the current one,
      // so the diagram keeps at least 35% of the panel and a text line per level.
      const float line_h = ImGui::GetTextLineHeightWithSpacing();
      const float avail_h = ImGui::GetContentRegionAvail().y;
      const float diagram_min = std::max(avail_h * 0.35f, float(n) * ImGui::GetTextLineHeight());
      const float room = std::min(avail_h * 0.65f, avail_h - diagram_min);
      const int fits = std::max(3, int(room / line_h));
      int first = 0, last = int(lines.size()) - 1;
      if (fits < int(lines.size())) {
        const int around = (fits - 1) / 2;
        first = std::clamp(current - around, 0, int(lines.size()) - fits);
        last = first + fits - 1;
      }
      for (int i = first; i <= last; ++i) {
        const bool cut = (i == first && first > 0) || (i == last && last < int(lines.size()) - 1);
        if (i == current)
          ImGui::TextColored(ImVec4(0.55f, 1.0f, 0.55f, 1.0f), "> %s", lines[std::size_t(i)].c_str());
        else if (cut)
          ImGui::TextDisabled("  ...");
        else
          ImGui::TextDisabled("  %s", lines[std::size_t(i)].c_str());
      }
    }
  } else
    ImGui::TextDisabled("%zu operations a cycle; press Operation to step through one", plan.size());
  physical_passes(snap, stepping, kappa);

  const ImVec2 origin = ImGui::GetCursorScreenPos(), avail = ImGui::GetContentRegionAvail();
  ImGui::Dummy(avail);
  draw_cycle_diagram(ImGui::GetWindowDrawList(), origin, avail, plan, n, done,
                     stepping ? int(snap.trace_position) - 1 : -1);
}

}  // namespace kcycle::gui
