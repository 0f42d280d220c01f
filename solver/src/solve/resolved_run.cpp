#include "kcycle/solve/resolved_run.hpp"

#include "kcycle/backends/backend_selection.hpp"
#include "kcycle/solve/execution_target.hpp"
#include "kcycle/solve/solve.hpp"

namespace kcycle {

ResolvedRun resolve(const SolverOptions& options, BackendKind on) {
  if (on == BackendKind::Auto) on = resolve_backend(on).kind;  // auto never throws
  ResolvedRun run;
  run.target = execution_target(on, options);
  const MultigridSettings asked = multigrid_settings(options);
  // What Multigrid<B> makes of the settings (its constructor's rule, as_run_by) on the backend
  // that runs them, and what it then plans.
  const auto plan_on = [&]<class B>(B*) {
    run.settings = as_run_by<B>(asked);
    constexpr Capabilities can = Multigrid<B>::capabilities();
    const bool cg = options.solver != SolverKind::Multigrid, flexible = options.solver == SolverKind::FCG;
    run.schedule = CycleSchedule::plan(run.settings, can, CycleMode::Normal);
    run.cg_step = CgStepPlan::plan(run.settings, can, flexible);
    MultigridSettings fusing = asked;
    fusing.fused = true;
    run.fusing_applies = CycleSchedule::per_call(as_run_by<B>(fusing), can).fuses_any() ||
                         (cg && CgStepPlan::plan(as_run_by<B>(fusing), can, flexible).two_pass) ||
                         (options.precision == Precision::Mixed && FusesPasses<B>);
  };
#if KCYCLE_HAVE_CUDA
  if (on == BackendKind::Cuda) return plan_on(static_cast<CudaBackend*>(nullptr)), run;
#endif
#if KCYCLE_HAVE_MPI
  if (on == BackendKind::Mpi) return plan_on(static_cast<MpiBackend*>(nullptr)), run;
#endif
  plan_on(static_cast<CpuBackend*>(nullptr));
  return run;
}

ResolvedRun resolve(const SolverOptions& options) {
  // Mixed precision runs on the CPU (validate() refuses it with --backend cuda).
  const bool cpu_only = options.precision == Precision::Mixed && options.backend == BackendKind::Auto;
  const ResolvedBackend backend = resolve_backend(cpu_only ? BackendKind::Cpu : options.backend);
  ResolvedRun run = resolve(options, backend.kind);
  run.note = backend.note;
  return run;
}

}  // namespace kcycle
