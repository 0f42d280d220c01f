#pragma once
// The Fourier modes one frequency of a k-level analysis couples, on one level: theta_m =
// base + 2 pi (mx / nx, my / ny) for m in [0, nx) x [0, ny). Multiplying a mode by (-1)^x (a
// colour's mask) shifts mx by nx / 2; coarsening doubles theta in the coarsened directions,
// which folds m onto m mod (n / 2) there. The stencils are symmetric, so every symbol is real.
#include <array>
#include <cmath>
#include <numbers>

#include <Eigen/Dense>

#include "kcycle/core/grid.hpp"

namespace kcycle::lfa {

using Matrix = Eigen::MatrixXd;

// theta wrapped into [-pi, pi).
inline double wrapped(double theta) {
  const double two_pi = 2 * std::numbers::pi;
  double t = std::fmod(theta + std::numbers::pi, two_pi);
  if (t < 0) t += two_pi;
  return t - std::numbers::pi;
}

struct FrequencyBlock {
  double base_x = 0, base_y = 0;
  int nx = 1, ny = 1;  // powers of two

  int size() const { return nx * ny; }
  int index(int x, int y) const { return y * nx + x; }
  int mx(int k) const { return k % nx; }
  int my(int k) const { return k / nx; }
  double theta_x(int k) const { return wrapped(base_x + 2 * std::numbers::pi * mx(k) / nx); }
  double theta_y(int k) const { return wrapped(base_y + 2 * std::numbers::pi * my(k) / ny); }

  // The mode times (-1)^x or (-1)^y: theta + pi in that direction (needs n >= 2 there).
  int shifted_x(int k) const { return index((mx(k) + nx / 2) % nx, my(k)); }
  int shifted_y(int k) const { return index(mx(k), (my(k) + ny / 2) % ny); }

  // The four modes a colour's mask couples: k, k + (pi, 0), k + (0, pi), k + (pi, pi), in this
  // order, for the group whose first member is k (the smallest index of the four).
  bool leads_group(int k) const { return k < shifted_x(k) && k < shifted_y(k) && k < shifted_x(shifted_y(k)); }
  std::array<int, 4> group(int k) const { return {k, shifted_x(k), shifted_y(k), shifted_x(shifted_y(k))}; }

  // The same frequency's block on the next coarser level, and where a mode of this block lands.
  FrequencyBlock coarser(Coarsening c) const {
    if (c == Coarsening::Full) return {wrapped(2 * base_x), wrapped(2 * base_y), nx / 2, ny / 2};
    return {base_x, wrapped(2 * base_y), nx, ny / 2};
  }
  int coarse_index(int k, Coarsening c) const {
    const FrequencyBlock C = coarser(c);
    const int cx = c == Coarsening::Full ? mx(k) % C.nx : mx(k);
    return C.index(cx, my(k) % C.ny);
  }
};

}  // namespace kcycle::lfa
