#pragma once
// What a backend can do beyond the core every backend has (backend.hpp), one trait each, with
// the operations that belong to it. The planner, the executor, the solvers and the timing read
// these traits; generic code never asks a backend for a member by name.
//
//   trait              what it adds                                     who has it
//   FusesPasses        fused Jacobi passes, pipelined sweeps            CpuBackend
//   RunsCoarseTails    a cycle's coarse levels as one operation         CpuBackend (double), CudaBackend
//   RecordsCycles      a cycle recorded once and replayed as a graph    CudaBackend
//   RunsTwoPassCg      MGCG's iteration as two passes of its own        CpuBackend
//   Distributes        the hierarchy split over MPI ranks               MpiBackend
//   CountsTeamPasses   a thread team's synchronisation points per level CpuBackend
//   DrawsOnDevice      pictures kept in device memory, their range there  CudaBackend
//
// A new capability is one concept here, its operations on the backends that have it, and the
// places that branch on it (if constexpr); capabilities_of<B>() is what the planner sees.
#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "kcycle/backends/backend.hpp"
#include "kcycle/backends/mpi/mpi_decomposition.hpp"
#include "kcycle/core/field.hpp"
#include "kcycle/cycle/cycle_schedule.hpp"

namespace kcycle {

// The fused Jacobi passes and the pipelined sweeps (MultigridSettings::fused).
template <class B>
concept FusesPasses = MultigridBackend<B> &&
    requires(B& be, typename B::Vector& x, const Stencil9& A, const typename B::LineFactor& line) {
  be.jacobi_restrict_residual(A, 0.0, 1, x, x, x, x, Coarsening{}, true);
  be.prolong_add_jacobi(A, 0.0, 1, x, x, x, x, Coarsening{}, static_cast<double*>(nullptr),
                        static_cast<double*>(nullptr), static_cast<double*>(nullptr));
  be.gauss_seidel_pipelined(A, x, x, true);
  be.zebra_x_pipelined(A, line, x, x, true);
  be.restrict_residual_and_zero(A, x, x, x, x, Coarsening{});
};

// A hierarchy's coarse tail as one operation (MultigridSettings::coarse_tail_unknowns), given
// views of its line factors and coarsest solver.
template <class B>
concept RunsCoarseTails = MultigridBackend<B> &&
    requires(B& b, CoarseTail& tail, const typename B::LineFactor& line, const typename B::CoarseSolver& coarse,
             typename B::Vector& x) {
  b.coarse_tail(tail);
  { b.line_view(line) } -> std::same_as<level::LineView>;
  { b.coarse_view(coarse) } -> std::same_as<CoarseView>;
  { x.data() } -> std::same_as<double*>;
};

// What a recorded cycle depends on: the hierarchy it belongs to (first: the owner the backend
// gave it), the device buffers of every level and the cycle choice. A backend that records
// cycles keys its recordings by it.
using CycleSignature = std::vector<std::uintptr_t>;

struct CycleBody {  // stands for a cycle's body below (nvcc accepts no lambda there)
  void operator()() const {}
};

// A whole cycle replayed as one recorded graph (CUDA Graphs): with graphs() on, Multigrid::cycle
// hands it the cycle's body to record once and replay. Each hierarchy gets an owner number
// from the backend (never given twice) and drops its recordings when it goes.
template <class B>
concept RecordsCycles = MultigridBackend<B> && requires(B& b, const B& cb, const CycleSignature& key, std::uint64_t o) {
  { cb.graphs() } -> std::same_as<bool>;
  b.run_as_graph(key, CycleBody{});
  { b.new_recording_owner() } -> std::same_as<std::uint64_t>;
  b.forget_recordings(o);
};

// MGCG's iteration as two passes of its own: p <- z + beta p with (p, A p), and x <- x + alpha p
// with r <- r - alpha A p, A p recomputed in each (9 flops a point), never written to memory
// (64 bytes a point in double instead of 80), on finest grids of at least B::kTwoPassCgUnknowns,
// where that pays (CgStepPlan decides). Z is the type of CG's z (the float hierarchy's own under
// mixed precision).
template <class B, class Z>
concept RunsTwoPassCg = MultigridBackend<B> &&
    requires(B& b, const Stencil9& A, const Z& z, typename B::Vector& v, FloatField* rounded) {
  { B::kTwoPassCgUnknowns } -> std::convertible_to<std::size_t>;
  { b.xpay_energy(A, z, 1.0, v) } -> std::same_as<double>;
  b.update_x_and_r(1.0, A, v, v, v, &v, rounded);
  { b.dot_apply(z, A, v) } -> std::same_as<double>;
};

// The hierarchy split over MPI ranks: told the hierarchy before its vectors are made
// (distribute), each vector holding this rank's block (`local`), collectives every rank calls.
template <class B>
concept Distributes = MultigridBackend<B> &&
    requires(B& b, const B& cb, int levels, Coarsening c, bool mine, const typename B::Vector& x) {
  b.distribute(levels, c);
  cb.decomposition();
  { cb.ranks() } -> std::same_as<int>;
  { cb.px() } -> std::same_as<int>;
  { cb.py() } -> std::same_as<int>;
  { b.any_rank(mine) } -> std::same_as<bool>;
  { b.comm_stats_all_ranks() } -> std::same_as<std::vector<CommStats>>;
  x.local.values();
};

// A thread team whose synchronisation points (one per pass handed to it) are counted per level,
// by the level's rows.
template <class B>
concept CountsTeamPasses = MultigridBackend<B> && requires(const B& cb, int rows) {
  { cb.team_passes(rows) } -> std::same_as<std::uint64_t>;
};

// Vectors, and the visualizer's pictures of them, in device memory: a picture (image()) stays
// there, its smallest and largest value are reduced there (two floats back), and its floats come
// to the host only when something there shows them. A host backend draws into host memory.
template <class B>
concept DrawsOnDevice = MultigridBackend<B> && requires(B& b, const float* on_device, float* host) {
  { b.value_range(on_device, std::size_t{}) } -> std::same_as<std::array<float, 2>>;
  b.download(on_device, std::size_t{}, host);
};

// What the planner may schedule on B (CycleSchedule::plan, CgStepPlan::plan).
template <class B>
constexpr Capabilities capabilities_of() {
  Capabilities can{FusesPasses<B>, RunsCoarseTails<B>};
  if constexpr (RunsTwoPassCg<B, typename B::Vector>) can.two_pass_cg_from = B::kTwoPassCgUnknowns;
  return can;
}

}  // namespace kcycle
