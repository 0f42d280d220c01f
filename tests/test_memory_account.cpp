// The memory account (memory_account.hpp) against the arrays a solve really holds: for every
// preset, stand-alone and MGCG, in double and mixed precision, with a zero and a known exact
// solution, on grids below and above the CPU's two-pass CG threshold.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "kcycle/backends/backend_selection.hpp"
#include "kcycle/core/field.hpp"
#include "kcycle/solve/iterative_solver.hpp"
#include "kcycle/solve/memory_account.hpp"
#include "kcycle/solve/resolved_run.hpp"
#include "kcycle/solve/solve.hpp"

namespace kcycle {
namespace {

std::vector<HeldArray> sorted(std::vector<HeldArray> arrays) {
  std::sort(arrays.begin(), arrays.end(), [](const HeldArray& a, const HeldArray& b) {
    return std::tie(a.level, a.purpose) < std::tie(b.level, b.purpose);
  });
  return arrays;
}

std::string listed(const std::vector<HeldArray>& arrays) {
  std::string out;
  for (const HeldArray& a : arrays)
    out += std::to_string(a.level) + " " + a.purpose + " " + std::to_string(a.bytes) + "\n";
  return out;
}

// The arrays allocated, whether or not a solve writes them (the engines do not know).
std::vector<HeldArray> allocated(std::vector<HeldArray> arrays) {
  for (HeldArray& a : arrays) a.resident = true;
  return sorted(std::move(arrays));
}

void expect_account_matches(const SolverOptions& o, const std::string& what) {
  IterativeSolver solver(o, make_problem(o));
  const MemoryAccount account = memory_account(o, resolve(o));
  const std::vector<HeldArray> held = allocated(solver.held_arrays()), predicted = allocated(account.held);
  EXPECT_EQ(held, predicted) << what << "\nheld:\n" << listed(held) << "account:\n" << listed(predicted);
}

// This process's resident memory (/proc/self/statm), in bytes.
std::size_t resident_bytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  unsigned long size = 0, resident = 0;
  const int read = std::fscanf(f, "%lu %lu", &size, &resident);
  std::fclose(f);
  return read == 2 ? std::size_t(resident) * std::size_t(sysconf(_SC_PAGESIZE)) : 0;
}

TEST(MemoryAccount, NamesEveryArrayASolveHolds) {
  for (const Preset& preset : presets())
    for (Precision precision : {Precision::Double, Precision::Mixed})
      for (ProblemKind problem : {ProblemKind::RandomError, ProblemKind::Manufactured}) {
        SolverOptions o;
        apply(preset, o);
        o.levels = 5;
        o.precision = precision;
        o.problem = problem;
        expect_account_matches(o, std::string(preset.name) + (precision == Precision::Mixed ? " mixed" : " double") +
                                      (problem == ProblemKind::Manufactured ? " problem 1" : " problem 0"));
      }
}

TEST(MemoryAccount, FollowsTheTwoPassCgAndTheFusedRefinement) {
  // 11 levels: 2047^2 unknowns, where the CPU's MGCG iteration runs as two passes and keeps no
  // A p; unfused, it keeps it, and the mixed refinement keeps its double residual.
  for (bool fused : {true, false})
    for (Precision precision : {Precision::Double, Precision::Mixed}) {
      SolverOptions o;
      apply(*find_preset("jacobi+cg"), o);
      o.levels = 11;
      o.fused = fused;
      o.precision = precision;
      expect_account_matches(
          o, std::string(fused ? "fused" : "unfused") + (precision == Precision::Mixed ? " mixed" : " double"));
      const MemoryAccount account = memory_account(o, resolve(o));
      const bool has_q = std::any_of(account.held.begin(), account.held.end(),
                                     [](const HeldArray& a) { return a.purpose == "CG q = A p"; });
      EXPECT_EQ(has_q, !fused);
    }
}

// The kernel's answer, measured once per process on 4 MiB, is what a field of 32 MiB shows: a
// fresh zero field only read takes memory or it does not. Under ASan too: the shadow of what is
// read is an eighth of it, fresh and only read as well, so it adds 4 MiB or nothing, inside both
// bounds.
TEST(MemoryAccount, AFreshFieldOnlyReadTakesMemoryWhereTheKernelSaysSo) {
  const bool takes = fresh_page_reads_take_memory();
  const std::size_t before = resident_bytes();
  ASSERT_GT(before, 0u) << "no /proc/self/statm";
  const Field zero(GridShape{2046, 2046});  // 32 MiB
  double sum = 0;
  for (std::size_t i = 0; i < zero.shape().storage(); i += 512) sum += zero.data()[i];  // a read a 4 KiB page
  EXPECT_EQ(sum, 0.0);
  const double grown = double(resident_bytes() - before);
  if (takes)
    EXPECT_GT(grown, 16.0 * 1048576) << "the probe said reads take memory";
  else
    EXPECT_LT(grown, 8.0 * 1048576) << "the probe said reads map the zero page";
}

TEST(MemoryAccount, AddsUpToTheBytesPerUnknownOfItsArrays) {
  // Jacobi stand-alone in double, problem 0: v, f and t on every level, about 4/3 of three
  // finest arrays (32 bytes a finest unknown) allocated. Written: the v's, and the coarse f's;
  // level 1's f is problem 0's zero right-hand side, and the fused passes write no t above the
  // coarsest levels. The CPU engine takes the problem's arrays: no copies at set-up.
  SolverOptions o;
  apply(*find_preset("jacobi"), o);
  o.levels = 12;
  const MemoryAccount account = memory_account(o, resolve(o));
  EXPECT_NEAR(account.bytes_per_unknown(account.held_bytes()), 32.0, 0.1);
  // Level 1's f is read, never written: free where the kernel maps reads of fresh pages to its
  // zero page, 8 bytes a finest unknown where it does not.
  const double zero_rhs = fresh_page_reads_take_memory() ? 8.0 : 0.0;
  EXPECT_NEAR(account.bytes_per_unknown(account.resident_held_bytes()), 8.0 * 4 / 3 + 8.0 / 3 + zero_rhs, 0.1);
  EXPECT_EQ(account.set_up_bytes(), 0u);
  EXPECT_EQ(account.peak_host_bytes(), account.resident_held_bytes());
  EXPECT_EQ(estimated_memory_bytes(o), account.peak_host_bytes());
  // Unfused, every level's t is written.
  o.fused = false;
  const MemoryAccount unfused = memory_account(o, resolve(o));
  EXPECT_NEAR(unfused.bytes_per_unknown(unfused.resident_held_bytes()), 8.0 * 4 / 3 * 2 + 8.0 / 3 + zero_rhs, 0.1);
}

// What the account says is written is what takes memory: the process's resident memory grows
// by the account's resident bytes over the set-up and two iterations (within 10% and 8 MiB:
// the coarse levels' small arrays may reuse freed heap), for the arrays a solve never writes
// would be 20-60% more. 11 levels: 2047^2 unknowns, fields of 2 MiB and more on four levels.
TEST(MemoryAccount, ItsResidentBytesAreTheMemoryASolveTakes) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "a sanitizer's shadow memory grows with what the solve touches";
#endif
  for (const char* preset : {"jacobi", "jacobi+cg", "xyzebra-galerkin"})
    for (Precision precision : {Precision::Double, Precision::Mixed}) {
      SolverOptions o;
      apply(*find_preset(preset), o);
      o.levels = 11;
      o.precision = precision;
      const std::string what = std::string(preset) + (precision == Precision::Mixed ? " mixed" : " double");
      const std::size_t predicted = memory_account(o, resolve(o)).resident_held_bytes();
      const std::size_t before = resident_bytes();
      ASSERT_GT(before, 0u) << "no /proc/self/statm";
      std::size_t grown = 0;
      {
        IterativeSolver solver(o, make_problem(o));
        solver.step();
        solver.step();
        grown = resident_bytes() - before;
      }
      const double slack = 0.1 * double(predicted) + double(8 << 20);
      EXPECT_NEAR(double(grown), double(predicted), slack)
          << what << ": grew by " << double(grown) / 1048576.0 << " MiB, the account says "
          << double(predicted) / 1048576.0;
    }
}

// On a GPU the account is device memory, allocated whole: the arrays the CUDA engine holds, and
// what cudaMemGetInfo says they took (within 10% and 16 MiB: the coarse solver, line
// factors, reduction buffers and graphs are left out).
TEST(MemoryAccount, TheCudaBackendHoldsWhatItsAccountSays) {
  if (!cuda_device_status().usable) GTEST_SKIP() << "no usable CUDA device: " << cuda_device_status().reason;
  for (const char* preset : {"jacobi", "jacobi+cg", "xyzebra-galerkin+cg"}) {
    SolverOptions o;
    apply(*find_preset(preset), o);
    o.backend = BackendKind::Cuda;
    o.levels = 5;
    expect_account_matches(o, std::string(preset) + " on CUDA");
    o.levels = 12;
    const MemoryAccount account = memory_account(o, resolve(o));
    EXPECT_TRUE(account.device);
    const std::optional<std::size_t> before = cuda_free_memory_bytes();
    ASSERT_TRUE(before.has_value());
    IterativeSolver solver(o, make_problem(o));
    solver.step();
    const std::size_t taken = *before - cuda_free_memory_bytes().value_or(*before);
    EXPECT_NEAR(double(taken), double(account.held_bytes()), 0.1 * double(account.held_bytes()) + double(16 << 20))
        << preset << ": the GPU gave " << double(taken) / 1048576.0 << " MiB, the account says "
        << double(account.held_bytes()) / 1048576.0;
  }
}

// A hierarchy larger than the GPU's free memory is refused by name before anything is allocated.
TEST(MemoryAccount, AHierarchyTheGpuCannotHoldIsRefused) {
  if (!cuda_device_status().usable) GTEST_SKIP() << "no usable CUDA device: " << cuda_device_status().reason;
  SolverOptions o;
  apply(*find_preset("jacobi+cg"), o);
  o.backend = BackendKind::Cuda;
  o.problem = ProblemKind::Manufactured;  // about 100 bytes of device memory a finest unknown
  const std::size_t free = cuda_free_memory_bytes().value_or(0);
  for (o.levels = 13; o.levels < kMaxLevels && memory_account(o, resolve(o)).held_bytes() <= free; ++o.levels) {
  }
  try {
    validate(o);  // the host's memory for the set-up's copies
  } catch (const InvalidOptions& e) {
    GTEST_SKIP() << "the host cannot hold the problem at " << o.levels << " levels either: " << e.what();
  }
  try {
    IterativeSolver solver(o, DiscreteProblem{});
    ADD_FAILURE() << "not refused at " << o.levels << " levels";
  } catch (const InvalidOptions& e) {
    EXPECT_NE(std::string(e.what()).find("of GPU memory"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace kcycle
