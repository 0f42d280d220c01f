#pragma once
// The kappa advisor: for each candidate kappa, the iterations to the tolerance are forecast from
// solves on coarser hierarchies (coarse_forecast.hpp; the default), estimated by a probe solve at
// the target size (iteration_estimate.hpp; CG from its Lanczos coefficients too; or simply solved
// where that is cheap) or analysed by LFA; the calibration (its per-level costs, else the paper's
// alpha/beta model) or the probes' own timing gives the time per iteration; their product
// predicts the time to the tolerance, and the fastest kappa is recommended (in a near-tie, the one
// of fewer iterations: AdvisorSettings::near_tie).
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "kcycle/model/coarse_forecast.hpp"
#include "kcycle/model/cost_model.hpp"
#include "kcycle/model/interleaved_solves.hpp"
#include "kcycle/model/probe.hpp"
#include "kcycle/solve/solver_options.hpp"

namespace kcycle {

struct KappaPrediction {
  int kappa = 1;
  int probe_iterations = 0;
  double probe_seconds_per_iteration = 0;  // measured: the probe's loop over its iterations
  // What the probes' time says an iteration costs: the probe's mean, or, where it simply solved
  // in little time, the median of its kappa's solves taken round-robin (the Probe source's
  // price; LevelCosts scales to these).
  double measured_price = 0;
  double factor = 0;                // the asymptotic factor the probe's factors approach (IterationEstimate::rho)
  double probe_reduction = 0;       // what the probe achieved
  bool converged_in_probe = false;  // then the iterations are exact: it simply solved
  double predicted_iterations = 0;  // to reach options.tolerance
  double iterations_low = 0, iterations_high = 0;  // the band they lie in (IterationEstimate)
  double seconds_per_iteration = 0;
  double predicted_seconds = 0;  // predicted_iterations * seconds_per_iteration
  std::string basis;             // where predicted_iterations came from, in words
  bool settled = false;          // probed at the target size in turns with the kappas close to it (settle)
  // The time band: the iterations' band at this price.
  double seconds_low() const { return iterations_low * seconds_per_iteration; }
  double seconds_high() const { return iterations_high * seconds_per_iteration; }
};

// Where the advice's time per iteration comes from.
enum class TimeSource {
  Probe,          // the probes' own median time per iteration
  LevelCosts,     // the calibration's per-level costs at this level count (level_cost_model.hpp)
  PaperModel,     // the calibration's alpha/beta model (and lambda on a process grid)
  KrylovTimings,  // MGCG: the calibration's timed iterations of this Krylov method at this level count (with
                  // per-level costs there: those costs, scaled by the timings' median over the cycles')
};
const char* to_string(TimeSource source);

// Where the advice's iterations come from.
enum class IterationSource {
  Probe,           // a probe of each kappa at the target size (solved outright where that is cheap)
  CoarseForecast,  // each kappa solved on coarser hierarchies, the growth fitted (coarse_forecast.hpp)
  Lfa,             // local Fourier analysis of each kappa's cycle (fourier_analysis.hpp): nothing solved,
                   // level-independent (it misses the growth with the levels: docs/model.md)
};
const char* to_string(IterationSource source);

struct Advice {
  std::vector<KappaPrediction> candidates;
  int recommended_kappa = 1;
  // The recommendation is the fastest kappa predicted to converge within the solve's max-iter
  // (or, in a near-tie, the one of fewer iterations: AdvisorSettings::near_tie); false where none
  // is (then it is the fastest of all, and the caller says so).
  bool fits_max_iterations = true;
  int fastest_kappa = 1;  // the fastest predicted of those: the recommendation but in a near-tie
  // Where a near-tie handed the pick to a kappa of fewer iterations: which, over which, and why;
  // empty otherwise.
  std::string tie_note;
  TimeSource time_source = TimeSource::Probe;
  std::string time_note;  // which model gave the time per iteration, and why that one
  // Where the iterations came from: settings.iterations_from where it applied, else Probe (a target
  // too shallow for the forecast's window, settings LFA cannot analyse). A kappa whose coarse
  // solve did not converge is probed all the same; its basis says so.
  IterationSource iterations_from = IterationSource::Probe;
  // Under the coarse forecast: its budget and its random starts ("the forecast's budget: 0.80 of
  // the fastest predicted solve (...); one random start per coarse solve (...)"); empty otherwise.
  std::string iterations_note;
  // LevelCosts: this run's probes' time over what the per-level costs price their iterations at;
  // KrylovTimings: the slope of the line through the timed Krylov iterations against their
  // cycles so priced (or, where its intercept came out negative, their median ratio). Every
  // kappa's time per iteration is scaled by it.
  double level_cost_scale = 1;
  // KrylovTimings: that line's intercept, the Krylov method's own work in an iteration (its
  // operator, dot products, norms), added to every kappa's time per iteration; 0 otherwise.
  double krylov_seconds_per_iteration = 0;
  double seconds = 0;  // what the advice itself took (wall clock)
  // settle: what was done ("kappa=2, 3 settled at the target size: ...") or why not; empty where
  // settle was off or nothing was close.
  std::string settle_note;
  // The kappas settle would probe at the target (the pick and those within settle_reach of it
  // whose bands overlap its band) and about what that takes (half their predicted solves, at
  // least min_iterations each); empty once settled or where nothing is close.
  std::vector<int> to_settle;
  double settle_seconds = 0;
};

struct AdvisorSettings {
  std::vector<int> kappas{kKappaCandidates.begin(), kKappaCandidates.end()};
  // The probes at the target size (probe.hpp: at least 40 iterations, until the estimate's
  // band is within +-5%, or solved where the rest would take under 1 s).
  ProbeSettings probe;
  // Probes that simply solved in under repeat_below_seconds are priced by their kappas' median
  // solves, taken round-robin (interleaved_solves.hpp).
  double repeat_below_seconds = 0.5;
  RepeatPolicy repeats;
  std::optional<Calibration> calibration;  // MGCG is priced only where it timed the Krylov iterations
  // CoarseForecast where the target has the levels for its window (else the probes), and where
  // a coarse solve does not converge (that kappa is probed). The default since the advisor table
  // held issue 40's criteria with it (docs/model.md): it costs under one solve of the pick at
  // 7-10 levels and under a tenth at 11-12, where the probes cost 5-19 times all five solves.
  IterationSource iterations_from = IterationSource::CoarseForecast;
  CoarseForecastSettings forecast;
  // The forecast's probes near the target settle within +-forecast_band: two levels of
  // extrapolation double or triple a count's error (docs/model.md).
  double forecast_band = 0.03;
  // Under CoarseForecast or Lfa without a calibration that prices the cycles: the iterations
  // each kappa runs at the target size for its time per iteration.
  int timing_iterations = 3;
  // A near-tie settled at the target size: where the pick's predicted time band overlaps those
  // of kappas predicted within settle_reach of it, the pick and those kappas (at most
  // settle_most) are probed there, stepped in turns so that their prices share the machine's
  // moments (probe_in_turns), and counted by those probes (priced by them only where nothing
  // else priced the cycles: a calibration's prices are steadier than theirs). Off by default: it costs
  // about half a solve per kappa (jacobi at 8 levels, kappa = 2 and 3: 80-90 iterations of
  // 212 and 166 gave 210 and 165), beyond the forecast's fraction of one; the advice says
  // what it would take. The forecast's counts are within +-4 % two levels out (docs/model.md),
  // so a kappa predicted within 10 % of the pick may be the faster one.
  bool settle = false;
  double settle_reach = 1.10;
  int settle_most = 3;
  // A near-tie goes to the kappa of fewer iterations: of the kappas predicted within this
  // fraction of the fastest, the one predicted to need the fewest iterations is recommended (of
  // counts alike, counts_alike(), the faster). In a near-tie a cheaper cycle's higher count is
  // the less certain of the two: it moves more with the start (xyzebra-galerkin+cg at 10 levels,
  // random starts 1-8: kappa = 3 27 or 28 iterations, kappa = 4 26 in all), and the forecast put
  // the cheaper cycle's time low against the dearer's in 32 of 51 near-tie pairs of three
  // tables, by up to 8 % (docs/model.md, "A near-tie goes to the κ of fewer iterations"). 0: the
  // fastest predicted.
  double near_tie = 0.03;
  // A stop requested here ends the advice (and a kappa sweep) after the iteration under way:
  // advise() and sweep_kappa() then throw CycleCancelled.
  std::stop_token stop;
};

// Runs the probes (each a real solve limited as settings.probe says) and predicts.
Advice advise(const SolverOptions& options, const AdvisorSettings& settings = {});

// Counts within this fraction of each other are alike in a near-tie: the dearer cycle buys nothing.
// A stand-alone cycle's within 5 %, the band in which the forecast fits a count as W-like: kappa =
// 3, 4 and W at xyzebra-galerkin 8 count 59 each, forecast 65-67, and taking kappa = 4's 3.4 % fewer
// cost 4.4 and 6.0 % in two tables. MGCG's within 2 %: its near-ties differ by one CG iteration of
// 26-28, a real 4 % (xyzebra-galerkin+cg 10: kappa = 3 27 or 28 with the start, kappa = 4 26).
inline constexpr double kStandAloneCountsAlike = 0.05;
inline constexpr double kKrylovCountsAlike = 0.02;
double counts_alike(const SolverOptions& options);

// The kappa to recommend of `candidates` (their predicted_seconds set): of those predicted to
// converge within max_iterations (all, where none is), the fastest predicted, or, of those
// within near_tie of it, the one predicted to need the fewest iterations (of counts within
// counts_alike of each other, the faster predicted).
struct Recommendation {
  int kappa = 1;
  int fastest = 1;  // the fastest predicted: kappa but where a near-tie handed the pick on
  bool fits_max_iterations = true;
};
Recommendation recommend(const std::vector<KappaPrediction>& candidates, int max_iterations, double near_tie,
                         double counts_alike);

// The kappas the prediction cannot tell from the recommended one: those within `max_iterations`
// whose time band overlaps its band, fastest first. jacobi+cg at 9 levels picks kappa = 2
// (0.041-0.050 s) with kappa = 3 at 0.045-0.051 s, and kappa = 3 is 6-10 % faster when solved
// (docs/model.md): a near-tie a user should be told of. Empty where the recommendation stands
// clear, or none fits max-iter.
std::vector<int> close_to_recommended(const Advice& advice, int max_iterations);

}  // namespace kcycle
