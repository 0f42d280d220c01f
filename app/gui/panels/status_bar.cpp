// The status bar: the backend, frame rate, time per cycle, cycles, memory and what the solve is
// doing.
#include "panels.hpp"

#include <imgui.h>

#include <cstdio>
#include <string>

#include "kcycle/model/timing.hpp"
#include "panels/widgets.hpp"

namespace kcycle::gui {

// What the solve is doing, in words: the solver's status once it has stopped; before that,
// whether the worker runs it, holds it inside a cycle (stepping) or has it paused.
bool solving(const Snapshot& snap) { return snap.running && snap.status == SolveStatus::Running && snap.error.empty(); }

std::string activity(const Snapshot& snap) {
  if (!snap.error.empty()) return "not solving (parameters refused)";
  if (!snap.setting_up.empty()) return snap.setting_up;
  if (snap.sweeping) return "sweeping kappa (the solve starts again after it)";  // its run was set aside
  if (snap.status != SolveStatus::Running) return std::string(to_string(snap.status));
  if (snap.autoplay > 0) {
    char text[96];
    std::snprintf(text, sizeof text, "autoplay, %.1f operations/s (operation %d of the cycle)", snap.autoplay,
                  std::max(snap.trace_position, 0));
    return text;
  }
  if (snap.stepping) return "stepping (operation " + std::to_string(snap.trace_position) + " of the cycle)";
  return snap.running ? "running" : "paused";
}

void status_bar(UiState& ui, const Snapshot& snap) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float height = 28 * ui.ui_scale;
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x, vp->Pos.y + vp->Size.y - height));
  ImGui::SetNextWindowSize(ImVec2(vp->Size.x, height));
  const PanelWindow window(ui, "##status",
                           ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                               ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav);
  long rss_pages = 0;
  if (std::FILE* f = std::fopen("/proc/self/statm", "r")) {
    long size = 0;
    if (std::fscanf(f, "%ld %ld", &size, &rss_pages) != 2) rss_pages = 0;
    std::fclose(f);
  }
  const std::string backend =
      !snap.run ? std::string(snap.sweeping || snap.calibrating ? "none (the sweep has the machine)"
                              : !snap.setting_up.empty()        ? "being set up"
                                                                : "none (parameters refused)")
      : snap.run->target.backend == BackendKind::Cuda
          ? std::string(backend_title(BackendKind::Cuda)) + (snap.run->target.graphs ? " + graphs" : "") +
                ", field: " + ui.field_path
          : std::string(backend_title(snap.run->target.backend)) + " (" + std::to_string(snap.threads) +
                (snap.threads == 1 ? " solver thread)" : " solver threads)");
  char per_cycle[64] = "no cycle timed yet";
  if (snap.seconds_per_cycle > 0)
    std::snprintf(per_cycle, sizeof per_cycle, "%.3f ms per cycle%s", snap.seconds_per_cycle * 1e3,
                  snap.cycle_time_spread >= kBusySpread ? " (busy machine)" : "");
  // As much as fits the width, the most telling first: what the solve does, a backend's
  // fallback, its time and cycles, then the backend, the frame rate and the memory (a
  // projector's scale leaves room for less, and a cut-off line said nothing).
  char memory[48], fps[24], cycles[40];
  std::snprintf(memory, sizeof memory, "memory %.0f MiB", double(rss_pages) * 4096.0 / (1 << 20));
  std::snprintf(fps, sizeof fps, "%.0f fps", ui.fps);
  std::snprintf(cycles, sizeof cycles, "%zu cycles", snap.history.size());
  const float room = ImGui::GetContentRegionAvail().x;
  std::string line = activity(snap);
  const std::string note = snap.backend_note.empty() ? "" : " | " + snap.backend_note;
  float used = ImGui::CalcTextSize(line.c_str()).x;
  const bool with_note = !note.empty() && used + ImGui::CalcTextSize(note.c_str()).x <= room;
  if (with_note) used += ImGui::CalcTextSize(note.c_str()).x;
  std::string rest;
  for (const std::string& p :
       {std::string(per_cycle), std::string(cycles), "backend: " + backend, std::string(fps), std::string(memory)}) {
    const float w = ImGui::CalcTextSize((" | " + p).c_str()).x;
    if (used + w > room) continue;  // a shorter part further on may still fit
    rest += " | " + p;
    used += w;
  }
  if (!with_note) {
    ImGui::TextUnformatted((line + rest).c_str());
    return;
  }
  ImGui::TextUnformatted(line.c_str());
  ImGui::SameLine(0, 0);
  ImGui::TextColored(ImVec4(1.0f, 0.7f, 0.3f, 1.0f), "%s", note.c_str());
  ImGui::SameLine(0, 0);
  ImGui::TextUnformatted(rest.c_str());
}

}  // namespace kcycle::gui
