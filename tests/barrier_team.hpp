#pragma once
// A team of std::threads meeting at a std::barrier, as a GPU block's threads meet at
// __syncthreads: the CPU tests run the GPU's cooperative bodies (team.hpp) on it.
#include <barrier>
#include <thread>
#include <vector>

namespace kcycle::testing {

struct BarrierTeam {
  int r, n;
  std::barrier<>* meeting;
  int rank() const { return r; }
  int size() const { return n; }
  void sync() const { meeting->arrive_and_wait(); }
};

// body(team) on `threads` threads at once; returns when all are done.
template <class Body>
void run_as_team(int threads, Body&& body) {
  std::barrier meeting(threads);
  std::vector<std::jthread> team;
  for (int r = 0; r < threads; ++r) team.emplace_back([&, r] { body(BarrierTeam{r, threads, &meeting}); });
}

}  // namespace kcycle::testing
