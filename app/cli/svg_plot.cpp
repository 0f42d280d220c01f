#include "svg_plot.hpp"

#include "kcycle/io/file_output.hpp"
#include "plot_axis.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace kcycle::cli {

namespace {

constexpr double kPanelW = 560, kPanelH = 400;
constexpr double kLeft = 78, kRight = 150, kTop = 40, kBottom = 56;

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else
      out += c;
  }
  return out;
}

std::string number(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

// Pixel of v on an axis drawn from a to b.
double map(const plot::PlotAxis& axis, double v, double a, double b) { return a + axis.fraction(v) * (b - a); }

void draw_panel(std::ostream& o, const Plot& p, double ox) {
  const double x0 = ox + kLeft, x1 = ox + kPanelW - kRight, y0 = kTop, y1 = kPanelH - kBottom;
  std::vector<double> xs, ys;
  for (const auto& s : p.series) {
    xs.insert(xs.end(), s.x.begin(), s.x.end());
    ys.insert(ys.end(), s.y.begin(), s.y.end());
  }
  for (const auto& v : p.vlines) xs.push_back(v.x);
  const plot::PlotAxis ax = plot::axis_over(xs, p.logx, true), ay = plot::axis_over(ys, p.logy, true);

  o << "<text x='" << (x0 + x1) / 2 << "' y='22' text-anchor='middle' font-size='15' font-weight='bold'>"
    << escape(p.title) << "</text>\n";
  o << "<rect x='" << x0 << "' y='" << y0 << "' width='" << x1 - x0 << "' height='" << y1 - y0
    << "' fill='white' stroke='#444'/>\n";
  // Grid and tick labels.
  if (!p.xtick_labels.empty()) {
    for (std::size_t k = 0; k < p.xtick_labels.size(); ++k) {
      const double X = map(ax, double(k), x0, x1);
      o << "<line x1='" << X << "' y1='" << y0 << "' x2='" << X << "' y2='" << y1 << "' stroke='#eee'/>\n";
      o << "<text x='" << X << "' y='" << y1 + 18 << "' text-anchor='middle' font-size='12'>"
        << escape(p.xtick_labels[k]) << "</text>\n";
    }
  } else {
    for (double t : ax.ticks()) {
      const double X = map(ax, t, x0, x1);
      o << "<line x1='" << X << "' y1='" << y0 << "' x2='" << X << "' y2='" << y1 << "' stroke='#eee'/>\n";
      o << "<text x='" << X << "' y='" << y1 + 18 << "' text-anchor='middle' font-size='12'>" << number(t)
        << "</text>\n";
    }
  }
  for (double t : ay.ticks()) {
    const double Y = map(ay, t, y1, y0);
    o << "<line x1='" << x0 << "' y1='" << Y << "' x2='" << x1 << "' y2='" << Y << "' stroke='#eee'/>\n";
    o << "<text x='" << x0 - 6 << "' y='" << Y + 4 << "' text-anchor='end' font-size='12'>" << number(t) << "</text>\n";
  }
  o << "<text x='" << (x0 + x1) / 2 << "' y='" << kPanelH - 14 << "' text-anchor='middle' font-size='13'>"
    << escape(p.xlabel) << "</text>\n";
  o << "<text transform='translate(" << ox + 18 << "," << (y0 + y1) / 2
    << ") rotate(-90)' text-anchor='middle' font-size='13'>" << escape(p.ylabel) << "</text>\n";

  auto inside = [&](double x, double y) {
    return std::isfinite(x) && std::isfinite(y) && (!p.logx || x > 0) && (!p.logy || y > 0);
  };
  for (const auto& v : p.vlines) {
    const double X = map(ax, v.x, x0, x1);
    o << "<line x1='" << X << "' y1='" << y0 << "' x2='" << X << "' y2='" << y1 << "' stroke='" << v.color
      << "' stroke-width='1' stroke-dasharray='2,3'/>\n";
  }
  double legend_y = y0 + 8;
  for (std::size_t k = 0; k < p.series.size(); ++k) {
    const auto& s = p.series[k];
    const std::string color = s.color.empty() ? palette(k) : s.color;
    std::ostringstream path;
    bool pen = false;
    for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!inside(s.x[i], s.y[i])) {
        pen = false;
        continue;
      }
      path << (pen ? " L" : " M") << map(ax, s.x[i], x0, x1) << "," << map(ay, s.y[i], y1, y0);
      pen = true;
    }
    o << "<path d='" << path.str() << "' fill='none' stroke='" << color << "' stroke-width='2'"
      << (s.dashed ? " stroke-dasharray='6,4'" : "") << "/>\n";
    if (s.markers)
      for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i)
        if (inside(s.x[i], s.y[i]))
          o << "<circle cx='" << map(ax, s.x[i], x0, x1) << "' cy='" << map(ay, s.y[i], y1, y0) << "' r='3.5' fill='"
            << color << "'/>\n";
    o << "<line x1='" << x1 + 12 << "' y1='" << legend_y << "' x2='" << x1 + 36 << "' y2='" << legend_y << "' stroke='"
      << color << "' stroke-width='2'" << (s.dashed ? " stroke-dasharray='6,4'" : "") << "/>\n";
    o << "<text x='" << x1 + 42 << "' y='" << legend_y + 4 << "' font-size='12'>" << escape(s.label) << "</text>\n";
    legend_y += 18;
  }
  for (const auto& v : p.vlines) {
    o << "<text x='" << x1 + 12 << "' y='" << legend_y + 4 << "' font-size='11' fill='" << v.color << "'>"
      << escape(v.label) << "</text>\n";
    legend_y += 15;
  }
}

}  // namespace

std::string palette(std::size_t index) {
  static const char* colors[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                 "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
  return colors[index % 10];
}

std::string svg_text(const std::vector<Plot>& panels) {
  std::ostringstream o;
  const double width = kPanelW * double(panels.size());
  o << "<svg xmlns='http://www.w3.org/2000/svg' width='" << width << "' height='" << kPanelH
    << "' font-family='DejaVu Sans, Arial, sans-serif'>\n<rect width='100%' height='100%' fill='white'/>\n";
  for (std::size_t k = 0; k < panels.size(); ++k) draw_panel(o, panels[k], kPanelW * double(k));
  o << "</svg>\n";
  return o.str();
}

void write_svg(const std::vector<Plot>& panels, const std::string& path) {
  write_file_replacing(path, svg_text(panels));
}

}  // namespace kcycle::cli
