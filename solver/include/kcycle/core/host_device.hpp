#pragma once
// Marks a function body that both backends run: the CPU backend calls it from its row loops,
// the CUDA backend from kernels. Under nvcc it compiles for host and device.
#if defined(__CUDACC__)
#define KCYCLE_HD __host__ __device__ __forceinline__
// A recursive body (the cycle schemes): for host and device, not inlined.
#define KCYCLE_HD_RECURSIVE __host__ __device__
// A body called from a recursive one, kept out of its frames (small device stack frames).
#define KCYCLE_HD_NOINLINE __host__ __device__ __noinline__
// Before a host-and-device template whose host instantiations call host-only code (Multigrid's
// executor runs the same cycle schemes): nvcc checks only the device instantiations.
#define KCYCLE_NO_HD_CHECK _Pragma("nv_exec_check_disable")
#else
// Inlined always, as nvcc's __forceinline__: the point bodies are the inner loops, and GCC's
// heuristics stop inlining them once the loop around is a lambda or two deep (a pass ran 1.3x
// slower with residual_at called).
#define KCYCLE_HD inline __attribute__((always_inline))
#define KCYCLE_HD_RECURSIVE
#define KCYCLE_HD_NOINLINE
#define KCYCLE_NO_HD_CHECK
#endif
