#pragma once
// Timing several things in turns: one repetition of each per round, until each has what the
// policy asks. Timed one after the other, a change in the machine's speed (this VM's moves by
// 10-30 % within a second) falls on some of them and not on others; in turns it falls on all
// of them alike. calibrate times the kappas so, since the advisor compares them: their ratios
// matter more than their times (docs/model.md, "Calibration in turns").
#include <chrono>
#include <cstddef>
#include <vector>

#include "kcycle/model/timing.hpp"

namespace kcycle {

// Times `body(k)` for k < `bodies` (untimed `prepare()` before each), after `policy.warmup`
// untimed runs of each; returns each one's seconds. On a process grid every rank must run each
// body as often as the others (they communicate): `agree` turns this rank's "one more of k"
// into all ranks' (true if any rank wants one more).
template <class Prepare, class Body, class Agree>
std::vector<std::vector<double>> repeat_in_turns(const TimingPolicy& policy, std::size_t bodies, Prepare prepare,
                                                 Body body, Agree agree) {
  using Clock = std::chrono::steady_clock;
  for (std::size_t k = 0; k < bodies; ++k)
    for (int w = 0; w < policy.warmup; ++w) {
      prepare();
      body(k);
    }
  std::vector<std::vector<double>> times(bodies);
  std::vector<double> total(bodies, 0.0);
  for (bool any = true; any;) {  // one round: a repetition of every body that wants one
    any = false;
    for (std::size_t k = 0; k < bodies; ++k) {
      const int done = int(times[k].size());
      if (!agree(done < policy.max_repetitions && (done < policy.min_repetitions || total[k] < policy.min_seconds)))
        continue;
      prepare();
      const auto t0 = Clock::now();
      body(k);
      const double dt = std::chrono::duration<double>(Clock::now() - t0).count();
      times[k].push_back(dt);
      total[k] += dt;
      any = true;
    }
  }
  return times;
}

template <class Prepare, class Body>
std::vector<std::vector<double>> repeat_in_turns(const TimingPolicy& policy, std::size_t bodies, Prepare prepare,
                                                 Body body) {
  return repeat_in_turns(policy, bodies, prepare, body, [](bool more) { return more; });
}

}  // namespace kcycle
