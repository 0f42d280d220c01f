#pragma once
// What a Krylov-accelerated iteration costs (MGCG: the preconditioning cycle, CG's own vector
// work and the norms), timed by `kcycle calibrate` beside the cycles, so that the advisor can
// price an MGCG iteration without running one at the target size.
#include <functional>
#include <vector>

#include "kcycle/model/cost_model.hpp"
#include "kcycle/solve/solver_options.hpp"

namespace kcycle {

// For each kappa candidate at each level count min_levels..max_levels: `options` (a PCG or FCG
// solve) stepped, restarted where it converges, until min_seconds and 10 timed iterations (each
// solve's first iteration runs cold and is left out); the median iteration plus the norms' share.
// The kappas take turns, a solve each, so that the machine's drift falls on all of them alike.
std::vector<KrylovSample> time_krylov_iterations(const SolverOptions& options, int min_levels, int max_levels,
                                                 double min_seconds,
                                                 const std::function<void(const KrylovSample&)>& on_case = {});

}  // namespace kcycle
