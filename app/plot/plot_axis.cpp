#include "plot_axis.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace kcycle::plot {

double PlotAxis::fraction(double v) const {
  return log ? (std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo)) : (v - lo) / (hi - lo);
}

std::vector<double> PlotAxis::ticks() const {
  std::vector<double> out;
  if (log) {
    const int e0 = int(std::floor(std::log10(lo))), e1 = int(std::ceil(std::log10(hi)));
    const int step = std::max(1, (e1 - e0) / 6);
    for (int e = e0; e <= e1; e += step) {
      const double v = std::pow(10.0, e);
      if (v >= lo * 0.999 && v <= hi * 1.001) out.push_back(v);
    }
    return out;
  }
  const double span = hi - lo, raw = span / 5;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double nice = raw / mag > 5 ? 10 * mag : raw / mag > 2 ? 5 * mag : raw / mag > 1 ? 2 * mag : mag;
  if (integers) nice = std::max(1.0, std::round(nice));
  for (double v = std::ceil(lo / nice) * nice; v <= hi + 1e-9 * span; v += nice)
    out.push_back(std::abs(v) < 1e-12 * span ? 0.0 : v);
  return out;
}

std::string PlotAxis::label(double v) const {
  char buf[32];
  if (log)
    std::snprintf(buf, sizeof buf, "1e%d", int(std::lround(std::log10(v))));
  else
    std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

PlotAxis axis_between(double lo, double hi, bool log, bool pad) {
  if (!std::isfinite(lo) || !std::isfinite(hi) || lo > hi) lo = log ? 1 : 0, hi = log ? 10 : 1;
  if (log) {
    lo = std::pow(10.0, std::floor(std::log10(lo)));
    hi = std::pow(10.0, std::ceil(std::log10(hi)));
    if (hi <= lo) hi = lo * 10;
  } else {
    const double margin = pad ? (hi - lo) * 0.05 : 0.0;
    lo -= margin;
    hi += margin;
    if (hi <= lo) hi = lo + 1;
  }
  return {lo, hi, log};
}

PlotAxis axis_over(const std::vector<double>& values, bool log, bool pad) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (double v : values) {
    if (!std::isfinite(v) || (log && v <= 0)) continue;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  return axis_between(lo, hi, log, pad);
}

std::vector<bool> labels_apart(const std::vector<float>& centres, const std::vector<float>& extents, float gap) {
  std::vector<bool> drawn(centres.size(), false);
  float end = -std::numeric_limits<float>::infinity();
  for (std::size_t i = 0; i < centres.size(); ++i) {
    const float from = centres[i] - extents[i] / 2;
    if (from < end + gap) continue;
    drawn[i] = true;
    end = centres[i] + extents[i] / 2;
  }
  return drawn;
}

}  // namespace kcycle::plot
