#pragma once
// Galerkin coarse-grid operators A_c = R A P for constant stencils. With Dirichlet boundaries
// and vertex-centred coarsening the truncated operators compose to the truncated product,
// so one 9-point stencil per level is exact.
#include "kcycle/core/grid.hpp"
#include "kcycle/core/stencil.hpp"

namespace kcycle {

// R A P with bilinear P and full weighting R = P^T/4 (Full), or linear-in-y P and
// R = P^T/2 (SemiY).
Stencil9 galerkin_coarse(const Stencil9& fine, Coarsening coarsening);

}  // namespace kcycle
