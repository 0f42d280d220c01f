// Local Fourier analysis mode by mode (kcycle/lfa/amplification_maps.hpp): the smoother's map is
// its symbol where the symbol is known, the maps agree with the factors, and the coarse grid
// removes what the smoother leaves.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "kcycle/lfa/amplification_maps.hpp"
#include "kcycle/solve/solve.hpp"

namespace kcycle {
namespace {

lfa::LfaSettings settings_of(double eps, double angle, Smoother smoother, int nu1, int nu2, int depth = 0) {
  lfa::LfaSettings s;
  s.cycle.levels = 8;
  s.cycle.tensor = rotated_anisotropic_tensor(eps, angle);
  s.cycle.smoother = smoother;
  s.cycle.omega = 0.8;
  s.cycle.nu1 = nu1;
  s.cycle.nu2 = nu2;
  s.depth = depth;
  return s;
}

TEST(LfaMaps, DampedJacobiShowsItsSymbolPerSweep) {
  // The 5-point Laplacian: one sweep multiplies mode theta by 1 - omega (1 - (cos tx + cos ty) / 2),
  // whatever the number of sweeps (the map is per sweep).
  for (auto [nu1, nu2] : {std::pair{1, 0}, {2, 1}}) {
    const lfa::AmplificationMaps m = lfa::amplification_maps(settings_of(1, 0, Smoother::Jacobi, nu1, nu2), 1, 32);
    double high = 0;
    for (int j = 0; j < 32; ++j)
      for (int i = 0; i < 32; ++i) {
        const double tx = lfa::map_theta(i, 32), ty = lfa::map_theta(j, 32);
        EXPECT_NEAR(m.smoother.at(i, j), std::abs(1 - 0.8 * (1 - 0.5 * (std::cos(tx) + std::cos(ty)))), 1e-12)
            << "theta = (" << tx << ", " << ty << "), nu = " << nu1 << " + " << nu2;
        if (!lfa::is_smooth(tx, ty, Coarsening::Full)) high = std::max(high, m.smoother.at(i, j));
      }
    EXPECT_NEAR(high, 0.6, 0.01);  // mu, sampled (the textbook's 0.6 at theta = (pi/2, 0) and (pi, pi))
  }
}

TEST(LfaMaps, TwoLevelsMakeTheKappaCycleTheTwoGridCycle) {
  const lfa::AmplificationMaps m =
      lfa::amplification_maps(settings_of(1e-2, 45, Smoother::GaussSeidel, 1, 1, 2), kKappaW, 16);
  EXPECT_EQ(m.depth, 2);
  EXPECT_EQ(m.analysed_counter, 2);
  EXPECT_EQ(m.kappa_cycle.values, m.two_grid.values);
}

TEST(LfaMaps, TheCoarseGridRemovesWhatTheSmootherLeaves) {
  for (Smoother s : {Smoother::Jacobi, Smoother::GaussSeidel}) {
    const lfa::AmplificationMaps m = lfa::amplification_maps(settings_of(1, 0, s, 1, 1), 2, 64);
    const int centre = 32;  // theta = (pi/64, pi/64): the smoothest mode sampled
    EXPECT_GT(m.smoother.at(centre, centre), 0.99) << enum_name(s);
    EXPECT_LT(m.two_grid.at(centre, centre), 0.05) << enum_name(s);
    EXPECT_LT(m.kappa_cycle.at(centre, centre), 0.05) << enum_name(s);
    // Every mode is reduced by the cycle, none amplified, on the Laplacian.
    EXPECT_LT(m.two_grid.largest(), 1.0) << enum_name(s);
    EXPECT_LT(m.kappa_cycle.largest(), 1.0) << enum_name(s);
  }
}

TEST(LfaMaps, TheWorstModeIsNearTheTwoGridFactor) {
  // Jacobi on the Laplacian: the largest value (a column's norm) and the two-grid factor (a block's
  // spectral radius, the worst block) differ only by how far the blocks are from normal: a few
  // per cent here. The smoothest modes are left alone by the smoother.
  lfa::LfaSettings s = settings_of(1, 0, Smoother::Jacobi, 2, 2, 2);
  const lfa::LfaResult r = lfa::analyse(s, {1});
  const lfa::AmplificationMaps m = lfa::amplification_maps(s, 1, 128);
  EXPECT_NEAR(m.smoother.largest(), 1.0, 1e-3);
  EXPECT_NEAR(m.two_grid.largest(), r.two_grid_factor, 0.05 * r.two_grid_factor);
}

TEST(LfaMaps, SemiCoarseningMarksOnlyYAsCoarsened) {
  lfa::LfaSettings s = settings_of(1e-4, 0, Smoother::XZebra, 1, 1);
  s.cycle.coarsening = Coarsening::SemiY;
  const lfa::AmplificationMaps m = lfa::amplification_maps(s, 1, 32);
  EXPECT_EQ(m.coarsening, Coarsening::SemiY);
  EXPECT_TRUE(lfa::is_smooth(3.0, 0.1, Coarsening::SemiY));
  EXPECT_FALSE(lfa::is_smooth(3.0, 0.1, Coarsening::Full));
  EXPECT_LT(m.kappa_cycle.largest(), 1.0);
}

TEST(LfaMaps, RefusesWhatItCannotDraw) {
  const lfa::LfaSettings s = settings_of(1, 0, Smoother::Jacobi, 1, 1);
  for (int bad : {0, 7, 12, 512}) EXPECT_THROW(lfa::amplification_maps(s, 1, bad), std::invalid_argument) << bad;
  EXPECT_THROW(lfa::amplification_maps(s, 0, 16), std::invalid_argument);
  lfa::LfaSettings none = s;
  none.cycle.nu1 = none.cycle.nu2 = 0;
  try {
    lfa::amplification_maps(none, 1, 16);
    FAIL() << "no sweeps drew a map";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("relaxation sweep"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace kcycle
