#include "kcycle/cycle/trace.hpp"

namespace kcycle {

std::string_view to_string(OpKind kind) {
  switch (kind) {
    case OpKind::Call: return "call";
    case OpKind::PreRelax: return "pre-relax";
    case OpKind::Restrict: return "restrict";
    case OpKind::ZeroCoarse: return "zero-coarse";
    case OpKind::Prolong: return "prolong";
    case OpKind::PostRelax: return "post-relax";
    case OpKind::CoarseSolve: return "coarse-solve";
    case OpKind::KrylovWeigh: return "krylov-weigh";
    case OpKind::KrylovCombine: return "krylov-combine";
  }
  return "?";
}

std::vector<std::uint64_t> calls_per_level(const Trace& trace, int levels) {
  std::vector<std::uint64_t> calls(std::size_t(levels) + 1, 0);
  for (const TraceEvent& e : trace)
    if (e.kind == OpKind::Call) ++calls[std::size_t(e.level)];
  return calls;
}

}  // namespace kcycle
