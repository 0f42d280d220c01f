#include "narration.hpp"

#include "kcycle/solver_options.hpp"

namespace kcycle::gui {

namespace {

// Which sweep of its phase operation k is: 1 + the sweeps of the same kind and level just
// before it.
int sweep_of(const Trace& trace, std::size_t k) {
  int sweep = 1;
  for (std::size_t j = k; j > 0 && trace[j - 1].kind == trace[k].kind && trace[j - 1].level == trace[k].level; --j)
    ++sweep;
  return sweep;
}

// A call's counter; the W-cycle's start at "infinity" (kKappaW) and stay above any level count.
std::string counter_label(int counter) { return counter > kKappaW - 64 ? "W" : kappa_to_string(counter); }

}  // namespace

std::string narrate(const Trace& trace, std::size_t k, int nu1, int nu2) {
  if (k >= trace.size()) return "";
  const TraceEvent& e = trace[k];
  const std::string l = std::to_string(e.level), coarser = std::to_string(e.level + 1);
  switch (e.kind) {
    case OpKind::Call:
      if (e.level == 1) return "the cycle starts on level 1 with kappa=" + counter_label(e.counter);
      return "recursive call on level " + l + " with kappa=" + counter_label(e.counter);
    case OpKind::PreRelax:
      return "pre-relax " + std::to_string(sweep_of(trace, k)) + "/" + std::to_string(nu1) + " on level " + l;
    case OpKind::Restrict: return "restrict the residual, level " + l + " -> " + coarser;
    case OpKind::ZeroCoarse: return "zero the correction on level " + coarser;
    case OpKind::CoarseSolve: return "solve exactly on the coarsest level " + l;
    case OpKind::Prolong: return "prolong the correction, level " + coarser + " -> " + l + ", and add it";
    case OpKind::PostRelax:
      return "post-relax " + std::to_string(sweep_of(trace, k)) + "/" + std::to_string(nu2) + " on level " + l;
  }
  return "";
}

}  // namespace kcycle::gui
