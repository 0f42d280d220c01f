// Backend selection in the library: the CPU always, CUDA only where a device answers, and
// auto's fallback with its reason. (The command line's side is in test_cli.cpp.)
#include <gtest/gtest.h>

#include "kcycle/backends/backend_selection.hpp"
#include "kcycle/solve/iterative_solver.hpp"
#include "kcycle/solve/solver_options.hpp"

namespace kcycle {
namespace {

TEST(Backend, TheCpuIsAlwaysAvailableAndSaysNothing) {
  const ResolvedBackend r = resolve_backend(BackendKind::Cpu);
  EXPECT_EQ(r.kind, BackendKind::Cpu);
  EXPECT_TRUE(r.note.empty());
}

TEST(Backend, KnowsWhetherItWasBuiltWithCuda) {
#if KCYCLE_HAVE_CUDA
  EXPECT_TRUE(cuda_device_status().compiled);
#else
  EXPECT_FALSE(cuda_device_status().compiled);
  EXPECT_NE(cuda_device_status().reason.find("built without the CUDA backend"), std::string::npos);
#endif
  const CudaDeviceStatus& s = cuda_device_status();
  EXPECT_EQ(s.usable, s.reason.empty()) << "a device that is not usable must say why: " << s.reason;
  if (s.usable) {
    EXPECT_TRUE(s.compiled);
    EXPECT_FALSE(s.device.empty()) << "a usable device is named";
  }
}

TEST(Backend, AutoFallsBackToTheCpuWithOneLineWithoutAGpu) {
  const CudaDeviceStatus& cuda = cuda_device_status();
  if (cuda.usable) GTEST_SKIP() << "a GPU is present (" << cuda.device << ")";
  const ResolvedBackend r = resolve_backend(BackendKind::Auto);
  EXPECT_EQ(r.kind, BackendKind::Cpu);
  EXPECT_EQ(r.note, "kcycle: --backend auto: running on the CPU: " + cuda.reason);
  EXPECT_EQ(r.note.find('\n'), std::string::npos);
}

TEST(Backend, CudaWithoutAGpuIsRefusedWithTheReason) {
  const CudaDeviceStatus& cuda = cuda_device_status();
  if (cuda.usable) GTEST_SKIP() << "a GPU is present (" << cuda.device << ")";
  try {
    resolve_backend(BackendKind::Cuda);
    FAIL() << "--backend cuda accepted without a GPU";
  } catch (const InvalidOptions& e) {
    EXPECT_NE(std::string(e.what()).find("backend cuda: " + cuda.reason), std::string::npos) << e.what();
  }
  SolverOptions o;
  o.levels = 4;
  o.backend = BackendKind::Cuda;
  EXPECT_THROW(IterativeSolver(o, make_problem(o)), InvalidOptions);
}

TEST(Backend, AutoPicksTheGpuWhereOneIsUsable) {
  const CudaDeviceStatus& cuda = cuda_device_status();
  if (!cuda.usable) GTEST_SKIP() << "no usable GPU: " << cuda.reason;
  EXPECT_EQ(resolve_backend(BackendKind::Auto).kind, BackendKind::Cuda);
}

TEST(Backend, TheSolverReportsWhatRanIt) {
  SolverOptions o;
  o.levels = 4;
  o.backend = BackendKind::Auto;
  IterativeSolver solver(o, make_problem(o));
  const bool gpu = cuda_device_status().usable;
  EXPECT_EQ(solver.backend_name(), gpu ? "cuda" : "cpu");
  EXPECT_EQ(solver.backend_note().empty(), gpu);
  while (solver.running()) solver.step();
  EXPECT_EQ(solver.result().backend, gpu ? "cuda" : "cpu");
  EXPECT_TRUE(solver.result().converged());
}

}  // namespace
}  // namespace kcycle
