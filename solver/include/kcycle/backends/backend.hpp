#pragma once
// What a backend is: the operations Multigrid, the Krylov solvers, the timing and the
// visualizer's images issue, declared once. CpuBackend and CudaBackend both
// static_assert that they model it; generic code is written against it.
//
// Every operation is one or more counted "launches" (the paper's unit of overhead, α):
// restriction, zeroing and prolongation one each, a relaxation sweep
// launches_per_relaxation(smoother) (cycle/multigrid_choices.hpp).
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "kcycle/backends/backend_selection.hpp"
#include "kcycle/core/banded_lu.hpp"
#include "kcycle/core/field.hpp"
#include "kcycle/core/field_view.hpp"
#include "kcycle/core/grid.hpp"
#include "kcycle/core/stencil.hpp"
#include "kcycle/core/tridiagonal.hpp"
#include "kcycle/cycle/coarse_tail.hpp"

namespace kcycle {

// Where a solve or a timed cycle runs: a resolved backend (Cpu or Cuda), the CPU's threads,
// and whether the CUDA backend replays cycles as graphs. Every backend is constructible from it.
struct ExecutionTarget {
  BackendKind backend = BackendKind::Cpu;
  int threads = 0;  // 0: every core this process may use (available_cores())
  bool graphs = true;
  LineSolver line_solver = LineSolver::Auto;  // CUDA backend: x-line solves
  int ranks_x = 0, ranks_y = 0;               // MPI backend: the process grid (0, 0: MPI_Dims_create's choice)
  int min_points = 8;                         // MPI backend: fold ranks below this many points a side (Decomposition)
};

template <class B>
concept MultigridBackend = std::constructible_from<B, const ExecutionTarget&> &&
    requires(B& b, const B& cb, GridShape shape, const Stencil9& A, typename B::Vector& x, const typename B::Vector& cx,
             const typename B::LineFactor& line, const typename B::CoarseSolver& coarse, Field& host,
             const Field& chost, float* pixels, const float* cpixels, double s, bool flag, Coarsening c,
             const TridiagonalFactor& factor, const BandedLU& lu) {
  // Set-up: vectors, the zebra smoothers' line factors and the coarsest level's solver.
  { B::name() } -> std::convertible_to<std::string_view>;
  { B::kDeviceMemory } -> std::convertible_to<bool>;  // vectors live in device memory
  { b.make_vector(shape) } -> std::same_as<typename B::Vector>;
  { b.make_line_factor(factor) } -> std::same_as<typename B::LineFactor>;
  { b.make_coarse_solver(lu) } -> std::same_as<typename B::CoarseSolver>;
  { cx.shape() } -> std::convertible_to<GridShape>;
  // Multigrid operations.
  b.jacobi(A, s, cx, cx, x);
  b.gauss_seidel(A, x, cx, flag);
  b.zebra_x(A, line, x, cx, flag);
  b.zebra_y(A, line, x, cx, flag);
  b.restrict_residual(A, cx, cx, x, c);
  b.prolong_add(cx, x, c);
  b.coarse_solve(coarse, cx, x);
  // Vector operations (Krylov, norms, timing).
  b.fill(x, s);
  b.copy(cx, x);
  b.residual(A, cx, cx, x);
  b.apply(A, cx, x);
  { b.dot(cx, cx) } -> std::same_as<double>;
  { b.apply_dot(A, cx, x) } -> std::same_as<double>;
  { b.axpy_norm2(s, cx, x, &cx) } -> std::same_as<double>;
  { b.residual_norm2(A, cx, cx) } -> std::same_as<double>;
  b.axpy(s, cx, x);
  b.xpay(cx, s, x);
  b.triad(s, cx, cx, x);
  b.image(A, FieldView::Residual, cx, cx, &cx, pixels);
  // Host transfers (not counted) and completion.
  b.upload(chost, x);
  b.download(cx, host);
  b.download(cpixels, std::size_t{}, pixels);
  b.synchronize();
  // The launch and work counters.
  { cb.launches() } -> std::same_as<std::uint64_t>;
  { cb.points() } -> std::same_as<std::uint64_t>;
  { cb.bytes() } -> std::same_as<std::uint64_t>;
  b.reset_launches();
};

// What a recorded cycle depends on: the hierarchy it belongs to (first: the owner the backend
// gave it), the device buffers of every level and the cycle choice. A backend that records
// cycles keys its recordings by it.
using CycleSignature = std::vector<std::uintptr_t>;

// A backend that can replay a whole cycle as one recorded graph (CUDA Graphs): with
// graphs() on, Multigrid::cycle hands it the cycle's body to record once and replay.
struct CycleBody {  // stands for a cycle's body below (nvcc accepts no lambda there)
  void operator()() const {}
};
// Each hierarchy gets an owner number from the backend (never given twice) and drops its
// recordings when it goes.
template <class B>
concept RecordsCycles = MultigridBackend<B> && requires(B& b, const B& cb, const CycleSignature& key, std::uint64_t o) {
  { cb.graphs() } -> std::same_as<bool>;
  b.run_as_graph(key, CycleBody{});
  { b.new_recording_owner() } -> std::same_as<std::uint64_t>;
  b.forget_recordings(o);
};

// A backend that runs a hierarchy's coarse tail as one operation (MultigridSettings::
// coarse_tail_unknowns), given views of its line factors and coarsest solver.
template <class B>
concept RunsCoarseTails = MultigridBackend<B> &&
    requires(B& b, CoarseTail& tail, const typename B::LineFactor& line, const typename B::CoarseSolver& coarse,
             typename B::Vector& x) {
  b.coarse_tail(tail);
  { b.line_view(line) } -> std::same_as<level::LineView>;
  { b.coarse_view(coarse) } -> std::same_as<CoarseView>;
  { x.data() } -> std::same_as<double*>;
};

}  // namespace kcycle
