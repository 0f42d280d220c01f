#pragma once
// A solve that advances one iteration at a time: the stand-alone cycle, or CG / flexible CG
// preconditioned by one cycle. solve() loops over it; the visualizer's worker steps it,
// reads any level's field between steps, and may watch every operation inside a cycle.
#include <optional>
#include <vector>

#include "kcycle/cpu_backend.hpp"
#include "kcycle/krylov.hpp"
#include "kcycle/multigrid.hpp"
#include "kcycle/problem.hpp"
#include "kcycle/solve.hpp"

namespace kcycle {

class IterativeSolver {
 public:
  // Validates the options (throws InvalidOptions) and sets up hierarchy, problem and norms.
  IterativeSolver(const SolverOptions& options, DiscreteProblem problem);
  IterativeSolver(const IterativeSolver&) = delete;
  IterativeSolver& operator=(const IterativeSolver&) = delete;

  // One iteration; updates the status (Running until converged, diverged, NaN, breakdown or
  // the iteration limit). `observer` sees every operation of the cycle and may throw.
  const IterationRecord& step(Trace* trace = nullptr, const OpObserver* observer = nullptr);
  void cancel() { status_ = SolveStatus::Cancelled; }

  SolveStatus status() const { return status_; }
  bool running() const { return status_ == SolveStatus::Running; }
  const std::vector<IterationRecord>& history() const { return history_; }
  const SolverOptions& options() const { return options_; }
  const DiscreteProblem& problem() const { return problem_; }
  const Field& iterate() const { return cg_ ? x_ : mg_.level(1).v; }
  const Multigrid<CpuBackend>& multigrid() const { return mg_; }
  CpuBackend& backend() { return backend_; }
  double initial_error() const { return initial_error_; }
  double initial_residual() const { return initial_residual_; }

  // The summary so far: norms, reductions, times, status message.
  SolveResult result() const;

 private:
  double error_norm(const Field& x);
  double residual_norm(const Field& x);

  SolverOptions options_;
  DiscreteProblem problem_;
  CpuBackend backend_;
  MultigridSettings settings_;
  Multigrid<CpuBackend> mg_;
  Field x_, work_;
  std::optional<PreconditionedCG<CpuBackend>> cg_;
  SolveStatus status_ = SolveStatus::Running;
  std::vector<IterationRecord> history_;
  std::vector<double> step_seconds_;
  double initial_error_ = 0, initial_residual_ = 0, monitored0_ = 0, previous_ = 0;
  double seconds_setup_ = 0, seconds_loop_ = 0;
  std::uint64_t launches_per_iteration_ = 0;
};

}  // namespace kcycle
