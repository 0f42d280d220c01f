#include "panels.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // LogToBuffer: print-text

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

#include "cycle_diagram.hpp"
#include "kcycle/backends/execution_target.hpp"
#include "kcycle/cycle/cycle_counts.hpp"
#include "kcycle/cycle/cycle_plan.hpp"
#include "kcycle/cycle/cycle_schedule.hpp"
#include "kcycle/io/enum_names.hpp"
#include "kcycle/io/options_io.hpp"
#include "kcycle/model/cost_model.hpp"
#include "kcycle/model/timing.hpp"
#include "lessons.hpp"
#include "narration.hpp"
#include "plot.hpp"

namespace kcycle::gui {

namespace {

// A warning in orange, wrapped to the panel (at projector scales a line runs past its edge).
void warning(const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.6f, 0.2f, 1.0f));
  ImGui::TextWrapped("%s", text.c_str());
  ImGui::PopStyleColor();
}

// A labelled separator (ImGui 1.86 has no SeparatorText).
void section(const char* label) {
  ImGui::Spacing();
  ImGui::TextDisabled("%s", label);
  ImGui::Separator();
}

const ImU32 kKappaColors[] = {IM_COL32(31, 119, 180, 255), IM_COL32(255, 127, 14, 255), IM_COL32(44, 160, 44, 255),
                              IM_COL32(214, 39, 40, 255), IM_COL32(148, 103, 189, 255)};
const int kKappas[] = {1, 2, 3, 4, kKappaW};

std::vector<PanelRect>& rects() {
  static thread_local std::vector<PanelRect> r;  // UI thread only
  return r;
}

void record_rect(const char* name) {
  const ImVec2 p = ImGui::GetWindowPos(), s = ImGui::GetWindowSize();
  for (PanelRect& r : rects())
    if (std::string(r.name) == name) {
      r = {name, p.x, p.y, s.x, s.y};
      return;
    }
  rects().push_back({name, p.x, p.y, s.x, s.y});
}

// One panel's window for the scope of a panel function: Begin, its rectangle for the layout
// file, and for the script's print-text the text it drew (ImGui logs a window's text until its
// End, which clears the log: so each window starts and reads its own).
class PanelWindow {
 public:
  PanelWindow(UiState& ui, const char* name, ImGuiWindowFlags flags = 0) : ui_(ui) {
    open_ = ImGui::Begin(name, nullptr, flags);
    if (!open_) return;
    record_rect(name);
    if (ui_.capture_text) ImGui::LogToBuffer();
  }
  ~PanelWindow() {
    if (open_ && ui_.capture_text) ui_.shown_text += std::string(ImGui::GetCurrentContext()->LogBuffer.c_str()) + "\n";
    ImGui::End();
  }
  PanelWindow(const PanelWindow&) = delete;
  PanelWindow& operator=(const PanelWindow&) = delete;
  explicit operator bool() const { return open_; }

 private:
  UiState& ui_;
  bool open_ = false;
};

// A combo over an enum's name table (kcycle/io/enum_names.hpp), showing its labels.
template <class Enum>
bool combo(const char* label, Enum& value) {
  const auto& table = name_table<Enum>();
  bool changed = false;
  if (ImGui::BeginCombo(label, std::string(enum_label(value)).c_str())) {
    for (const auto& entry : table) {
      if (ImGui::Selectable(std::string(entry.label).c_str(), entry.value == value) && entry.value != value) {
        value = entry.value;
        changed = true;
      }
    }
    ImGui::EndCombo();
  }
  return changed;
}

// The preset the options are (all four of its parts), or none.
const Preset* matching_preset(const SolverOptions& o) {
  for (const Preset& p : presets())
    if (p.smoother == o.smoother && p.coarsening == o.coarsening && p.coarse_operator == o.coarse_operator &&
        p.solver == o.solver)
      return &p;
  return nullptr;
}

void preset_combo(SolverOptions& o) {
  const Preset* current = matching_preset(o);
  if (!ImGui::BeginCombo("preset", current ? std::string(current->name).c_str() : "(custom)")) return;
  for (const Preset& p : presets())
    if (ImGui::Selectable(std::string(p.name).c_str(), &p == current)) apply(p, o);
  ImGui::EndCombo();
}

// A control's tooltip, after a short hover; or at once when the script probes that control
// (print-tooltip: scripted runs have no mouse). A composite control (InputInt: a group whose
// last item is its "+" button) names its label.
void tip(UiState& ui, const char* text, const char* group_label = nullptr) {
  const bool probed =
      !ui.tooltip_probe.empty() &&
      (group_label ? ui.tooltip_probe == group_label : ImGui::GetItemID() == ImGui::GetID(ui.tooltip_probe.c_str()));
  if (probed) ui.tooltip_found = text;
  if (!probed && !(ImGui::IsItemHovered() && GImGui->HoveredIdTimer > 0.35f)) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.0f);
  ImGui::TextUnformatted(text);
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

// The teaching presets: choosing one sets the problem, the cycle and the view, and pauses on
// the initial error with what to do next shown in the Controls panel.
void lesson_combo(UiState& ui, SolverWorker& worker) {
  const std::vector<Lesson>& all = lessons();
  const char* shown = ui.lesson >= 0 ? all[std::size_t(ui.lesson)].name.c_str() : "(none)";
  if (ImGui::BeginCombo("lesson", shown)) {
    for (std::size_t k = 0; k < all.size(); ++k)
      if (ImGui::Selectable(all[k].name.c_str(), int(k) == ui.lesson)) {
        ui.lesson = int(k);
        ui.params = all[k].options;
        ui.view = all[k].view;
        ui.lock_range = all[k].lock_range;
        ui.show_shapes = false;
        worker.pause();
        worker.set_view(ui.view);
      }
    ImGui::EndCombo();
  }
  tip(ui,
      "Teaching presets: each sets up one idea (smoothing, point versus line relaxation, semi-coarsening, "
      "kappa tuning), starts paused and says what to try");
}

// What to do next: the lesson's instructions, and before the first cycle how to start.
void guidance(UiState& ui, const Snapshot& snap) {
  const ImVec4 hint(0.55f, 0.85f, 1.0f, 1.0f);
  ImGui::PushStyleColor(ImGuiCol_Text, hint);
  if (ui.lesson >= 0) ImGui::TextWrapped("Lesson: %s", lessons()[std::size_t(ui.lesson)].what_to_do.c_str());
  const bool at_start = snap.error.empty() && snap.history.empty() && !snap.running && !snap.stepping &&
                        snap.autoplay == 0 && snap.status == SolveStatus::Running;
  if (at_start)
    ImGui::TextWrapped(
        "Paused on the initial error (cycle 0). Press Operation to step through the first cycle, Relaxation to "
        "watch the smoother work, autoplay to let it play, or Run to solve.");
  ImGui::PopStyleColor();
}
}  // namespace

const std::vector<PanelRect>& panel_rects() { return rects(); }

void place_panel(const UiState& ui, ImVec2 pos, ImVec2 size) {
  const ImGuiCond cond = ui.scripted ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
  ImGui::SetNextWindowPos(pos, cond);
  ImGui::SetNextWindowSize(size, cond);
}

void parameters_panel(UiState& ui, SolverWorker& worker, const Snapshot& snap) {
  const PanelWindow window(ui, "Parameters");
  if (!window) return;
  SolverOptions& o = ui.params;
  const SolverOptions before = o;

  lesson_combo(ui, worker);
  // The paper's six solvers, then every part one by one.
  preset_combo(o);
  tip(ui, "The paper's six solvers: smoother, coarsening and coarse operators, stand-alone or preconditioning CG");

  section("problem");
  float eps = float(o.eps);
  if (ImGui::SliderFloat("epsilon", &eps, 1e-6f, 1.0f, "%.1e", ImGuiSliderFlags_Logarithmic)) o.eps = eps;
  tip(ui, "Anisotropy: diffusion is 1 along the angle and epsilon across it (1 = Poisson)");
  float angle = float(o.angle_degrees);
  if (ImGui::SliderFloat("angle (deg)", &angle, 0.0f, 90.0f, "%.1f")) o.angle_degrees = angle;
  tip(ui,
      "Direction of strong coupling, from the x axis: 0 and 90 are grid-aligned, 45 is the hardest for point "
      "and line smoothers");
  ImGui::SliderInt("levels", &o.levels, 2, 12);
  tip(ui, "Grid levels n: the finest grid has (2^n - 1)^2 unknowns, the coarsest one (full coarsening)");
  combo("problem", o.problem);
  tip(ui,
      "0: zero right-hand side, random start in [0,1), the error is the iterate; 1: a smooth manufactured "
      "solution; 2: as 0 with a zero-mean start, so both colours show");
  int seed = int(o.seed);
  if (ImGui::InputInt("seed", &seed)) o.seed = std::uint64_t(std::max(seed, 0));
  tip(ui, "Seed of the random start (problems 0 and 2): the same seed gives the same start", "seed");

  section("cycle");
  // kappa = 1 .. levels, where kappa >= levels is the W-cycle.
  int kappa_index = std::min(o.cycle.counter, o.levels);
  if (ImGui::SliderInt("kappa", &kappa_index, 1, o.levels, kappa_index >= o.levels ? "W" : "%d"))
    o.cycle = {CycleType::Kappa, kappa_index >= o.levels ? kKappaW : kappa_index};
  tip(ui,
      "The cycle counter: a call recurses once with kappa and once more with kappa-1 while that is positive. "
      "1 = V-cycle, 2 = F-cycle, >= levels = W-cycle");
  ImGui::SameLine();
  ImGui::TextDisabled("%s", o.cycle.counter == 1          ? "V"
                            : o.cycle.counter == 2        ? "F"
                            : o.cycle.counter >= o.levels ? "W"
                                                          : "");
  combo("smoother", o.smoother);
  tip(ui,
      "Relaxation: damped Jacobi or Gauss-Seidel point smoothers, or zebra line relaxation (whole lines "
      "solved at once: robust when the strong coupling is along the lines)");
  ImGui::SliderInt("nu1 (pre)", &o.nu1, 0, 4);
  tip(ui, "Relaxation sweeps before the coarse-grid correction (circles left of each X)");
  ImGui::SliderInt("nu2 (post)", &o.nu2, 0, 4);
  tip(ui, "Relaxation sweeps after the coarse-grid correction");
  if (ui.show_advanced && o.smoother == Smoother::Jacobi) {
    combo("omega", o.omega_mode);
    tip(ui, "Jacobi's damping: the paper's formula, the Fourier-optimal value (local Fourier analysis), or fixed");
    if (o.omega_mode == OmegaMode::Fixed) {
      float w = float(o.omega > 0 ? o.omega : 0.8);
      if (ImGui::SliderFloat("omega value", &w, 0.05f, 1.95f))
        o.omega = w;
      else if (o.omega <= 0)
        o.omega = w;
      tip(ui, "The fixed damping factor");
    }
  }
  combo("coarsening", o.coarsening);
  tip(ui, "Full: every coarser grid halves both directions. Semi (y): only y halves, for x-line relaxation");
  if (ui.show_advanced) {
    combo("coarse operator", o.coarse_operator);
    tip(ui, "Galerkin: R A P computed from the fine operator; rediscretized: the same PDE on the coarse grid");
    ImGui::Checkbox("symmetric smoothing", &o.symmetric_smoothing);
    tip(ui, "Post-smoothing in the reverse order of pre-smoothing, so the cycle is a symmetric preconditioner");
  }

  section("solver");
  combo("solver", o.solver);
  tip(ui, "The cycle stand-alone, or as the preconditioner of conjugate gradients (MGCG) or flexible CG");
  if (ui.show_advanced) {
    combo("precision", o.precision);
    tip(ui, "double, or mixed: the multigrid hierarchy in float inside a double refinement / CG");
    combo("backend", o.backend);
    tip(ui, "Where the solve runs: the CPU (a team of threads), a CUDA GPU, or auto (CUDA when one is usable)");
    if (o.backend == BackendKind::Cpu && o.smoother == Smoother::Jacobi) {
      ImGui::Checkbox("fused passes (unwatched cycles)", &o.fused);
      tip(ui,
          "Cycles that are not stepped run relaxation, residual and transfers in fewer passes over memory "
          "(bitwise the same iterate)");
    }
    if (o.backend != BackendKind::Cpu) {
      ImGui::Checkbox("CUDA Graphs (replay whole cycles)", &o.cuda_graphs);
      tip(ui, "Record a cycle's kernel launches once and replay them: removes most launch overhead");
    }
  }
  float tol_exp = float(std::log10(o.tolerance));
  if (ImGui::SliderFloat("tolerance", &tol_exp, -12.0f, -2.0f, "1e%.0f"))
    o.tolerance = std::pow(10.0, std::round(tol_exp));
  tip(ui, "The solve stops when the monitored norm has fallen by this factor");

  if (!snap.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(255, 120, 90, 255));
    ImGui::TextWrapped("Not solving: %s", snap.error.c_str());
    ImGui::PopStyleColor();
  }
  // Every change takes effect at once: the worker cancels the running solve and restarts.
  if (o != before) worker.set_options(o);
  if (ui.lesson >= 0 && !(o == lessons()[std::size_t(ui.lesson)].options)) ui.lesson = -1;  // on your own now
}

void controls_panel(UiState& ui, SolverWorker& worker, const Snapshot& snap) {
  const PanelWindow window(ui, "Controls");
  if (!window) return;
  guidance(ui, snap);
  const bool solving = snap.running && snap.status == SolveStatus::Running && snap.error.empty();
  if (ImGui::Button(solving ? "Pause" : "Run", ImVec2(70 * ui.ui_scale, 0))) solving ? worker.pause() : worker.run();
  tip(ui, "Solve cycle after cycle (at most 'cycles/s' a second); Pause stops at the end of the cycle");
  ImGui::SameLine();
  if (ImGui::Button("Reset")) worker.reset();
  tip(ui, "Start again from the initial error, keeping every setting");
  ImGui::SameLine();
  if (ImGui::Button("Cycle")) worker.step_cycle();
  tip(ui, "Run to the end of the cycle (one whole cycle when not inside one)");
  ImGui::TextUnformatted("step:");
  ImGui::SameLine();
  if (ImGui::Button("Operation")) worker.step_operation();
  tip(ui, "Carry out the cycle's next operation (a sweep, a transfer, a zeroing or a call) and stop");
  ImGui::SameLine();
  if (ImGui::Button("Relaxation")) worker.step_operation(SolverWorker::StepTo::Relaxation);
  tip(ui, "Run on to the end of the next relaxation sweep (a circle in the diagram)");
  ImGui::SameLine();
  if (ImGui::Button("Call")) worker.step_operation(SolverWorker::StepTo::Call);
  tip(ui, "Run on to the next recursive call (an X in the diagram)");
  bool autoplay = snap.autoplay > 0;
  if (ImGui::Checkbox("autoplay", &autoplay)) worker.autoplay(autoplay ? ui.autoplay_rate : 0.0);
  tip(ui, "Step through the cycles by itself, operation by operation, at 'operations/s'");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(std::max(60.0f, ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize("operations/s").x -
                                              ImGui::GetStyle().ItemInnerSpacing.x));
  if (ImGui::SliderFloat("operations/s", &ui.autoplay_rate, 0.5f, 30.0f, "%.1f", ImGuiSliderFlags_Logarithmic) &&
      snap.autoplay > 0)
    worker.autoplay(ui.autoplay_rate);
  tip(ui, "Autoplay's speed");
  if (ImGui::SliderFloat("cycles/s", &ui.speed, 0.0f, 30.0f, ui.speed == 0 ? "unlimited" : "%.1f"))
    worker.set_speed(ui.speed);
  tip(ui, "Run's speed: slow it down to watch the error fall cycle by cycle (0 = as fast as possible)");

  section("view");
  ViewRequest view = ui.view;
  ImGui::SliderInt("level shown", &view.level, 1, std::max(1, snap.options.levels));
  tip(ui, "The grid level the field panel shows when it does not follow the cycle (1 = finest)");
  ImGui::Checkbox("follow the cycle when stepping", &view.follow_cycle);
  tip(ui, "While stepping, show the level the last operation wrote");
  ImGui::Checkbox("before | after relaxation", &view.before_after);
  tip(ui, "While stepping through a relaxation phase, show its level as the phase found it beside how it is now");
  ImGui::Checkbox("residual instead of error", &view.residual);
  tip(ui, "Show f - A v instead of the error (finest level) or the correction (coarser levels)");
  ImGui::Checkbox("Fourier inset", &view.spectrum);
  tip(ui, "The field's sine-series magnitudes: smooth error at the lower left, rough error at the upper right");
  if (!(view == ui.view)) {
    ui.view = view;
    worker.set_view(view);
  }
  ImGui::Checkbox("1D slice", &ui.show_slice);
  tip(ui, "The values along one row of the field, plotted under it");
  if (ui.show_slice) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(120 * ui.ui_scale);
    ImGui::SliderFloat("at y", &ui.slice_y, 0.0f, 1.0f, "%.2f");
    tip(ui, "The slice's row, as y between 0 (bottom) and 1 (top)");
  }
  ImGui::Checkbox("auto range", &ui.auto_range);
  tip(ui, "Colour range from the field's largest magnitude; off: a fixed range");
  ImGui::SameLine();
  ImGui::Checkbox("lock for the cycle", &ui.lock_range);
  tip(ui, "Keep each level's colour range through a cycle, so the colours fade as the error shrinks");
  if (!ui.auto_range) {
    ImGui::SliderFloat("range +/-", &ui.fixed_range, 1e-10f, 10.0f, "%.2e", ImGuiSliderFlags_Logarithmic);
    tip(ui, "The fixed colour range");
  }
  ImGui::SliderFloat("zoom", &ui.zoom, 1.0f, 16.0f, "%.1fx", ImGuiSliderFlags_Logarithmic);
  tip(ui, "Magnify the field (the mouse wheel does the same; drag to pan)");
  ImGui::Checkbox("average when minifying", &ui.average_minify);
  tip(ui, "A grid larger than the panel: each pixel shows the average of its points (off: one point in k)");

  section("lecture");
  ImGui::Checkbox("cycle shapes", &ui.show_shapes);
  tip(ui, "The paper's Figure 2.1: V, F, kappa=3 and W at this level count, and totalCalls against levels");
  ImGui::SameLine();
  ImGui::Checkbox("advanced", &ui.show_advanced);
  tip(ui, "Show the time panel and the expert parameters (precision, backend, coarse operator, ...)");
  ImGui::SliderFloat("UI scale", &ui.ui_scale, 0.75f, 2.5f, "%.2f");
  tip(ui, "Fonts, markers and lines larger for a projector (remembered)");

  section("export");
  if (ImGui::Button("Screenshot")) ui.screenshot_path = "kcycle-screenshot.png";
  tip(ui, "Write the window to kcycle-screenshot.png");
  ImGui::SameLine();
  if (ImGui::Button("History CSV"))
    ui.notice =
        export_history_csv(snap, "kcycle-history.csv") ? "wrote kcycle-history.csv" : "cannot write kcycle-history.csv";
  tip(ui, "Write every cycle's error, residual, factor and time to kcycle-history.csv");
  ImGui::SameLine();
  if (ImGui::Button("Parameters")) {
    ui.notice = export_parameters(ui.params, "kcycle-parameters.toml")
                    ? "wrote kcycle-parameters.toml (kcycle solve --config kcycle-parameters.toml)"
                    : "cannot write kcycle-parameters.toml";
  }
  tip(ui, "Write these settings to kcycle-parameters.toml, for `kcycle solve --config` or --config here");
  if (!ui.notice.empty()) ImGui::TextWrapped("%s", ui.notice.c_str());
}

namespace {

// The field's floats into its texture: through CUDA-OpenGL interop when the image is on the
// device and interop works, else from the host. Records which path the status bar shows.
void upload_field(UiState& ui, const FieldImage& img, FieldRenderer& field) {
  const bool on_device = ui.interop && img.device && field.upload_from_device(*img.device, img.version);
  if (!on_device) field.upload(img.values, img.nx, img.ny, img.version);  // no floats here: keeps the last
  ui.view.host_draws = !on_device && img.device;  // interop cannot draw it: every picture's floats must come
  ui.field_path = on_device     ? "CUDA-OpenGL interop"
                  : !img.device ? "host upload"
                  : !ui.interop ? "host upload (interop off)"
                                : "host upload (" + field.interop_error() + ")";
}

// The part of the field shown, (u0, v0, du, dv), after zoom about the pan centre.
std::array<float, 4> visible_part(UiState& ui) {
  const float extent = 1.0f / ui.zoom;
  ui.pan[0] = std::clamp(ui.pan[0], extent / 2, 1 - extent / 2);
  ui.pan[1] = std::clamp(ui.pan[1], extent / 2, 1 - extent / 2);
  return {ui.pan[0] - extent / 2, ui.pan[1] - extent / 2, extent, extent};
}

// Under the cursor: the point's value as a tooltip; drag pans, the wheel zooms.
// `host`: the newest picture of this view with its floats on the host (null: none yet).
void hover_pan_zoom(UiState& ui, const FieldImage& img, const FieldImage* host, ImVec2 p0, float side,
                    const std::array<float, 4>& view) {
  if (!ImGui::IsItemHovered()) return;
  ui.view.host_values = true;  // the value under the cursor comes from the host's copy
  const ImVec2 m = ImGui::GetIO().MousePos;
  const float u = view[0] + (m.x - p0.x) / side * view[2], v = view[1] + (1 - (m.y - p0.y) / side) * view[3];
  const int i = std::clamp(int(u * img.nx), 0, img.nx - 1), j = std::clamp(int(v * img.ny), 0, img.ny - 1);
  if (host)
    ImGui::SetTooltip("(i, j) = (%d, %d)\nx = %.4f, y = %.4f\nvalue = %.4e", i + 1, j + 1, (i + 1.0) / (img.nx + 1),
                      (j + 1.0) / (img.ny + 1), host->values[std::size_t(j) * std::size_t(img.nx) + std::size_t(i)]);
  else
    ImGui::SetTooltip("(i, j) = (%d, %d)\nx = %.4f, y = %.4f\nvalue: copying from the GPU", i + 1, j + 1,
                      (i + 1.0) / (img.nx + 1), (j + 1.0) / (img.ny + 1));
  if (ImGui::IsMouseDragging(ImGuiMouseButton_Left)) {
    const ImVec2 d = ImGui::GetIO().MouseDelta;
    ui.pan[0] -= d.x / side * view[2];
    ui.pan[1] += d.y / side * view[3];
  }
  const float wheel = ImGui::GetIO().MouseWheel;
  if (wheel != 0) ui.zoom = std::clamp(ui.zoom * std::pow(1.25f, wheel), 1.0f, 16.0f);
}

// The diverging map from -range (bottom) to +range (top) beside the field, with labels.
void colourbar(ImVec2 p0, float side, float range) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 b0(p0.x + side + 10, p0.y), b1(p0.x + side + 26, p0.y + side);
  static const ImU32 stops[] = {IM_COL32(180, 4, 38, 255), IM_COL32(244, 154, 123, 255), IM_COL32(221, 221, 221, 255),
                                IM_COL32(141, 176, 254, 255), IM_COL32(59, 76, 192, 255)};
  for (int k = 0; k < 4; ++k) {
    const float y0 = b0.y + (b1.y - b0.y) * k / 4, y1 = b0.y + (b1.y - b0.y) * (k + 1) / 4;
    dl->AddRectFilledMultiColor(ImVec2(b0.x, y0), ImVec2(b1.x, y1), stops[k], stops[k], stops[k + 1], stops[k + 1]);
  }
  char text[32];
  std::snprintf(text, sizeof text, "%+.1e", range);
  ImGui::SetCursorScreenPos(ImVec2(b1.x + 4, b0.y));
  ImGui::TextUnformatted(text);
  ImGui::SetCursorScreenPos(ImVec2(b1.x + 4, (b0.y + b1.y) / 2 - 7));
  ImGui::TextUnformatted(" 0");
  std::snprintf(text, sizeof text, "%+.1e", -range);
  ImGui::SetCursorScreenPos(ImVec2(b1.x + 4, b1.y - 14));
  ImGui::TextUnformatted(text);
}

// Fourier inset: sine-series magnitudes, low wave numbers at the lower left. Rough error
// sits at the upper right and vanishes under relaxation; smooth error stays lower left.
void fourier_inset(const FieldImage& img, ImVec2 p0, float side, FieldRenderer& spectrum) {
  if (img.spectrum.empty()) {
    ImGui::SetCursorScreenPos(ImVec2(p0.x + 6, p0.y + 4));
    ImGui::TextDisabled("Fourier inset: levels of up to 511 x 511 points");
    return;
  }
  const float inset = std::min(side * 0.45f, std::max(110.0f, side * 0.3f));
  float smax = -300;
  for (float v : img.spectrum) smax = std::max(smax, v);
  const float smin = smax - 8;  // eight decades
  spectrum.upload(img.spectrum, img.nx, img.ny, img.version);
  // Nearest wave numbers, not averages: a mipmap pyramid per publish costs software renderers
  // several fps, and the inset is read for where the energy sits, not point by point.
  spectrum.set_average_minification(false);
  const float full[4] = {0, 0, 1, 1};
  const GLuint stex = spectrum.render(int(inset), int(inset), false, smin, smax, full);
  const float line = ImGui::GetTextLineHeight();
  const ImVec2 q0(p0.x + side - inset - 4, p0.y + 4);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddImage(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(stex)), q0, ImVec2(q0.x + inset, q0.y + inset),
               ImVec2(0, 1), ImVec2(1, 0));
  dl->AddRect(q0, ImVec2(q0.x + inset, q0.y + inset), IM_COL32(255, 255, 255, 200));
  // Axes: wave numbers k (x) from 1 at the left to nx, l (y) from 1 at the bottom to ny.
  const ImU32 text = IM_COL32(255, 255, 255, 230);
  const float below = q0.y + inset + 1;
  const char* title = "Fourier |c_kl|, log";
  const float strip = std::max(inset, ImGui::CalcTextSize(title).x + 4);
  dl->AddRectFilled(ImVec2(q0.x + inset - strip, below), ImVec2(q0.x + inset, below + 2 * line + 2),
                    IM_COL32(20, 20, 24, 220));
  const std::string kmax = "k=" + std::to_string(img.nx), lmax = "l=" + std::to_string(img.ny);
  const float kmax_w = ImGui::CalcTextSize(kmax.c_str()).x, arrow_w = ImGui::CalcTextSize("k ->").x;
  dl->AddText(ImVec2(q0.x + 2, below), text, "1");
  dl->AddText(ImVec2(q0.x + inset - kmax_w - 2, below), text, kmax.c_str());
  if (inset - kmax_w - 16 > arrow_w + 8)  // room between "1" and "k=nx"
    dl->AddText(ImVec2(q0.x + 14 + (inset - kmax_w - 16 - arrow_w) / 2, below), text, "k ->");
  dl->AddText(ImVec2(q0.x + inset - strip + 2, below + line), text, title);
  dl->AddRectFilled(ImVec2(q0.x + 1, q0.y + 1), ImVec2(q0.x + ImGui::CalcTextSize(lmax.c_str()).x + 5, q0.y + line + 1),
                    IM_COL32(20, 20, 24, 200));
  dl->AddText(ImVec2(q0.x + 3, q0.y + 1), text, lmax.c_str());
  if (ImGui::GetCurrentContext()->LogEnabled)  // print-text: what the inset's axes say
    ImGui::LogText("Fourier inset: k = 1..%d (x), l = 1..%d (y), log |c_kl| over 8 decades\n", img.nx, img.ny);
}

// The last kappa sweep: time to the tolerance per kappa, measured beside predicted (the
// paper's Table 4.1 at the current settings), the fastest marked.
void kappa_sweep_table(const Snapshot& snap) {
  if (snap.sweeping) {
    ImGui::Text("sweeping kappa: %s", snap.sweep_note.c_str());
    return;
  }
  const KappaSweep* sweep = snap.kappa_sweep.get();
  if (!sweep) return;
  if (!ImGui::BeginTable("kappa sweep", 5, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg)) return;
  for (const char* h : {"kappa", "cycles", "ms/cycle", "total s (measured)", "predicted s"}) ImGui::TableSetupColumn(h);
  ImGui::TableHeadersRow();
  for (const KappaSweepRow& r : sweep->rows) {
    ImGui::TableNextRow();
    const bool best = r.kappa == sweep->best_kappa;
    const ImVec4 colour = best ? ImVec4(0.5f, 1.0f, 0.5f, 1.0f) : ImGui::GetStyleColorVec4(ImGuiCol_Text);
    ImGui::TableNextColumn();
    ImGui::TextColored(colour, "%s%s", kappa_to_string(r.kappa).c_str(), best ? " (fastest)" : "");
    ImGui::TableNextColumn();
    ImGui::Text(r.converged ? "%d" : "%d (not converged)", r.iterations);
    ImGui::TableNextColumn();
    ImGui::Text("%.3f", r.seconds_per_cycle * 1e3);
    ImGui::TableNextColumn();
    ImGui::TextColored(colour, "%.3f", r.seconds_total);
    ImGui::TableNextColumn();
    if (std::isfinite(r.predicted_seconds_total))
      ImGui::Text("%.3f", r.predicted_seconds_total);
    else
      ImGui::TextDisabled("-");
  }
  ImGui::EndTable();
}

// What the solve is doing, in words: the solver's status once it has stopped; before that,
// whether the worker runs it, holds it inside a cycle (stepping) or has it paused.
std::string activity(const Snapshot& snap) {
  if (!snap.error.empty()) return "not solving (parameters refused)";
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

// The convergence panel's first line: the outcome of a finished solve, or what it is doing and
// how far it got (no factor before the first cycle).
std::string convergence_line(const Snapshot& snap) {
  const auto& h = snap.history;
  char line[256];
  if (snap.status != SolveStatus::Running && snap.error.empty()) {
    std::snprintf(line, sizeof line, "%s  |  %zu cycles, last factor %.4f", snap.message.c_str(), h.size(),
                  h.empty() ? 0.0 : h.back().factor);
    return line;
  }
  if (h.empty()) return activity(snap) + ", no cycle done yet";
  const IterationRecord& last = h.back();
  std::snprintf(line, sizeof line, "%s  |  %zu cycles, last factor %.4f", activity(snap).c_str(), h.size(),
                last.factor);
  return line;
}

}  // namespace

// A pinned run's legend: its kappa, the settings in which it differs from the current run, and
// its cycles, time per cycle and total cycle time.
std::string pinned_label(const PinnedRun& pin, const SolverOptions& current) {
  std::string label = (pin.options.solver == SolverKind::Multigrid ? "kappa=" : "CG kappa=") +
                      kappa_to_string(pin.options.cycle.counter);
  for (const OptionSpec& spec : option_specs()) {
    if (!spec.in_parameters_file || spec.key == "kappa" || spec.key == "preset") continue;
    const std::string value = spec.get(pin.options);
    if (value != spec.get(current)) label += " " + std::string(spec.key) + "=" + value;
  }
  double total = 0;
  for (const IterationRecord& r : pin.history) total += r.seconds;
  char tail[96];
  std::snprintf(tail, sizeof tail, ": %zu cycles, %.3g ms/cycle, %.3g s", pin.history.size(),
                pin.seconds_per_cycle * 1e3, total);
  return label + tail;
}

void pin_run(UiState& ui, const Snapshot& snap) {
  const bool by_error = std::isfinite(snap.initial_error);
  ui.pinned.push_back(
      {snap.options, snap.history, by_error ? snap.initial_error : snap.initial_residual, snap.seconds_per_cycle});
  if (ui.pinned.size() > 6) ui.pinned.erase(ui.pinned.begin());
}

namespace {

// The colour range of a level's picture: its own largest magnitude (auto), or with the lock
// the range that level had when first shown in the current cycle, or the fixed one.
float colour_range(UiState& ui, const Snapshot& snap, const FieldImage& img) {
  const float own = std::max(std::abs(img.min), std::abs(img.max));
  if (!ui.auto_range) return ui.fixed_range;
  if (!ui.lock_range) return own;
  const std::size_t cycle = snap.history.size();  // cycles finished: the one under way is the next
  if (ui.locked_generation != snap.generation || ui.locked_cycle != cycle || ui.locked_ranges.empty()) {
    ui.locked_ranges.assign(32, 0.0f);
    ui.locked_generation = snap.generation;
    ui.locked_cycle = cycle;
  }
  float& locked = ui.locked_ranges[std::size_t(std::clamp(img.level, 0, 31))];
  if (!(locked > 0)) locked = own;  // a zero correction sets nothing: its first sweep does
  return locked;
}

// Before | after: the relaxation phase under way on the shown level, and the field it started
// from (kept by the worker while stepping with ViewRequest::before_after).
const FieldImage* phase_start(const Snapshot& snap, const FieldImage& now) {
  const Trace* trace = snap.cycle_trace.get();
  const FieldImage* before = snap.phase_before.get();
  if (!snap.stepping || !before || !trace || snap.trace_position < 1 ||
      std::size_t(snap.trace_position) > trace->size())
    return nullptr;
  const TraceEvent& e = (*trace)[std::size_t(snap.trace_position - 1)];
  const bool relaxing = e.kind == OpKind::PreRelax || e.kind == OpKind::PostRelax;
  if (!relaxing || e.level != now.level || before->level != now.level || before->nx != now.nx ||
      before->residual != now.residual)
    return nullptr;
  return before;
}

// Words over a zero picture, so an all-zero map does not read as "no data".
void zero_note(ImVec2 p0, float side, const char* note) {
  const ImVec2 size = ImGui::CalcTextSize(note, nullptr, false, side - 16);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 at(p0.x + std::max(8.0f, (side - size.x) / 2), p0.y + side / 2 - size.y / 2);
  dl->AddRectFilled(ImVec2(at.x - 6, at.y - 4), ImVec2(at.x + size.x + 6, at.y + size.y + 4),
                    IM_COL32(30, 30, 36, 230));
  ImGui::SetCursorScreenPos(at);
  ImGui::PushTextWrapPos(ImGui::GetCursorPos().x + side - 16);
  ImGui::TextUnformatted(note);
  ImGui::PopTextWrapPos();
}

// One picture of a field at p0, side x side pixels, through `renderer`.
void draw_field(UiState& ui, FieldRenderer& renderer, ImVec2 p0, float side, float range,
                const std::array<float, 4>& view) {
  renderer.set_average_minification(ui.average_minify);
  const GLuint tex = renderer.render(int(side), int(side), true, -range, range, view.data());
  ImGui::SetCursorScreenPos(p0);
  // The offscreen texture's rows run bottom-up like the field's y: flip v so y points up.
  ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(tex)), ImVec2(side, side), ImVec2(0, 1),
               ImVec2(1, 0));
}

// The slice's row (1-based) in a level of ny rows, and its place on a picture at p0.
int slice_row(const UiState& ui, int ny) { return std::clamp(int(std::lround(ui.slice_y * (ny + 1))), 1, ny); }

void mark_slice(const UiState& ui, int ny, ImVec2 p0, float side, const std::array<float, 4>& view) {
  const float v = (float(slice_row(ui, ny)) - 0.5f) / float(ny);  // texture coordinate of the row's centre
  const float t = (v - view[1]) / view[3];
  if (t < 0 || t > 1) return;
  const float y = p0.y + (1 - t) * side;
  ImGui::GetWindowDrawList()->AddLine(ImVec2(p0.x, y), ImVec2(p0.x + side, y), IM_COL32(255, 255, 80, 200), 1.5f);
}

// The values along the slice's row: now, and (grey) where the relaxation phase started.
void slice_plot(const UiState& ui, const FieldImage& now, const FieldImage* before, float range, ImVec2 size) {
  const int j = slice_row(ui, now.ny);
  auto row = [&](const FieldImage& img, const char* label, ImU32 colour) {
    Series s{label, {}, {}, colour, 1.5f};
    for (int i = 1; i <= img.nx; ++i) {
      s.x.push_back(double(i) / (img.nx + 1));
      s.y.push_back(img.values[std::size_t(j - 1) * std::size_t(img.nx) + std::size_t(i - 1)]);
    }
    return s;
  };
  std::vector<Series> series;
  if (before) series.push_back(row(*before, "before", IM_COL32(170, 170, 170, 255)));
  series.push_back(row(now, before ? "after" : "values", IM_COL32(255, 255, 80, 255)));
  char xlabel[64];
  std::snprintf(xlabel, sizeof xlabel, "x along row %d (y = %.3f)", j, double(j) / (now.ny + 1));
  const PlotSpec spec{xlabel, "value", false, false, 0.0, 1.0, -double(range), double(range)};
  draw_plot("slice", spec, series, {}, size);
}

}  // namespace

void field_panel(UiState& ui, const Snapshot& snap, FieldRenderers& renderers) {
  const PanelWindow window(ui, "Error field");
  if (!window) return;
  const FieldImage* img = snap.field.get();
  if (!snap.error.empty()) {  // the field of the last accepted parameters would not match them
    ImGui::TextWrapped("Not solving: %s", snap.error.c_str());
    return;
  }
  if (!img || (img->values.empty() && !img->device)) {
    ImGui::TextWrapped("starting...");
    return;
  }
  // The host's floats of this view: this picture's, or the newest copied (HostCopyRule).
  if (!img->values.empty()) ui.host_field = snap.field;
  const FieldImage* host = ui.host_field.get();
  if (host &&
      (host->level != img->level || host->nx != img->nx || host->ny != img->ny || host->residual != img->residual))
    host = nullptr;
  ui.view.host_values = ui.show_slice;  // and below: hovering
  const bool finest = img->level == 1;
  ImGui::Text("%s on level %d of %d (%d x %d)%s",
              img->residual ? "residual f - Av"
              : finest      ? "error u - u*"
                            : "correction v",
              img->level, snap.options.levels, img->nx, img->ny, snap.stepping ? "  [stepping]" : "");
  // A coarse correction is zero between its zeroing and its first sweep: said in words, not
  // drawn as a blank map with an all-"maximum" spectrum.
  const bool zero = img->min == 0.0f && img->max == 0.0f;
  const FieldImage* before = ui.view.before_after ? phase_start(snap, *img) : nullptr;
  float range = colour_range(ui, snap, *img);
  if (before && ui.auto_range && !ui.lock_range)  // one scale for both: the drop shows
    range = std::max({range, std::abs(before->min), std::abs(before->max)});
  if (!(range > 0)) range = 1.0f;
  if (ui.lock_range && ui.auto_range)
    ImGui::TextDisabled("colour range locked through cycle %zu: +/-%.2e", snap.history.size() + 1, double(range));
  upload_field(ui, *img, renderers.field);

  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float bar_w = 100, gap = 8;  // colourbar and its labels; between the two pictures
  const float label_h = before ? ImGui::GetTextLineHeightWithSpacing() : 0.0f;
  const float slice_h = ui.show_slice ? std::max(90.0f, avail.y * 0.28f) : 0.0f;
  const int panes = before ? 2 : 1;
  const float side =
      std::max(50.0f, std::min((avail.x - bar_w - gap * (panes - 1)) / panes, avail.y - 8 - label_h - slice_h));
  const std::array<float, 4> view = visible_part(ui);
  ImVec2 p0 = ImGui::GetCursorScreenPos();
  if (before) {
    const Trace& trace = *snap.cycle_trace;
    const std::size_t op = std::size_t(snap.trace_position - 1);
    const bool pre = trace[op].kind == OpKind::PreRelax;
    ImGui::Text("before the %s-relaxation", pre ? "pre" : "post");
    ImGui::SameLine(side + gap + ImGui::GetStyle().WindowPadding.x);
    ImGui::Text("after %s", narrate(trace, op, snap.options.nu1, snap.options.nu2).c_str());
    p0 = ImGui::GetCursorScreenPos();
    renderers.before.upload(before->values, before->nx, before->ny, before->version);
    draw_field(ui, renderers.before, p0, side, range, view);
    if (before->min == 0.0f && before->max == 0.0f) zero_note(p0, side, "zero: a coarse correction starts from zero");
    if (ui.show_slice) mark_slice(ui, before->ny, p0, side, view);
    p0.x += side + gap;
  }
  draw_field(ui, renderers.field, p0, side, range, view);
  hover_pan_zoom(ui, *img, host, p0, side, view);
  if (ui.show_slice) mark_slice(ui, img->ny, p0, side, view);
  if (zero) {
    zero_note(p0, side, "zero field: this correction starts from zero; its first sweep fills it");
  } else {
    colourbar(p0, side, range);
    if (ui.view.spectrum && host) fourier_inset(*host, p0, side, renderers.spectrum);
  }
  if (ui.show_slice && host) {
    ImGui::SetCursorScreenPos(ImVec2(ImGui::GetWindowPos().x + ImGui::GetStyle().WindowPadding.x, p0.y + side + 6));
    slice_plot(ui, *host, before, range, ImVec2(avail.x, slice_h - 10));
  }
}

// What the backend physically runs per call on the finest level (the cycle's schedule): the
// diagram shows the operations, this line how a fast multigrid groups them into passes.
void physical_passes(const Snapshot& snap, bool stepping, int kappa) {
  const SolverOptions& o = snap.options;
  const BackendKind kind = snap.backend == "cuda" ? BackendKind::Cuda : BackendKind::Cpu;
  const RunOn run = run_on(multigrid_settings(o), kind);
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

void cycle_shapes_panel(UiState& ui, const Snapshot& snap) {
  const PanelWindow window(ui, "Cycle shapes");
  if (!window) return;
  const SolverOptions& o = snap.options;
  const int n = std::max(2, o.levels);
  ImGui::TextWrapped(
      "The paper's Figure 2.1 at %d levels, drawn from the recursion alone (no solving): "
      "X = recursive call (its kappa beside it), circle = relaxation.",
      n);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float chart_h = avail.y * 0.30f, each = (avail.y - chart_h) / 4.0f;
  const int kappas[] = {1, 2, 3, kKappaW};
  const char* names[] = {"V-cycle (kappa=1)", "F-cycle (kappa=2)", "kappa=3", "W-cycle (kappa>=levels)"};
  for (int k = 0; k < 4; ++k) {
    const Trace plan = planned_cycle({CycleType::Kappa, kappas[k]}, n, o.nu1, o.nu2);
    ImGui::Text("%s: totalCalls = %llu", names[k], (unsigned long long)total_calls(std::min(kappas[k], n), n));
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 size(avail.x, each - ImGui::GetTextLineHeightWithSpacing());
    ImGui::Dummy(size);
    draw_cycle_diagram(ImGui::GetWindowDrawList(), origin, size, plan, n, plan.size(), -1);
  }
  // totalCalls against the level count: a polynomial of degree kappa (Proposition 2.7) against
  // the W-cycle's 2^n - 1.
  std::vector<Series> series;
  const ImU32 colours[] = {IM_COL32(31, 119, 180, 255), IM_COL32(255, 127, 14, 255), IM_COL32(44, 160, 44, 255),
                           IM_COL32(148, 103, 189, 255), IM_COL32(200, 200, 200, 255)};
  const int chart_kappas[] = {1, 2, 3, 4, kKappaW};
  for (int k = 0; k < 5; ++k) {
    Series s{"kappa=" + kappa_to_string(chart_kappas[k]), {}, {}, colours[k], 2.0f};
    for (int levels = 1; levels <= 16; ++levels) {
      s.x.push_back(levels);
      s.y.push_back(double(total_calls(std::min(chart_kappas[k], levels), levels)));
    }
    series.push_back(s);
  }
  PlotSpec spec{"levels n", "totalCalls (log)", false, true, 1, 16, 0, 0, true};
  draw_plot("total calls", spec, series, {{double(n), IM_COL32(255, 255, 255, 120), "this n"}},
            ImGui::GetContentRegionAvail());
}

bool export_parameters(const SolverOptions& params, const std::string& path) {
  std::ofstream f(path);
  f << to_parameters_file(params);
  f.flush();
  return bool(f);
}

bool export_history_csv(const Snapshot& snap, const std::string& path) {
  std::ofstream f(path);
  f << "iteration,error,residual,factor,seconds\n";
  for (const IterationRecord& h : snap.history)
    f << h.iteration << "," << h.error_norm << "," << h.residual_norm << "," << h.factor << "," << h.seconds << "\n";
  return bool(f);
}

void convergence_panel(UiState& ui, const Snapshot& snap) {
  const PanelWindow window(ui, "Convergence");
  if (!window) return;
  const auto& h = snap.history;
  ImGui::TextWrapped("%s", convergence_line(snap).c_str());
  if (ImGui::Button("Pin this run")) pin_run(ui, snap);
  tip(ui, "Keep this run's curve for comparison (labelled with the settings in which it differs)");
  ImGui::SameLine();
  if (ImGui::Button("Clear pins")) ui.pinned.clear();
  tip(ui, "Remove the pinned curves");
  ImGui::SameLine();
  ImGui::Checkbox("x: seconds", &ui.x_in_seconds);
  tip(ui, "Plot against the time the cycles took instead of the cycle count: what kappa tuning is about");
  // x of a record: its cycle, or the cycle time summed up to it.
  auto x_of = [&](const IterationRecord& r, double& seconds) {
    seconds += r.seconds;
    return ui.x_in_seconds ? seconds : double(r.iteration);
  };

  std::vector<Series> series;
  static const ImU32 pin_colors[] = {IM_COL32(150, 150, 150, 255), IM_COL32(190, 160, 110, 255),
                                     IM_COL32(120, 170, 120, 255), IM_COL32(170, 120, 170, 255),
                                     IM_COL32(120, 150, 190, 255), IM_COL32(190, 120, 120, 255)};
  double x_max = 1.0;
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
  if (ui.x_in_seconds && x_max == 1.0 && seconds > 0) x_max = seconds;
  x_max += 0.02 * x_max;  // the last marker inside the frame
  const char* x_label = ui.x_in_seconds ? "seconds (cycle time)" : "cycle";
  const bool whole = !ui.x_in_seconds;
  PlotSpec spec{x_label, "norm (log)", false, true, 0.0, x_max, 0, 0, whole};
  draw_plot("norms", spec, series, {}, ImVec2(avail.x, avail.y * 0.68f));
  PlotSpec fspec{x_label, "convergence factor", false, false, 0.0, x_max, 0.0, 1.05, whole};
  draw_plot("factor", fspec, {fac}, {}, ImVec2(avail.x, avail.y * 0.30f));
}

void time_panel(UiState& ui, SolverWorker& worker, const Snapshot& snap) {
  const PanelWindow window(ui, "Time per cycle");
  if (!window) return;
  const Calibration* c = snap.calibration.get();
  if (snap.calibrating) {
    ImGui::Text("calibrating: timing cycles for kappa = 1, 2, 3, 4, W: %s", snap.calibration_note.c_str());
    ImGui::ProgressBar(float(snap.calibration_progress), ImVec2(-1, 0));
  } else if (c)
    ImGui::Text("model T = a L + b W (%s): alpha %.3g us/launch, beta %.3g ns/unknown  %s", c->backend.c_str(),
                c->model.alpha * 1e6, c->model.beta * 1e9, snap.calibration_note.c_str());
  else
    ImGui::TextWrapped("No calibration yet: press Calibrate, or run `kcycle calibrate` (kcycle-calibration.json).");
  if (c && !snap.calibrating && !snap.backend.empty()) {  // a model of another cycle predicts nothing here
    const std::string backend =
        snap.backend == "cuda" ? (snap.options.cuda_graphs ? "cuda+graphs" : "cuda") : snap.backend;
    const std::string mismatch = calibration_mismatch(
        *c, run_on(multigrid_settings(snap.options), snap.options.backend).settings, backend, snap.threads);
    if (!mismatch.empty())
      warning("Warning: this calibration does not match the run (" + mismatch +
              "). Its predictions do not apply: press Calibrate.");
  }
  if (c && c->noisy()) warning(noise_note(*c) + ": its predictions are rough; calibrate on a quieter machine.");
  const Calibration* other = snap.compare_calibration.get();
  if (other && c)
    ImGui::TextDisabled("faint: %s, alpha %.3g us/launch, beta %.3g ns/unknown (alpha ratio %.2f)",
                        other->backend.c_str(), other->model.alpha * 1e6, other->model.beta * 1e9,
                        other->model.alpha > 0 ? c->model.alpha / other->model.alpha : 0.0);
  ImGui::SetNextItemWidth(120);
  ImGui::SliderInt("max levels", &ui.calibrate_levels, 5, 11);
  tip(ui, "The largest level count Calibrate times (it times 3 .. this, kappa = 1, 2, 3, 4, W)");
  ImGui::SameLine();
  if (ImGui::Button("Calibrate") && !snap.calibrating) worker.calibrate(ui.calibrate_levels);
  tip(ui, "Time cycles of this configuration and fit T = alpha launches + beta operations (the paper's model)");
  ImGui::SameLine();
  if (ImGui::Button("Sweep kappa") && !snap.sweeping) worker.sweep_kappa();
  tip(ui,
      "Solve to the tolerance with kappa = 1, 2, 3, 4 and W at these settings: measured total time beside "
      "the model's prediction");
  kappa_sweep_table(snap);

  std::vector<Series> series;
  std::vector<VLine> vlines;
  const SolverOptions& o = snap.options;
  const int per_call =
      CycleSchedule::per_call(run_on(multigrid_settings(o), o.backend).settings, kAsResolved).launches_per_call(1);
  for (int k = 0; k < 5; ++k) {
    const std::string name = "kappa=" + kappa_to_string(kKappas[k]);
    if (c) {
      Series model{name + " model", {}, {}, kKappaColors[k], 1.5f, true};
      Series measured{"", {}, {}, kKappaColors[k], 1.5f, false, true, false};
      for (int n = 3; n <= 13; ++n) {
        model.x.push_back(n);
        model.y.push_back(
            1e3 * c->model.predict(cycle_launches(kKappas[k], n, per_call), cycle_ops(kKappas[k], n, o.coarsening)));
      }
      for (const TimingSample& s : c->samples)
        if (s.kappa == kKappas[k]) measured.x.push_back(s.levels), measured.y.push_back(s.seconds * 1e3);
      series.push_back(model);
      series.push_back(measured);
      if (other) {  // the other backend's model, faint and without markers
        Series faint{"", {}, {}, (kKappaColors[k] & 0x00FFFFFFu) | 0x60000000u, 1.0f, true};
        for (int n = 3; n <= 13; ++n) {
          faint.x.push_back(n);
          faint.y.push_back(1e3 * other->model.predict(cycle_launches(kKappas[k], n, per_call),
                                                       cycle_ops(kKappas[k], n, o.coarsening)));
        }
        series.push_back(faint);
      }
      const double tp = turning_point_levels(kKappas[k], c->model, per_call);
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
  if (snap.cycle_time_spread >= kBusySpread) {
    char text[96];
    std::snprintf(text, sizeof text, "Cycle times varied %.1fx: the machine is busy (the fastest is shown).",
                  snap.cycle_time_spread);
    warning(text);
  }
  PlotSpec spec{"levels n", "ms per cycle (log)", false, true, 3, 13, 0, 0};
  draw_plot("times", spec, series, vlines, ImGui::GetContentRegionAvail());
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
      snap.backend.empty() ? std::string("none (parameters refused)")
      : snap.backend == "cuda"
          ? std::string("CUDA") + (snap.options.cuda_graphs ? " + graphs" : "") + ", field: " + ui.field_path
          : "CPU (" + std::to_string(snap.threads) + (snap.threads == 1 ? " solver thread)" : " solver threads)");
  char per_cycle[64] = "no cycle timed yet";
  if (snap.seconds_per_cycle > 0)
    std::snprintf(per_cycle, sizeof per_cycle, "%.3f ms per cycle%s", snap.seconds_per_cycle * 1e3,
                  snap.cycle_time_spread >= kBusySpread ? " (busy machine)" : "");
  ImGui::Text("backend: %s | %.0f fps | %s | %zu cycles | memory %.0f MiB | %s", backend.c_str(), ui.fps, per_cycle,
              snap.history.size(), double(rss_pages) * 4096.0 / (1 << 20), activity(snap).c_str());
  if (!snap.backend_note.empty()) {
    ImGui::SameLine();
    ImGui::TextColored(ImVec4(1.0f, 0.7f, 0.3f, 1.0f), "| %s", snap.backend_note.c_str());
  }
}

}  // namespace kcycle::gui
