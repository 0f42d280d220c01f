// The contract AMD's rocALUTION tests on every hierarchy its Kappacycle builds, on the paper's
// problems (its six solvers, its anisotropies, 30 and 45 degrees) and every backend under test:
// more kappa never costs iterations, and CG with one kappa = 3 cycle needs no more iterations
// than the stand-alone V-cycle. (kappa = 1, 2, >= n being the V-, F- and W-cycle operation by
// operation is test_cycle_equivalence.cpp's.)
#include <gtest/gtest.h>

#include <string>

#include "backend_under_test.hpp"
#include "kcycle/solve/solve.hpp"

namespace kcycle {
namespace {

template <class Backend>
using KappaContract = testing::OnEveryBackend<Backend>;
TYPED_TEST_SUITE(KappaContract, testing::Backends, testing::BackendName);

// The paper's anisotropy for a preset: Tables 4.1-4.2 (Jacobi) at 1e-4, 4.3-4.6 (zebra) at 1e-5.
double papers_eps(const Preset& p) { return p.smoother == Smoother::Jacobi ? 1e-4 : 1e-5; }

SolveResult solve_with(SolverOptions o, const Preset& preset, double angle, int kappa, SolverKind solver) {
  apply(preset, o);
  o.solver = solver;
  o.levels = 6;
  o.eps = papers_eps(preset);
  o.angle_degrees = angle;
  o.cycle = {CycleType::Kappa, kappa};
  return solve(o);
}

TYPED_TEST(KappaContract, IterationsNeverRiseAsKappaGrows) {
  const SolverOptions base = KappaContract<TypeParam>::on_this_backend({});
  for (const Preset& preset : presets())
    for (double angle : {30.0, 45.0}) {
      int before = 0;
      for (int kappa : kKappaCandidates) {
        const SolveResult r = solve_with(base, preset, angle, kappa, preset.solver);
        ASSERT_TRUE(r.converged()) << preset.name << " kappa " << kappa;
        if (before > 0) {
          EXPECT_LE(r.iterations, before) << preset.name << " angle " << angle << " kappa " << kappa;
        }
        before = r.iterations;
      }
    }
}

TYPED_TEST(KappaContract, KrylovWithOneKappa3CycleNeedsNoMoreThanTheStandAloneVCycle) {
  const SolverOptions base = KappaContract<TypeParam>::on_this_backend({});
  for (const Preset& preset : presets()) {
    if (preset.solver != SolverKind::Multigrid) continue;  // each pair once; CG and FCG below
    for (double angle : {30.0, 45.0}) {
      const int v = solve_with(base, preset, angle, 1, SolverKind::Multigrid).iterations;
      for (SolverKind krylov : {SolverKind::PCG, SolverKind::FCG}) {
        const SolveResult r = solve_with(base, preset, angle, 3, krylov);
        ASSERT_TRUE(r.converged());
        EXPECT_LE(r.iterations, v) << preset.name << " angle " << angle << " solver " << int(krylov);
      }
    }
  }
}

}  // namespace
}  // namespace kcycle
