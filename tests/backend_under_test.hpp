#pragma once
// The algorithm tests run as one typed test body per backend that is built: the CPU always,
// CUDA where nvcc was found. An instance whose backend cannot run here (no GPU) skips with
// the reason. Helpers move random fields in and iterates out through the backend.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kcycle/core/problem.hpp"
#include "kcycle/solve/execution_target.hpp"
#include "kcycle/solve/solver_options.hpp"

namespace kcycle::testing {

template <class Backend>
struct BackendUnderTest;

template <>
struct BackendUnderTest<CpuBackend> {
  static constexpr BackendKind kind = BackendKind::Cpu;
  static std::string unavailable() { return ""; }
};
#if KCYCLE_HAVE_CUDA
template <>
struct BackendUnderTest<CudaBackend> {
  static constexpr BackendKind kind = BackendKind::Cuda;
  static std::string unavailable() {
    const CudaDeviceStatus& s = cuda_device_status();
    return s.usable ? "" : "no usable GPU: " + s.reason;
  }
};
using Backends = ::testing::Types<CpuBackend, CudaBackend>;
#else
using Backends = ::testing::Types<CpuBackend>;
#endif

// Test names read Suite/cpu.Name and Suite/cuda.Name.
struct BackendName {
  template <class Backend>
  static std::string GetName(int) {
    return std::string(Backend::name());
  }
};

// The fixture of every typed algorithm test: skips where the backend cannot run.
template <class Backend>
class OnEveryBackend : public ::testing::Test {
 public:
  void SetUp() override {
    if (const std::string why = BackendUnderTest<Backend>::unavailable(); !why.empty()) GTEST_SKIP() << why;
  }
  // Two CPU threads, or the GPU with CUDA Graphs on (the default of every front end).
  static Backend make_backend() { return kcycle::make_backend<Backend>({BackendUnderTest<Backend>::kind, 2, true}); }
  // Solver options that run on this backend.
  static SolverOptions on_this_backend(SolverOptions o) {
    o.backend = BackendUnderTest<Backend>::kind;
    o.threads = 2;
    return o;
  }
};

template <class Backend>
void fill_random(Backend& backend, typename Backend::Vector& v, std::uint64_t seed) {
  Field host(v.shape());
  fill_uniform_random(host, seed);
  backend.upload(host, v);
}

template <class Backend>
std::vector<double> host_values(Backend& backend, const typename Backend::Vector& v) {
  Field host;
  backend.download(v, host);
  const auto values = host.values();
  return {values.begin(), values.end()};
}

}  // namespace kcycle::testing
