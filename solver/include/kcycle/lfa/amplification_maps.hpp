#pragma once
// Local Fourier analysis mode by mode, for teaching: over the frequency square [-pi, pi)^2 of the
// finest grid, how much of each Fourier mode e^{i theta.x} the smoother, the two-grid cycle and
// the kappa-cycle leave. A mode's value is the 2-norm of what one application makes of it, over
// all the modes it couples (the two-colour smoothers and the transfers mix a mode with its
// aliases): 0 removed, 1 untouched, above 1 amplified. The factors of fourier_analysis.hpp are
// the worst case of these blocks; the maps show where in frequency the damping happens.
#include <string>
#include <vector>

#include "kcycle/lfa/fourier_analysis.hpp"

namespace kcycle::lfa {

// One value per sampled mode: theta_x = map_theta(i), theta_y = map_theta(j) at values[j * n + i].
struct FrequencyMap {
  int resolution = 0;  // samples per direction
  std::vector<double> values;
  double at(int i, int j) const { return values[std::size_t(j) * std::size_t(resolution) + std::size_t(i)]; }
  double largest() const;
};

// The centre of sample i of n across [-pi, pi): never 0 nor pi (no mode there is defined on a
// coarse grid that halves it).
double map_theta(int i, int resolution);

struct AmplificationMaps {
  int kappa = 1;             // as asked (kKappaW for W)
  int analysed_counter = 1;  // min(kappa, depth), as fourier_analysis.hpp analyses it
  int depth = 2;             // levels of the kappa-cycle's analysis (the two-grid map has 2)
  Coarsening coarsening = Coarsening::Full;
  int sweeps = 1;  // nu1 + nu2
  // Per sweep: the cycle's nu1 + nu2 sweeps, the (nu1 + nu2)-th root, so that damped Jacobi
  // shows its symbol |S(theta)| and mu is the largest value over the high frequencies for it.
  FrequencyMap smoother;
  FrequencyMap two_grid;     // one two-grid cycle (exact coarse solve)
  FrequencyMap kappa_cycle;  // one kappa-cycle on `depth` levels, the last solved exactly
};

// A resolution the maps can be drawn at: a power of two from 8 to kMaxMapResolution (every
// analysed block's modes then fall on samples).
inline constexpr int kMaxMapResolution = 256;
std::string map_resolution_problem(int resolution);

// The maps of the kappa-cycle `settings` describe (its depth as analyse() takes it); throws
// std::invalid_argument with settings_problem(), map_resolution_problem() or a kappa below 1.
AmplificationMaps amplification_maps(const LfaSettings& settings, int kappa, int resolution = 64);

}  // namespace kcycle::lfa
