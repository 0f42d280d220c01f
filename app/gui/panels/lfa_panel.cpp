// The Fourier analysis view: local Fourier analysis mode by mode for the run's options, predicted
// without solving. Three maps over the frequency square [-pi, pi)^2 (what the smoother, the
// two-grid cycle and this kappa-cycle leave of each mode), the smooth modes outlined, each titled
// with its factor; placed beside the field, whose Fourier inset shows the measured error.
#include <imgui.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "figure_file.hpp"
#include "kcycle/lfa/amplification_maps.hpp"
#include "lfa_figure_svg.hpp"
#include "panels.hpp"
#include "panels/widgets.hpp"

namespace kcycle::gui {

namespace {

// A dashed line from a to b (ImGui draws none).
void dashed(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 colour, float thickness, float dash) {
  const float length = std::hypot(b.x - a.x, b.y - a.y);
  for (float s = 0; s < length; s += 2 * dash) {
    const float t0 = s / length, t1 = std::min(s + dash, length) / length;
    dl->AddLine(ImVec2(a.x + t0 * (b.x - a.x), a.y + t0 * (b.y - a.y)),
                ImVec2(a.x + t1 * (b.x - a.x), a.y + t1 * (b.y - a.y)), colour, thickness);
  }
}

// One map at p (side pixels square): the picture, the smooth modes' outline, the axes' ticks,
// and where the mouse is, the mode under it.
void draw_map(const lfa::FrequencyMap& map, Coarsening coarsening, std::uint64_t version, FieldRenderer& renderer,
              ImVec2 p, float side) {
  if (!renderer.holds(version)) {  // the analysis' doubles as floats once per run, not per frame
    const std::vector<float> values(map.values.begin(), map.values.end());
    renderer.upload(values, map.resolution, map.resolution, version);
  }
  renderer.set_average_minification(false);  // one colour a mode, as the analysis sampled them
  const float full[4] = {0, 0, 1, 1};
  const GLuint texture = renderer.render(int(side), int(side), false, 0.0f, float(plot::kLfaScaleTop), full);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 q(p.x + side, p.y + side);
  dl->AddImage(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(texture)), p, q, ImVec2(0, 1), ImVec2(1, 0));
  dl->AddRect(p, q, IM_COL32(255, 255, 255, 160));
  const float s = ImGui::GetIO().FontGlobalScale;
  const ImU32 white = IM_COL32(255, 255, 255, 230);
  const float x0 = coarsening == Coarsening::Full ? p.x + side / 4 : p.x,
              x1 = coarsening == Coarsening::Full ? p.x + 3 * side / 4 : q.x;
  const float y0 = p.y + side / 4, y1 = p.y + 3 * side / 4;
  for (auto [a, b] : {std::pair{ImVec2(x0, y0), ImVec2(x1, y0)},
                      {ImVec2(x1, y0), ImVec2(x1, y1)},
                      {ImVec2(x1, y1), ImVec2(x0, y1)},
                      {ImVec2(x0, y1), ImVec2(x0, y0)}})
    if (coarsening == Coarsening::Full || a.y == b.y) dashed(dl, a, b, white, 1.5f * s, 5 * s);
  // Ticks: -pi at the left (bottom), pi at the right (top).
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const float line = ImGui::GetTextLineHeight();
  dl->AddText(ImVec2(p.x, q.y + 1), text, "-pi");
  dl->AddText(ImVec2(p.x + side / 2 - ImGui::CalcTextSize("0").x / 2, q.y + 1), text, "0");
  dl->AddText(ImVec2(q.x - ImGui::CalcTextSize("pi").x, q.y + 1), text, "pi");
  const float label_w = ImGui::CalcTextSize("-pi").x + 4;
  dl->AddText(ImVec2(p.x - label_w, q.y - line), text, "-pi");
  dl->AddText(ImVec2(p.x - label_w, p.y), text, "pi");
  dl->AddText(ImVec2(p.x - label_w, p.y + side / 2 - line / 2), text, "0");
  if (ImGui::IsMouseHoveringRect(p, q) && ImGui::IsWindowHovered()) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    const int n = map.resolution;
    const int i = std::clamp(int((m.x - p.x) / side * float(n)), 0, n - 1);
    const int j = std::clamp(int((q.y - m.y) / side * float(n)), 0, n - 1);
    const double tx = lfa::map_theta(i, n), ty = lfa::map_theta(j, n);
    ImGui::SetTooltip("theta = (%.2f pi, %.2f pi), %s: %.3f of it left", tx / std::numbers::pi, ty / std::numbers::pi,
                      lfa::is_smooth(tx, ty, coarsening) ? "smooth" : "oscillatory", map.at(i, j));
  }
}

}  // namespace

void lfa_panel(UiState& ui, const Snapshot& snap, FieldRenderers& renderers) {
  const PanelWindow window(ui, "Fourier analysis");
  if (!window) return;
  const lfa::SolvePrediction* prediction = snap.lfa_prediction.get();
  if (!snap.lfa_maps || !prediction) {
    if (prediction && !prediction->available())
      warning(prediction->basis);  // why there is no analysis: a smoother or scheme LFA does not cover
    else
      ImGui::TextDisabled("analysing ...");
    return;
  }
  const lfa::AmplificationMaps& maps = *snap.lfa_maps;
  text_wrapped(
      "What one application leaves of each Fourier mode: 0 removed, 1 kept. Dashed: the smooth modes, "
      "which the coarse grid sees. Predicted without solving; the field's inset is measured.");
  if (button(ui, "Save as figure", "Write these maps, titled, to kcycle-lfa.svg and .png for a slide"))
    ui.notice = export_lfa_figure(snap.options, *prediction, "kcycle-lfa.svg") + "; " +
                export_lfa_figure(snap.options, *prediction, "kcycle-lfa.png");
  if (ui.notice.find("kcycle-lfa") != std::string::npos) text_wrapped("%s", ui.notice.c_str());

  // Each factor on a line of its own: a wrapped title broke numbers after their point.
  std::array<std::string, 3> titles = plot::lfa_map_titles(
      maps, prediction->smoothing_factor, prediction->two_grid_factor, prediction->cycle_factor, false);
  for (std::string& t : titles) t.replace(t.rfind(": "), 2, ":\n");
  const lfa::FrequencyMap* each[3] = {&maps.smoother, &maps.two_grid, &maps.kappa_cycle};
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImGuiStyle& style = ImGui::GetStyle();
  const float line = ImGui::GetTextLineHeight(), tick_w = ImGui::CalcTextSize("-pi").x + 6;
  const float bar_w = 0.8f * line + ImGui::CalcTextSize(">=1").x + 6;
  // The arrangement (1, 2 or 3 columns) that gives the maps the largest side, each title wrapped
  // to its map's width (which the title's height in turn narrows: three rounds settle it).
  auto titles_height = [&](float width) {
    float h = 0;
    for (const std::string& t : titles) h = std::max(h, ImGui::CalcTextSize(t.c_str(), nullptr, false, width).y);
    return h;
  };
  float side = 0, title_h = 0;
  int columns = 1;
  for (int c = 1; c <= 3; ++c) {
    const int rows = (3 + c - 1) / c;
    const float w = (avail.x - bar_w - float(c) * (tick_w + style.ItemSpacing.x)) / float(c);
    float s = w, th = 0;
    for (int round = 0; round < 3 && s > 0; ++round) {
      th = titles_height(std::floor(s));
      s = std::min(w, (avail.y - float(rows) * (th + 2 * style.ItemSpacing.y + line + 2)) / float(rows));
    }
    if (s > side) side = s, columns = c, title_h = titles_height(std::floor(s));
  }
  side = std::floor(side);
  if (side < 24) {
    warning("The maps need a larger panel: the lecture layout (key B) or a smaller UI scale.");
    return;
  }
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  float y = origin.y;
  for (int k = 0; k < 3; ++k) {
    const int c = k % columns;
    if (c == 0 && k > 0) y += title_h + 2 * style.ItemSpacing.y + side + line + 2;
    const float x = origin.x + tick_w + float(c) * (side + tick_w + style.ItemSpacing.x);
    ImGui::SetCursorScreenPos(ImVec2(x, y));
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + side);
    ImGui::TextUnformatted(titles[std::size_t(k)].c_str());
    ImGui::PopTextWrapPos();
    draw_map(*each[k], maps.coarsening, snap.generation, renderers.lfa_maps[k],
             ImVec2(x, y + title_h + style.ItemSpacing.y), side);
  }
  const float last_column_end = origin.x + float(std::min(columns, 3)) * (side + tick_w + style.ItemSpacing.x);
  sequential_colour_bar(ImVec2(last_column_end, origin.y + title_h + style.ItemSpacing.y), 0.8f * line, side, ">=1",
                        "0");
  const int rows = (3 + columns - 1) / columns;
  ImGui::SetCursorScreenPos(
      ImVec2(origin.x, origin.y + float(rows) * (title_h + 2 * style.ItemSpacing.y + side + line + 2)));
  ImGui::Dummy(ImVec2(avail.x, 0));
}

std::string export_lfa_figure(const SolverOptions& options, const lfa::SolvePrediction& prediction,
                              const std::string& path) {
  try {
    plot::write_lfa_figure(
        plot::lfa_figure(options, prediction.smoothing_factor, prediction.two_grid_factor, prediction.cycle_factor),
        path);
    return "wrote " + path;
  } catch (const plot::FigureRefused& e) {
    return "cannot write " + path + ": " + e.what();
  } catch (const std::exception& e) {
    return e.what();
  }
}

}  // namespace kcycle::gui
