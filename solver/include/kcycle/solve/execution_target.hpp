#pragma once
// Where a solve or a timed cycle runs, and the one place that turns that into a backend.
#include <string>
#include <type_traits>
#include "kcycle/backends/backend.hpp"

#include "kcycle/backends/backend_selection.hpp"
#include "kcycle/backends/cpu/cpu_backend.hpp"
#include "kcycle/solve/multigrid.hpp"
#include "kcycle/solve/solver_options.hpp"
#if KCYCLE_HAVE_CUDA
#include "kcycle/backends/cuda/cuda_backend.hpp"
#endif
#if KCYCLE_HAVE_MPI
#include "kcycle/backends/mpi/mpi_backend.hpp"
#endif

namespace kcycle {

// ExecutionTarget is declared with the backend concept (backend.hpp).
// "cpu", "cuda" or "cuda+graphs".
std::string describe(const ExecutionTarget& target);

// Where `options` run on the resolved backend `kind`. The MPI process grid, where the options
// leave it to MPI: strips that keep the zebra smoother's lines on one rank (1 x P for x-zebra,
// P x 1 for y-zebra), else MPI_Dims_create's.
ExecutionTarget execution_target(BackendKind kind, const SolverOptions& options);

// The backend a target names, constructed for it (threads for the CPU, graphs for CUDA).
template <MultigridBackend Backend>
Backend make_backend(const ExecutionTarget& target) {
  return Backend(target);
}

// A backend that splits the hierarchy (MpiBackend) is told it before its vectors are made;
// for the others this does nothing. Returns the backend, to construct a Multigrid with.
template <MultigridBackend Backend>
Backend& prepared_for(Backend& backend, const MultigridSettings& settings) {
  if constexpr (Distributes<Backend>) backend.distribute(settings.levels, settings.coarsening);
  return backend;
}

// Calls body(std::type_identity<Backend>{}) with the backend type `kind` names and returns
// what it returns. Cuda in a build without CUDA throws InvalidOptions with the reason.
template <class Body>
decltype(auto) with_backend_type(BackendKind kind, Body&& body) {
#if KCYCLE_HAVE_CUDA
  if (kind == BackendKind::Cuda) return body(std::type_identity<CudaBackend>{});
#endif
#if KCYCLE_HAVE_MPI
  if (kind == BackendKind::Mpi) return body(std::type_identity<MpiBackend>{});
#endif
  if (kind != BackendKind::Cpu)
    (void)resolve_backend(kind == BackendKind::Mpi ? kind : BackendKind::Cuda);  // throws why
  return body(std::type_identity<CpuBackend>{});
}

// Calls body(backend) with a backend made for `target`.
template <class Body>
decltype(auto) on_target(const ExecutionTarget& target, Body&& body) {
  return with_backend_type(target.backend, [&]<class Backend>(std::type_identity<Backend>) -> decltype(auto) {
    Backend backend = make_backend<Backend>(target);
    return body(backend);
  });
}

}  // namespace kcycle
