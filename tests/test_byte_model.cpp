// The byte model against a direct count: the backend adds the bytes of every pass it issues,
// the model sums the same passes over the paper's call counts. They must agree exactly for
// every smoother, coarsening and kappa.
#include <gtest/gtest.h>

#include "backend_under_test.hpp"
#include "kcycle/core/relaxation_factor.hpp"
#include "kcycle/cycle/byte_model.hpp"
#include "kcycle/cycle/cycle_counts.hpp"

namespace kcycle {
namespace {

template <class Backend>
using ByteModel = testing::OnEveryBackend<Backend>;
TYPED_TEST_SUITE(ByteModel, testing::Backends, testing::BackendName);

TYPED_TEST(ByteModel, EqualsTheBytesOfThePassesTheBackendIssued) {
  for (Smoother sm : {Smoother::Jacobi, Smoother::GaussSeidel, Smoother::XZebra, Smoother::YZebra, Smoother::XYZebra})
    for (Coarsening c : {Coarsening::Full, Coarsening::SemiY})
      for (bool symmetric : {false, true})
        for (int n : {1, 2, 5})
          for (bool fused : {false, true}) {
            MultigridSettings s;
            s.fused = fused;  // cleared by a backend without the fused passes (mg.settings())
            s.levels = n;
            s.tensor = rotated_anisotropic_tensor(1e-3, 30);
            s.smoother = sm;
            s.coarsening = c;
            s.symmetric_smoothing = symmetric;
            s.nu1 = 3;  // odd: the alternating smoother's x and y sweeps differ in number
            s.nu2 = 1;
            s.coarse_tail_unknowns = 0;  // the model counts per-level passes (a tail's bytes are not counted)
            TypeParam be = this->make_backend();
            Multigrid<TypeParam> mg(be, s);
            for (int kappa : {1, 2, 3, kKappaW}) {
              be.reset_launches();
              mg.cycle({CycleType::Kappa, kappa});
              EXPECT_EQ(double(be.bytes()), cycle_bytes(mg.settings(), kappa).implemented)
                  << to_string(sm) << " " << to_string(c) << " symmetric " << symmetric << " n " << n << " fused "
                  << fused << " kappa " << kappa_to_string(kappa);
            }
          }
}

TEST(ByteModelCounts, UnfusedAddsTheResidualWriteAndReadBackPerCall) {
  // Unfused: residual (read v, f; write r) + restriction (read r; write fc) instead of the
  // fused pass (read v, f; write fc): 16 more bytes per fine point of every call.
  for (Coarsening c : {Coarsening::Full, Coarsening::SemiY})
    for (int kappa : {1, 2, 3, kKappaW}) {
      MultigridSettings s;
      s.levels = 9;
      s.coarsening = c;
      double extra = 0;
      for (int l = 1; l < s.levels; ++l)
        extra += double(level_calls(std::min(kappa, s.levels), l)) * 16.0 * double(level_shape(9, l, c).unknowns());
      const CycleBytes b = cycle_bytes(s, kappa);
      EXPECT_EQ(b.unfused - b.implemented, extra);
    }
  // A V(2,2) Jacobi cycle on the finest of 9 levels alone moves 4 sweeps x 24 + 18 + 18 (+ the
  // coarse zeroing) bytes per point: the model's total is a little above 4/3 of that.
  MultigridSettings v;
  v.levels = 9;
  const double fine = double(full_coarsening_shape(9, 1).unknowns());
  const double per_point = cycle_bytes(v, 1).implemented / fine;
  EXPECT_GT(per_point, 4 * 24 + 18 + 18);
  EXPECT_LT(per_point, (4 * 24 + 18 + 18 + 2) * 4.0 / 3.0 + 1);
}

}  // namespace
}  // namespace kcycle
