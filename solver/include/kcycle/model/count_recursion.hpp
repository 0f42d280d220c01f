#pragma once
// The kappa-cycle's recursion (Algorithm 3) read as a model of its iteration counts. A cycle at
// L levels corrects with two coarse calls, kappa's and kappa-1's at L-1 levels; their errors
// multiply, so their rates add, and the count the pair is worth is H with
//   1/H = 1/N_kappa(L-1) + 1/N_kappa-1(L-1)   (kappa = 1: one call, H = N_1(L-1)).
// The count at L is then about a_L + c_L H: a_L what an exact coarse solve leaves, c_L how much
// the coarse calls' shortfall costs. Through the V- and W-cycles' counts at L, this puts
// kappa = 2, 3 and 4 within 8.3 % of their solved counts at 7-10 levels, 72 of 72 cells in each
// of three random starts (docs/model.md, "The recursion as a count model"). a and c drift with
// L, so the model places kappas beside a probed one at the same level, where only the
// difference c (H_kappa - H_probed) is extrapolated, not the whole count.
// CG's counts enter squared (N^2 for N, in H and in the line): CG takes about the square root of
// the iterations the stand-alone cycle takes (both as the preconditioned operator's condition
// number), so N^2 is the stand-alone count it stands for, and its rates add. Through jacobi+cg's
// five-seed median counts at 7-10 levels the line in N^2 through the V- and W-cycles puts
// kappa = 2 and 3 within one iteration, c 1.69-1.84; in N, c drifts 0.91-1.07 and kappa = 2
// comes out 2 iterations low at 9 levels (docs/model.md, "CG's counts squared").
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "kcycle/model/coarse_forecast.hpp"
#include "kcycle/solve/solver_options.hpp"

namespace kcycle {

// H above: what the two coarse calls count together; `less` <= 0 for no second call (kappa = 1).
double coarse_calls_count(double same, double less);

struct CountRecursion {
  double a = 0, c = 0;  // N_kappa(L) = a + c H_kappa(L)
};

// The least-squares line N = a + c H through the points (one per kappa, duplicates weigh as
// such); none with fewer than two distinct H or where c <= 0 (more coarse work would cost
// iterations: no recursion).
std::optional<CountRecursion> fit_count_recursion(const std::vector<double>& coarse, const std::vector<double>& counts);

// The forecasts (one per kappa of `kappas`, as the advisor holds them) without a probe of their
// own get a point one level above their last solve (the probes' level) placed by the recursion,
// c fitted through every kappa's solves at the last solved level, and are refitted through their
// last two solves and it. Beside the probed kappa q nearest in H, where within kAlikeCounts of
// it: N_q + c (H_kappa - H_q). Otherwise (no probe, or none alike) at a + c H_kappa, a the mean
// over the kappas of their own counts there (a probe's, or their solves' fit) less c H. Never
// below the kappa's last solve. Simulated with 40-iteration probe estimates on the 3-seed cache
// at 7-10 levels: 315-328 of 360 counts within 15 % for any probed set of one or two kappas, 320
// with none (docs/model.md). The V-cycle keeps its own fit: one call, its H sits at the far end
// of the kappas the model is fitted on (placed beside a probed F-cycle, 45 of its 72 counts
// within 15 %; its own fit, 49). The basis of each forecast says what was done.
enum class Placement {
  Placed,      // a point placed and refitted
  OwnFit,      // left to its own fit, on purpose (the V-cycle)
  Unavailable  // nothing placed: a probe of its own, or the recursion cannot be fitted here
               // (fewer than two kappas apart at the last solved level, a kappa-1 not among the
               // kappas, probes only two levels above the solves), where another way may serve
};
std::vector<Placement> place_by_recursion(std::vector<CoarseForecast>& forecasts, const std::vector<int>& kappas,
                                          const SolverOptions& target);

// Which counts slow. With c/2 < 1 the W-cycle's count follows a_L and grows more slowly level by
// level; a finite kappa, once its coarse calls count more than the W-cycle's, grows toward c a
// level (kappa = 2 in xyzebra-galerkin: 1.69, 1.53, 1.70x a level at 8-10 levels). So only the
// forecasts whose last point counts within kWLikeCounts of the fewest at that level (the
// W-cycle's) keep the fit that slows; the others are refitted as growing (fit_as_growing), their
// basis saying so: stand-alone, in the level count, not levels^0.75 (simulated on the 3-seed
// cache: at 7-10 levels 164 and 128 of 180 counts within 15 % one and two levels on, all in
// levels^0.75 164 and 127; at 11 levels two on, 12 of 15 against 11); MGCG, log-linearly alone in
// levels^0.75, not the geometric mean with the linear fit (the V-cycle: 35 of 36 within 15 % two
// levels on against 30, 22 of 27 three levels on against 8). Returns how many were refitted.
inline constexpr double kWLikeCounts = 1.05;
int fit_growing_counts(std::vector<CoarseForecast>& forecasts, const SolverOptions& target);

// The recursion once more, at the target, from every kappa's count one level below (its point
// there, a probe's or a placed one, else its fit's) as H, c from the line through the last solves,
// and a from the W-like kappas' own forecasts at the target (less c H, averaged).
// MGCG: for the kappas still growing (neither the V-cycle nor within kWLikeCounts of the fewest
// there), N^2 = a + c H. Where a growing count's own fit bends it (levels^0.75), the recursion
// keeps it growing as its coarse calls do. Simulated on the 3-seed MGCG cache at 7-10 levels
// (docs/model.md, "CG's counts squared"), with no probes: kappa = 2's count over kappa = 3's
// within 2.0 % (median), where the fit left it 2.8 % off (4.8 % with the line in the counts).
// Stand-alone: the W-like kappas other than the V-cycle (two or more), N = a + c H, spread about
// their forecasts' mean. Kappas that solved alike up to one level below the target get alike fits
// there, while their coarse calls at the target differ: xyzebra-galerkin counts 59 and 59 for
// kappa = 3 and 4 at 8 levels, 87 and 81 at 9, where their H are 33.4 and 29.5. On the solved
// counts at 7-12 levels (jacobi, xyzebra-galerkin, xzebra-semi-galerkin) the line through
// kappa = 2, 3, 4 and W puts each within 3 % of its count; the advice then forecast 87, 83, 81 for
// that row's 87, 81, 80, against 82, 82, 80 before (docs/model.md). The band moves with the count.
// Returns how many were placed.
int place_at_target_by_recursion(std::vector<CoarseForecast>& forecasts, const std::vector<int>& kappas,
                                 const SolverOptions& target);

}  // namespace kcycle
