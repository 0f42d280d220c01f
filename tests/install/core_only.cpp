// Links kcycle::core alone (no backend, no solver driver): the cycle's counts and its planned
// schedule stand without the libraries above them. Exit 0 when the plan's launches agree
// with the paper's closed form for a cycle of one launch per operation.
#include <cstdio>

#include "kcycle/cycle/cycle_counts.hpp"
#include "kcycle/cycle/cycle_schedule.hpp"

int main() {
  kcycle::MultigridSettings s;
  s.levels = 5;
  s.smoother = kcycle::Smoother::Jacobi;
  s.coarse_tail_unknowns = 0;
  const auto schedule = kcycle::CycleSchedule::plan(s, kcycle::Capabilities{}, kcycle::CycleMode::Normal);
  std::printf("%s", schedule.describe().c_str());
  bool same = true;
  for (int kappa = 1; kappa <= 5; ++kappa) {
    std::uint64_t launches = 0;
    for (int l = 1; l <= 5; ++l)
      launches += kcycle::level_calls(kappa, l) * std::uint64_t(schedule.launches_per_call(l));
    same = same && launches == schedule.launches_per_cycle(kappa);
  }
  std::printf("core_only: launches per cycle %s levelCalls x launches per call\n", same ? "match" : "DIFFER from");
  return same ? 0 : 1;
}
