#pragma once
// Marks a function body that both backends run: the CPU backend calls it from OpenMP loops,
// the CUDA backend from kernels. Under nvcc it compiles for host and device.
#if defined(__CUDACC__)
#define KCYCLE_HD __host__ __device__ __forceinline__
#else
#define KCYCLE_HD inline
#endif
