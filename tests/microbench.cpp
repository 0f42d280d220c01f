// Google Benchmark of the CPU backend's operations and of whole cycles. Bytes are counted as
// the minimum memory traffic (24 bytes per fine point for a sweep), so the rates compare
// with `kcycle bench`'s STREAM triad.
#include <benchmark/benchmark.h>

#include "kcycle/cpu_backend.hpp"
#include "kcycle/problem.hpp"
#include "kcycle/relaxation_factor.hpp"
#include "kcycle/solver_options.hpp"

namespace kcycle {
namespace {

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
  CpuBackend be{0};
  GridShape shape, coarse;
  Field v, f, out, fc, vc;
  Stencil9 A;
};

void BM_Jacobi(benchmark::State& state) {
  Fine d(int(state.range(0)));
  for (auto _ : state) d.be.jacobi(d.A, 0.8, d.v, d.f, d.out);
  state.SetBytesProcessed(std::int64_t(state.iterations()) * 24 * std::int64_t(d.shape.unknowns()));
}
void BM_RestrictResidual(benchmark::State& state) {
  Fine d(int(state.range(0)));
  for (auto _ : state) d.be.restrict_residual(d.A, d.v, d.f, d.fc);
  state.SetBytesProcessed(std::int64_t(state.iterations()) * 18 * std::int64_t(d.shape.unknowns()));
}
void BM_ProlongAdd(benchmark::State& state) {
  Fine d(int(state.range(0)));
  for (auto _ : state) d.be.prolong_add(d.vc, d.v);
  state.SetBytesProcessed(std::int64_t(state.iterations()) * 18 * std::int64_t(d.shape.unknowns()));
}
void BM_Cycle(benchmark::State& state) {
  CpuBackend be(0);
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
}

BENCHMARK(BM_Jacobi)->Arg(9)->Arg(11)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RestrictResidual)->Arg(9)->Arg(11)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ProlongAdd)->Arg(9)->Arg(11)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Cycle)->ArgsProduct({{9}, {1, 2, 3, 4, 0}})->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace kcycle

BENCHMARK_MAIN();
