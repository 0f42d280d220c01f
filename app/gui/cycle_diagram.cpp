#include "cycle_diagram.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "kcycle/io/solver_options.hpp"

namespace kcycle::gui {

void draw_cycle_diagram(ImDrawList* dl, ImVec2 origin, ImVec2 avail, const Trace& plan, int n, std::size_t done,
                        int current_op) {
  // Nodes of the paper's Figure 2.1: an X for every recursive call (every call below the top
  // one), a circle for each relaxation phase; lines follow the path.
  struct Node {
    int level;
    bool call;
    int counter;
    std::size_t first_event, last_event;
  };
  std::vector<Node> nodes;
  for (std::size_t k = 0; k < plan.size(); ++k) {
    const TraceEvent& e = plan[k];
    if (e.kind == OpKind::Call) {
      // Not the top call: the paper's figure starts at level 1's first relaxation.
      if (e.level > 1) nodes.push_back({e.level, true, e.counter, k, k});
    } else if (e.kind == OpKind::PreRelax || e.kind == OpKind::PostRelax) {
      if (!nodes.empty() && !nodes.back().call && nodes.back().level == e.level &&
          plan[nodes.back().last_event].kind == e.kind)
        nodes.back().last_event = k;
      else
        nodes.push_back({e.level, false, 0, k, k});
    }
  }

  // The UI scale (a projector) enlarges markers, lines and margins with the text.
  const float scale = ImGui::GetIO().FontGlobalScale;
  const float left = 58 * scale, right = 12, top = 14 * scale, bottom = 14 * scale;
  const float dx = (avail.x - left - right) / float(std::max<std::size_t>(nodes.size() - 1, 1));
  const float dy = (avail.y - top - bottom) / float(std::max(n - 1, 1));
  auto pos = [&](std::size_t k) {
    return ImVec2(origin.x + left + dx * float(k), origin.y + top + dy * float(nodes[k].level - 1));
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
  const int label_every = std::max(1, int(std::ceil(text_h / std::max(dy, 1.0f))));
  for (int l = 1; l <= n; ++l) {
    const float y = origin.y + top + dy * float(l - 1);
    dl->AddLine(ImVec2(origin.x + left - 6, y), ImVec2(origin.x + avail.x - right, y), IM_COL32(55, 58, 66, 255));
    if ((l - 1) % label_every != 0) continue;
    char label[24];
    std::snprintf(label, sizeof label, "level %d", l);
    dl->AddText(ImVec2(origin.x + 2, y - text_h / 2), IM_COL32(170, 170, 180, 255), label);
  }
  for (std::size_t k = 0; k + 1 < nodes.size(); ++k)
    dl->AddLine(pos(k), pos(k + 1), shade(IM_COL32(150, 150, 160, 255), nodes[k + 1].first_event < done), 1.5f * scale);
  const float r = std::clamp(dx * 0.26f, 2.5f, 6.0f * scale);  // neighbouring X's stay apart
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
    const float y = origin.y + top + dy * float(level_written(e) - 1);
    dl->AddCircleFilled(ImVec2(pos(k).x, y), r + 5 * scale, IM_COL32(255, 220, 60, 160));
  }
  const bool labels = dx >= 14 * scale;  // each call's kappa beside its X, where there is room
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    const ImVec2 p = pos(k);
    const bool ran = nodes[k].first_event < done;
    if (nodes[k].call) {  // red X: a recursive call
      const ImU32 red = shade(IM_COL32(255, 0, 0, 255), ran);
      dl->AddLine(ImVec2(p.x - r, p.y - r), ImVec2(p.x + r, p.y + r), red, 2.0f * scale);
      dl->AddLine(ImVec2(p.x - r, p.y + r), ImVec2(p.x + r, p.y - r), red, 2.0f * scale);
      if (labels) {
        const std::string kappa = nodes[k].counter > kKappaW - 64 ? "W" : std::to_string(nodes[k].counter);
        dl->AddText(ImVec2(p.x + r + 1, p.y - r - text_h + 2), shade(IM_COL32(230, 210, 120, 255), ran), kappa.c_str());
      }
    } else {
      dl->AddCircleFilled(p, r, shade(IM_COL32(90, 170, 255, 255), ran));
    }
  }
}

}  // namespace kcycle::gui
