// The memory account (memory_account.hpp) against the arrays a solve really holds: for every
// preset, stand-alone and MGCG, in double and mixed precision, with a zero and a known exact
// solution, on grids below and above the CPU's two-pass CG threshold.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

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

void expect_account_matches(const SolverOptions& o, const std::string& what) {
  IterativeSolver solver(o, make_problem(o));
  const MemoryAccount account = memory_account(o, resolve(o));
  const std::vector<HeldArray> held = sorted(solver.held_arrays()), predicted = sorted(account.held);
  EXPECT_EQ(held, predicted) << what << "\nheld:\n" << listed(held) << "account:\n" << listed(predicted);
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

TEST(MemoryAccount, AddsUpToTheBytesPerUnknownOfItsArrays) {
  // Jacobi stand-alone in double, problem 0: v, f and t on every level, about 4/3 of three
  // finest arrays (32 bytes a finest unknown); set-up adds the problem's two host copies.
  SolverOptions o;
  apply(*find_preset("jacobi"), o);
  o.levels = 12;
  const MemoryAccount account = memory_account(o, resolve(o));
  EXPECT_NEAR(account.bytes_per_unknown(account.held_bytes()), 32.0, 0.1);
  EXPECT_NEAR(account.bytes_per_unknown(account.set_up_bytes()), 16.0, 0.1);
  // Problem 0's right-hand side is zero and never written: only the guess is resident.
  EXPECT_NEAR(account.bytes_per_unknown(account.peak_host_bytes() - account.held_bytes()), 8.0, 0.1);
  EXPECT_EQ(estimated_memory_bytes(o), account.peak_host_bytes());
}

}  // namespace
}  // namespace kcycle
