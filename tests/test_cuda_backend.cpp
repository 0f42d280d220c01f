// The CUDA backend against the CPU backend, on a GPU. Without one every test skips and says
// why; CI compiles and links this file, so the backend's interface is checked there too.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stop_token>
#include <vector>

#include "closed_forms.hpp"
#include "kcycle/backends/cpu/cpu_backend.hpp"
#include "kcycle/backends/cuda/cuda_backend.hpp"
#include "kcycle/core/problem.hpp"
#include "kcycle/cycle/cycle_counts.hpp"
#include "kcycle/solve/multigrid.hpp"
#include "kcycle/solve/solve.hpp"
#include "kcycle/solve/solver_options.hpp"
#include "line_solve_rounding.hpp"

namespace kcycle {
namespace {

// The coarse tail's tests run one from 63^2 unknowns down (CUDA's default is no tail: measured
// slower with graphs, see cuda_backend.hpp).
constexpr int kTailBelow63Squared = 4096;

class CudaBackendTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const CudaDeviceStatus& s = cuda_device_status();
    if (!s.usable) GTEST_SKIP() << "no usable GPU: " << s.reason;
  }
};

Field random_field(GridShape shape, std::uint64_t seed) {
  Field f(shape);
  fill_uniform_random(f, seed);
  return f;
}

// max |a - b| / max |a| over the whole field.
double relative_difference(const Field& a, const Field& b) {
  double diff = 0, scale = 0;
  for (std::size_t k = 0; k < a.values().size(); ++k) {
    diff = std::max(diff, std::abs(a.values()[k] - b.values()[k]));
    scale = std::max(scale, std::abs(a.values()[k]));
  }
  return scale > 0 ? diff / scale : diff;
}

bool bitwise_equal(const Field& a, const Field& b) {
  return a.shape() == b.shape() && std::memcmp(a.data(), b.data(), a.values().size_bytes()) == 0;
}

SolverOptions preset_options(const Preset& p, int levels) {
  SolverOptions o;
  apply(p, o);
  o.levels = levels;
  o.eps = 1e-3;
  o.angle_degrees = 30;
  return o;
}

Field download(CudaBackend& gpu, const DeviceField& x) {
  Field host;
  gpu.download(x, host);
  return host;
}

// Without a GPU too: a device field not made yet has no level's shape, so upload allocates the
// 1 x 1 level of a one-level hierarchy before it copies (it used to copy to a null pointer).
TEST(DeviceFieldShape, ANewDeviceFieldHasNoLevelsShape) {
  const DeviceField none;
  EXPECT_EQ(none.shape().nx, 0);
  EXPECT_EQ(none.data(), nullptr);
  EXPECT_FALSE(none.shape() == level_shape(1, 1, Coarsening::Full));
}

TEST_F(CudaBackendTest, OneLevelRoundTripsAndSolves) {
  CudaBackend gpu(false);
  Field one(GridShape{1, 1});
  one(1, 1) = 3.0;
  DeviceField device;
  gpu.upload(one, device);
  EXPECT_EQ(download(gpu, device)(1, 1), 3.0);
  SolverOptions o;
  o.levels = 1;
  o.backend = BackendKind::Cuda;
  const SolveResult r = solve(o);
  EXPECT_TRUE(r.converged()) << r.message;
}

TEST_F(CudaBackendTest, OneCycleGivesTheCpuIterateForAllPresetsAndKappas) {
  for (const Preset& p : presets())
    for (int kappa : {1, 2, 3, kKappaW}) {
      SolverOptions o = preset_options(p, 6);
      o.coarse_tail = 0;  // every level launched, as on the CPU (the tail has tests of its own)
      o.fused = false;    // CUDA has no fused passes: the CPU runs the same passes, so the launches compare
      const MultigridSettings s = multigrid_settings(o);
      CpuBackend cpu(2);
      CudaBackend gpu(false);
      Multigrid<CpuBackend> on_cpu(cpu, s);
      Multigrid<CudaBackend> on_gpu(gpu, s);
      const Field guess = random_field(on_cpu.level(1).shape, 7), rhs = random_field(on_cpu.level(1).shape, 8);
      cpu.upload(guess, on_cpu.level(1).v);
      cpu.upload(rhs, on_cpu.level(1).f);
      gpu.upload(guess, on_gpu.level(1).v);
      gpu.upload(rhs, on_gpu.level(1).f);
      cpu.reset_launches();
      gpu.reset_launches();
      Trace cpu_trace, gpu_trace;
      on_cpu.cycle({CycleType::Kappa, kappa}, &cpu_trace);
      on_gpu.cycle({CycleType::Kappa, kappa}, &gpu_trace);
      const std::string what = std::string(p.name) + " kappa=" + kappa_to_string(kappa);
      EXPECT_EQ(cpu_trace, gpu_trace) << what;
      EXPECT_EQ(cpu.launches(), gpu.launches()) << what << ": launches must count alike";
      EXPECT_LT(relative_difference(on_cpu.level(1).v, download(gpu, on_gpu.level(1).v)), 1e-12) << what;
    }
}

TEST_F(CudaBackendTest, SolvesInTheSameNumberOfCyclesForAllSixPresets) {
  for (const Preset& p : presets()) {
    SolverOptions o = preset_options(p, 7);
    o.cycle = {CycleType::Kappa, 3};
    o.fused = false;    // the passes CUDA issues, so that the launches compare
    o.coarse_tail = 0;  // likewise
    const SolveResult cpu = solve(o);
    o.backend = BackendKind::Cuda;
    const SolveResult gpu = solve(o);
    EXPECT_EQ(gpu.backend, "cuda");
    EXPECT_EQ(cpu.status, gpu.status) << p.name;
    EXPECT_EQ(cpu.iterations, gpu.iterations) << p.name;
    EXPECT_NEAR(gpu.final_error / cpu.final_error, 1.0, 1e-6) << p.name;
    EXPECT_EQ(cpu.launches_per_iteration, gpu.launches_per_iteration) << p.name;
  }
}

// Graphs on and off: the same bits, trace and launch count, also when Jacobi's buffer swaps
// leave a cycle on other buffers than it started (nu1 + nu2 odd: two recorded graphs).
TEST_F(CudaBackendTest, GraphsOnAndOffGiveIdenticalResults) {
  struct Case {
    Smoother smoother;
    int nu1, nu2;
    Coarsening coarsening;
  };
  for (const Case& c :
       {Case{Smoother::Jacobi, 2, 2, Coarsening::Full}, Case{Smoother::Jacobi, 1, 0, Coarsening::Full},
        Case{Smoother::GaussSeidel, 1, 1, Coarsening::Full}, Case{Smoother::XZebra, 1, 1, Coarsening::SemiY},
        Case{Smoother::XYZebra, 2, 2, Coarsening::Full}})
    for (int kappa : {1, 3, kKappaW})
      for (int tail : {0, kTailBelow63Squared}) {  // every level launched, or the whole cycle one tail
        SolverOptions o;
        o.levels = 6;
        o.coarse_tail = tail;
        o.smoother = c.smoother;
        o.nu1 = c.nu1;
        o.nu2 = c.nu2;
        o.coarsening = c.coarsening;
        if (c.coarsening == Coarsening::SemiY) o.coarse_operator = CoarseOperator::Galerkin;
        const MultigridSettings s = multigrid_settings(o);
        CudaBackend with(true), without(false);
        Multigrid<CudaBackend> a(with, s), b(without, s);
        const Field guess = random_field(a.level(1).shape, 3);
        with.upload(guess, a.level(1).v);
        without.upload(guess, b.level(1).v);
        for (int cycle = 0; cycle < 4; ++cycle) {
          Trace ta, tb;
          a.cycle({CycleType::Kappa, kappa}, &ta);
          b.cycle({CycleType::Kappa, kappa}, &tb);
          EXPECT_EQ(ta, tb);
        }
        const std::string what = std::string(to_string(c.smoother)) + " kappa=" + kappa_to_string(kappa);
        EXPECT_TRUE(bitwise_equal(download(with, a.level(1).v), download(without, b.level(1).v))) << what;
        EXPECT_EQ(with.launches(), without.launches()) << what;
        EXPECT_GE(with.graph_captures(), 1u) << what;
        EXPECT_EQ(with.graph_captures() + with.graph_replays(), 4u) << what;
        EXPECT_EQ(without.graph_captures(), 0u);
      }
}

// The coarse tail (one kernel, one block) against every level launched on its own: the same
// iterate to 1e-12, the same trace, and one launch where the tail's calls were.
TEST_F(CudaBackendTest, TheCoarseTailGivesThePerLevelIterateForAllPresetsSchemesAndKappas) {
  std::vector<CycleChoice> choices = {{CycleType::Gamma, 2}, {CycleType::F, 2}};
  for (int kappa : {1, 2, 3, kKappaW}) choices.push_back({CycleType::Kappa, kappa});
  for (const Preset& p : presets())
    for (CycleChoice choice : choices)
      for (bool graphs : {false, true}) {
        SolverOptions o = preset_options(p, 8);
        o.nu2 = 1;  // an odd Jacobi sweep count: the tail's top ends in its other buffer
        o.coarse_tail = 0;
        const MultigridSettings plain = multigrid_settings(o);
        o.coarse_tail = kTailBelow63Squared;
        const MultigridSettings tailed = multigrid_settings(o);
        CudaBackend a(graphs), b(graphs);
        Multigrid<CudaBackend> per_level(a, plain), with_tail(b, tailed);
        ASSERT_GT(with_tail.coarse_tail_first(), 1);
        const Field guess = random_field(per_level.level(1).shape, 7), rhs = random_field(per_level.level(1).shape, 8);
        for (auto [be, mg] : {std::pair{&a, &per_level}, std::pair{&b, &with_tail}}) {
          be->upload(guess, mg->level(1).v);
          be->upload(rhs, mg->level(1).f);
        }
        Trace ta, tb;
        for (int c = 0; c < 3; ++c) {
          a.reset_launches();
          b.reset_launches();
          per_level.cycle(choice, &ta);
          with_tail.cycle(choice, &tb);
        }
        const std::string what = std::string(p.name) + " scheme " + std::to_string(int(choice.type)) + " counter " +
                                 kappa_to_string(choice.counter) + (graphs ? " graphs" : "");
        EXPECT_EQ(ta, tb) << what;
        EXPECT_LE(relative_difference(download(a, per_level.level(1).v), download(b, with_tail.level(1).v)), 1e-12)
            << what;
        if (choice.type == CycleType::Kappa) {
          // with_tail.settings(): what runs (no fused passes on CUDA), not what was asked.
          EXPECT_EQ(b.launches(), launches_per_cycle(std::min(choice.counter, o.levels), with_tail.coarse_tail_first(),
                                                     closed_form::launches_per_call(with_tail.settings())))
              << what;
        }
        EXPECT_LT(b.launches(), a.launches()) << what;
      }
}

// Solves with a tail (9 levels: its top 63^2, six levels) against every level launched.
TEST_F(CudaBackendTest, ASolveWithTheCoarseTailConvergesLikeOneWithout) {
  for (const Preset& p : presets()) {
    SolverOptions o = preset_options(p, 9);
    o.backend = BackendKind::Cuda;
    o.cycle = {CycleType::Kappa, 3};
    o.coarse_tail = 0;
    const SolveResult without = solve(o);
    o.coarse_tail = kTailBelow63Squared;
    const SolveResult with = solve(o);
    EXPECT_EQ(with.iterations, without.iterations) << p.name;
    EXPECT_NEAR(with.final_error / without.final_error, 1.0, 1e-6) << p.name;
    EXPECT_LT(with.launches_per_iteration, without.launches_per_iteration) << p.name;
  }
}

TEST_F(CudaBackendTest, MgcgWithGraphsMatchesWithoutBitForBit) {
  SolverOptions o = preset_options(*find_preset("xyzebra-galerkin+cg"), 7);
  o.cuda_graphs = true;
  o.backend = BackendKind::Cuda;
  const SolveResult with = solve(o);
  o.cuda_graphs = false;
  const SolveResult without = solve(o);
  ASSERT_EQ(with.iterations, without.iterations);
  for (std::size_t k = 0; k < with.history.size(); ++k)
    EXPECT_EQ(with.history[k].error_norm, without.history[k].error_norm) << "iteration " << k + 1;
}

TEST_F(CudaBackendTest, AWatchedCycleRunsOperationByOperation) {
  SolverOptions o;
  o.levels = 5;
  const MultigridSettings s = multigrid_settings(o);
  CudaBackend gpu(true);
  Multigrid<CudaBackend> mg(gpu, s);
  int seen = 0;
  const OpObserver count = [&](const TraceEvent&) { ++seen; };
  mg.cycle({CycleType::Kappa, 2}, CycleHooks{nullptr, &count, {}, {}});
  EXPECT_GT(seen, 0);
  EXPECT_EQ(gpu.graph_captures(), 0u) << "an observer sees every operation, so nothing is recorded";
}

TEST_F(CudaBackendTest, CancellableCyclesStillReplayGraphs) {
  // The visualizer's path: every cycle carries a stop token (never triggered here) and no
  // observer, so it is recorded once and replayed; level timing turns replay off.
  SolverOptions o;
  o.levels = 6;
  CudaBackend gpu(true);
  Multigrid<CudaBackend> mg(gpu, multigrid_settings(o));
  std::stop_source stop;
  for (int c = 0; c < 5; ++c) mg.cycle({CycleType::Kappa, 3}, CycleHooks{nullptr, nullptr, stop.get_token(), {}});
  EXPECT_EQ(gpu.graph_captures(), 1u);
  EXPECT_EQ(gpu.graph_replays(), 4u);
  mg.set_level_timing(true);
  mg.cycle({CycleType::Kappa, 3});
  EXPECT_EQ(gpu.graph_captures(), 1u) << "a timed cycle runs operation by operation";
  EXPECT_EQ(mg.level(1).stats.calls, 1u);
  stop.request_stop();
  EXPECT_THROW(mg.cycle({CycleType::Kappa, 3}, CycleHooks{nullptr, nullptr, stop.get_token(), {}}), CycleCancelled);
}

// Cyclic reduction for x-lines against Thomas: the same iterate to rounding, cycle after cycle,
// and the same iteration counts, for the x-line smoothers of the presets.
TEST_F(CudaBackendTest, CyclicReductionGivesTheThomasIterate) {
  for (const Preset& p : presets()) {
    if (p.smoother != Smoother::XZebra && p.smoother != Smoother::XYZebra) continue;
    SolverOptions o = preset_options(p, 9);  // x-lines of 511 down to 1 point: both solvers run
    const MultigridSettings s = multigrid_settings(o);
    CudaBackend thomas(true, LineSolver::Thomas), pcr(true, LineSolver::Pcr);
    Multigrid<CudaBackend> a(thomas, s), b(pcr, s);
    const Field guess = random_field(a.level(1).shape, 9);
    thomas.upload(guess, a.level(1).v);
    pcr.upload(guess, b.level(1).v);
    for (int c = 0; c < 3; ++c) {
      a.cycle({CycleType::Kappa, 2});
      b.cycle({CycleType::Kappa, 2});
    }
    // Three cycles of a few line sweeps a level: the rounding of the worst-conditioned level's
    // lines, a few times over (the cycle damps what earlier sweeps left).
    double rounding = 0;
    for (int l = 1; l <= a.levels(); ++l)
      rounding = std::max(rounding, testing::x_line_rounding(a.level(l).A, a.level(l).shape.nx));
    EXPECT_LE(relative_difference(download(thomas, a.level(1).v), download(pcr, b.level(1).v)), 3 * 8 * rounding)
        << p.name;
    o.backend = BackendKind::Cuda;
    o.line_solver = LineSolver::Thomas;
    const SolveResult by_thomas = solve(o);
    o.line_solver = LineSolver::Pcr;
    const SolveResult by_pcr = solve(o);
    EXPECT_EQ(by_thomas.iterations, by_pcr.iterations) << p.name;
    // The final errors agree to rounding relative to the error the solve started from: CG's
    // coefficients carry the line solvers' rounding on, so relative to the final error itself
    // (1e-8 of the initial) it reached 1.08e-6 on an H100 (xyzebra-galerkin+cg).
    EXPECT_LE(std::abs(by_pcr.final_error - by_thomas.final_error) / by_thomas.initial_error, 1e-13) << p.name;
  }
}

// The benchmark's three x-line solvers (Thomas, cyclic reduction, cuSPARSE) solve the same lines.
TEST_F(CudaBackendTest, TheThreeLineSolversAgree) {
  CudaBackend gpu(false);
  for (int levels : {3, 7, 10}) {
    const GridShape shape = full_coarsening_shape(levels, 1);
    const Stencil9 A = discretize(rotated_anisotropic_tensor(1e-4, 45), shape.hx(), shape.hy());
    const CudaBackend::LineSolverTimes t = gpu.time_x_line_solvers(A, shape, 3);
    EXPECT_GT(t.thomas_seconds, 0) << levels;
    EXPECT_GT(t.pcr_seconds, 0) << levels << ": lines of " << shape.nx << " fit a block";
    const double rounding = testing::x_line_rounding(A, shape.nx);
    EXPECT_LE(t.pcr_difference, rounding) << levels;
#if KCYCLE_HAVE_CUSPARSE
    EXPECT_GT(t.cusparse_seconds, 0) << levels;
    EXPECT_LE(t.cusparse_difference, rounding) << levels;
#endif
  }
}

// Each operation on its own, against the CPU backend on the same random data.
TEST_F(CudaBackendTest, EveryOperationMatchesTheCpu) {
  const GridShape fine = full_coarsening_shape(6, 1), coarse = full_coarsening_shape(6, 2);
  const GridShape semi = level_shape(6, 2, Coarsening::SemiY);
  const Stencil9 A = discretize(rotated_anisotropic_tensor(1e-2, 30), fine.hx(), fine.hy());
  CpuBackend cpu(2);
  (void)cpu.make_vector(fine);  // sizes the fused restriction's row scratch, as the solver's fields do
  CudaBackend gpu(false);
  const Field v0 = random_field(fine, 1), f0 = random_field(fine, 2), c0 = random_field(coarse, 3);
  struct Pair {
    Field host;
    DeviceField device;
  };
  auto both = [&](const Field& x) {
    Pair p{x, DeviceField(x.shape())};
    gpu.upload(x, p.device);
    return p;
  };
  auto expect_same = [&](const Pair& p, const char* what) {
    EXPECT_LT(relative_difference(p.host, download(gpu, p.device)), 1e-13) << what;
  };
  const Pair f = both(f0);
  {
    Pair v = both(v0), out = both(Field(fine));
    cpu.jacobi(A, 0.8, v.host, f.host, out.host);
    gpu.jacobi(A, 0.8, v.device, f.device, out.device);
    expect_same(out, "jacobi");
  }
  for (bool reverse : {false, true}) {
    Pair v = both(v0);
    cpu.gauss_seidel(A, v.host, f.host, reverse);
    gpu.gauss_seidel(A, v.device, f.device, reverse);
    expect_same(v, "gauss_seidel");
  }
  for (bool odd_first : {true, false}) {
    const auto x_line = TridiagonalFactor::constant(A.a[1][0], A.a[1][1], A.a[1][2], fine.nx);
    const auto y_line = TridiagonalFactor::constant(A.a[0][1], A.a[1][1], A.a[2][1], fine.ny);
    Pair v = both(v0);
    Pair w = both(v0);
    cpu.zebra_x(A, x_line, v.host, f.host, odd_first);
    gpu.zebra_x(A, gpu.make_line_factor(x_line), v.device, f.device, odd_first);
    expect_same(v, "zebra_x");
    CudaBackend by_pcr(false, LineSolver::Pcr);
    const CudaBackend::LineFactor pcr_line = by_pcr.make_line_factor(x_line);
    EXPECT_TRUE(pcr_line.pcr);
    cpu.zebra_x(A, x_line, w.host, f.host, odd_first);
    by_pcr.zebra_x(A, pcr_line, w.device, f.device, odd_first);
    Field w_gpu;
    by_pcr.download(w.device, w_gpu);
    EXPECT_LT(relative_difference(w.host, w_gpu), 1e-12) << "zebra_x by cyclic reduction";
    cpu.zebra_y(A, y_line, v.host, f.host, odd_first);
    gpu.zebra_y(A, gpu.make_line_factor(y_line), v.device, f.device, odd_first);
    expect_same(v, "zebra_y");
  }
  for (Coarsening c : {Coarsening::Full, Coarsening::SemiY}) {
    const GridShape cs = c == Coarsening::Full ? coarse : semi;
    Pair v = both(v0), fc = both(Field(cs)), vc = both(random_field(cs, 4));
    cpu.restrict_residual(A, v.host, f.host, fc.host, c);
    gpu.restrict_residual(A, v.device, f.device, fc.device, c);
    expect_same(fc, "restrict_residual");
    cpu.prolong_add(vc.host, v.host, c);
    gpu.prolong_add(vc.device, v.device, c);
    expect_same(v, "prolong_add");
  }
  // The coarsest level's banded LU: a single x-line (semi-coarsening) and 2D coarsest
  // grids (full coarsening stops at 1x1; a 2D one comes from fewer levels or by hand).
  for (const GridShape cs : {GridShape{31, 1}, GridShape{7, 7}, GridShape{15, 3}}) {
    const Stencil9 Ac = discretize(rotated_anisotropic_tensor(1e-2, 30), cs.hx(), cs.hy());
    const BandedLU lu(Ac, cs);
    Pair fc = both(random_field(cs, 5)), vc = both(Field(cs));
    cpu.coarse_solve(lu, fc.host, vc.host);
    gpu.coarse_solve(gpu.make_coarse_solver(lu), fc.device, vc.device);
    expect_same(vc, "coarse_solve");
  }
  {  // fill covers the ring too; copy the whole field
    Pair x = both(v0), y = both(Field(fine));
    cpu.fill(x.host, -2.5);
    gpu.fill(x.device, -2.5);
    EXPECT_TRUE(bitwise_equal(x.host, download(gpu, x.device))) << "fill";
    Pair z = both(v0);
    cpu.copy(z.host, y.host);
    gpu.copy(z.device, y.device);
    EXPECT_TRUE(bitwise_equal(y.host, download(gpu, y.device))) << "copy";
  }
  for (FieldView view : {FieldView::Iterate, FieldView::Residual, FieldView::RightHandSide})
    for (bool with_exact : {false, true}) {  // the visualizer's picture of a level
      const Pair v = both(v0), exact = both(random_field(fine, 6));
      std::vector<float> on_cpu(fine.unknowns()), on_gpu(fine.unknowns());
      cpu.image(A, view, v.host, f.host, with_exact ? &exact.host : nullptr, on_cpu.data());
      cuda::DeviceBuffer<float> pixels(fine.unknowns());
      gpu.image(A, view, v.device, f.device, with_exact ? &exact.device : nullptr, pixels.data());
      gpu.download(pixels.data(), pixels.size(), on_gpu.data());
      float diff = 0, scale = 0;
      for (std::size_t k = 0; k < on_cpu.size(); ++k) {
        diff = std::max(diff, std::abs(on_cpu[k] - on_gpu[k]));
        scale = std::max(scale, std::abs(on_cpu[k]));
      }
      EXPECT_LE(diff, 1e-6f * scale) << "image view " << int(view) << " exact=" << with_exact;
    }
  {
    Pair v = both(v0), r = both(Field(fine)), q = both(Field(fine)), c = both(c0.shape() == fine ? c0 : v0);
    cpu.residual(A, v.host, f.host, r.host);
    gpu.residual(A, v.device, f.device, r.device);
    expect_same(r, "residual");
    cpu.apply(A, v.host, q.host);
    gpu.apply(A, v.device, q.device);
    expect_same(q, "apply");
    EXPECT_NEAR(gpu.dot(v.device, f.device) / cpu.dot(v.host, f.host), 1.0, 1e-13) << "dot";
    EXPECT_EQ(gpu.dot(v.device, f.device), gpu.dot(v.device, f.device)) << "dot is deterministic";
    cpu.axpy(0.3, f.host, v.host);
    gpu.axpy(0.3, f.device, v.device);
    expect_same(v, "axpy");
    cpu.xpay(f.host, -0.7, v.host);
    gpu.xpay(f.device, -0.7, v.device);
    expect_same(v, "xpay");
    cpu.triad(0.5, f.host, r.host, c.host);
    gpu.triad(0.5, f.device, r.device, c.device);
    expect_same(c, "triad");
  }
}

}  // namespace
}  // namespace kcycle
