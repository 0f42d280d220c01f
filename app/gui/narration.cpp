#include "narration.hpp"

#include "kcycle/solve/solver_options.hpp"

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

// What a sweep of `smoother` does, where the name alone does not say it: a zebra sweep's lines
// (the alternating one's direction by its place in the phase, as the backends run it).
std::string sweep_words(const SolverOptions& o, bool post, int sweep) {
  const bool adjoint = post && o.symmetric_smoothing;
  switch (sweep_smoother(o.smoother, sweep - 1, adjoint)) {
    case Smoother::XZebra:
      return adjoint ? ", x-lines: even rows, then odd (each row solved exactly)"
                     : ", x-lines: odd rows, then even (each row solved exactly)";
    case Smoother::YZebra:
      return adjoint ? ", y-lines: even columns, then odd (each column solved exactly)"
                     : ", y-lines: odd columns, then even (each column solved exactly)";
    case Smoother::GaussSeidel: return ", Gauss-Seidel over four colours";
    default: return "";
  }
}

// Whether operation k, an exact solve on the coarsest level, comes right after another there:
// the second call of a kappa >= 2 cycle, which finds no residual left.
bool repeats_coarse_solve(const Trace& trace, std::size_t k) {
  std::size_t j = k;
  while (j > 0 && trace[j - 1].kind == OpKind::Call && trace[j - 1].level == trace[k].level) --j;
  return j > 0 && trace[j - 1].kind == OpKind::CoarseSolve && trace[j - 1].level == trace[k].level;
}

}  // namespace

std::string narrate(const Trace& trace, std::size_t k, const SolverOptions& o) {
  const int nu1 = o.nu1, nu2 = o.nu2;
  if (k >= trace.size()) return "";
  const TraceEvent& e = trace[k];
  const std::string l = std::to_string(e.level), coarser = std::to_string(e.level + 1);
  switch (e.kind) {
    case OpKind::Call:
      if (e.level == 1) return "the cycle starts on level 1 with kappa=" + counter_label(e.counter);
      return "recursive call on level " + l + " with kappa=" + counter_label(e.counter);
    case OpKind::PreRelax:
      return "pre-relax " + std::to_string(sweep_of(trace, k)) + "/" + std::to_string(nu1) + " on level " + l +
             sweep_words(o, false, sweep_of(trace, k));
    case OpKind::Restrict: return "restrict the residual, level " + l + " -> " + coarser;
    case OpKind::ZeroCoarse: return "zero the correction on level " + coarser;
    case OpKind::CoarseSolve:
      if (repeats_coarse_solve(trace, k))
        return "solve exactly on the coarsest level " + l +
               " again: the first solve left no residual there, so nothing changes (the authors' code skips this "
               "call)";
      return "solve exactly on the coarsest level " + l;
    case OpKind::Prolong: return "prolong the correction, level " + coarser + " -> " + l + ", and add it";
    case OpKind::PostRelax:
      return "post-relax " + std::to_string(sweep_of(trace, k)) + "/" + std::to_string(nu2) + " on level " + l +
             sweep_words(o, true, sweep_of(trace, k));
    case OpKind::KrylovWeigh:
      return "Krylov step on level " + coarser +
             ": weigh the first call's correction by CG; a second call follows if more than a quarter of the "
             "residual is left";
    case OpKind::KrylovCombine:
      return "Krylov step on level " + coarser + ": combine the two calls' corrections by flexible CG";
  }
  return "";
}

std::vector<ActiveCall> call_stack(const Trace& trace, std::size_t k) {
  std::vector<ActiveCall> stack;
  for (std::size_t j = 0; j <= k && j < trace.size(); ++j) {
    const TraceEvent& e = trace[j];
    // A call on level l ends every call on l or below it; any other operation on level l
    // runs in the call on l, so the calls below it have returned.
    const int keep = e.kind == OpKind::Call ? e.level - 1 : e.level;
    while (!stack.empty() && stack.back().level > keep) stack.pop_back();
    if (e.kind == OpKind::Call) stack.push_back({e.level, e.counter});
  }
  return stack;
}

std::string describe_call_stack(const std::vector<ActiveCall>& stack) {
  std::string text;
  for (const ActiveCall& c : stack)
    text += (text.empty() ? "" : " > ") +
            ("level " + std::to_string(c.level) + " (kappa=" + counter_label(c.counter) + ")");
  return text;
}

const std::vector<std::string>& algorithm3_lines() {
  static const std::vector<std::string> lines = {
      "kappa_cycle(level l, kappa):",
      "  if l is the coarsest level: solve exactly; return",
      "  relax nu1 times (pre-smoothing)",
      "  restrict the residual to level l+1",
      "  zero the correction on level l+1",
      "  kappa_cycle(l+1, kappa)",
      "  if kappa > 1: kappa_cycle(l+1, kappa-1)",
      "  prolong the correction to level l and add it",
      "  relax nu2 times (post-smoothing)",
  };
  return lines;
}

int algorithm3_line(const Trace& trace, std::size_t k) {
  if (k >= trace.size()) return -1;
  const TraceEvent& e = trace[k];
  switch (e.kind) {
    case OpKind::Call: {
      if (e.level == 1) return 0;
      const std::vector<ActiveCall> stack = call_stack(trace, k);  // ends with this call
      // The caller's first recursive call keeps its counter; the second lowers it by one.
      const bool first = stack.size() < 2 || stack[stack.size() - 2].counter == e.counter;
      return first ? 5 : 6;
    }
    case OpKind::CoarseSolve: return 1;
    case OpKind::PreRelax: return 2;
    case OpKind::Restrict: return 3;
    case OpKind::ZeroCoarse: return 4;
    case OpKind::Prolong: return 7;
    case OpKind::PostRelax: return 8;
    case OpKind::KrylovWeigh:
    case OpKind::KrylovCombine: return 6;  // around the second call, which they decide and finish
  }
  return -1;
}

}  // namespace kcycle::gui
