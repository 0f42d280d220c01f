#include "cycle_diagram.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "cycle_figure.hpp"

namespace kcycle::gui {

void draw_cycle_diagram(ImDrawList* dl, ImVec2 origin, ImVec2 avail, const Trace& plan, int n, std::size_t done,
                        int current_op) {
  const std::vector<plot::CycleFigureNode> nodes = plot::cycle_figure_nodes(plan);
  // The UI scale (a projector) enlarges markers, lines and margins with the text.
  const float scale = ImGui::GetIO().FontGlobalScale;
  const plot::Box box{origin.x, origin.y + 14 * scale, origin.x + avail.x - 12, origin.y + avail.y - 14 * scale};
  const plot::CycleFigureLayout layout = plot::layout_cycle_figure(box, n, nodes.size(), 58 * scale, 2.5f, 8 * scale);
  auto pos = [&](std::size_t k) {
    const plot::Point p = layout.node(k, nodes[k].level);
    return ImVec2(p.x, p.y);
  };
  // Not yet run: the colour a third of the way from the panel's background (opaque, so a faint
  // X stays one shape where the path crosses it).
  auto shade = [](ImU32 colour, bool ran) {
    if (ran) return colour;
    auto mix = [&](int shift) { return (15 + (int((colour >> shift) & 0xFFu) - 15) * 35 / 100) << shift; };
    return ImU32(mix(IM_COL32_R_SHIFT) | mix(IM_COL32_G_SHIFT) | mix(IM_COL32_B_SHIFT)) | IM_COL32_A_MASK;
  };
  // Level labels: every level where they fit, else every second (third ...) from the finest.
  const float text_h = ImGui::GetTextLineHeight();
  const int label_every = std::max(1, int(std::ceil(text_h / std::max(layout.dy, 1.0f))));
  for (int l = 1; l <= n; ++l) {
    const float y = layout.area.y0 + layout.dy * float(l - 1);
    dl->AddLine(ImVec2(layout.area.x0 - 6, y), ImVec2(layout.area.x1, y), IM_COL32(55, 58, 66, 255));
    if ((l - 1) % label_every != 0) continue;
    char label[24];
    std::snprintf(label, sizeof label, "level %d", l);
    dl->AddText(ImVec2(origin.x + 2, y - text_h / 2), IM_COL32(170, 170, 180, 255), label);
  }
  for (std::size_t k = 0; k + 1 < nodes.size(); ++k)
    dl->AddLine(pos(k), pos(k + 1), shade(IM_COL32(150, 150, 160, 255), nodes[k + 1].first_event < done), 1.5f * scale);
  const float r = layout.radius;
  if (current_op >= 0 && std::size_t(current_op) < plan.size()) {
    // The operation just done, on the level it wrote (the level the field shows).
    const std::size_t op = std::size_t(current_op);
    const TraceEvent& e = plan[op];
    // Its node: the one it belongs to (a call, a sweep), or for the transfers the next one
    // (restriction and zeroing lead to the coarse call's X, prolongation to the post-sweeps).
    std::size_t k = 0;
    while (k + 1 < nodes.size() && nodes[k + 1].first_event <= op) ++k;
    const bool transfer = e.kind == OpKind::Restrict || e.kind == OpKind::ZeroCoarse || e.kind == OpKind::Prolong;
    if (transfer && k + 1 < nodes.size()) ++k;
    const float y = layout.area.y0 + layout.dy * float(level_written(e) - 1);
    dl->AddCircleFilled(ImVec2(pos(k).x, y), r + 5 * scale, IM_COL32(255, 220, 60, 160));
  }
  // Each call's kappa beside its X, wherever it overlaps no other label or marker.
  const std::vector<std::optional<plot::Box>> labels = plot::placed_counter_labels(
      nodes, layout, [](const std::string& text) { return ImGui::CalcTextSize(text.c_str()).x; }, text_h);
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    const ImVec2 p = pos(k);
    const bool ran = nodes[k].first_event < done;
    if (nodes[k].call) {  // red X: a recursive call
      const ImU32 red = shade(IM_COL32(255, 0, 0, 255), ran);
      dl->AddLine(ImVec2(p.x - r, p.y - r), ImVec2(p.x + r, p.y + r), red, 2.0f * scale);
      dl->AddLine(ImVec2(p.x - r, p.y + r), ImVec2(p.x + r, p.y - r), red, 2.0f * scale);
      if (const std::optional<plot::Box>& b = labels[k])
        dl->AddText(ImVec2(b->x0, b->y0), shade(IM_COL32(200, 165, 255, 255), ran),
                    plot::counter_label(nodes[k].counter).c_str());
    } else {
      dl->AddCircleFilled(p, r, shade(IM_COL32(90, 170, 255, 255), ran));
    }
  }
}

}  // namespace kcycle::gui
