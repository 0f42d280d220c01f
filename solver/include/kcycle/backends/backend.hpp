#pragma once
// What a backend is: the operations Multigrid, the Krylov solvers, the timing and the
// visualizer's images issue, declared once: the core every backend has. CpuBackend, CudaBackend
// and MpiBackend static_assert that they model it; generic code is written against it. What
// only some backends can do is a capability (capabilities.hpp).
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
             const Field& chost, float* pixels, double s, bool flag, Coarsening c, const TridiagonalFactor& factor,
             const BandedLU& lu) {
  // Set-up: vectors, the zebra smoothers' line factors and the coarsest level's solver.
  { B::name() } -> std::convertible_to<std::string_view>;
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
  b.synchronize();
  // The launch and work counters.
  { cb.launches() } -> std::same_as<std::uint64_t>;
  { cb.points() } -> std::same_as<std::uint64_t>;
  { cb.bytes() } -> std::same_as<std::uint64_t>;
  b.reset_launches();
};

}  // namespace kcycle
