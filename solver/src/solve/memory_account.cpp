#include "kcycle/solve/memory_account.hpp"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <optional>
#include <string>

#include "kcycle/backends/backend_selection.hpp"
#include "kcycle/backends/cpu/cpu_backend.hpp"
#include "kcycle/core/grid.hpp"
#include "kcycle/core/invalid_options.hpp"

namespace kcycle {

namespace {

std::size_t total(const std::vector<HeldArray>& arrays) {
  return std::accumulate(arrays.begin(), arrays.end(), std::size_t(0),
                         [](std::size_t sum, const HeldArray& a) { return sum + a.bytes; });
}
std::size_t resident(const std::vector<HeldArray>& arrays) {
  return std::accumulate(arrays.begin(), arrays.end(), std::size_t(0),
                         [](std::size_t sum, const HeldArray& a) { return sum + (a.resident ? a.bytes : 0); });
}

// Problems whose exact solution is known and not zero: the manufactured one (problem 1).
bool nonzero_exact_solution(const SolverOptions& o) { return o.problem == ProblemKind::Manufactured; }

// Whether a normal cycle's passes on this level write Jacobi's output t: a plain sweep, or the
// coarse tail's.
bool writes_t(const LevelSchedule& level) {
  if (level.in_tail) return true;
  const auto sweeps = [](const std::vector<Pass>& passes) {
    return std::any_of(passes.begin(), passes.end(), [](const Pass& p) { return p.kind == PassKind::Sweep; });
  };
  return sweeps(level.down) || sweeps(level.up);
}

}  // namespace

std::size_t MemoryAccount::held_bytes() const { return total(held); }
std::size_t MemoryAccount::set_up_bytes() const { return total(set_up); }
std::size_t MemoryAccount::resident_held_bytes() const { return resident(held); }
std::size_t MemoryAccount::peak_host_bytes(bool every_array_written) const {
  return (device ? 0 : every_array_written ? held_bytes() : resident(held)) + resident(set_up);
}

// The rules of the engines in iterative_solver.cpp, Multigrid's levels and PreconditionedCG's
// vectors; test_memory_account holds them to the arrays a solve really holds, and to the memory
// it really takes.
MemoryAccount memory_account(const SolverOptions& o, const ResolvedRun& run) {
  MemoryAccount account;
  const GridShape fine = level_shape(o.levels, 1, o.coarsening);
  const std::size_t fine_doubles = fine.storage() * sizeof(double);
  account.finest_unknowns = fine.unknowns();
  account.device = run.target.backend == BackendKind::Cuda;
  // The CPU backend's vectors are host fields: the engine takes the problem's arrays as its
  // own (no copy at set-up), so a zero right-hand side stays pages never written.
  const bool host_fields = run.target.backend == BackendKind::Cpu;
  const bool zero_rhs = o.problem != ProblemKind::Manufactured;
  const bool mixed = o.precision == Precision::Mixed;
  const bool cg = o.solver != SolverKind::Multigrid;
  const bool exact = nonzero_exact_solution(o);
  // Fresh pages (field.hpp) no pass of a normal cycle writes cost nothing; a zero right-hand side
  // is read, which costs nothing only where the kernel maps such reads to its zero page.
  const auto unwritten = [&](std::size_t bytes, bool never_written) {
    return host_fields && never_written && bytes >= kFreshPagesFrom;
  };
  // (The kernel is asked only about a field that large: it costs a millisecond once.)
  const auto zero_and_only_read = [&](std::size_t bytes, bool zero) {
    return unwritten(bytes, zero) && !fresh_page_reads_take_memory();
  };
  const std::size_t hierarchy_value = mixed ? sizeof(float) : sizeof(double);
  for (int l = 1; l <= o.levels; ++l) {
    const std::size_t bytes = level_shape(o.levels, l, o.coarsening).storage() * hierarchy_value;
    const bool fine_level = l == 1;
    account.held.push_back({l, "v (iterate or correction)", bytes});
    // MGCG's cycle runs on CG's r swapped in as level 1's f: in double the hierarchy has none
    // (mixed: r is rounded into its float f). The stand-alone cycle's is the right-hand side.
    if (!(fine_level && cg && !mixed))
      account.held.push_back(
          {l, "f (right-hand side)", bytes, !zero_and_only_read(bytes, fine_level && !mixed && zero_rhs)});
    // Only a plain sweep writes t (the fused passes stream rows through a buffer).
    if (o.smoother == Smoother::Jacobi)
      account.held.push_back({l, "t (Jacobi's output)", bytes, !unwritten(bytes, !writes_t(run.schedule.level(l)))});
    // The Krylov-accelerated cycle's first correction and A times each correction (coarse_krylov.hpp).
    if (run.settings.coarse_krylov && l > 1 && l < o.levels)
      for (const char* purpose : {"Krylov c1", "Krylov A c1", "Krylov A c2"})
        account.held.push_back({l, purpose, bytes});
  }
  auto fine_array = [&](const char* purpose, bool zero = false) {  // only the right-hand sides are zero
    account.held.push_back({1, purpose, fine_doubles, !zero_and_only_read(fine_doubles, zero)});
  };
  if (mixed) {  // MixedEngine: x and the right-hand side in double, r and z where the step needs them
    fine_array("x (iterate, double)");
    if (!run.settings.fused) fine_array("r (residual, double)");
    if (!run.settings.fused || exact) fine_array("z (correction, double)");
    fine_array("rhs (double)", zero_rhs);
    if (exact) fine_array("exact solution");
  } else {
    if (exact) {
      fine_array("exact solution");
      fine_array("x - exact (work)");
    }
    if (cg) {
      fine_array("rhs (CG)", zero_rhs);
      fine_array("x (CG iterate)");
    }
  }
  if (cg) {
    const bool two_pass = run.cg_step.two_pass;  // q = A p never stored
    fine_array("CG r");
    fine_array("CG p");
    if (!mixed) fine_array("CG z");  // the float hierarchy holds the mixed solve's z
    if (!two_pass) fine_array("CG q = A p");
  }
  // The problem's host arrays beside the backend's during the set-up, where they are copied.
  if (!host_fields) {
    account.set_up.push_back({1, "problem: right-hand side (host)", fine_doubles,
                              !(zero_rhs && fine_doubles >= kFreshPagesFrom && !fresh_page_reads_take_memory())});
    account.set_up.push_back({1, "problem: initial guess (host)", fine_doubles});
    if (exact) account.set_up.push_back({1, "problem: exact solution (host)", fine_doubles});
  }
  return account;
}

std::string bytes_text(std::size_t bytes) {
  char text[32];
  if (bytes < (std::size_t(1) << 20))
    std::snprintf(text, sizeof text, "%.1f KiB", double(bytes) / 1024.0);
  else if (bytes < (std::size_t(1) << 30))
    std::snprintf(text, sizeof text, "%.1f MiB", double(bytes) / double(1 << 20));
  else
    std::snprintf(text, sizeof text, "%.2f GiB", double(bytes) / double(std::size_t(1) << 30));
  return text;
}

void check_device_memory(const SolverOptions& o, const ResolvedRun& run) {
  if (run.target.backend != BackendKind::Cuda) return;
  const std::optional<std::size_t> free = cuda_free_memory_bytes();
  const std::size_t need = memory_account(o, run).held_bytes();  // device memory is allocated whole
  if (!free || need <= *free / 10 * 9) return;
  throw InvalidOptions("levels " + std::to_string(o.levels) + " need about " + bytes_text(need) +
                       " of GPU memory (kcycle info --memory --backend cuda lists it); the GPU has " +
                       bytes_text(*free) + " free");
}

// The account on the backend the options ask for (auto: the CPU's, the larger on the host).
std::size_t estimated_memory_bytes(const SolverOptions& o, bool every_array_written) {
  const BackendKind on = o.backend == BackendKind::Auto ? BackendKind::Cpu : o.backend;
  return memory_account(o, resolve(o, on)).peak_host_bytes(every_array_written);
}

std::size_t estimated_address_space_bytes(const SolverOptions& o) {
  const BackendKind on = o.backend == BackendKind::Auto ? BackendKind::Cpu : o.backend;
  return memory_account(o, resolve(o, on)).host_address_space_bytes();
}

void check_host_memory(const SolverOptions& o, const MemoryAccount& m) {
  const std::size_t need = m.peak_host_bytes();
  // Reading what this process may use opens /proc and cgroup files: at 3-5 levels that was 40 %
  // of a coarse solve, twelve of which precede the advisor's forecast (docs/model.md).
  if (need < kUncheckedHostBytes && m.host_address_space_bytes() < kUncheckedHostBytes) return;
  if (const auto have = available_memory_bytes(); have && need > *have / 10 * 9)
    throw InvalidOptions("levels " + std::to_string(o.levels) + " need about " + bytes_text(need) +
                         " of memory; this process may use " + bytes_text(*have) +
                         " (the least of the memory available, its address-space limit and its cgroup's limit)");
  // Arrays are mapped whole, though only their written pages take memory.
  if (const auto room = address_space_room_bytes(); room) {
    const std::size_t mapped = m.host_address_space_bytes();
    if (mapped > *room / 10 * 9)
      throw InvalidOptions("levels " + std::to_string(o.levels) + " need about " + bytes_text(mapped) +
                           " of address space for their arrays; this process may use " + bytes_text(*room) +
                           " (its address-space limit, ulimit -v)");
  }
}

}  // namespace kcycle
