#pragma once
// A 7-level MGCG case for the tests that run PreconditionedCG by hand: the default problem, the
// settings of a fused hierarchy for it, and its operator.
#include "kcycle/backends/cpu/cpu_backend.hpp"
#include "kcycle/core/problem.hpp"
#include "kcycle/core/stencil.hpp"
#include "kcycle/solve/krylov.hpp"
#include "kcycle/solve/multigrid.hpp"
#include "kcycle/solve/solve.hpp"

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
  // MGCG through `preconditioner` from x (the initial guess), kappa = 3; two_pass: CG's own two
  // passes (planned only on grids out of cache, run here at this size too).
  template <class M>
  PreconditionedCG<CpuBackend, M> mgcg(CpuBackend& be, M& preconditioner, Field& x, bool flexible = false,
                                       bool two_pass = true) const {
    return PreconditionedCG<CpuBackend, M>(be, A, preconditioner, problem.rhs, x, kappa3, flexible, nullptr, two_pass);
  }

  SolverOptions options;
  MultigridSettings settings;
  DiscreteProblem problem;
  Stencil9 A;
  CycleChoice kappa3{CycleType::Kappa, 3};
};

}  // namespace kcycle::testing
