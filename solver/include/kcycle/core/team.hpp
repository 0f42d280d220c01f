#pragma once
// Who shares a cooperative body's work (the coarse tail, a cyclic-reduction line solve): a team
// of size() members, member rank() taking items rank, rank + size, ..., all meeting at sync()
// before anyone reads what the others wrote. On the GPU the team is a thread block; on the host
// one thread, or in the tests std::threads meeting at a std::barrier.
#include "kcycle/core/host_device.hpp"

namespace kcycle {

// A team of one: every loop runs whole on the calling thread.
struct SerialTeam {
  KCYCLE_HD int rank() const { return 0; }
  KCYCLE_HD int size() const { return 1; }
  KCYCLE_HD void sync() const {}
};

// The CUDA thread block of the calling thread (one-dimensional blocks). Host code never runs it.
struct BlockTeam {
  KCYCLE_HD int rank() const {
#ifdef __CUDA_ARCH__
    return int(threadIdx.x);
#else
    return 0;
#endif
  }
  KCYCLE_HD int size() const {
#ifdef __CUDA_ARCH__
    return int(blockDim.x);
#else
    return 1;
#endif
  }
  KCYCLE_HD void sync() const {
#ifdef __CUDA_ARCH__
    __syncthreads();
#endif
  }
};

}  // namespace kcycle
