#include "cycle_symbols.hpp"

#include <algorithm>

#include "kcycle/core/galerkin.hpp"
#include "level_symbols.hpp"

namespace kcycle::lfa {

int block_modes(Coarsening c, int depth) {
  const int ny = 1 << (depth - 1);
  return (c == Coarsening::Full ? ny : 2) * ny;
}

FrequencyBlock top_block(Coarsening c, int depth, double bx, double by) {
  const int n = 1 << (depth - 1);
  return {bx, by, c == Coarsening::Full ? n : 2, n};
}

std::vector<Stencil9> level_stencils(const MultigridSettings& cycle, int depth) {
  std::vector<Stencil9> A;
  double hx = 1, hy = 1;
  A.push_back(discretize(cycle.tensor, hx, hy));
  for (int l = 1; l < depth; ++l) {
    if (cycle.coarsening == Coarsening::Full) hx *= 2;
    hy *= 2;
    A.push_back(cycle.coarse_operator == CoarseOperator::Galerkin ? galerkin_coarse(A.back(), cycle.coarsening)
                                                                  : discretize(cycle.tensor, hx, hy));
  }
  return A;
}

CycleSymbols::CycleSymbols(const MultigridSettings& cycle, const std::vector<Stencil9>& A, const FrequencyBlock& top)
    : cycle_(cycle), A_(A), levels_(A.size()) {
  levels_[0].block = top;
  for (std::size_t l = 1; l < A.size(); ++l) levels_[l].block = levels_[l - 1].block.coarser(cycle.coarsening);
}

const Matrix& CycleSymbols::error(int l, int counter) {
  Level& L = levels_[std::size_t(l)];
  const int depth_below = int(A_.size()) - l;  // levels from l down, l included
  counter = std::clamp(counter, 1, std::max(1, depth_below));
  if (L.errors.size() <= std::size_t(counter)) L.errors.resize(std::size_t(counter) + 1);
  std::optional<Matrix>& slot = L.errors[std::size_t(counter)];
  if (!slot) slot = l + 1 == int(A_.size()) ? Matrix::Zero(L.block.size(), L.block.size()) : cycle_error(l, counter);
  return *slot;
}

// S_post (I - P (I - E_c) A_c^-1 R A) S_pre, where E_c is the coarse error after the calls
// with the counter and counter - 1 (v_c starts at zero: E(counter - 1) E(counter)).
Matrix CycleSymbols::cycle_error(int l, int counter) {
  const FrequencyBlock& b = levels_[std::size_t(l)].block;
  const FrequencyBlock& c = levels_[std::size_t(l) + 1].block;
  Matrix coarse_error = error(l + 1, counter);
  if (counter > 1) coarse_error = error(l + 1, counter - 1) * coarse_error;
  Matrix coarse_solve = Matrix::Identity(c.size(), c.size()) - coarse_error;  // times A_c^-1
  for (int j = 0; j < c.size(); ++j) coarse_solve.col(j) /= symbol(A_[std::size_t(l) + 1], c.theta_x(j), c.theta_y(j));

  const Stencil9& A = A_[std::size_t(l)];
  const Matrix pre = smoothing(cycle_, Phase::Pre, A, b).dense();
  const std::vector<double> w = transfer_weights(b, cycle_.coarsening);
  Matrix restricted = Matrix::Zero(c.size(), b.size());  // R A S_pre
  for (int k = 0; k < b.size(); ++k)
    restricted.row(b.coarse_index(k, cycle_.coarsening)) +=
        w[std::size_t(k)] * symbol(A, b.theta_x(k), b.theta_y(k)) * pre.row(k);
  const Matrix correction = coarse_solve * restricted;
  Matrix corrected = pre;  // (I - P C R A) S_pre
  for (int k = 0; k < b.size(); ++k)
    corrected.row(k) -= w[std::size_t(k)] * correction.row(b.coarse_index(k, cycle_.coarsening));
  return smoothing(cycle_, Phase::Post, A, b).times(corrected);
}

}  // namespace kcycle::lfa
