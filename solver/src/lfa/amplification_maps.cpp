#include "kcycle/lfa/amplification_maps.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "cycle_symbols.hpp"
#include "level_symbols.hpp"

namespace kcycle::lfa {

namespace {

// Fills `map` block by block: every block of `modes_x` x `modes_y` modes whose first mode is
// sample (i, j) holds the samples (i + mx n / modes_x, j + my n / modes_y); `columns(block)`
// gives the block's matrix, whose column k is what one application makes of mode k.
template <class Columns>
void fill(FrequencyMap& map, int modes_x, int modes_y, Coarsening c, int depth, Columns columns) {
  const int n = map.resolution, step_x = n / modes_x, step_y = n / modes_y;
  for (int j = 0; j < step_y; ++j)
    for (int i = 0; i < step_x; ++i) {
      const FrequencyBlock block = top_block(c, depth, map_theta(i, n), map_theta(j, n));
      const Matrix M = columns(block);
      for (int k = 0; k < block.size(); ++k) {
        const int x = i + block.mx(k) * step_x, y = j + block.my(k) * step_y;
        map.values[std::size_t(y) * std::size_t(n) + std::size_t(x)] = M.col(k).norm();
      }
    }
}

}  // namespace

double FrequencyMap::largest() const { return values.empty() ? 0.0 : *std::max_element(values.begin(), values.end()); }

double map_theta(int i, int resolution) { return std::numbers::pi * (-1.0 + (2.0 * i + 1.0) / resolution); }

std::string map_resolution_problem(int resolution) {
  if (resolution < 8 || resolution > kMaxMapResolution || (resolution & (resolution - 1)) != 0)
    return "the map's resolution must be a power of two from 8 to " + std::to_string(kMaxMapResolution) + "; got " +
           std::to_string(resolution);
  return "";
}

AmplificationMaps amplification_maps(const LfaSettings& settings, int kappa, int resolution) {
  if (const std::string why = settings_problem(settings); !why.empty()) throw std::invalid_argument(why);
  if (const std::string why = map_resolution_problem(resolution); !why.empty()) throw std::invalid_argument(why);
  if (kappa < 1) throw std::invalid_argument("kappa must be at least 1");
  const MultigridSettings& cycle = settings.cycle;
  AmplificationMaps out;
  out.kappa = kappa;
  out.depth = analysis_depth(settings);
  out.analysed_counter = std::min(kappa, out.depth);
  out.coarsening = cycle.coarsening;
  out.sweeps = cycle.nu1 + cycle.nu2;
  for (FrequencyMap* m : {&out.smoother, &out.two_grid, &out.kappa_cycle}) {
    m->resolution = resolution;
    m->values.assign(std::size_t(resolution) * std::size_t(resolution), 0.0);
  }

  const std::vector<Stencil9> two_levels = level_stencils(cycle, 2);
  const FrequencyBlock pair = top_block(cycle.coarsening, 2, 0, 0);
  fill(out.smoother, pair.nx, pair.ny, cycle.coarsening, 2, [&](const FrequencyBlock& b) {
    return smoothing(cycle, Phase::Post, two_levels[0], b)
        .times(smoothing(cycle, Phase::Pre, two_levels[0], b).dense());
  });
  for (double& v : out.smoother.values) v = std::pow(v, 1.0 / out.sweeps);
  fill(out.two_grid, pair.nx, pair.ny, cycle.coarsening, 2,
       [&](const FrequencyBlock& b) { return CycleSymbols(cycle, two_levels, b).error(0, 1); });

  const std::vector<Stencil9> levels = level_stencils(cycle, out.depth);
  const FrequencyBlock top = top_block(cycle.coarsening, out.depth, 0, 0);
  fill(out.kappa_cycle, top.nx, top.ny, cycle.coarsening, out.depth,
       [&](const FrequencyBlock& b) { return CycleSymbols(cycle, levels, b).error(0, out.analysed_counter); });
  return out;
}

}  // namespace kcycle::lfa
