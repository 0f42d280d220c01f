// The Parameters panel: the problem, the cycle and the solver, every change sent to the worker.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>

#include "kcycle/core/drawn_error.hpp"
#include "kcycle/io/file_output.hpp"
#include "kcycle/io/options_io.hpp"
#include "lessons.hpp"
#include "panels.hpp"
#include "panels/widgets.hpp"
#include "view_settings.hpp"

namespace kcycle::gui {

namespace {

// The preset the options are (all four of its parts), or none.
const Preset* matching_preset(const SolverOptions& o) {
  for (const Preset& p : presets())
    if (p.smoother == o.smoother && p.coarsening == o.coarsening && p.coarse_operator == o.coarse_operator &&
        p.solver == o.solver)
      return &p;
  return nullptr;
}

void preset_combo(UiState& ui, SolverOptions& o) {
  const Preset* current = matching_preset(o);
  std::vector<std::string> names;
  int selected = -1;
  for (const Preset& p : presets()) {
    if (&p == current) selected = int(names.size());
    names.emplace_back(p.name);
  }
  const int picked =
      choose(ui, "preset", current ? std::string(current->name) : "(custom)", names, selected,
             "The paper's six solvers: smoother, coarsening and coarse operators, stand-alone or preconditioning CG");
  if (picked >= 0) apply(presets()[std::size_t(picked)], o);
}

// The teaching presets: choosing one sets the problem, the cycle and the view, and pauses on
// the initial error with what to do next shown in the Controls panel.
void lesson_combo(UiState& ui, SolverWorker& worker) {
  const std::vector<Lesson>& all = lessons();
  std::vector<std::string> names;
  for (const Lesson& lesson : all) names.push_back(lesson.name);
  const int picked =
      choose(ui, "lesson", ui.lesson >= 0 ? all[std::size_t(ui.lesson)].name : "(none)", names, ui.lesson,
             "Teaching presets: each sets up one idea (smoothing, point versus line relaxation, "
             "semi-coarsening, kappa tuning), starts paused and says what to try");
  if (picked < 0) return;
  apply_lesson(ui, picked);
  worker.pause();
}

constexpr int kMostGuiLevels = 12;

// "12 levels: 16.8 M unknowns, about 1.9 GB to set up (21.3 GB free)". Every array counted: the
// visualizer's cycles and stepping write those a command-line solve never touches (measured:
// 0.111 GB grown from 9 to 11 levels of jacobi, against 0.126 GB allocated and 0.053 resident in
// a command-line solve).
std::string memory_line(SolverOptions o, int levels) {
  o.levels = levels;
  const double unknowns = double(level_shape(levels, 1, o.coarsening).unknowns());
  char line[160];
  std::snprintf(line, sizeof line, "%d levels: %.3g M unknowns, about %.2g GB to set up", levels, unknowns / 1e6,
                double(estimated_memory_bytes(o, true)) / 1e9);
  std::string text = line;
  if (const std::optional<std::size_t> free = available_memory_bytes()) {
    std::snprintf(line, sizeof line, " (%.3g GB free)", double(*free) / 1e9);
    text += line;
  }
  return text;
}

// The slider's tooltip: what the levels are, and what the larger ones cost before one is chosen.
std::string levels_tooltip(const SolverOptions& o) {
  std::string tip = "Grid levels n: the finest grid has (2^n - 1)^2 unknowns, the coarsest one (full coarsening).";
  for (int n = 9; n <= kMostGuiLevels; ++n) tip += "\n" + memory_line(o, n);
  return tip;
}

}  // namespace

void parameters_panel(UiState& ui, SolverWorker& worker, const Snapshot& snap) {
  const PanelWindow window(ui, "Parameters");
  if (!window) return;
  const LabelColumn labels("coarse operator");
  SolverOptions& o = ui.params;
  const SolverOptions before = o;

  lesson_combo(ui, worker);
  // The paper's six solvers, then every part one by one.
  preset_combo(ui, o);

  section("problem");
  float eps = float(o.eps);
  if (slider(ui, "epsilon", eps, 1e-6f, 1.0f, "%.1e",
             "Anisotropy: diffusion is 1 along the angle and epsilon across it (1 = Poisson)",
             ImGuiSliderFlags_Logarithmic))
    o.eps = eps;
  float angle = float(o.angle_degrees);
  if (slider(ui, "angle (deg)", angle, 0.0f, 90.0f, "%.1f",
             "Direction of strong coupling, from the x axis: 0 and 90 are grid-aligned, 45 is the hardest for point "
             "and line smoothers"))
    o.angle_degrees = angle;
  slider(ui, "levels", o.levels, 2, kMostGuiLevels, "%d", levels_tooltip(o).c_str());
  // From 10 levels a set-up takes seconds and gigabytes: said before it starts, not after.
  if (o.levels >= 10) ImGui::TextDisabled("%s", memory_line(o, o.levels).c_str());
  enum_combo(ui, "problem", o.problem,
             "0: zero right-hand side, random start in [0,1), the error is the iterate; 1: a smooth manufactured "
             "solution; 2: as 0 with a zero-mean start, so both colours show; 3: one Fourier mode "
             "sin(k pi x) sin(l pi y) as the start, to watch one frequency damped or not; 4: draw the start yourself "
             "(click the field: a bump, right click: a rough patch; click the Fourier inset: that mode)");
  if (o.problem == ProblemKind::FourierMode) {  // the mode, from 1 (smoothest) to the points a side (roughest)
    const int points = (1 << o.levels) - 1;
    slider(ui, "mode k", o.mode_k, 1, points, "%d",
           "The start's frequency in x: sin(k pi x); small k is smooth (the coarse grids' job), k near the "
           "points a side rough (the smoother's)");
    slider(ui, "mode l", o.mode_l, 1, points, "%d", "The start's frequency in y: sin(l pi y)");
  } else if (o.problem == ProblemKind::Drawn) {
    const ParsedShapes drawn = parse_error_shapes(o.drawn_error);
    text_wrapped(
        "%zu shape%s drawn. Click the error on level 1: a smooth bump; right click: a rough patch; Ctrl: "
        "negative. Click the Fourier inset: that sine mode.",
        drawn.shapes.size(), drawn.shapes.size() == 1 ? "" : "s");
    view_control(ui, "brush");
    if (button(ui, "Clear drawing", "Start from nothing drawn (the solve waits for the first shape)"))
      o.drawn_error.clear();
  } else {
    int seed = int(o.seed);
    if (input_int(ui, "seed", seed, "Seed of the random start (problems 0 and 2): the same seed gives the same start"))
      o.seed = std::uint64_t(std::max(seed, 0));
  }

  section("cycle");
  // kappa = 1 .. levels, where kappa >= levels is the W-cycle.
  int kappa_index = std::min(o.cycle.counter, o.levels);
  if (slider(ui, "kappa", kappa_index, 1, o.levels, kappa_index >= o.levels ? "W" : "%d",
             "The cycle counter: a call recurses once with kappa and once more with kappa-1 while that is positive. "
             "1 = V-cycle, 2 = F-cycle, >= levels = W-cycle"))
    o.cycle = {CycleType::Kappa, kappa_index >= o.levels ? kKappaW : kappa_index};
  ImGui::SameLine();
  // As the slider reads: at one or two levels even kappa = 1 or 2 is the W-cycle.
  ImGui::TextDisabled("%s", o.cycle.counter >= o.levels ? "W"
                            : o.cycle.counter == 1      ? "V"
                            : o.cycle.counter == 2      ? "F"
                                                        : "");
  enum_combo(ui, "smoother", o.smoother,
             "Relaxation: damped Jacobi or Gauss-Seidel point smoothers, or zebra line relaxation (whole lines "
             "solved at once: robust when the strong coupling is along the lines)");
  slider(ui, "nu1 (pre)", o.nu1, 0, 4, "%d",
         "Relaxation sweeps before the coarse-grid correction (circles left of each X)");
  slider(ui, "nu2 (post)", o.nu2, 0, 4, "%d", "Relaxation sweeps after the coarse-grid correction");
  if (ui.show_advanced && o.smoother == Smoother::Jacobi) {
    enum_combo(ui, "omega", o.omega_mode,
               "Jacobi's damping: the paper's formula, the Fourier-optimal value (local Fourier analysis), or fixed");
    if (o.omega_mode == OmegaMode::Fixed) {
      float w = float(o.omega > 0 ? o.omega : 0.8);
      if (slider(ui, "omega value", w, 0.05f, 1.95f, "%.3f", "The fixed damping factor") || o.omega <= 0) o.omega = w;
    }
  }
  enum_combo(ui, "coarsening", o.coarsening,
             "Full: every coarser grid halves both directions. Semi (y): only y halves, for x-line relaxation");
  if (ui.show_advanced) {
    enum_combo(ui, "coarse operator", o.coarse_operator,
               "Galerkin: R A P computed from the fine operator; rediscretized: the same PDE on the coarse grid");
    checkbox(ui, "symmetric smoothing", o.symmetric_smoothing,
             "Post-smoothing in the reverse order of pre-smoothing, so the cycle is a symmetric preconditioner");
    bool repeat = o.coarsest_calls == CoarsestCalls::Repeated;
    if (checkbox(ui, "repeat coarsest", repeat,
                 "On (the paper's count): a call whose coarse calls land on the coarsest level makes all of them. "
                 "Off (the authors' code): only the first, which already solves exactly; the same iterate, fewer "
                 "calls (the diagram and the counts follow)"))
      o.coarsest_calls = repeat ? CoarsestCalls::Repeated : CoarsestCalls::Once;
  }
  if (o.cycle.type == CycleType::Kappa)
    checkbox(ui, "Krylov coarse calls", o.coarse_krylov,
             "The Krylov-accelerated kappa-cycle (the K-cycle of Notay and Vassilevski): the first coarse call's "
             "correction is weighed by CG, the second call runs on what it leaves (or is skipped when little is "
             "left), and the two are combined; green diamonds in the cycle diagram. With CG as the solver, use "
             "flexible CG");

  section("solver");
  enum_combo(ui, "solver", o.solver,
             "The cycle stand-alone, or as the preconditioner of conjugate gradients (MGCG) or flexible CG");
  if (ui.show_advanced) {
    enum_combo(ui, "precision", o.precision,
               "double, or mixed: the multigrid hierarchy in float inside a double refinement / CG");
    enum_combo(ui, "backend", o.backend,
               "Where the solve runs: the CPU (a team of threads), a CUDA GPU, or auto (CUDA when one is usable)");
    // The planner's answer (Jacobi, Gauss-Seidel, x-zebra, CG): the running solve's, unless these
    // parameters are not yet what it runs.
    const bool fusing_applies =
        snap.run && snap.options == o ? snap.run->fusing_applies : resolve(o, o.backend).fusing_applies;
    if (fusing_applies)
      checkbox(ui, "fused passes", o.fused,
               "Cycles that are not stepped (stepping runs every operation on its own) run relaxation, residual "
               "and transfers in fewer passes over memory (bitwise the same iterate)");
    if (o.backend != BackendKind::Cpu)
      checkbox(ui, "CUDA Graphs", o.cuda_graphs,
               "Replay whole cycles: record a cycle's kernel launches once and replay them, which removes most "
               "launch overhead");
  }
  float tol_exp = float(std::log10(o.tolerance));
  if (slider(ui, "tolerance", tol_exp, -12.0f, -2.0f, "1e%.0f",
             "The solve stops when the monitored norm has fallen by this factor"))
    o.tolerance = std::pow(10.0, std::round(tol_exp));

  if (!snap.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(255, 120, 90, 255));
    text_wrapped("Not solving: %s", snap.error.c_str());
    ImGui::PopStyleColor();
  }
  // Every change takes effect at once: the worker cancels the running solve and restarts.
  if (o != before) worker.set_options(o);
  if (ui.lesson >= 0 && !(o == lessons()[std::size_t(ui.lesson)].options)) ui.lesson = -1;  // on your own now
}

void export_parameters(const SolverOptions& params, const std::string& path) {
  write_file_replacing(path, to_parameters_file(params));
}

}  // namespace kcycle::gui
