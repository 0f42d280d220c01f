#pragma once
// What IterativeSolver drives: the solve's state on one backend (an engine), behind one
// interface, so the stopping rules (iterative_solver.cpp) are written once for every backend.
// The engine: EngineOn<Backend, Cycle> (backend_engine.cpp), in double or with the hierarchy in
// float (mixed precision). Private to the library.
#include <array>
#include <cmath>
#include <memory>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

#include "kcycle/solve/iterative_solver.hpp"
#include "kcycle/solve/krylov.hpp"
#include "kcycle/solve/resolved_run.hpp"

namespace kcycle {

class IterativeSolver::Engine {
 public:
  virtual ~Engine() = default;
  virtual int levels() const = 0;
  virtual GridShape shape(int level) const = 0;
  virtual StepResult step(const CycleHooks& hooks) = 0;
  virtual std::uint64_t launches() const = 0;
  virtual void set_level_timing(bool on) = 0;
  virtual std::vector<LevelStats> level_stats() const = 0;
  // A distributed backend's communication per level over all ranks (a collective); else empty.
  virtual std::vector<CommStats> comm_stats_all_ranks() { return {}; }
  virtual std::array<int, 2> process_grid() const { return {1, 1}; }
  // Each time replaced by the slowest rank's (a collective on a process grid; elsewhere nothing).
  virtual void take_slowest_rank(std::span<double> /*seconds*/) {}
  virtual double error_norm() = 0;     // of the iterate, h-scaled L2
  virtual double residual_norm() = 0;  // of the iterate, h-scaled L2 (f - A x computed)
  // Both of the step's new iterate, from the step's own passes where it has them (the cycle's
  // sums pass; CG: residual_recursive), else from passes of their own.
  struct Norms {
    double error = NAN, residual = NAN;
    bool residual_recursive = false;
  };
  virtual Norms norms_after_step() = 0;
  // CG's last alpha and beta (NaN stand-alone).
  virtual std::array<double, 2> cg_coefficients() const { return {NAN, NAN}; }
  // The picture of `level` into *out (when given), on the device into *on_device (when given
  // and the backend keeps one), and its range into *range (when given).
  virtual void image(int level, FieldView view, std::vector<float>* out, std::shared_ptr<const DeviceImage>* on_device,
                     std::array<float, 2>* range) = 0;
  virtual Field iterate() = 0;
  virtual bool device_memory() const { return false; }
  virtual std::vector<std::shared_ptr<const DeviceImage>> pictures() const { return {}; }
  // The grid arrays it holds, as memory_account() names them (MPI: this rank's blocks).
  virtual std::vector<HeldArray> held_arrays() const = 0;
};

// A solve of `run` on its backend, holding the problem's arrays (mixed precision: on the CPU,
// the hierarchy in float).
std::unique_ptr<IterativeSolver::Engine> make_engine(const ResolvedRun& run, const SolverOptions& options,
                                                     DiscreteProblem&& problem);

// What the engine's parts share: the memory account, pictures on the host, and the problem's
// arrays taken as its own.
namespace engine_parts {

// The bytes a vector of backend B holds (a distributed backend's: this rank's block, its ring
// included).
template <MultigridBackend B>
std::size_t bytes_held(const typename B::Vector& v) {
  if constexpr (Distributes<B>)
    return v.local.values().size_bytes();
  else
    return v.data() ? v.shape().storage() * sizeof(*v.data()) : 0;
}

template <MultigridBackend B>
void add_held(std::vector<HeldArray>& out, int level, const char* purpose, const typename B::Vector& v) {
  if (const std::size_t bytes = bytes_held<B>(v); bytes > 0) out.push_back({level, purpose, bytes});
}

template <MultigridBackend B>
void add_hierarchy(std::vector<HeldArray>& out, const Multigrid<B>& mg) {
  for (int l = 1; l <= mg.levels(); ++l) {
    add_held<B>(out, l, "v (iterate or correction)", mg.level(l).v);
    add_held<B>(out, l, "f (right-hand side)", mg.level(l).f);
    add_held<B>(out, l, "t (Jacobi's output)", mg.level(l).t);
  }
}

template <MultigridBackend B, class Preconditioner>
void add_cg(std::vector<HeldArray>& out, const std::optional<PreconditionedCG<B, Preconditioner>>& cg) {
  if (cg)
    for (const auto& [purpose, v] : cg->own_vectors()) add_held<B>(out, 1, purpose, *v);
}

inline std::array<float, 2> range_of(const std::vector<float>& values) {
  if (values.empty()) return {0.0f, 0.0f};
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  return {*lo, *hi};
}

// A host backend's picture: drawn into *out, or into `scratch` when only its range is asked for.
template <class Draw>
void host_picture(std::vector<float>* out, std::vector<float>& scratch, std::size_t count,
                  std::shared_ptr<const DeviceImage>* on_device, std::array<float, 2>* range, Draw&& draw) {
  std::vector<float>& values = out ? *out : scratch;
  values.resize(count);
  draw(values.data());
  if (on_device) on_device->reset();
  if (range) *range = range_of(values);
}

// A problem's host array into a backend's vector: moved where the backend's vectors are host
// fields (no second copy beside the first during the set-up, and a zero right-hand side stays
// pages never written), else uploaded.
template <class Backend>
void take(Backend& backend, Field&& host, typename Backend::Vector& vector) {
  if constexpr (std::is_same_v<typename Backend::Vector, Field>)
    vector = std::move(host);
  else
    backend.upload(host, vector);
}

}  // namespace engine_parts

}  // namespace kcycle
