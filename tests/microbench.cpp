// Google Benchmark of the CPU backend's operations and of whole cycles. Bytes are the byte
// model's (byte_model.hpp: every array a pass touches streamed once), the same counts
// `kcycle bench` uses, so the rates compare with its STREAM triad.
#include <benchmark/benchmark.h>

#include <cstdlib>

#include "kcycle/backends/cpu/cpu_backend.hpp"
#include "kcycle/core/problem.hpp"
#include "kcycle/core/relaxation_factor.hpp"
#include "kcycle/cycle/byte_model.hpp"
#include "kcycle/solve/multigrid.hpp"
#include "kcycle/solve/solver_options.hpp"

namespace kcycle {
namespace {

// The thread team's size: KCYCLE_THREADS, or every core this process may use.
int bench_threads() {
  const char* t = std::getenv("KCYCLE_THREADS");
  return t ? std::atoi(t) : 0;
}

struct Fine {
  explicit Fine(int levels)
      : shape(full_coarsening_shape(levels, 1)),
        coarse(full_coarsening_shape(levels, 2)),
        v(be.make_vector(shape)),
        f(be.make_vector(shape)),
        out(be.make_vector(shape)),
        fc(be.make_vector(coarse)),
        vc(be.make_vector(coarse)),
        A(scaled(rotated_anisotropic_stencil(1e-4, 45), 1.0 / (shape.hx() * shape.hx()))) {
    fill_uniform_random(v, 1);
    fill_uniform_random(f, 2);
    fill_uniform_random(vc, 3);
  }
  CpuBackend be{bench_threads()};
  GridShape shape, coarse;
  Field v, f, out, fc, vc;
  Stencil9 A;
};

void BM_Jacobi(benchmark::State& state) {
  Fine d(int(state.range(0)));
  for (auto _ : state) d.be.jacobi(d.A, 0.8, d.v, d.f, d.out);
  state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(pass_bytes::jacobi(d.shape)));
}
void BM_GaussSeidel(benchmark::State& state) {
  Fine d(int(state.range(0)));
  for (auto _ : state) d.be.gauss_seidel(d.A, d.v, d.f, false);
  state.SetBytesProcessed(std::int64_t(state.iterations()) *
                          std::int64_t(relaxation_bytes(Smoother::GaussSeidel, d.shape)));
}
void BM_ZebraX(benchmark::State& state) {
  Fine d(int(state.range(0)));
  const TridiagonalFactor line = TridiagonalFactor::constant(d.A.a[1][0], d.A.a[1][1], d.A.a[1][2], d.shape.nx);
  for (auto _ : state) d.be.zebra_x(d.A, line, d.v, d.f, true);
  state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(relaxation_bytes(Smoother::XZebra, d.shape)));
}
// The same sweeps as one pipelined pass; bytes_per_second counts the separate passes' bytes,
// so the two rates compare as speeds.
void BM_GaussSeidelPipelined(benchmark::State& state) {
  Fine d(int(state.range(0)));
  for (auto _ : state) d.be.gauss_seidel_pipelined(d.A, d.v, d.f, false);
  state.SetBytesProcessed(std::int64_t(state.iterations()) *
                          std::int64_t(relaxation_bytes(Smoother::GaussSeidel, d.shape)));
}
void BM_ZebraXPipelined(benchmark::State& state) {
  Fine d(int(state.range(0)));
  const TridiagonalFactor line = TridiagonalFactor::constant(d.A.a[1][0], d.A.a[1][1], d.A.a[1][2], d.shape.nx);
  for (auto _ : state) d.be.zebra_x_pipelined(d.A, line, d.v, d.f, true);
  state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(relaxation_bytes(Smoother::XZebra, d.shape)));
}
void BM_ZebraY(benchmark::State& state) {
  Fine d(int(state.range(0)));
  const TridiagonalFactor line = TridiagonalFactor::constant(d.A.a[0][1], d.A.a[1][1], d.A.a[2][1], d.shape.ny);
  for (auto _ : state) d.be.zebra_y(d.A, line, d.v, d.f, true);
  state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(relaxation_bytes(Smoother::YZebra, d.shape)));
}
void BM_RestrictResidual(benchmark::State& state) {
  Fine d(int(state.range(0)));
  for (auto _ : state) d.be.restrict_residual(d.A, d.v, d.f, d.fc);
  state.SetBytesProcessed(std::int64_t(state.iterations()) *
                          std::int64_t(pass_bytes::restrict_residual(d.shape, d.coarse)));
}
void BM_ProlongAdd(benchmark::State& state) {
  Fine d(int(state.range(0)));
  for (auto _ : state) d.be.prolong_add(d.vc, d.v);
  state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(pass_bytes::prolong_add(d.shape, d.coarse)));
}
// The fused passes with nu = 2 sweeps; "sweeps" counts point updates per second (compute rate).
void BM_JacobiRestrictResidual(benchmark::State& state) {
  Fine d(int(state.range(0)));
  for (auto _ : state) d.be.jacobi_restrict_residual(d.A, 0.8, 2, d.v, d.f, d.out, d.fc);
  state.SetBytesProcessed(std::int64_t(state.iterations()) *
                          std::int64_t(pass_bytes::jacobi_restrict_residual(d.shape, d.coarse)));
  state.counters["updates"] =
      benchmark::Counter(2.0 * double(d.shape.unknowns()) * double(state.iterations()), benchmark::Counter::kIsRate);
}
void BM_ProlongAddJacobi(benchmark::State& state) {
  Fine d(int(state.range(0)));
  for (auto _ : state) d.be.prolong_add_jacobi(d.A, 0.8, 2, d.vc, d.v, d.f, d.out);
  state.SetBytesProcessed(std::int64_t(state.iterations()) *
                          std::int64_t(pass_bytes::prolong_add_jacobi(d.shape, d.coarse)));
  state.counters["updates"] =
      benchmark::Counter(2.0 * double(d.shape.unknowns()) * double(state.iterations()), benchmark::Counter::kIsRate);
}
// MGCG's own passes per iteration: the two it runs (A p recomputed, never stored) and the four
// of the unfused sequence with q = A p stored; bytes as each moves them.
struct CgVectors : Fine {
  explicit CgVectors(int levels) : Fine(levels), p(be.make_vector(shape)), q(be.make_vector(shape)) {
    fill_uniform_random(p, 4);
  }
  Field p, q;
};
void BM_CgTwoPasses(benchmark::State& state) {
  CgVectors d(int(state.range(0)));
  for (auto _ : state) {
    benchmark::DoNotOptimize(d.be.xpay_energy(d.A, d.f, 0.5, d.p));
    benchmark::DoNotOptimize(d.be.update_x_and_r(1e-3, d.A, d.p, d.v, d.out, nullptr));
  }
  state.SetBytesProcessed(std::int64_t(state.iterations()) *
                          std::int64_t(pass_bytes::xpay_energy(d.shape) + pass_bytes::update_x_and_r(d.shape, false)));
}
void BM_CgStoredAp(benchmark::State& state) {
  CgVectors d(int(state.range(0)));
  for (auto _ : state) {
    d.be.xpay(d.f, 0.5, d.p);
    benchmark::DoNotOptimize(d.be.apply_dot(d.A, d.p, d.q));
    benchmark::DoNotOptimize(d.be.axpy_norm2(1e-3, d.p, d.v, nullptr));
    benchmark::DoNotOptimize(d.be.axpy_norm2(-1e-3, d.q, d.out, nullptr));
  }
  state.SetBytesProcessed(std::int64_t(state.iterations()) *
                          std::int64_t(pass_bytes::three_arrays(d.shape) + pass_bytes::apply_dot(d.shape) +
                                       2 * pass_bytes::axpy_norm2(d.shape, false)));
}
void BM_XpayEnergy(benchmark::State& state) {
  CgVectors d(int(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(d.be.xpay_energy(d.A, d.f, 0.5, d.p));
  state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(pass_bytes::xpay_energy(d.shape)));
}
void BM_UpdateXAndR(benchmark::State& state) {
  CgVectors d(int(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(d.be.update_x_and_r(1e-3, d.A, d.p, d.v, d.out, nullptr));
  state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(pass_bytes::update_x_and_r(d.shape, false)));
}
void BM_AxpyNorm2(benchmark::State& state) {
  CgVectors d(int(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(d.be.axpy_norm2(1e-3, d.p, d.v, nullptr));
  state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(pass_bytes::axpy_norm2(d.shape, false)));
}

void BM_Cycle(benchmark::State& state) {
  CpuBackend be(bench_threads());
  MultigridSettings s;
  s.levels = int(state.range(0));
  s.tensor = rotated_anisotropic_tensor(1e-4, 45);
  s.omega = paper_jacobi_omega(1e-4, 45);
  Multigrid<CpuBackend> mg(be, s);
  Field guess = be.make_vector(mg.level(1).shape);
  fill_uniform_random(guess, 1);
  const int kappa = state.range(1) == 0 ? kKappaW : int(state.range(1));
  for (auto _ : state) {
    state.PauseTiming();  // same start each time: no denormals, same work
    be.copy(guess, mg.level(1).v);
    state.ResumeTiming();
    mg.cycle({CycleType::Kappa, kappa});
  }
  // As implemented; the counter "unfused_bytes" is what a plain unfused cycle would move.
  const CycleBytes bytes = cycle_bytes(s, kappa);
  state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(bytes.implemented));
  state.counters["unfused_bytes_per_second"] =
      benchmark::Counter(bytes.unfused * double(state.iterations()), benchmark::Counter::kIsRate);
}

BENCHMARK(BM_Jacobi)->DenseRange(5, 11)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RestrictResidual)->DenseRange(5, 11)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ProlongAdd)->DenseRange(5, 11)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_JacobiRestrictResidual)->DenseRange(5, 11)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ProlongAddJacobi)->DenseRange(5, 11)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GaussSeidel)->Arg(9)->Arg(11)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ZebraX)->Arg(9)->Arg(11)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GaussSeidelPipelined)->Arg(9)->Arg(11)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ZebraXPipelined)->Arg(9)->Arg(11)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ZebraY)->Arg(9)->Arg(11)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CgTwoPasses)->DenseRange(7, 12)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CgStoredAp)->DenseRange(7, 12)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_XpayEnergy)->Arg(11)->Arg(12)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_UpdateXAndR)->Arg(11)->Arg(12)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AxpyNorm2)->Arg(11)->Arg(12)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Cycle)->ArgsProduct({{9}, {1, 2, 3, 4, 0}})->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace kcycle

BENCHMARK_MAIN();
