#include "kcycle/cycle/cg_step_plan.hpp"

#include "kcycle/core/grid.hpp"

namespace kcycle {

CgStepPlan CgStepPlan::plan(const MultigridSettings& settings, Capabilities can, bool flexible) {
  CgStepPlan p;
  p.flexible = flexible;
  const GridShape fine = level_shape(settings.levels, 1, settings.coarsening);
  p.two_pass = settings.fused && can.two_pass_cg_from && fine.unknowns() >= *can.two_pass_cg_from;
  return p;
}

std::vector<std::string> CgStepPlan::passes() const {
  std::vector<std::string> out;
  if (two_pass) {
    out.push_back("p <- z + beta p with (p, A p), A p not stored");
    out.push_back("x <- x + alpha p and r <- r - alpha A p with their norms, A p recomputed");
  } else {
    out.push_back("p <- z + beta p");
    out.push_back("q = A p with (p, q)");
    out.push_back("x <- x + alpha p with its error norm");
    out.push_back("r <- r - alpha q with its norm");
  }
  out.push_back("(r, z) unless the cycle's last pass summed it");
  if (flexible) out.push_back(two_pass ? "(z, A p), A p recomputed" : "(q, z)");
  return out;
}

std::string CgStepPlan::describe() const {
  std::string s = std::string(flexible ? "FCG" : "CG") + "'s own passes per iteration (" +
                  (two_pass ? "two-pass" : "q = A p stored") + "): ";
  const std::vector<std::string> all = passes();
  for (std::size_t i = 0; i < all.size(); ++i) s += (i ? "; " : "") + all[i];
  return s;
}

}  // namespace kcycle
