#pragma once
// One level's operators on a frequency block: the stencil, a smoother's sweeps, the restriction
// and the interpolation (the symbols of the bodies in kernels.hpp), stored as what they are:
// A diagonal, a smoother 4x4 blocks on the colour groups, a transfer one weight per mode.
#include <vector>

#include "frequency_block.hpp"
#include "kcycle/core/stencil.hpp"
#include "kcycle/cycle/multigrid_settings.hpp"

namespace kcycle::lfa {

// The symbol of a symmetric stencil: sum a[dy+1][dx+1] cos(dx tx + dy ty).
double symbol(const Stencil9& A, double tx, double ty);

// A smoother's error propagation: block-diagonal on the block's colour groups.
class GroupedMatrix {
 public:
  explicit GroupedMatrix(const FrequencyBlock& block);  // the identity
  const FrequencyBlock& block() const { return block_; }
  // Group g's 4x4 block, in FrequencyBlock::group's order.
  Eigen::Matrix4d& operator[](std::size_t g) { return blocks_[g]; }
  const Eigen::Matrix4d& operator[](std::size_t g) const { return blocks_[g]; }
  std::size_t groups() const { return leaders_.size(); }
  std::array<int, 4> members(std::size_t g) const { return block_.group(leaders_[g]); }

  Matrix dense() const;
  Matrix times(const Matrix& M) const;  // this * M

 private:
  FrequencyBlock block_;
  std::vector<int> leaders_;
  std::vector<Eigen::Matrix4d> blocks_;
};

// One sweep of `kind` (Jacobi, GaussSeidel, XZebra or YZebra) as the backends run it: Jacobi
// damped by omega; Gauss-Seidel's colours 0..3 (reversed when adjoint); zebra's odd lines
// then the even ones (even first when adjoint). Applied after `before`.
void apply_sweep(Smoother kind, bool adjoint, const Stencil9& A, double omega, GroupedMatrix& before);

// The error propagation of a relaxation phase: the cycle's nu1 pre-sweeps, or its nu2
// post-sweeps (the adjoint order under symmetric smoothing), as sweep_smoother() orders them.
enum class Phase { Pre, Post };
GroupedMatrix smoothing(const MultigridSettings& cycle, Phase phase, const Stencil9& A, const FrequencyBlock& block);

// Full weighting (or its y-only version) to block.coarser(c): mode k goes to coarse mode
// coarse_index(k) with weight (1 + cos theta)/2 per coarsened direction. Bilinear (linear)
// interpolation brings a coarse mode back to each such k with the same weight.
std::vector<double> transfer_weights(const FrequencyBlock& block, Coarsening c);

}  // namespace kcycle::lfa
