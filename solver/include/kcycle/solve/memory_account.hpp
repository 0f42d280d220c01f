#pragma once
// Every grid array a solve allocates, by level and purpose: what `kcycle info --memory`
// prints and what the memory check before a solve adds up. Line factors, the coarsest level's
// LU and the threads' row buffers grow with a side, not the area, and are left out.
//
// Large arrays (2 MiB and more) are fresh pages, resident only once written (field.hpp): an
// array no pass of a normal cycle writes (Jacobi's t on the levels the fused passes run, a
// zero right-hand side, MGCG's own level-1 f in double) is allocated, and counts against the
// address space, but takes no memory (resident = false). On the CPU backend the engine takes
// the problem's arrays as its own: the set-up holds no second copy.
#include <cstddef>
#include <string>
#include <vector>

#include "kcycle/solve/resolved_run.hpp"
#include "kcycle/solve/solver_options.hpp"

namespace kcycle {

struct HeldArray {
  int level = 1;
  std::string purpose;  // "v (iterate)", "CG r", ...
  std::size_t bytes = 0;
  // false: fresh pages no pass of a normal cycle writes, which take no memory (the zero
  // right-hand side of problem 0; a fused Jacobi solve's finest t). Stepping operation by
  // operation in the visualizer writes the finest t too.
  bool resident = true;
  friend bool operator==(const HeldArray&, const HeldArray&) = default;
};

struct MemoryAccount {
  std::vector<HeldArray> held;  // through the solve, on the backend (device memory on a GPU)
  // The problem's host arrays beside the backend's during the set-up, freed when it ends
  // (none on the CPU backend, whose engine takes them as its own).
  std::vector<HeldArray> set_up;
  std::size_t finest_unknowns = 0;
  bool device = false;  // held is the GPU's memory, set_up the host's

  std::size_t held_bytes() const;           // allocated
  std::size_t resident_held_bytes() const;  // taking memory in a solve
  std::size_t set_up_bytes() const;
  // The most host memory the solve takes at once: the resident held arrays with the problem's
  // resident copies beside them during the set-up (only the copies where the arrays are the
  // device's). every_array_written: as if every held array were written (stepping operation by
  // operation in the visualizer writes Jacobi's t on the fused levels too).
  std::size_t peak_host_bytes(bool every_array_written = false) const;
  // The host address space its arrays map, written or not (large arrays are mapped whole).
  std::size_t host_address_space_bytes() const { return (device ? 0 : held_bytes()) + set_up_bytes(); }
  double bytes_per_unknown(std::size_t bytes) const { return double(bytes) / double(finest_unknowns); }
};

// What a solve of `run` (options resolved on their backend) allocates, without allocating it.
// The MPI backend's whole grid, over all ranks.
MemoryAccount memory_account(const SolverOptions& options, const ResolvedRun& run);

// A size as messages and tables print it: "12.0 KiB", "512.0 MiB", "1.50 GiB".
std::string bytes_text(std::size_t bytes);

// Throws InvalidOptions where the account's host memory exceeds 0.9 of what this process may use
// (available_memory_bytes()), or its mapped arrays 0.9 of the address space RLIMIT_AS leaves.
// Accounts under kUncheckedHostBytes (64 MiB: up to 9 levels) are not checked: reading what the
// process may use costs more than such a solve's set-up, and a machine without that room to spare
// is out of memory whatever is checked.
inline constexpr std::size_t kUncheckedHostBytes = std::size_t(64) << 20;
void check_host_memory(const SolverOptions& options, const MemoryAccount& account);
// On a GPU, throws InvalidOptions where the account's device arrays exceed 0.9 of the device's
// free memory, saying how much they need and it has.
void check_device_memory(const SolverOptions& options, const ResolvedRun& run);

}  // namespace kcycle
