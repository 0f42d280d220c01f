#pragma once
// A 7-level MGCG case for the tests that run PreconditionedCG by hand: the default problem, the
// settings of a fused hierarchy for it, and its operator.
#include "kcycle/multigrid.hpp"
#include "kcycle/problem.hpp"
#include "kcycle/solve.hpp"
#include "kcycle/stencil.hpp"

namespace kcycle::testing {

struct SmallMgcgCase {
  SmallMgcgCase() {
    options.levels = 7;
    settings = multigrid_settings(options);
    settings.fused = true;
    problem = make_problem(options);
    const GridShape shape = problem.rhs.shape();
    A = discretize(rotated_anisotropic_tensor(options.eps, options.angle_degrees), shape.hx(), shape.hy());
  }
  SolverOptions options;
  MultigridSettings settings;
  DiscreteProblem problem;
  Stencil9 A;
  CycleChoice kappa3{CycleType::Kappa, 3};
};

}  // namespace kcycle::testing
