// The thread team against oneTBB (issue 23: "pick by measurement"): the same row body, a
// Jacobi sweep, run as a cycle runs its passes (down through the levels and back, a level's
// pass between coarser ones the caller does alone), scheduled by kcycle's ThreadTeam, by
// tbb::parallel_for (auto and static partitioners), and on one thread. Not a test: run
// build/bin/kcycle_team_bench (KCYCLE_THREADS sets the thread count; default all cores), quiet
// and beside a busy process.
#include <benchmark/benchmark.h>
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/partitioner.h>

#include <cstdlib>
#include <vector>

#include "kcycle/backends/cpu/available_cores.hpp"
#include "kcycle/backends/cpu/row_blocks.hpp"
#include "kcycle/backends/cpu/thread_team.hpp"
#include "kcycle/core/field.hpp"
#include "kcycle/core/grid.hpp"
#include "kcycle/core/kernels.hpp"
#include "kcycle/core/problem.hpp"
#include "kcycle/core/stencil.hpp"

namespace kcycle {
namespace {

int bench_threads() {
  const char* t = std::getenv("KCYCLE_THREADS");
  return t && std::atoi(t) > 0 ? std::atoi(t) : available_cores();
}

// Levels `top` down to 2: v, f and the sweep's output per level.
struct Hierarchy {
  explicit Hierarchy(int top) {
    for (int n = top; n >= 2; --n) {
      const GridShape shape = full_coarsening_shape(n, 1);
      Level l{shape, Field(shape), Field(shape), Field(shape),
              scaled(rotated_anisotropic_stencil(1e-4, 45), 1.0 / (shape.hx() * shape.hx()))};
      fill_uniform_random(l.v, 1);
      fill_uniform_random(l.f, 2);
      levels.push_back(std::move(l));
    }
  }
  struct Level {
    GridShape shape;
    Field v, f, out;
    Stencil9 A;
  };
  std::vector<Level> levels;
};

void sweep_rows(Hierarchy::Level& l, int first, int end) {
  const BasicStencil9<double> S = l.A;
  const double w = 0.8 / l.A.center();
  for (int j = first; j < end; ++j) {
    const double *vm = l.v.row(j - 1), *v0 = l.v.row(j), *vp = l.v.row(j + 1), *f0 = l.f.row(j);
    double* o = l.out.row(j);
#pragma omp simd
    for (int i = 1; i <= l.shape.nx; ++i) o[i] = kernels::jacobi(S, w, vm, v0, vp, f0, i);
  }
}

// A V-like sequence: every level's sweep on the way down and up; levels below 63^2 on the
// calling thread, as the backend runs them. `parallel(level)` runs one level's sweep.
template <class Parallel>
void cycle(Hierarchy& h, Parallel&& parallel) {
  auto visit = [&](Hierarchy::Level& l) {
    if (l.shape.unknowns() >= 2048)
      parallel(l);
    else
      sweep_rows(l, 1, l.shape.ny + 1);
  };
  for (auto& l : h.levels) visit(l);
  for (auto it = h.levels.rbegin(); it != h.levels.rend(); ++it) visit(*it);
}

void BM_Serial(benchmark::State& state) {
  Hierarchy h(int(state.range(0)));
  for (auto _ : state) cycle(h, [](Hierarchy::Level& l) { sweep_rows(l, 1, l.shape.ny + 1); });
}

void BM_ThreadTeam(benchmark::State& state) {
  Hierarchy h(int(state.range(0)));
  ThreadTeam team(bench_threads());
  const int chunks = 2 * team.size();
  for (auto _ : state)
    cycle(h, [&](Hierarchy::Level& l) {
      team.run(chunks, [&](int c, int) {
        const detail::RowRange rows = detail::block_of(l.shape.ny, c, chunks);
        sweep_rows(l, rows.begin, rows.end);
      });
    });
}

template <class Partitioner>
void tbb_cycle(benchmark::State& state) {
  Hierarchy h(int(state.range(0)));
  const oneapi::tbb::global_control threads(oneapi::tbb::global_control::max_allowed_parallelism,
                                            std::size_t(bench_threads()));
  for (auto _ : state)
    cycle(h, [&](Hierarchy::Level& l) {
      Partitioner partitioner;
      oneapi::tbb::parallel_for(
          oneapi::tbb::blocked_range<int>(1, l.shape.ny + 1),
          [&](const oneapi::tbb::blocked_range<int>& r) { sweep_rows(l, r.begin(), r.end()); }, partitioner);
    });
}
void BM_TbbAuto(benchmark::State& state) { tbb_cycle<oneapi::tbb::auto_partitioner>(state); }
void BM_TbbStatic(benchmark::State& state) { tbb_cycle<oneapi::tbb::static_partitioner>(state); }

BENCHMARK(BM_Serial)->DenseRange(7, 10)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ThreadTeam)->DenseRange(7, 10)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TbbAuto)->DenseRange(7, 10)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TbbStatic)->DenseRange(7, 10)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace kcycle

BENCHMARK_MAIN();
