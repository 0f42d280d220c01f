#include "kcycle/lfa/fourier_analysis.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>
#include <stdexcept>
#include <vector>

#include <Eigen/Eigenvalues>

#include "cycle_symbols.hpp"
#include "frequency_block.hpp"
#include "level_symbols.hpp"

namespace kcycle::lfa {

namespace {

constexpr double kPi = std::numbers::pi;

double spectral_radius(const Matrix& M) {
  if (M.rows() == 1) return std::abs(M(0, 0));
  const Eigen::EigenSolver<Matrix> solver(M, false);
  return solver.eigenvalues().cwiseAbs().maxCoeff();
}

// The supremum over base frequencies of one or more quantities f(bx, by)[q]: a grid of base
// frequencies, then a pattern search from each quantity's best grid points.
struct Supremum {
  std::vector<double> values;
  int frequencies = 0;  // evaluated, the search's included
};

// Base frequencies per direction in [lo, width - lo], lo = pi h (h = 2^-levels, the finest
// grid's lowest frequency; the problem has no lower one): `samples` evenly spaced, and the
// grid's own frequencies pi h 2^j near zero from either end (a mode just below zero has its
// base near width).
std::vector<double> base_samples(double width, int samples, double lo) {
  std::vector<double> out;
  for (int j = 1; j < samples; ++j) out.push_back(j * width / samples);
  for (double t = lo; t < 0.5 * width / samples; t *= 2) {
    out.push_back(t);
    out.push_back(width - t);
  }
  return out;
}

template <class F>
Supremum supremum(double width_x, double width_y, int samples, int levels, int quantities, F f) {
  const double lo = kPi * std::ldexp(1.0, -levels);
  const std::vector<double> xs = base_samples(width_x, samples, lo), ys = base_samples(width_y, samples, lo);
  Supremum out;
  out.values.assign(std::size_t(quantities), 0.0);
  struct Point {
    double value, x, y;
  };
  std::vector<std::vector<Point>> best(static_cast<std::size_t>(quantities));  // a few best per quantity
  constexpr std::size_t kStarts = 2;
  auto consider = [&](std::size_t q, Point p) {
    auto& list = best[q];
    list.push_back(p);
    std::sort(list.begin(), list.end(), [](const Point& a, const Point& b) { return a.value > b.value; });
    if (list.size() > kStarts) list.pop_back();
  };
  for (double y : ys)
    for (double x : xs) {
      const std::vector<double> v = f(x, y, -1);
      ++out.frequencies;
      for (std::size_t q = 0; q < v.size(); ++q) consider(q, {v[q], x, y});
    }
  // Pattern search: move to the best of the 8 neighbours while it is higher, else halve the step.
  for (std::size_t q = 0; q < best.size(); ++q)
    for (Point p : best[q]) {
      double sx = 0.5 * width_x / samples, sy = 0.5 * width_y / samples;
      for (int halvings = 0; halvings < 6;) {
        Point next = p;
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            if (dx == 0 && dy == 0) continue;
            const double x = std::clamp(p.x + dx * sx, lo, width_x - lo),
                         y = std::clamp(p.y + dy * sy, lo, width_y - lo);
            const double v = f(x, y, int(q))[q];
            ++out.frequencies;
            if (v > next.value) next = {v, x, y};
          }
        if (next.value > p.value)
          p = next;
        else
          sx *= 0.5, sy *= 0.5, ++halvings;
      }
      out.values[q] = std::max(out.values[q], p.value);
    }
  return out;
}

}  // namespace

bool is_smooth(double tx, double ty, Coarsening c) {
  const bool y_smooth = ty >= -0.5 * kPi && ty < 0.5 * kPi;
  return c == Coarsening::Full ? y_smooth && tx >= -0.5 * kPi && tx < 0.5 * kPi : y_smooth;
}

std::string unsupported_reason(const MultigridSettings& cycle) {
  if (cycle.levels < 2) return "local Fourier analysis needs at least two levels (a coarse-grid correction)";
  if (cycle.nu1 + cycle.nu2 < 1) return "local Fourier analysis needs at least one relaxation sweep (nu1 + nu2 >= 1)";
  if (cycle.smoother == Smoother::Jacobi && !(cycle.omega > 0)) return "damped Jacobi needs omega > 0";
  return "";
}

int deepest_depth(const MultigridSettings& cycle) {
  int depth = 2;
  while (depth < cycle.levels && block_modes(cycle.coarsening, depth + 1) <= kMaxModes) ++depth;
  return depth;
}

int analysis_depth(const LfaSettings& s) {
  if (s.depth != 0) return s.depth;
  int depth = 2;
  while (depth < s.cycle.levels && block_modes(s.cycle.coarsening, depth + 1) <= kDefaultModes) ++depth;
  return depth;
}

std::string settings_problem(const LfaSettings& s) {
  if (std::string why = unsupported_reason(s.cycle); !why.empty()) return why;
  const int deepest = deepest_depth(s.cycle);
  if (s.depth != 0 && (s.depth < 2 || s.depth > deepest))
    return "the analysis depth must be between 2 and " + std::to_string(deepest) + " (at most the levels and " +
           std::to_string(kMaxModes) + " Fourier modes a frequency), or 0 for the default; got " +
           std::to_string(s.depth);
  if (s.samples < 2 || s.samples > kMaxSamples)
    return "the frequency samples must be between 2 and " + std::to_string(kMaxSamples) + "; got " +
           std::to_string(s.samples);
  return "";
}

LfaResult analyse(const LfaSettings& settings, const std::vector<int>& kappas) {
  const MultigridSettings& cycle = settings.cycle;
  if (const std::string why = settings_problem(settings); !why.empty()) throw std::invalid_argument(why);
  for (int kappa : kappas)
    if (kappa < 1) throw std::invalid_argument("kappa must be at least 1");
  const int depth = analysis_depth(settings);

  LfaResult result;
  result.depth = depth;
  result.modes = block_modes(cycle.coarsening, depth);
  const int sweeps = cycle.nu1 + cycle.nu2;

  // Two levels: the smoothing factor (smooth modes projected out of the smoothed error) and
  // the two-grid factor.
  const std::vector<Stencil9> two_levels = level_stencils(cycle, 2);
  const FrequencyBlock pair = top_block(cycle.coarsening, 2, 0, 0);
  const Supremum two = supremum(2 * kPi / pair.nx, 2 * kPi / pair.ny, settings.samples, cycle.levels, 2,
                                [&](double bx, double by, int which) {
                                  const FrequencyBlock b = top_block(cycle.coarsening, 2, bx, by);
                                  std::vector<double> v(2, 0.0);
                                  if (which != 1) {
                                    Matrix S = smoothing(cycle, Phase::Post, two_levels[0], b)
                                                   .times(smoothing(cycle, Phase::Pre, two_levels[0], b).dense());
                                    for (int k = 0; k < b.size(); ++k)
                                      if (is_smooth(b.theta_x(k), b.theta_y(k), cycle.coarsening)) S.row(k).setZero();
                                    v[0] = std::pow(spectral_radius(S), 1.0 / sweeps);
                                  }
                                  if (which != 0)
                                    v[1] = spectral_radius(CycleSymbols(cycle, two_levels, b).error(0, 1));
                                  return v;
                                });
  result.smoothing_factor = two.values[0];
  result.two_grid_factor = two.values[1];

  // `depth` levels: each kappa-cycle.
  const std::vector<Stencil9> levels = level_stencils(cycle, depth);
  for (int kappa : kappas) result.kappa_factors.push_back({kappa, std::min(kappa, depth), 0.0});
  const FrequencyBlock top = top_block(cycle.coarsening, depth, 0, 0);
  const Supremum cycles =
      supremum(2 * kPi / top.nx, 2 * kPi / top.ny, settings.samples, cycle.levels, int(kappas.size()),
               [&](double bx, double by, int which) {
                 CycleSymbols symbols(cycle, levels, top_block(cycle.coarsening, depth, bx, by));
                 std::vector<double> v(kappas.size(), 0.0);
                 for (std::size_t q = 0; q < kappas.size(); ++q)
                   if (which < 0 || std::size_t(which) == q)
                     v[q] = spectral_radius(symbols.error(0, result.kappa_factors[q].analysed_counter));
                 return v;
               });
  for (std::size_t q = 0; q < kappas.size(); ++q) result.kappa_factors[q].factor = cycles.values[q];
  result.frequencies = cycles.frequencies;

  result.basis = "local Fourier analysis on the infinite grid (no boundary): " + std::to_string(depth) +
                 "-level analysis, level " + std::to_string(depth) + " solved exactly; " +
                 std::to_string(result.frequencies) + " frequencies of " + std::to_string(result.modes) +
                 " modes each, none below the finest grid's lowest (pi/" +
                 std::to_string(1L << std::min(cycle.levels, 40)) + "); a kappa >= " + std::to_string(depth) +
                 " is the W-cycle at this depth";
  return result;
}

}  // namespace kcycle::lfa
