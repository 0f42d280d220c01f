#pragma once
// Which backend runs a solve: the CPU (always built), CUDA (built when nvcc was found, used
// when a device answers), or auto (CUDA if usable, else the CPU with a note saying why).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace kcycle {

enum class BackendKind { Cpu, Cuda, Auto, Mpi };
// How the CUDA backend solves x-lines (the CPU always runs Thomas): one thread per line
// (Thomas), one block per line (parallel cyclic reduction, cyclic_reduction.hpp), or auto: PCR
// on lines long enough (CudaBackend::kPcrFromPoints) that fit the block's shared memory.
enum class LineSolver { Auto, Thomas, Pcr };

struct CudaDeviceStatus {
  bool compiled = false;  // this kcycle was built with the CUDA backend
  bool usable = false;    // a device answered and runs our kernels
  std::string device;     // "NVIDIA H100 80GB HBM3 (sm_90, 79.1 GiB)" when usable
  std::string reason;     // why not, when not usable
};

// Probed once per process (the answer does not change while it runs).
const CudaDeviceStatus& cuda_device_status();
// The usable device's free memory now (cudaMemGetInfo); nothing without one.
std::optional<std::size_t> cuda_free_memory_bytes();

struct ResolvedBackend {
  BackendKind kind = BackendKind::Cpu;  // Cpu, Cuda or Mpi, never Auto
  std::string note;                     // auto's one line when it fell back; else empty
};
// Throws InvalidOptions when CUDA is asked for and none is usable, or MPI in a build without it.
ResolvedBackend resolve_backend(BackendKind requested);

}  // namespace kcycle
