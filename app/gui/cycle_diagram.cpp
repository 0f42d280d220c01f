#include "cycle_diagram.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "cycle_figure.hpp"

namespace kcycle::gui {

void draw_cycle_diagram(ImDrawList* dl, ImVec2 origin, ImVec2 avail, const Trace& plan, int n, std::size_t done,
                        int current_op, const std::vector<bool>& skipped) {
  // A panel left with less height than two text lines (the desk at 1280x720 and UI scale 2)
  // gets no diagram rather than a squashed one whose labels spill out of it.
  if (avail.y < 2 * ImGui::GetTextLineHeight() || avail.x < 80 * ImGui::GetIO().FontGlobalScale) return;
  const std::vector<plot::CycleFigureNode> nodes = plot::cycle_figure_nodes(plan);
  // The UI scale (a projector) enlarges markers, lines and margins with the text.
  const float scale = ImGui::GetIO().FontGlobalScale;
  const plot::Box box{origin.x, origin.y + 14 * scale, origin.x + avail.x - 12, origin.y + avail.y - 14 * scale};
  const plot::CycleFigureLayout layout = plot::layout_cycle_figure(box, n, nodes.size(), 58 * scale, 2.5f, 8 * scale);
  auto pos = [&](std::size_t k) {
    const plot::Point p = layout.node(k, nodes[k].level);
    return ImVec2(p.x, p.y);
  };
  // Whether node k has run: before `done`, and not a skipped second call.
  auto has_run = [&](std::size_t k) {
    const std::size_t e = nodes[k].first_event;
    return e < done && !(e < skipped.size() && skipped[e]);
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
  // A dense diagram (a W-cycle at 11 levels: 4000 nodes in a few hundred pixels) is drawn as
  // what is visible: the path as one bar a pixel column and shade spanning the levels it visits
  // there, where nodes are closer than a pixel. Drawing every node's segment, over each other,
  // kept the software rasterizer (llvmpipe) busy for the frame: 24 fps at 11 levels with W.
  const bool dense = layout.dx < 1.0f;
  const ImU32 path_ran = shade(IM_COL32(150, 150, 160, 255), true),
              path_not = shade(IM_COL32(150, 150, 160, 255), false);
  if (!dense) {
    for (std::size_t k = 0; k + 1 < nodes.size(); ++k)
      dl->AddLine(pos(k), pos(k + 1), has_run(k + 1) ? path_ran : path_not, 1.5f * scale);
  } else {
    const int columns = int(layout.area.x1 - layout.area.x0) + 2;
    std::vector<float> lo(2 * std::size_t(columns), 1e30f), hi(2 * std::size_t(columns), -1e30f);
    auto visit = [&](float x, float y, bool ran) {
      const std::size_t c = 2 * std::size_t(std::clamp(int(x - layout.area.x0), 0, columns - 1)) + ran;
      lo[c] = std::min(lo[c], y), hi[c] = std::max(hi[c], y);
    };
    for (std::size_t k = 0; k + 1 < nodes.size(); ++k) {  // each segment's ends in both its columns
      const ImVec2 a = pos(k), b = pos(k + 1);
      const bool ran = has_run(k + 1);
      visit(a.x, a.y, ran), visit(a.x, b.y, ran), visit(b.x, a.y, ran), visit(b.x, b.y, ran);
    }
    const float half = 0.75f * scale;
    for (int c = 0; c < columns; ++c)
      for (int ran = 0; ran < 2; ++ran) {
        const std::size_t i = 2 * std::size_t(c) + std::size_t(ran);
        if (lo[i] > hi[i]) continue;
        const float x = layout.area.x0 + float(c) + 0.5f;
        dl->AddRectFilled(ImVec2(x - half, lo[i] - half), ImVec2(x + half, hi[i] + half), ran ? path_ran : path_not);
      }
  }
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
      nodes, layout, [](const std::string& text) { return ImGui::CalcTextSize(text.c_str()).x; }, text_h,
      {origin.x, origin.y, origin.x + avail.x, origin.y + avail.y});
  // Markers: where those of one kind, level and shade come closer than their radius (a dense
  // diagram) the run of them is one bar of their colour, as they look anyway; else each its X or
  // circle.
  auto draw_marker = [&](std::size_t k, bool ran) {
    const ImVec2 p = pos(k);
    if (nodes[k].krylov) {  // green diamond: a Krylov step
      dl->AddQuadFilled(ImVec2(p.x, p.y - r), ImVec2(p.x + r, p.y), ImVec2(p.x, p.y + r), ImVec2(p.x - r, p.y),
                        shade(IM_COL32(44, 200, 44, 255), ran));
      return;
    }
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
  };
  struct Run {
    std::size_t first = 0, last = 0;
    bool open = false;
  };
  std::vector<Run> runs(std::size_t(4 * (n + 1)));
  auto flush = [&](Run& run, bool ran) {
    if (!run.open) return;
    run.open = false;
    if (run.first == run.last) return draw_marker(run.first, ran);
    const ImVec2 a = pos(run.first), b = pos(run.last);
    const bool call = nodes[run.first].call;
    dl->AddRectFilled(ImVec2(a.x - r, a.y - r), ImVec2(b.x + r, b.y + r),
                      shade(call ? IM_COL32(255, 0, 0, 255) : IM_COL32(90, 170, 255, 255), ran), call ? 0.0f : r);
  };
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    const bool ran = has_run(k);
    if (nodes[k].krylov) {  // never one of a run: few, and each stands for a decision
      draw_marker(k, ran);
      continue;
    }
    Run& run = runs[std::size_t(4 * nodes[k].level + 2 * nodes[k].call + ran)];
    if (run.open && !labels[k] && !labels[run.last] && pos(k).x - pos(run.last).x < r) {
      run.last = k;
      continue;
    }
    flush(run, ran);
    run = {k, k, true};
  }
  for (std::size_t i = 0; i < runs.size(); ++i) flush(runs[i], i % 2 == 1);
}

}  // namespace kcycle::gui
