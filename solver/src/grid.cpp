#include "kcycle/grid.hpp"

namespace kcycle {

GridShape full_coarsening_shape(int levels, int level) {
  const int side = (1 << (levels - level + 1)) - 1;
  return {side, side};
}

}  // namespace kcycle
