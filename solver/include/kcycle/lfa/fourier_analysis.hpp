#pragma once
// Local Fourier analysis (LFA) of the cycles kcycle runs: the smoothing factor, the two-grid
// factor and each kappa-cycle's own factor by k-grid analysis of Algorithm 3's recursion.
//
// On the infinite grid every operator of a level (the 9-point stencil, damped Jacobi, the
// four-colour Gauss-Seidel, x-, y- and alternating zebra, full weighting and bilinear
// interpolation, their semi-coarsening versions) maps the Fourier modes e^{i theta.x} that
// alias to one frequency of the coarsest analysed level into one another. A k-level analysis
// therefore reduces a cycle to one small matrix per frequency (4^(k-1) modes under full
// coarsening, 2^k under semi-coarsening), built by the paper's recursion: the coarse error
// after the calls with kappa and kappa-1 is E(kappa-1) E(kappa), the coarsest analysed level
// is solved exactly. The factor is the largest spectral radius over the sampled frequencies.
// What LFA cannot see (the Dirichlet boundary, and levels below the analysed depth) is said in
// LfaResult::basis; frequencies below the finest grid's lowest, pi h, are not sampled.
#include <optional>
#include <string>
#include <vector>

#include "kcycle/cycle/multigrid_settings.hpp"

namespace kcycle::lfa {

struct LfaSettings {
  // The cycle analysed: tensor, coarsening, coarse operator, smoother, omega, nu1, nu2,
  // symmetric smoothing; `levels` is the real hierarchy's (the lowest frequency pi / 2^levels
  // and the deepest analysis possible).
  MultigridSettings cycle;
  // Levels analysed (2 = two-grid); 0: the deepest whose blocks have at most kDefaultModes
  // modes, at most cycle.levels. At most deepest_depth(cycle).
  int depth = 0;
  // Uniformly spaced frequency samples per direction of the analysed block's base domain
  // (each alias multiplies them, so the finest level sees samples * 2^(depth-1) a side), to
  // which the frequencies near zero that the grid has (pi h 2^j) are added. 2..kMaxSamples.
  int samples = 8;
};
inline constexpr int kDefaultModes = 16;
// Beyond these an analysis takes minutes (an eigenvalue problem of the block's size per frequency
// sampled): 64 modes is depth 4 under full coarsening, 6 under semi-coarsening.
inline constexpr int kMaxModes = 64;
inline constexpr int kMaxSamples = 64;

struct KappaFactor {
  int kappa = 1;             // as asked (kKappaW for W)
  int analysed_counter = 1;  // min(kappa, depth): a counter >= depth is the W-cycle at this depth
  double factor = 0;         // the asymptotic error reduction per cycle LFA predicts
};

struct LfaResult {
  int depth = 2;                // levels analysed
  int modes = 4;                // Fourier modes in one frequency block at that depth
  int frequencies = 0;          // base frequencies sampled
  double smoothing_factor = 0;  // mu: per sweep, rho(Q S^nu)^(1/nu) over the cycle's nu1 + nu2 sweeps
  double two_grid_factor = 0;   // exact coarse solve one level down
  std::vector<KappaFactor> kappa_factors;
  std::string basis;  // what the numbers rest on, in words
};

// Why LFA cannot analyse these settings ("" when it can): a smoother or coarsening it does not
// cover, a level count below two.
std::string unsupported_reason(const MultigridSettings& cycle);

// The deepest analysis of `cycle`: at most its levels and kMaxModes modes a block.
int deepest_depth(const MultigridSettings& cycle);

// What is wrong with `settings` ("" when nothing): unsupported_reason(), the depth, the samples.
std::string settings_problem(const LfaSettings& settings);

// The analysis; throws std::invalid_argument with settings_problem() or a kappa below 1.
LfaResult analyse(const LfaSettings& settings, const std::vector<int>& kappas);

// Whether a fine mode (theta in [-pi, pi)^2) is smooth under coarsening c: the coarse grid sees
// it (|theta| < pi/2 in every coarsened direction). The others are the smoother's to damp.
bool is_smooth(double theta_x, double theta_y, Coarsening c);

// The depth analyse() uses for `settings` (settings.depth, or the default by block size).
int analysis_depth(const LfaSettings& settings);

}  // namespace kcycle::lfa
