#pragma once
// Where and how a solve with given options runs, decided once: the backend (auto resolved),
// the execution target, the hierarchy's settings as that backend runs them and the schedule of
// a normal cycle. The solver, the command line's commands, the visualizer's panels and the
// models all take these from here, so none applies a capability rule of its own.
#include <string>

#include "kcycle/backends/backend.hpp"
#include "kcycle/cycle/cg_step_plan.hpp"
#include "kcycle/cycle/cycle_schedule.hpp"
#include "kcycle/cycle/multigrid_settings.hpp"
#include "kcycle/solve/solver_options.hpp"

namespace kcycle {

struct ResolvedRun {
  ExecutionTarget target;      // the backend and how it runs: threads, graphs, line solver, ranks
  std::string note;            // --backend auto's line when it fell back to the CPU, or ""
  MultigridSettings settings;  // fused only where the backend has the fused passes, the coarse
                               // tail's threshold resolved to its default (0: none)
  CycleSchedule schedule;      // what a normal cycle physically runs there
  CgStepPlan cg_step;          // what an MGCG iteration runs besides the cycle (read where CG solves)
  // Whether --fused changes what runs there: some pass of the cycle fused or pipelined, MGCG's
  // iteration as two passes of its own, or mixed refinement's fused step.
  bool fusing_applies = false;
};

// The run of valid options (validate()): --backend auto resolved (mixed precision runs on the
// CPU). Throws InvalidOptions where the backend asked for is not there, as a solve would.
ResolvedRun resolve(const SolverOptions& options);
// The same run on backend `on`, whatever the options say and whether or not this machine has
// it (the MPI models of a single-process run, the visualizer's panels for the backend its
// solve reported): it probes nothing and throws nothing.
ResolvedRun resolve(const SolverOptions& options, BackendKind on);

}  // namespace kcycle
