#pragma once
#include <cstddef>

namespace kcycle {

// Interior points per direction and mesh widths of one level on the unit square. Storage
// carries a one-point ghost ring for the Dirichlet boundary: (nx+2) x (ny+2), rows along x.
struct GridShape {
  int nx = 1;
  int ny = 1;

  double hx() const { return 1.0 / (nx + 1); }
  double hy() const { return 1.0 / (ny + 1); }
  std::size_t unknowns() const { return std::size_t(nx) * std::size_t(ny); }
  int stride() const { return nx + 2; }
  std::size_t storage() const { return std::size_t(nx + 2) * std::size_t(ny + 2); }
  friend bool operator==(const GridShape&, const GridShape&) = default;
};

// How a level's grid becomes the next coarser one.
enum class Coarsening {
  Full,   // both directions halved (the coarse grid keeps every other point)
  SemiY,  // y halved, x kept: the coarsest level is one interior x-line
};

// Level `level` (1 = finest) of an n-level hierarchy with standard coarsening has
// 2^(n-level+1)+1 points a side including boundary: (2^n-1)^2 unknowns on the finest
// level, a single unknown on the coarsest.
GridShape full_coarsening_shape(int levels, int level);
// The same for either coarsening; SemiY keeps nx = 2^n - 1 on every level.
GridShape level_shape(int levels, int level, Coarsening coarsening);

}  // namespace kcycle
