#pragma once
// A kappa-cycle's iterations at n levels forecast from the same solve on coarser hierarchies:
// solved to the tolerance at n - ahead - window + 1 .. n - ahead levels (a quarter of the
// unknowns per level down; a random start's count the median of a few seeds where the budget
// allows), log(iterations) fitted linearly in the level count to the power 0.75 and evaluated at n
// (MGCG: the geometric mean of the log-linear and linear fits in the level count), each count
// still growing refitted as such (fit_growing_counts, count_recursion.hpp).
// Where the advice's budget allows, a probe one or two levels below the target refines it
// (refine_forecast): three levels of extrapolation triple a count's error, one level does not.
// A kappa the budget leaves without such a probe is placed by the kappa-recursion
// (place_by_recursion), or, where that cannot be fitted, scaled from a probed one
// (scale_from_anchor).
// LFA's factors do not depend on the level count; the V- and F-cycles' iterations do (jacobi,
// 45 degrees: 275, 615, 1209, 2242 V-cycles at 7-10 levels): this sees that growth. Measured
// against solves at 3-12 levels in docs/model.md ("The level dependence LFA cannot see").
#include <cstdint>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "kcycle/model/probe.hpp"
#include "kcycle/solve/solver_options.hpp"

namespace kcycle {

// A probe nearer the target is used from this many iterations on (kappa >= 2's estimates are
// within 4% after 40 and settle early; docs/model.md); one its time cap ends sooner is not.
inline constexpr int kFewestProbeIterations = 20;

// And only where it can run this share of the count the fit gives it there: a stand-alone
// cycle's factors creep up toward rho over hundreds of iterations, and a probe that sees too few
// of them counts low however it extrapolates. jacobi at 9 levels (table t30): probes of 24 and 25
// iterations at 8 levels, 0.14-0.16 of their counts, estimated 147 and 179 for 166 and 212, and
// the advice's kappa = 2, 3 came out 22-30 % low; the 20 probes that ran 0.28 of their count or
// more (some solved outright) were within 2 % of their level's solved count.
inline constexpr double kFewestProbeShareOfCount = 0.25;

// The abscissa of a log-linear fit that bends on its own: the level count to the power 0.75,
// not the level count. A count's growth per level slows as levels are added (jacobi's W-cycle:
// 1.72, 1.65, 1.61, 1.34, 1.49, 1.40, 1.36x a level from 4 to 10 levels; xzebra-semi-galerkin's 2.0
// down to 1.36), so a line in the level count overshoots. Over every window of three solves in
// the 3-seed count cache at 3-10 levels (docs/model.md, "A fit that slows"), stand-alone,
// extrapolated one level: 164 of 180 counts within 15 % against 155; two levels: 127 against 96;
// at 11 levels from 8-10, 15 of 15 either way. Which fits take it (fit_growing_counts): the
// stand-alone counts that slow (near the W-cycle's), and MGCG's counts still growing (its V-cycle:
// 35 of 36 within 15 % two levels on, in the level count 32; three on, 22 of 27 and 20). MGCG's
// slowing counts keep the level count: their geometric mean with the linear fit bends already.
inline constexpr double kSlowingFitPower = 0.75;

// From this many levels the advice is held to a tenth of a solve (issue 40), and the forecast
// budgets and fits for that.
inline constexpr int kDeepFromLevels = 11;

// The advice's default budget from 11 levels, as a fraction of the fastest kappa's predicted
// solve: a fifth under the 10 % of the solve, since the prediction's price is the
// calibration's, and a calibration's prices came out 13-18 % over the solves in the same run
// (jacobi+cg 11, docs/model.md): with 0.1 that advice took 0.19 of the solve.
inline constexpr double kDeepForecastBudget = 0.08;
// Below 11 levels, the same fifth under the one solve: jacobi+cg 7's calibration priced
// an iteration 10-18 % over its solves in the same run, and with 1.0 its advice (up to 3.25 ms,
// the probes at 6 levels filling the budget) cost 1.08 and 1.11 of its solve in two tables
// (docs/model.md).
inline constexpr double kShallowForecastBudget = 0.8;

struct CoarseForecastSettings {
  int ahead = 0;   // the last hierarchy solved has n - ahead levels; 0: 2 with a budget of half a solve or more, else 3
  int window = 3;  // how many hierarchies are solved at most
  int min_levels = 3;  // the coarsest one solved (2-level counts say little of the growth)
  // A probe at n-1 or n-2 levels (the deepest the budget allows) for each contending kappa,
  // best first, while the budget lasts (the advisor's; refine_forecast).
  bool refine = true;
  // Which kappas are probed: those predicted within this factor of the fastest.
  double contender_reach = 1.5;
  // The whole advice's cost as a fraction of the fastest kappa's predicted solve; 0:
  // kDeepForecastBudget from 11 levels (where advice pays), kShallowForecastBudget below.
  double budget = 0;
  // Random starts per coarse solve, whose median count is the level's point: a random start's
  // count moves 5-25 % with its seed (docs/model.md, "Why the 7-8-level counts escape the fit"),
  // and the extrapolation multiplies that. 0: 3 with a random start and a budget of half a solve
  // or more, else 1.
  int seeds = 0;
  // A stand-alone cycle's solve at the window's deepest level stops once its count's estimate has
  // settled (a probe, probe.hpp, at least kFewestProbeIterations), its point that estimate: within
  // 2 % of the solved counts at 8 and 9 levels (jacobi, xyzebra-galerkin, xzebra-semi-galerkin,
  // each kappa), after 28-91 % of their iterations, the V-cycle's 28-58 % (docs/model.md). That
  // level is most of the first stage's cost. MGCG's counts are small and its factors irregular:
  // it solves.
  bool settle_deepest = true;
};

struct CoarseForecast {
  std::vector<int> levels;                    // the hierarchies solved or probed, coarsest first
  std::vector<double> iterations;             // their iterations to the tolerance (a probe's: its estimate)
  std::vector<double> seconds_per_iteration;  // measured in each
  std::vector<bool> probed;                   // a probe's estimate (or a placed point), not a solve's count
  bool placed = false;                        // its last point placed by the recursion (place_by_recursion)
  // Its count still grows as fast as it did (fit_growing_counts): stand-alone, log(iterations)
  // fitted in the level count, not levels^kSlowingFitPower; MGCG, the log-linear fit alone in
  // levels^kSlowingFitPower, not the geometric mean of the fits in the level count.
  bool growing = false;
  double seconds = 0;               // what the solves and probes took
  bool converged = true;            // every solve did (else no forecast)
  double iterations_at_target = 0;  // the fit at the target's level count
  double low = 0, high = 0;         // the fits through the first two and the last two points, and it
  std::string basis;                // "solves at 4, 5, 6 levels: 212, 369, 575 iterations"
};

// The level counts the window solves at, coarsest first.
std::vector<int> coarse_forecast_levels(const SolverOptions& target, const CoarseForecastSettings& settings);
// Whether the target has enough levels for the settings' window (two solves of min_levels or more).
bool coarse_forecast_fits(const SolverOptions& target, const CoarseForecastSettings& settings);
// The levels a target needs for that.
int coarse_forecast_min_levels(const SolverOptions& target, const CoarseForecastSettings& settings);

// The advice's budget as a fraction of the fastest kappa's predicted solve (settings.budget, or its default).
double forecast_budget(const SolverOptions& target, const CoarseForecastSettings& settings);
// The random starts each coarse solve takes (settings.seeds, or its default).
int forecast_seeds(const SolverOptions& target, const CoarseForecastSettings& settings);

// The coarse solves one advice has made, for the kappas after the first: at m levels every
// kappa >= m - 1 leaves the W-cycle's iterates (same_iterates_counter), so kappa = 2, 3, 4 and W
// solve once at 3 levels, kappa = 3, 4 and W once at 4, and kappa = 4 and W once at 5 (the same
// count; the price per iteration is that of the first kappa solved, within the coarsest level's
// share of the other's).
struct CoarseSolve {
  int levels = 0;
  int counter = 0;  // same_iterates_counter(kappa, levels): whose iterates these are
  std::uint64_t seed = 0;
  double iterations = 0, seconds_per_iteration = 0;
  int threads = 0;  // what it ran on (0: the options' own count)
  double seconds = 0;
  double setup_seconds = 0;  // of those seconds, its hierarchy built (fresh pages, first norms)
  bool converged = false;    // it has a count: it converged, or (settled) its estimate has one
  int ran = 0;               // the iterations it ran: fewer than `iterations` where it settled
  // Not run: its count is that of the kappas below and above it, which counted alike
  // (sandwiched_solve); its price is between theirs, by the cycles' calls.
  bool between = false;
};
using CoarseSolves = std::vector<CoarseSolve>;

// A kappa's count, known without solving it: a count falls as kappa grows (each cycle does more
// coarse-grid work), so where the nearest kappas below and above `coarse`'s counter, solved on
// the same hierarchy from the same start, counted alike, so does it. Measured on every preset at
// 3-7 levels (counts non-increasing in kappa throughout): kappa = 2 counts what the W-cycle does
// at 5 levels in all six, kappa = 3 at 6 levels. The price per iteration lies between the two's,
// by the calls each cycle makes (total_calls). nullopt where either is missing, settled (an
// estimate) or counted otherwise.
std::optional<CoarseSolve> sandwiched_solve(const SolverOptions& coarse, const CoarseSolves& solved);

// Whether a hierarchy is built on pages the process holds already (no deeper than one built
// before: the heap keeps them, heap_policy.hpp) or on fresh ones, each faulted in (deeper than any
// built: 5-12 us a page on this VM, jacobi's first 8-level set-up 7.0 ms against 0.27 for the next).
enum class SetupPages { Reused, Fresh };

// What building a hierarchy of `levels` levels like the target's takes, from the set-ups of the
// deepest solves in `solved`, grown with the finest grid's unknowns: on reused pages their median,
// on fresh ones their slowest (the first there, deepest first, paid them); 0 where none.
double predicted_setup_seconds(const SolverOptions& target, int levels, const CoarseSolves& solved,
                               SetupPages pages = SetupPages::Reused);

// The coarse solves run side by side on one thread each only where the window's deepest
// hierarchy has this many levels or more; below it one after the other (on one thread). Starting
// a second thread (its stack, its malloc arena, every loaded library's thread-local storage)
// costs a fresh process about as much as the whole stage's arithmetic at 3-5 levels. The first
// stage of a fresh `kcycle advise` on the 2-core VM, medians of 9-12 runs: at 7 levels (windows
// of 3-5 levels) 3.1 ms one after the other against 5.1 ms side by side (xzebra-semi-galerkin+cg),
// 2.2 against 3.7 (jacobi+cg), 4.9 against 4.9 (jacobi); at 8 (windows of 4-6 levels) 14.1
// against 10.3 (xzebra-semi-galerkin+cg) and 7.2 against 7.4 (jacobi+cg); from 9 levels side by
// side took 0.46-0.72 of the time one after the other (the stage alone, medians of 7; docs/model.md).
inline constexpr int kSideBySideFromLevels = 6;
// A probe nearer the target of this many levels or fewer (63 x 63 unknowns and fewer) runs on one
// thread, as the coarse solves do on the CPU: at 6 levels two threads iterated at most 14 %
// faster than one (jacobi 64 us on two against 52 on one, jacobi+cg 52 against 60,
// xzebra-semi-galerkin+cg 204 against 232; fresh processes, medians of 5) and took 2-6 times as
// long to set up (2.5 against 0.7 ms, 7.5 against 1.3, 3.0 against 1.8), while its plan prices
// the set-up from the one-thread solves' (predicted_setup_seconds): on all threads jacobi 7's
// probes took 4-8 ms of shares of 1.5-3 ms.
inline constexpr int kOneThreadProbesUpToLevels = 6;
// Whether the target's window reaches kSideBySideFromLevels.
bool side_by_side_pays(const SolverOptions& target, const CoarseForecastSettings& settings);

// Solves the windows of all `targets` (one per kappa) that `solved` does not hold yet,
// `concurrently` at a time on one thread each (the CPU backend; 1: one after the other on the
// options' threads), the deepest first. The small hierarchies scale poorly over threads (at 4-5
// levels two threads take as long per iteration as one, and three times as long to set up), so
// running them side by side halves the first stage on two cores where the windows are large
// enough (side_by_side_pays). The counts do not depend on the thread count. A kappa whose
// neighbours on the same hierarchy and start counted alike is not run (sandwiched_solve): the
// ends first, then what lies between them. Throws CycleCancelled when `stop` is requested.
void solve_coarse_windows(const std::vector<SolverOptions>& targets, const CoarseForecastSettings& settings,
                          int concurrently, CoarseSolves& solved, std::stop_token stop = {});

// Solves `target` at the window's level counts (same kappa, tolerance and problem) and fits;
// a solve `solved` already holds is taken from it, and each new one is added to it.
// Throws CycleCancelled when `stop` is requested.
CoarseForecast forecast_from_coarse_solves(const SolverOptions& target, const CoarseForecastSettings& settings,
                                           CoarseSolves& solved, std::stop_token stop = {});
// The same, sharing nothing.
CoarseForecast forecast_from_coarse_solves(const SolverOptions& target, const CoarseForecastSettings& settings,
                                           std::stop_token stop = {});

// Re-takes each solved point of `forecast` as the median count over the random starts `solved`
// holds for it (target.seed, target.seed + 1, ... while present) and refits as before (through
// the last two solves and the probe, where one was added); the basis says so. False where
// `solved` holds only the target's own seed.
bool take_seed_medians(CoarseForecast& forecast, const SolverOptions& target, const CoarseSolves& solved);

// A forecast without a probe nearer the target, scaled from one with (`anchor`: another kappa,
// the same window and start): the anchor's iterations at the target times the ratio of their
// counts at the last two solved levels, extrapolated log-linearly to the target. Two kappas'
// counts at a level share the start vector, so their ratio carries little of the seed's noise,
// which the extrapolation of a count multiplies (docs/model.md, "One probe for several kappas").
// The band takes in this and the forecast's own fit. False where their counts are not alike (a
// ratio beyond kAlikeCounts either way at either solve: the V-cycle's count over the F-cycle's,
// 1.6 at 5 levels and growing, extrapolates no better than its own), the basis then saying so
// and nothing else changed; false, nothing changed, where either has fewer than two solved
// points, their solved levels differ or the anchor has no probe.
inline constexpr double kAlikeCounts = 1.5;
bool scale_from_anchor(CoarseForecast& forecast, const CoarseForecast& anchor, const SolverOptions& target,
                       const std::string& anchor_name);

// Whether a probe nearer the target was fitted (refine_forecast); a placed point is none.
bool has_probe(const CoarseForecast& forecast);
// Whether its fit runs through every point, not the last two solves and the point nearer the
// target: a stand-alone cycle's, below kDeepFromLevels, with such a point; and the basis's words
// for the fit it takes.
bool fit_takes_every_point(const CoarseForecast& forecast, const SolverOptions& target);
std::string fitted_through(const CoarseForecast& forecast, const SolverOptions& target);

// Refits the forecast as a count that does not slow (`growing`; fit_growing_counts).
void fit_as_growing(CoarseForecast& forecast, const SolverOptions& target);

// Adds a point nearer the target than the solves, not a solve's count (a probe's estimate, a
// placed count), and refits through the last two solves and it.
void add_point_nearer(CoarseForecast& forecast, const SolverOptions& target, int levels, double iterations,
                      double seconds_per_iteration);

// Whether two forecasts solved the same levels to the same counts (two or more), as kappa = 3,
// 4 and W do on small hierarchies before their cycles differ in count: one probe nearer the
// target then serves both (scale_from_anchor's ratio is 1 at every level).
bool same_solved_counts(const CoarseForecast& a, const CoarseForecast& b);

// Of `forecasts` (one per kappa, in the candidates' order), the converged one with a probe
// nearer the target whose last solved count is nearest forecasts[k]'s (the most alike cycle; of
// equal counts, as on small hierarchies, the nearest in that order); forecasts.size() if none.
std::size_t nearest_probed(const std::vector<CoarseForecast>& forecasts, std::size_t k);

// The forecast's fit (as refit fits it) evaluated at another level count: what a probe there
// may count.
double forecast_iterations_at(const CoarseForecast& forecast, const SolverOptions& target, int levels);

// What a probe of `iterations` at `levels` would take: at `price` seconds an iteration where the
// caller has one there (a calibration's), else from the solves' seconds per iteration (growing
// per level as they grew from the second-last solve to the last, 2x to 8x).
double predicted_probe_seconds(const CoarseForecast& forecast, int levels, int iterations, double price = 0);
// The fewest iterations a probe at `levels` must run to be used: `floor` (a caller's probe may
// ask for fewer than kFewestProbeIterations), and kFewestProbeShareOfCount of the count the
// forecast gives it there.
int fewest_probe_iterations(const CoarseForecast& forecast, const SolverOptions& target, int levels,
                            int floor = kFewestProbeIterations);
// Whether a probe at `levels` is worth starting on `share` seconds: whether they pay its set-up
// and its fewest iterations (fewer are not used). A planned probe whose share came down below
// that (an earlier probe brought the fastest solve, and the budget, down) would stop too early
// to use: jacobi at 8 levels ran three more of 3-10 iterations after kappa = 2's, 2-3 ms each,
// none used.
bool share_pays_for_probe(const CoarseForecast& forecast, const SolverOptions& target, int levels, double setup_seconds,
                          double share, double price = 0);

// Probes `target` at `levels` (below the target, above the solves) and refits through the last
// two solves and the probe's estimate; false (nothing refitted, the basis says so) where the
// probe's max_seconds ended it before kFewestProbeIterations (or its min_iterations, if fewer).
bool refine_forecast(CoarseForecast& forecast, const SolverOptions& target, int levels, const ProbeSettings& probe,
                     std::stop_token stop = {});

}  // namespace kcycle
