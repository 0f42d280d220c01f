// Solves a small rotated anisotropic problem with an installed kcycle, and checks that the
// cycle it ran is the one the paper counts: exit 0 only when both hold.
#include <cstdio>

#include "kcycle/backends/backend_selection.hpp"
#include "kcycle/cycle/cycle_counts.hpp"
#include "kcycle/cycle/cycle_schedule.hpp"
#include "kcycle/model/cost_model.hpp"
#include "kcycle/solve/solve.hpp"
#include "kcycle/solve/solver_options.hpp"

int main() {
  kcycle::SolverOptions o;
  o.levels = 5;
  o.eps = 1e-2;
  o.angle_degrees = 30;
  o.cycle = {kcycle::CycleType::Kappa, 2};
  const kcycle::SolveResult r = kcycle::solve(o);
  // levelCalls(2, 5) = 5 calls at the coarsest level of an F-cycle on 5 levels.
  const auto coarsest = kcycle::level_calls(2, 5);
  std::printf("consumer: %s in %d iterations on %s; F-cycle calls at level 5: %llu\n",
              r.converged() ? "converged" : "did not converge", r.iterations, r.backend.c_str(),
              static_cast<unsigned long long>(coarsest));
  return r.converged() && coarsest == 5 ? 0 : 1;
}
