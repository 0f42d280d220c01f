// Mixed precision: the float hierarchy's arithmetic, and solves that still reach double
// tolerances (MGCG with a float cycle, iterative refinement stand-alone), or say they cannot.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <vector>

#include "kcycle/backends/cpu/cpu_backend.hpp"
#include "kcycle/core/problem.hpp"
#include "kcycle/cycle/byte_model.hpp"
#include "kcycle/solve/iterative_solver.hpp"
#include "kcycle/solve/krylov.hpp"
#include "kcycle/solve/mixed_precision.hpp"
#include "kcycle/solve/solve.hpp"
#include "small_mgcg_case.hpp"

namespace kcycle {
namespace {

TEST(FloatBackend, ComputesTheDoubleSweepToFloatRoundingWithHalfTheBytes) {
  const GridShape shape{127, 127};
  const Stencil9 A = discretize(rotated_anisotropic_tensor(1e-4, 45), shape.hx(), shape.hy());
  CpuBackend be(2);
  FloatCpuBackend fbe(2);
  Field v = be.make_vector(shape), f = be.make_vector(shape), out = be.make_vector(shape), back;
  fill_uniform_random(v, 1);
  fill_uniform_random(f, 2);
  FloatField fv = fbe.make_vector(shape), ff = fbe.make_vector(shape), fout = fbe.make_vector(shape);
  fbe.upload(v, fv);
  fbe.upload(f, ff);
  be.jacobi(A, 0.8, v, f, out);
  fbe.reset_launches();
  fbe.jacobi(A, 0.8, fv, ff, fout);
  EXPECT_EQ(fbe.bytes(), pass_bytes::jacobi(shape) / 2);
  fbe.download(fout, back);
  double worst = 0, scale = 0;
  for (int j = 1; j <= shape.ny; ++j)
    for (int i = 1; i <= shape.nx; ++i) {
      worst = std::max(worst, std::abs(back(i, j) - out(i, j)));
      scale = std::max(scale, std::abs(out(i, j)));
    }
  EXPECT_GT(worst, 0.0) << "the float sweep must really compute in float";
  // The stencil's terms are ~1/h^2 times O(1) values: a few float epsilons of the largest term.
  EXPECT_LT(worst, 1e-5 * A.center() * 4) << "scale of the iterate " << scale;
}

SolverOptions eight_levels(const Preset& preset, Precision precision) {
  SolverOptions o;
  apply(preset, o);
  o.levels = 8;
  o.threads = 2;
  o.precision = precision;
  o.cycle = {CycleType::Kappa, 2};
  o.max_iterations = 3000;
  return o;
}

TEST(MixedPrecision, ReachesTheToleranceOnAllSixPresetsAt8Levels) {
  for (const Preset& preset : presets()) {
    const SolveResult mixed = solve(eight_levels(preset, Precision::Mixed));
    const SolveResult exact = solve(eight_levels(preset, Precision::Double));
    ASSERT_TRUE(mixed.converged()) << preset.name << ": " << mixed.message;
    ASSERT_TRUE(exact.converged()) << preset.name << ": " << exact.message;
    EXPECT_LE(mixed.error_reduction, 1e-8) << preset.name;
    // Rounding the hierarchy to float changes the iterates, hardly the convergence.
    EXPECT_NEAR(mixed.iterations, exact.iterations, 1 + exact.iterations / 20) << preset.name;
  }
}

TEST(MixedPrecision, IterativeRefinementReachesBeyondFloat) {
  // Problem 1 stops on the residual; 1e-11 is far below what a float solve could attain
  // (float's epsilon is 6e-8), and the residual of refinement is computed in double.
  for (SolverKind kind : {SolverKind::Multigrid, SolverKind::PCG}) {
    SolverOptions o;
    o.levels = 6;
    o.threads = 2;
    o.solver = kind;
    o.problem = ProblemKind::Manufactured;
    o.precision = Precision::Mixed;
    o.tolerance = 1e-11;
    o.max_iterations = 3000;
    const SolveResult r = solve(o);
    ASSERT_TRUE(r.converged()) << r.message;
    EXPECT_LE(r.residual_reduction, 1e-11);
  }
}

TEST(MixedPrecision, ASolveThatCannotReachTheToleranceSaysSo) {
  // A residual reduction of 1e-17 is below double's own rounding floor: the solve must stop
  // with a message long before the iteration limit, not run on silently.
  SolverOptions o;
  o.levels = 5;
  o.threads = 1;
  o.problem = ProblemKind::Manufactured;
  o.precision = Precision::Mixed;
  o.tolerance = 1e-17;
  o.max_iterations = 100000;
  const SolveResult r = solve(o);
  EXPECT_EQ(r.status, SolveStatus::Stalled) << r.message;
  EXPECT_LT(r.iterations, 1000);
  EXPECT_NE(r.message.find("stalled"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("mixed"), std::string::npos) << r.message;
}

TEST(MixedPrecision, RefusedOnTheCudaBackend) {
  SolverOptions o;
  o.precision = Precision::Mixed;
  o.backend = BackendKind::Cuda;
  EXPECT_THROW(validate(o), InvalidOptions);
}

}  // namespace
}  // namespace kcycle

namespace kcycle {
namespace {

// A preconditioner that does not take r's rounding from the residual update (no
// right_hand_side_for: it rounds r itself): MGCG through it and through the cycle itself must
// give bitwise the same iterates.
struct WithoutResidualUpdate {
  MixedPrecisionCycle& cycle;
  std::optional<double> precondition(const Field& r, CycleChoice c, const CycleHooks& hooks = {}) {
    return cycle.precondition(r, c, hooks);
  }
  const FloatField& correction() const { return cycle.correction(); }
};

TEST(MixedPrecision, MgcgIteratesAreBitwiseTheSameWithTheRoundingOnTheWay) {
  const testing::SmallMgcgCase c;
  std::vector<Field> iterates;
  for (bool on_the_way : {true, false}) {
    CpuBackend be(2);
    FloatCpuBackend fbe(2);
    MixedPrecisionCycle cycle(be, fbe, c.settings);
    Field x = c.problem.initial_guess;
    auto six_steps = [&](auto& M) {
      auto cg = c.mgcg(be, M, x);
      for (int k = 0; k < 6; ++k) ASSERT_EQ(cg.step(), StepResult::Ok);
    };
    WithoutResidualUpdate plain{cycle};
    if (on_the_way)
      six_steps(cycle);
    else
      six_steps(plain);
    iterates.push_back(std::move(x));
  }
  EXPECT_TRUE(std::equal(iterates[0].values().begin(), iterates[0].values().end(), iterates[1].values().begin()));
}

// The path before MGCG read the float correction where the cycle left it: z handed back in
// double, (r, z) taken by CG from it.
struct DoubleCorrection {
  MixedPrecisionCycle& cycle;
  std::optional<double> precondition(Field& r, Field& z, CycleChoice c, const CycleHooks& hooks = {}) {
    cycle.apply(r, z, c, hooks);
    return std::nullopt;
  }
};

// Reading z in float changes only (r, z), which the cycle's last pass sums with r's float
// rounding: the iterates agree with the double hand-over's to float rounding, and CG's own
// passes move 64 bytes a point (p 20; x, r and r's rounding 44), with no pass that widens z
// and none for (r, z).
TEST(MixedPrecision, MgcgReadsTheFloatCorrectionWhereTheCycleLeftIt) {
  const testing::SmallMgcgCase c;
  const GridShape shape = c.problem.rhs.shape();
  std::vector<Field> iterates;
  std::vector<double> errors[2];
  for (bool held : {true, false}) {
    CpuBackend be(2);
    FloatCpuBackend fbe(2);
    MixedPrecisionCycle cycle(be, fbe, c.settings);
    Field x = c.problem.initial_guess;
    auto eight_steps = [&](auto& M, std::vector<double>& error2) {
      auto cg = c.mgcg(be, M, x);
      for (int k = 0; k < 8; ++k) {
        be.reset_launches();
        ASSERT_EQ(cg.step(), StepResult::Ok);
        if (held && k > 0) {  // the first step's p is z itself, no update
          EXPECT_EQ(be.bytes(), 64 * shape.unknowns()) << "step " << k;
        }
        error2.push_back(cg.error_norm2());
      }
    };
    DoubleCorrection widened{cycle};
    if (held)
      eight_steps(cycle, errors[0]);
    else
      eight_steps(widened, errors[1]);
    iterates.push_back(std::move(x));
  }
  ASSERT_LT(errors[0].back(), 1e-4 * errors[0].front()) << "CG must have converged some way";
  double worst = 0, scale = 0;
  for (std::size_t k = 0; k < iterates[0].values().size(); ++k) {
    worst = std::max(worst, std::abs(iterates[0].values()[k] - iterates[1].values()[k]));
    scale = std::max(scale, std::abs(iterates[1].values()[k]));
  }
  EXPECT_GT(worst, 0.0) << "the held path must take (r, z) from the cycle's pass, with r rounded";
  EXPECT_LT(worst, 1e-5 * scale);
  for (std::size_t k = 0; k < errors[0].size(); ++k) EXPECT_NEAR(errors[0][k] / errors[1][k], 1.0, 1e-4) << k;
}

// Iterative refinement's step in two passes (the residual rounded straight into the hierarchy,
// z read in float) against the three of apply(): bitwise the same iterate, the same norms up to
// their sums' order, 40 bytes a point of double-side traffic instead of 72.
TEST(MixedPrecision, RefinementInTwoPassesIsBitwiseTheStepThroughADoubleResidual) {
  const testing::SmallMgcgCase c;
  const GridShape shape = c.problem.rhs.shape();
  Field exact(shape);
  fill_uniform_random(exact, 9);
  for (const Field* e : {static_cast<const Field*>(nullptr), static_cast<const Field*>(&exact)}) {
    std::vector<Field> iterates;
    std::vector<double> norms;
    for (bool two_passes : {true, false}) {
      CpuBackend be(2);
      FloatCpuBackend fbe(2);
      MixedPrecisionCycle cycle(be, fbe, c.settings);
      Field x = c.problem.initial_guess, r(shape), z(shape);
      for (int k = 0; k < 3; ++k) {
        be.reset_launches();
        if (two_passes) {
          const auto n = cycle.refine(c.A, c.problem.rhs, x, e, c.kappa3);
          // The first step also computes the residual it starts from (20 bytes a point).
          EXPECT_EQ(be.bytes(), ((e ? 48 : 40) + (k == 0 ? 20 : 0)) * shape.unknowns()) << k;
          norms.insert(norms.end(), {n.error2_after, n.residual2_after});
        } else {
          if (k == 0) be.residual_norm2(c.A, x, c.problem.rhs, &r);
          cycle.apply(r, z, c.kappa3);
          norms.push_back(be.axpy_norm2(1.0, z, x, e));
          norms.push_back(be.residual_norm2(c.A, x, c.problem.rhs, &r));
        }
      }
      iterates.push_back(std::move(x));
    }
    EXPECT_EQ(0, std::memcmp(iterates[0].data(), iterates[1].data(), iterates[0].values().size_bytes()));
    for (std::size_t k = 0; k < 6; ++k) EXPECT_NEAR(norms[k] / norms[k + 6], 1.0, 1e-13) << k;
  }
}

}  // namespace
}  // namespace kcycle
