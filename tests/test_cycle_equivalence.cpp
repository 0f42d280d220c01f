// Proposition 2.1 shown on what the solver executed: kappa=1 is the V-cycle (gamma=1),
// kappa=2 the F-cycle (Algorithm 2), kappa>=n the W-cycle (gamma=2): the same operation
// sequence and bitwise the same iterate.
#include <gtest/gtest.h>

#include <algorithm>

#include "kcycle/cpu_backend.hpp"
#include "kcycle/multigrid.hpp"
#include "kcycle/problem.hpp"
#include "kcycle/relaxation_factor.hpp"

namespace kcycle {
namespace {

struct Executed {
  Trace ops;  // without Call counters, which name kappa or gamma
  std::vector<double> iterate;
};

Executed run_cycles(CycleChoice cycle, int levels, int cycles = 3) {
  CpuBackend backend(2);
  MultigridSettings s;
  s.levels = levels;
  s.tensor = rotated_anisotropic_tensor(1e-3, 30);
  s.omega = paper_jacobi_omega(1e-3, 30);
  Multigrid<CpuBackend> mg(backend, s);
  fill_uniform_random(mg.level(1).v, 42);
  Executed run;
  for (int c = 0; c < cycles; ++c) mg.cycle(cycle, &run.ops);
  for (TraceEvent& e : run.ops) e.counter = 0;
  const auto values = mg.level(1).v.values();
  run.iterate.assign(values.begin(), values.end());
  return run;
}

void expect_identical(const Executed& a, const Executed& b) {
  ASSERT_EQ(a.ops.size(), b.ops.size());
  EXPECT_TRUE(std::equal(a.ops.begin(), a.ops.end(), b.ops.begin()));
  ASSERT_EQ(a.iterate.size(), b.iterate.size());
  EXPECT_TRUE(a.iterate == b.iterate) << "iterates differ (bitwise)";
}

TEST(CycleEquivalence, KappaOneIsTheVCycle) {
  for (int n : {1, 2, 4, 6}) expect_identical(run_cycles({CycleType::Kappa, 1}, n), run_cycles({CycleType::Gamma, 1}, n));
}

TEST(CycleEquivalence, KappaTwoIsTheFCycle) {
  for (int n : {1, 2, 4, 6}) expect_identical(run_cycles({CycleType::Kappa, 2}, n), run_cycles({CycleType::F, 2}, n));
}

TEST(CycleEquivalence, KappaAtLeastLevelsIsTheWCycle) {
  for (int n : {2, 4, 6})
    for (int kappa : {n, n + 1, n + 7})
      expect_identical(run_cycles({CycleType::Kappa, kappa}, n), run_cycles({CycleType::Gamma, 2}, n));
}

TEST(CycleEquivalence, IntermediateKappaIsNeitherFNorW) {
  // The comparison can fail: kappa = 3 at 6 levels differs from both neighbours.
  const Executed k3 = run_cycles({CycleType::Kappa, 3}, 6);
  const Executed f = run_cycles({CycleType::F, 2}, 6);
  const Executed w = run_cycles({CycleType::Gamma, 2}, 6);
  EXPECT_GT(k3.ops.size(), f.ops.size());
  EXPECT_LT(k3.ops.size(), w.ops.size());
  EXPECT_FALSE(k3.iterate == f.iterate);
  EXPECT_FALSE(k3.iterate == w.iterate);
}

TEST(CycleEquivalence, TraceFollowsAlgorithm3OnTwoLevels) {
  Executed r = run_cycles({CycleType::Kappa, 2}, 2, 1);
  const std::vector<OpKind> expected = {OpKind::Call,        OpKind::PreRelax,   OpKind::PreRelax,
                                        OpKind::Restrict,    OpKind::ZeroCoarse, OpKind::Call,
                                        OpKind::CoarseSolve, OpKind::Call,       OpKind::CoarseSolve,
                                        OpKind::Prolong,     OpKind::PostRelax,  OpKind::PostRelax};
  ASSERT_EQ(r.ops.size(), expected.size());
  for (std::size_t k = 0; k < expected.size(); ++k) EXPECT_EQ(r.ops[k].kind, expected[k]) << k;
}

}  // namespace
}  // namespace kcycle
