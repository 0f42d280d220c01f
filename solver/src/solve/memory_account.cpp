#include "kcycle/solve/memory_account.hpp"

#include <numeric>

#include "kcycle/backends/cpu/cpu_backend.hpp"
#include "kcycle/core/grid.hpp"

namespace kcycle {

namespace {

std::size_t total(const std::vector<HeldArray>& arrays) {
  return std::accumulate(arrays.begin(), arrays.end(), std::size_t(0),
                         [](std::size_t sum, const HeldArray& a) { return sum + a.bytes; });
}

// Problems whose exact solution is known and not zero: the manufactured one (problem 1).
bool nonzero_exact_solution(const SolverOptions& o) { return o.problem == ProblemKind::Manufactured; }

}  // namespace

std::size_t MemoryAccount::held_bytes() const { return total(held); }
std::size_t MemoryAccount::set_up_bytes() const { return total(set_up); }
std::size_t MemoryAccount::peak_host_bytes() const {
  std::size_t set_up_resident = 0;
  for (const HeldArray& a : set_up) set_up_resident += a.resident ? a.bytes : 0;
  return (device ? 0 : held_bytes()) + set_up_resident;
}

// The rules of the engines in iterative_solver.cpp, Multigrid's levels and PreconditionedCG's
// vectors; test_memory_account holds them to the arrays a solve really holds.
MemoryAccount memory_account(const SolverOptions& o, const ResolvedRun& run) {
  MemoryAccount account;
  const GridShape fine = level_shape(o.levels, 1, o.coarsening);
  const std::size_t fine_doubles = fine.storage() * sizeof(double);
  account.finest_unknowns = fine.unknowns();
  account.device = run.target.backend == BackendKind::Cuda;
  const bool mixed = o.precision == Precision::Mixed;
  const std::size_t hierarchy_value = mixed ? sizeof(float) : sizeof(double);
  for (int l = 1; l <= o.levels; ++l) {
    const std::size_t bytes = level_shape(o.levels, l, o.coarsening).storage() * hierarchy_value;
    account.held.push_back({l, "v (iterate or correction)", bytes});
    account.held.push_back({l, "f (right-hand side)", bytes});
    if (o.smoother == Smoother::Jacobi) account.held.push_back({l, "t (Jacobi's output)", bytes});
  }
  const bool cg = o.solver != SolverKind::Multigrid;
  const bool exact = nonzero_exact_solution(o);
  auto fine_array = [&](const char* purpose) { account.held.push_back({1, purpose, fine_doubles}); };
  if (mixed) {  // MixedEngine: x, z, the right-hand side and (unfused) r in double
    fine_array("x (iterate, double)");
    if (!run.settings.fused) fine_array("r (residual, double)");
    fine_array("z (correction, double)");
    fine_array("rhs (double)");
    if (exact) fine_array("exact solution");
  } else {
    if (exact) {
      fine_array("exact solution");
      fine_array("x - exact (work)");
    }
    if (cg) {
      fine_array("rhs (CG)");
      fine_array("x (CG iterate)");
    }
  }
  if (cg) {
    // Two-pass iterations (q = A p never stored) where the CPU backend runs them on this grid.
    const bool two_pass = run.settings.fused && run.target.backend == BackendKind::Cpu &&
                          fine.unknowns() >= CpuBackend::kTwoPassCgUnknowns;
    fine_array("CG r");
    fine_array("CG p");
    if (!mixed) fine_array("CG z");  // the float hierarchy holds the mixed solve's z
    if (!two_pass) fine_array("CG q = A p");
  }
  // A zero right-hand side of 2 MiB and more stays the kernel's zero pages (field.hpp).
  const bool zero_rhs = o.problem != ProblemKind::Manufactured;
  account.set_up.push_back(
      {1, "problem: right-hand side (host)", fine_doubles, !(zero_rhs && fine_doubles >= kFreshPagesFrom)});
  account.set_up.push_back({1, "problem: initial guess (host)", fine_doubles});
  if (exact) account.set_up.push_back({1, "problem: exact solution (host)", fine_doubles});
  return account;
}

// The account on the backend the options ask for (auto: the CPU's, the larger on the host).
std::size_t estimated_memory_bytes(const SolverOptions& o) {
  const BackendKind on = o.backend == BackendKind::Auto ? BackendKind::Cpu : o.backend;
  return memory_account(o, resolve(o, on)).peak_host_bytes();
}

}  // namespace kcycle
