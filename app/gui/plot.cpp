#include "plot.hpp"

#include "plot_axis.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace kcycle::gui {

namespace {

// A line with more points than pixel columns: per column its first, lowest, highest and last
// point, in order. The drawn shape is the same, and the cost of a frame stays bounded however
// long the history grows (a software renderer draws every anti-aliased segment).
std::vector<ImVec2> decimated(std::vector<ImVec2> pts) {
  if (pts.size() < 64) return pts;
  std::vector<ImVec2> out;
  std::size_t begin = 0;
  while (begin < pts.size()) {
    const float column = std::floor(pts[begin].x);
    std::size_t end = begin, low = begin, high = begin;
    for (; end < pts.size() && std::floor(pts[end].x) == column; ++end) {
      if (pts[end].y < pts[low].y) low = end;
      if (pts[end].y > pts[high].y) high = end;
    }
    std::size_t keep[] = {begin, std::min(low, high), std::max(low, high), end - 1};
    for (std::size_t k = 0; k < 4; ++k)
      if (k == 0 || keep[k] != keep[k - 1]) out.push_back(pts[keep[k]]);
    begin = end;
  }
  return out;
}

}  // namespace

void draw_plot(const char* id, const PlotSpec& spec, const std::vector<Series>& series,
               const std::vector<VLine>& vlines, ImVec2 size) {
  ImGui::PushID(id);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::Dummy(size);
  // The UI scale (a projector) thickens lines and markers and widens the margins with the text.
  const float scale = ImGui::GetIO().FontGlobalScale;
  const float left = 58 * scale, right = 10, top = 20 * scale, bottom = 36 * scale;
  const ImVec2 p0(origin.x + left, origin.y + top), p1(origin.x + size.x - right, origin.y + size.y - bottom);
  if (p1.x - p0.x < 20 || p1.y - p0.y < 20) {
    ImGui::PopID();
    return;
  }

  double xlo = std::numeric_limits<double>::infinity(), xhi = -xlo, ylo = xlo, yhi = -xlo;
  for (const Series& s : series)
    for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      const double x = s.x[i], y = s.y[i];
      if (!std::isfinite(x) || !std::isfinite(y) || (spec.logx && x <= 0) || (spec.logy && y <= 0)) continue;
      xlo = std::min(xlo, x), xhi = std::max(xhi, x), ylo = std::min(ylo, y), yhi = std::max(yhi, y);
    }
  if (spec.xmin < spec.xmax) xlo = spec.xmin, xhi = spec.xmax;
  if (spec.ymin < spec.ymax) ylo = spec.ymin, yhi = spec.ymax;
  plot::PlotAxis sx = plot::axis_between(xlo, xhi, spec.logx, false);
  sx.integers = spec.integer_x;
  const plot::PlotAxis sy = plot::axis_between(ylo, yhi, spec.logy, false);
  auto to_screen = [&](double x, double y) {
    return ImVec2(float(p0.x + sx.fraction(x) * (p1.x - p0.x)), float(p1.y - sy.fraction(y) * (p1.y - p0.y)));
  };

  dl->AddRectFilled(p0, p1, IM_COL32(22, 24, 30, 255));
  const ImU32 grid = IM_COL32(60, 64, 72, 255), text = IM_COL32(210, 210, 215, 255);
  // Tick labels skip where they would overlap the last one drawn (a short plot at a projector's
  // scale stacked 1e5 .. 1e-9 into one smear); every tick keeps its grid line.
  const float line = ImGui::GetTextLineHeight(), label_gap = 4 * scale;
  const std::vector<double> xt = sx.ticks(), yt = sy.ticks();
  std::vector<float> at, extent;
  for (double t : xt) at.push_back(to_screen(t, sy.lo).x), extent.push_back(ImGui::CalcTextSize(sx.label(t).c_str()).x);
  const std::vector<bool> x_drawn = plot::labels_apart(at, extent, label_gap);
  for (std::size_t i = 0; i < xt.size(); ++i) {
    dl->AddLine(ImVec2(at[i], p0.y), ImVec2(at[i], p1.y), grid);
    if (x_drawn[i]) dl->AddText(ImVec2(at[i] - extent[i] / 2, p1.y + 3), text, sx.label(xt[i]).c_str());
  }
  at.clear(), extent.clear();
  for (double t : yt) at.push_back(-to_screen(sx.lo, t).y), extent.push_back(line);  // up the axis: -Y ascends
  const std::vector<bool> y_drawn = plot::labels_apart(at, extent, 0);
  for (std::size_t i = 0; i < yt.size(); ++i) {
    const float Y = -at[i];
    dl->AddLine(ImVec2(p0.x, Y), ImVec2(p1.x, Y), grid);
    const std::string l = sy.label(yt[i]);
    if (y_drawn[i]) dl->AddText(ImVec2(p0.x - 6 - ImGui::CalcTextSize(l.c_str()).x, Y - line / 2), text, l.c_str());
  }
  dl->AddRect(p0, p1, IM_COL32(120, 120, 130, 255));
  dl->AddText(ImVec2((p0.x + p1.x) / 2 - ImGui::CalcTextSize(spec.xlabel.c_str()).x / 2, p1.y + 3 + line), text,
              spec.xlabel.c_str());
  dl->AddText(ImVec2(origin.x + 2, origin.y - 2), text, spec.ylabel.c_str());

  dl->PushClipRect(p0, p1, true);
  // Vertical markers, left to right; a label that would overlap the one before it goes a line
  // lower (the turning points of kappa = 1..W lie within a level of each other), none where no
  // line of the upper half is free.
  std::vector<const VLine*> marks;
  for (const VLine& v : vlines)
    if (v.x >= sx.lo && v.x <= sx.hi) marks.push_back(&v);
  std::sort(marks.begin(), marks.end(), [](const VLine* a, const VLine* b) { return a->x < b->x; });
  std::vector<float> row_end;  // where each line's last label ends
  const float label_line = ImGui::GetTextLineHeight();
  for (const VLine* v : marks) {
    const float X = to_screen(v->x, sy.lo).x;
    for (float y = p0.y; y < p1.y; y += 8)
      dl->AddLine(ImVec2(X, y), ImVec2(X, std::min(y + 4, p1.y)), v->color, 1.5f * scale);
    std::size_t row = 0;
    while (row < row_end.size() && X + 3 < row_end[row] + 2) ++row;
    const float y = p0.y + 2 + float(row) * label_line;
    if (y + label_line > p0.y + (p1.y - p0.y) / 2) continue;
    if (row == row_end.size()) row_end.push_back(0);
    row_end[row] = X + 3 + ImGui::CalcTextSize(v->label.c_str()).x;
    dl->AddText(ImVec2(X + 3, y), v->color, v->label.c_str());
  }
  for (const Series& s : series) {
    std::vector<ImVec2> pts;
    for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!std::isfinite(s.y[i]) || (spec.logy && s.y[i] <= 0) || (spec.logx && s.x[i] <= 0)) continue;
      pts.push_back(to_screen(s.x[i], s.y[i]));
    }
    if (s.line && !s.markers) pts = decimated(std::move(pts));
    if (s.line && pts.size() >= 2) {
      if (s.dashed) {  // 6 px on, 4 px off along every segment
        for (std::size_t i = 0; i + 1 < pts.size(); ++i) {
          const float dx = pts[i + 1].x - pts[i].x, dy = pts[i + 1].y - pts[i].y;
          const float len = std::sqrt(dx * dx + dy * dy);
          for (float a = 0; a < len; a += 10) {
            const float b = std::min(a + 6, len);
            dl->AddLine(ImVec2(pts[i].x + dx * a / len, pts[i].y + dy * a / len),
                        ImVec2(pts[i].x + dx * b / len, pts[i].y + dy * b / len), s.color, s.thickness * scale);
          }
        }
      } else {
        dl->AddPolyline(pts.data(), int(pts.size()), s.color, 0, s.thickness * scale);
      }
    }
    // A line of one point would draw nothing: it gets its marker (a run of one cycle).
    if (s.markers || (s.line && pts.size() == 1))
      for (const ImVec2& p : pts) dl->AddCircleFilled(p, 3.5f * scale, s.color);
  }
  dl->PopClipRect();

  // Legend, top right inside the plot; a label longer than the plot is wide wraps (a pinned
  // run's settings), its swatch beside its first line. It covers at most 60% of the plot's
  // height (a short plot at a projector's scale showed legend, not curves); "+N more" says
  // what it left out.
  float ly = p0.y + 4;
  const float swatch = 20 * scale, gap = 4 * scale, legend_end = p0.y + 0.6f * (p1.y - p0.y);
  const float wrap = std::max(40.0f, (p1.x - p0.x) - swatch - 2 * gap - 6);
  const int labelled =
      int(std::count_if(series.begin(), series.end(), [](const Series& s) { return !s.label.empty(); }));
  int drawn = 0;
  for (const Series& s : series) {
    if (s.label.empty()) continue;
    const ImVec2 ts = ImGui::CalcTextSize(s.label.c_str(), nullptr, false, wrap);
    const float more = drawn + 1 < labelled ? ImGui::GetTextLineHeight() + 2 : 0.0f;  // room for "+N more"
    if (ly + ts.y + more > legend_end) {
      char rest[32];
      std::snprintf(rest, sizeof rest, "+%d more", labelled - drawn);
      const ImVec2 rs = ImGui::CalcTextSize(rest);
      if (ly + rs.y <= p1.y) {
        dl->AddRectFilled(ImVec2(p1.x - rs.x - gap - 2, ly - 1), ImVec2(p1.x - 2, ly + rs.y + 1),
                          IM_COL32(22, 24, 30, 200));
        dl->AddText(ImVec2(p1.x - rs.x - 2, ly), text, rest);
      }
      break;
    }
    ++drawn;
    const float lx = std::max(p0.x + 2, p1.x - ts.x - swatch - 2 * gap - 2);
    const float line_h = ImGui::GetTextLineHeight();
    dl->AddRectFilled(ImVec2(lx - gap, ly - 1), ImVec2(p1.x - 2, ly + ts.y + 1), IM_COL32(22, 24, 30, 200));
    dl->AddLine(ImVec2(lx, ly + line_h / 2), ImVec2(lx + swatch, ly + line_h / 2), s.color, 2.0f * scale);
    dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(lx + swatch + gap, ly), text, s.label.c_str(), nullptr,
                wrap);
    ly += ts.y + 2;
  }
  ImGui::PopID();
}

}  // namespace kcycle::gui
