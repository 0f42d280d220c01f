#pragma once
// One plot axis for both plotters (the GUI's ImGui plots and the CLI's SVG figures): the
// range it covers, where a value falls on it, and its ticks.
#include <string>
#include <vector>

namespace kcycle::plot {

struct PlotAxis {
  double lo = 0, hi = 1;
  bool log = false;
  bool integers = false;  // linear ticks at whole numbers only (counts: cycles, levels)

  // Where v falls: 0 at lo, 1 at hi (log10 spacing on a log axis).
  double fraction(double v) const;
  // Decades on a log axis (at most about 7); 1, 2 or 5 times a power of ten, about 5 of
  // them, on a linear one.
  std::vector<double> ticks() const;
  // "1e-3" on a log axis, "%g" on a linear one.
  std::string label(double v) const;
};

// The axis over the finite values (positive ones for log) of `values`, widened to whole
// decades on a log axis and, if `pad` is true, by 5% on a linear one. No usable value: [0, 1]
// or [1, 10].
PlotAxis axis_over(const std::vector<double>& values, bool log, bool pad);
// The same over [lo, hi].
PlotAxis axis_between(double lo, double hi, bool log, bool pad);

// Which tick labels to draw so that none overlaps the one drawn before it: `centres` along the
// axis in ascending order, `extents` each label's size along it, at least `gap` between two.
// The first is always drawn; a skipped label keeps its grid line (the caller's).
std::vector<bool> labels_apart(const std::vector<float>& centres, const std::vector<float>& extents, float gap);

}  // namespace kcycle::plot
