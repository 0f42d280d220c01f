// Proposition 2.1 shown on what the solver executed, on every backend: kappa=1 is the
// V-cycle (gamma=1), kappa=2 the F-cycle (Algorithm 2), kappa>=n the W-cycle (gamma=2): the
// same operation sequence and bitwise the same iterate.
#include <gtest/gtest.h>

#include <algorithm>

#include "backend_under_test.hpp"
#include "kcycle/core/relaxation_factor.hpp"
#include "kcycle/solve/multigrid.hpp"

namespace kcycle {
namespace {

using testing::fill_random;
using testing::host_values;

struct Executed {
  Trace ops;    // without Call counters, which name kappa or gamma
  Trace calls;  // the Call events with their counters
  std::vector<double> iterate;
};

template <class Backend>
Executed run_cycles(CycleChoice cycle, int levels, int cycles = 3) {
  Backend backend = testing::OnEveryBackend<Backend>::make_backend();
  MultigridSettings s;
  s.levels = levels;
  s.tensor = rotated_anisotropic_tensor(1e-3, 30);
  s.omega = paper_jacobi_omega(1e-3, 30);
  Multigrid<Backend> mg(backend, s);
  fill_random(backend, mg.level(1).v, 42);
  Executed run;
  for (int c = 0; c < cycles; ++c) mg.cycle(cycle, &run.ops);
  for (TraceEvent& e : run.ops) {
    if (e.kind == OpKind::Call) run.calls.push_back(e);
    e.counter = 0;
  }
  run.iterate = host_values(backend, mg.level(1).v);
  return run;
}

void expect_identical(const Executed& a, const Executed& b) {
  ASSERT_EQ(a.ops.size(), b.ops.size());
  EXPECT_TRUE(std::equal(a.ops.begin(), a.ops.end(), b.ops.begin()));
  ASSERT_EQ(a.iterate.size(), b.iterate.size());
  EXPECT_TRUE(a.iterate == b.iterate) << "iterates differ (bitwise)";
}

template <class Backend>
using CycleEquivalence = testing::OnEveryBackend<Backend>;
TYPED_TEST_SUITE(CycleEquivalence, testing::Backends, testing::BackendName);

TYPED_TEST(CycleEquivalence, KappaOneIsTheVCycle) {
  for (int n : {1, 2, 4, 6})
    expect_identical(run_cycles<TypeParam>({CycleType::Kappa, 1}, n), run_cycles<TypeParam>({CycleType::Gamma, 1}, n));
}

TYPED_TEST(CycleEquivalence, KappaTwoIsTheFCycle) {
  for (int n : {1, 2, 4, 6})
    expect_identical(run_cycles<TypeParam>({CycleType::Kappa, 2}, n), run_cycles<TypeParam>({CycleType::F, 2}, n));
}

TYPED_TEST(CycleEquivalence, KappaAtLeastLevelsIsTheWCycle) {
  // kappa is not clamped: kappa = n + 1 and n + 7 run through the recursion with their own
  // counters (the trace shows them), and still execute exactly the W-cycle.
  for (int n : {2, 4, 6})
    for (int kappa : {n, n + 1, n + 7, kKappaW}) {
      const Executed k = run_cycles<TypeParam>({CycleType::Kappa, kappa}, n);
      expect_identical(k, run_cycles<TypeParam>({CycleType::Gamma, 2}, n));
      ASSERT_FALSE(k.calls.empty());
      EXPECT_EQ(k.calls.front().counter, kappa) << "the top call carries the counter as given";
      const auto lowest =
          std::min_element(k.calls.begin(), k.calls.end(),
                           [](const TraceEvent& a, const TraceEvent& b) { return a.counter < b.counter; });
      EXPECT_EQ(lowest->counter, kappa - (n - 1)) << "n-1 decrements at most: the counter never reaches 0";
    }
}

TYPED_TEST(CycleEquivalence, IntermediateKappaIsNeitherFNorW) {
  // The comparison can fail: kappa = 3 at 6 levels differs from both neighbours.
  const Executed k3 = run_cycles<TypeParam>({CycleType::Kappa, 3}, 6);
  const Executed f = run_cycles<TypeParam>({CycleType::F, 2}, 6);
  const Executed w = run_cycles<TypeParam>({CycleType::Gamma, 2}, 6);
  EXPECT_GT(k3.ops.size(), f.ops.size());
  EXPECT_LT(k3.ops.size(), w.ops.size());
  EXPECT_FALSE(k3.iterate == f.iterate);
  EXPECT_FALSE(k3.iterate == w.iterate);
}

TYPED_TEST(CycleEquivalence, TraceFollowsAlgorithm3OnTwoLevels) {
  Executed r = run_cycles<TypeParam>({CycleType::Kappa, 2}, 2, 1);
  const std::vector<OpKind> expected = {OpKind::Call,        OpKind::PreRelax, OpKind::PreRelax,    OpKind::Restrict,
                                        OpKind::ZeroCoarse,  OpKind::Call,     OpKind::CoarseSolve, OpKind::Call,
                                        OpKind::CoarseSolve, OpKind::Prolong,  OpKind::PostRelax,   OpKind::PostRelax};
  ASSERT_EQ(r.ops.size(), expected.size());
  for (std::size_t k = 0; k < expected.size(); ++k) EXPECT_EQ(r.ops[k].kind, expected[k]) << k;
  ASSERT_EQ(r.calls.size(), 3u);
  EXPECT_EQ(r.calls[1].counter, 2);  // the same counter first,
  EXPECT_EQ(r.calls[2].counter, 1);  // then kappa - 1
}

}  // namespace
}  // namespace kcycle
