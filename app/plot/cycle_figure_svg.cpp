#include "cycle_figure_svg.hpp"

#include <algorithm>
#include <sstream>

#include "cycle_figure.hpp"
#include "kcycle/cycle/cycle_plan.hpp"
#include "kcycle/solve/solver_options.hpp"

namespace kcycle::plot {

namespace {

// The panel's measures, in user units.
constexpr float kTitleSize = 17, kLevelSize = 13, kCounterSize = 12;
constexpr float kTitleBand = 46, kLevelGap = 34, kBottomBand = 24, kLabelColumn = 70, kMargin = 16;
// DejaVu Sans / Helvetica digits are about 0.62 em wide: enough to keep labels apart.
float text_width(const std::string& text, float size) { return 0.62f * size * float(text.size()); }

float panel_height(const CycleFigurePanel& p) {
  return kTitleBand + kLevelGap * float(std::max(p.levels - 1, 1)) + kBottomBand;
}

void draw_panel(std::ostream& o, const CycleFigurePanel& panel, float top, float width) {
  const std::vector<CycleFigureNode> nodes = cycle_figure_nodes(panel.plan);
  const Box box{kMargin, top + kTitleBand, width - kMargin,
                top + kTitleBand + kLevelGap * float(std::max(panel.levels - 1, 1))};
  const CycleFigureLayout layout = layout_cycle_figure(box, panel.levels, nodes.size(), kLabelColumn, 1.5f, 7);
  o << "<g>\n<text x='" << width / 2 << "' y='" << top + 26 << "' text-anchor='middle' font-size='" << kTitleSize
    << "' font-weight='bold'>" << panel_title(panel) << "</text>\n";
  for (int l = 1; l <= panel.levels; ++l) {
    const float y = layout.area.y0 + layout.dy * float(l - 1);
    o << "<line x1='" << layout.area.x0 - 6 << "' y1='" << y << "' x2='" << layout.area.x1 << "' y2='" << y
      << "' stroke='#e2e2e2'/>\n";
    o << "<text x='" << kMargin << "' y='" << y + kLevelSize * 0.35f << "' font-size='" << kLevelSize
      << "' fill='#555'>level " << l << "</text>\n";
  }
  o << "<polyline fill='none' stroke='#888' stroke-width='1.5' points='";
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    const Point p = layout.node(k, nodes[k].level);
    o << p.x << ',' << p.y << (k + 1 < nodes.size() ? " " : "");
  }
  o << "'/>\n";
  const float r = layout.radius;
  const std::vector<std::optional<Box>> labels = placed_counter_labels(
      nodes, layout, [](const std::string& text) { return text_width(text, kCounterSize); }, kCounterSize,
      Box{0, top, width, top + panel_height(panel)});
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    const Point p = layout.node(k, nodes[k].level);
    if (nodes[k].krylov) {  // a green diamond: a Krylov step
      o << "<path class='krylov' d='M" << p.x << ',' << p.y - r << " L" << p.x + r << ',' << p.y << " L" << p.x << ','
        << p.y + r << " L" << p.x - r << ',' << p.y << " Z' fill='#2ca02c'/>\n";
      continue;
    }
    if (!nodes[k].call) {
      o << "<circle class='relaxation' cx='" << p.x << "' cy='" << p.y << "' r='" << r << "' fill='#1f77b4'/>\n";
      continue;
    }
    o << "<path class='call' d='M" << p.x - r << ',' << p.y - r << " L" << p.x + r << ',' << p.y + r << " M" << p.x - r
      << ',' << p.y + r << " L" << p.x + r << ',' << p.y - r << "' stroke='#d62728' stroke-width='2'/>\n";
    if (const std::optional<Box>& b = labels[k]) {
      o << "<text class='kappa' x='" << b->x0 << "' y='" << b->y1 - 1 << "' font-size='" << kCounterSize
        << "' fill='#9a6200'>" << counter_label(nodes[k].counter) << "</text>\n";
    }
  }
  o << "</g>\n";
}

}  // namespace

std::vector<CycleFigurePanel> kappa_cycle_panels(int levels, const std::vector<int>& kappas, int nu1, int nu2) {
  std::vector<CycleFigurePanel> panels;
  for (int kappa : kappas)
    panels.push_back({kappa, planned_cycle({CycleType::Kappa, kappa}, levels, nu1, nu2), levels});
  return panels;
}

std::string panel_title(const CycleFigurePanel& panel) {
  return "\u03ba = " + kappa_to_string(panel.kappa) + ", totalCalls = " + std::to_string(calls_in(panel.plan));
}

std::string cycle_figure_svg(const std::vector<CycleFigurePanel>& panels, float width) {
  float height = 0;
  for (const CycleFigurePanel& p : panels) height += panel_height(p);
  std::ostringstream o;
  o << "<?xml version='1.0' encoding='UTF-8'?>\n"
    << "<svg xmlns='http://www.w3.org/2000/svg' width='" << width << "' height='" << height << "' viewBox='0 0 "
    << width << ' ' << height << "' font-family='DejaVu Sans, Helvetica, Arial, sans-serif'>\n"
    << "<rect width='100%' height='100%' fill='white'/>\n";
  float top = 0;
  for (const CycleFigurePanel& p : panels) {
    draw_panel(o, p, top, width);
    top += panel_height(p);
  }
  o << "</svg>\n";
  return o.str();
}

}  // namespace kcycle::plot
