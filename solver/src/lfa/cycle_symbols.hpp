#pragma once
// A kappa-cycle's error propagation on one frequency block of a k-level analysis, built level by
// level from the paper's recursion (Algorithm 3): the coarse error after the calls with kappa and
// kappa - 1 is E(kappa - 1) E(kappa); the last analysed level is solved exactly. Shared by the
// factors (fourier_analysis.cpp) and the maps over the frequency square (amplification_maps.cpp).
#include <optional>
#include <vector>

#include "frequency_block.hpp"
#include "kcycle/core/stencil.hpp"
#include "kcycle/cycle/multigrid_settings.hpp"

namespace kcycle::lfa {

// Modes in the block of the finest analysed level at `depth` levels.
int block_modes(Coarsening c, int depth);

// The finest analysed level's block for base frequency (bx, by): every coarsened direction has
// 2^(depth-1) aliases; the kept direction of semi-coarsening has the two that the smoothers'
// colours couple.
FrequencyBlock top_block(Coarsening c, int depth, double bx, double by);

// The operators of the analysed levels, 0 the finest, as the hierarchy makes them.
std::vector<Stencil9> level_stencils(const MultigridSettings& cycle, int depth);

class CycleSymbols {
 public:
  // `cycle` and `A` (level_stencils) must outlive this.
  CycleSymbols(const MultigridSettings& cycle, const std::vector<Stencil9>& A, const FrequencyBlock& top);

  // The error after one cycle with `counter` entering level l (0 = finest analysed); each
  // (level, counter) is built once.
  const Matrix& error(int l, int counter);

 private:
  struct Level {
    FrequencyBlock block;
    std::vector<std::optional<Matrix>> errors;  // by counter
  };
  Matrix cycle_error(int l, int counter);

  const MultigridSettings& cycle_;
  const std::vector<Stencil9>& A_;
  std::vector<Level> levels_;
};

}  // namespace kcycle::lfa
