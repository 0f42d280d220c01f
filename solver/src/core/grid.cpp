#include "kcycle/core/grid.hpp"

namespace kcycle {

GridShape full_coarsening_shape(int levels, int level) {
  const int side = (1 << (levels - level + 1)) - 1;
  return {side, side};
}

GridShape level_shape(int levels, int level, Coarsening coarsening) {
  const GridShape full = full_coarsening_shape(levels, level);
  if (coarsening == Coarsening::Full) return full;
  return {full_coarsening_shape(levels, 1).nx, full.ny};
}

}  // namespace kcycle
