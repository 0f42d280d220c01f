#pragma once
// The paper's run-time model (section 3): T = alpha * N_calls + beta * N_ops per cycle,
// where N_calls is the number of backend operation launches and N_ops the work. Here also:
// the exact operation count of Proposition 2.6, the least-squares fit of (alpha, beta)
// (equation 3.2), turning points (appendix) and the calibration file the advisor and the
// visualizer reuse.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kcycle/solve/multigrid.hpp"

namespace kcycle {

// f(kappa, c) of Proposition 2.6: (1 - (c/(1-c))^kappa) / (1 - 2c), or 2 kappa at c = 1/2.
// kappa = kKappaW gives the W-cycle limit 1/(1-2c) (infinite for c >= 1/2).
double work_factor(int kappa, double c);

// Proposition 2.6, exactly: the operations of one kappa-cycle on n levels with a constant
// coarsening factor c, C operations per unknown on every level but the coarsest, which has
// N1 unknowns and costs Ctilde per unknown: f(kappa,c) C N_n + P_{kappa,c}(n).
double proposition_ops(int kappa, int levels, double c, double C, double Ctilde, double N1);

// Work of one cycle on kcycle's grids, counted level by level: sum over levels of
// levelCalls(kappa, l) * unknowns(l). This is N_ops with C = 1 and no approximation of c; the
// coarsest level's calls made as `coarsest` says (cycle_counts.hpp).
double cycle_ops(int kappa, int levels, Coarsening coarsening, CoarsestCalls coarsest = CoarsestCalls::Repeated);

// Backend launches of one cycle: launches_per_call * totalCalls(kappa, n-1) + levelCalls(kappa, n).
double cycle_launches(int kappa, int levels, int launches_per_call, CoarsestCalls coarsest = CoarsestCalls::Repeated);

struct CostModel {
  double alpha = 0;   // seconds per launch
  double beta = 0;    // seconds per unit of N_ops (one unknown visited by one cycle call)
  double lambda = 0;  // seconds per message (the MPI backend; distributed_model.hpp), else 0
  double predict(double launches, double ops, double messages = 0) const {
    return alpha * launches + beta * ops + lambda * messages;
  }
};

// The paper's fit on its main test system (a GPU, section 3): alpha = 2.48e-3 ms per kernel
// launch, beta = 1.18e-6 ms per unit of N_ops, with 5 + nu1 + nu2 launches per call.
inline constexpr CostModel kPaperGpuModel{2.48e-6, 1.18e-9};
inline constexpr int kPaperTransferLaunchesPerCall = 5;

struct TimingSample {
  int kappa;
  int levels;
  double launches;
  double ops;  // on a process grid: the busiest rank's, level by level (distributed_model.hpp)
  double seconds;
  double messages = 0;  // on a process grid: the busiest rank's, level by level, collectives as latencies
  double spread = 1;    // how much its repetitions varied (CycleTiming::spread)
  // The per-level side (level_cost_model.hpp): the median cycle's seconds, and each level's
  // seconds per call from the per-level timers (index l - 1); empty in older files.
  double median_seconds = 0;
  std::vector<double> level_seconds = {};
};

// Least squares over the samples, as the paper's equation 3.2 (unweighted, so the large
// cases dominate, as in the paper), with alpha, beta >= 0. lambda: seconds per message,
// measured apart (the MPI backend's latency benchmark); the fit is then of alpha and beta to
// the time the messages leave, T - lambda * messages. A cycle's messages take no more than
// the cycle: lambda is capped at the smallest T / messages (a latency benchmark run while the
// machine was busy, each message waiting for a time slice, would otherwise leave alpha = beta
// = 0, a model in which computing costs nothing).
CostModel fit_cost_model(const std::vector<TimingSample>& samples, double lambda = 0);

// The turning point n_tp where alpha * N_calls = beta * N_ops, by the paper's appendix
// iteration n <- log2(1 + sqrt(alpha/beta * N_calls(kappa, n) / C(kappa))) from n = 2, 20
// times, with N_calls from `launches_per_call` (real n: generalized binomials), and
// C(kappa) = f(kappa, 1/4) as for standard coarsening. Returns n_tp; N_tp = (2^n_tp - 1)^2.
// tail_depth: the levels a coarse tail runs below its top in one launch (coarse_tail_depth());
// N_calls is then that of a hierarchy tail_depth levels shorter (the tail's top launches as its
// coarsest level: CycleSchedule::tail_top()).
double turning_point_levels(int kappa, const CostModel& model, int launches_per_call, int tail_depth = 0);

// A Krylov-accelerated solve's iteration (MGCG: the preconditioning cycle, CG's vector work and
// the norms) as `calibrate` timed it for the run's Krylov method: the calibration's cycles do not
// price CG's own passes (docs/model.md).
struct KrylovSample {
  int kappa;
  int levels;
  double seconds;  // the median iteration, norms included
};

// The calibration file: the fitted model and the settings it was measured for.
struct Calibration {
  CostModel model;
  std::string backend = "cpu";
  std::string smoother;
  std::string coarsening;
  int launches_per_call = 0;  // as issued: a fused pass is one launch
  bool fused = false;         // timed with fused Jacobi passes (MultigridSettings::fused)
  int coarse_tail = 0;        // timed with a coarse tail from levels of this many unknowns (0: none)
  CoarsestCalls coarsest_calls = CoarsestCalls::Repeated;  // as its cycles made them (--repeat-coarsest)
  int threads = 0;
  int ranks = 1;               // MPI: the ranks it was timed on (model.lambda is theirs)
  double measured_lambda = 0;  // the latency benchmark's, before the fit's cap (not saved)
  std::vector<TimingSample> samples;
  std::string krylov;  // "pcg" or "fcg" where it timed that method's iterations too, else empty
  std::vector<KrylovSample> krylov_samples;
  // The Krylov iteration's seconds at (kappa, levels) for `method`, or nothing (not timed).
  std::optional<double> krylov_seconds(const std::string& method, int kappa, int levels) const;
  // The largest spread of its samples. From kNoisySpread the machine was busy while it timed:
  // the calibration is noisy (said when made, and not saved over a clean one).
  double spread = 1;
  static constexpr double kNoisySpread = 2.0;
  bool noisy() const { return spread >= kNoisySpread; }
};
// "timings varied 3.1x (kappa=3, 9 levels): the machine was busy; calibration marked noisy",
// or "" for a clean calibration.
std::string noise_note(const Calibration& calibration);
// "the message latency benchmark measured 4 ms, more than the cycles took per message (3 us):
// ..." when the fit capped lambda, or "".
std::string latency_note(const Calibration& calibration);
// What differs between the cycle a calibration timed and one that runs with `as_run` settings
// (resolve()'s) on `backend` (describe()'s name) with `threads` threads: "" when nothing does,
// else "made for <smoother>/<coarsening>, <backend>, N threads[, fused]; this run: ..." so that a
// prediction from it is not shown as if it applied.
std::string calibration_mismatch(const Calibration& calibration, const MultigridSettings& as_run,
                                 const std::string& backend, int threads);
void save_calibration(const Calibration& calibration, const std::string& path);
// save_calibration, unless `calibration` is noisy and `path` holds a clean one: then nothing is
// written and the reason is returned ("" when saved).
std::string save_calibration_unless_noisier(const Calibration& calibration, const std::string& path);
// Throws InvalidOptions naming the file, the key and what was expected when the file is
// missing or malformed (unknown key, wrong type, non-finite number, truncated JSON).
Calibration load_calibration(const std::string& path);
// The same from text; `source` names it in messages.
Calibration parse_calibration(std::string_view text, const std::string& source);

}  // namespace kcycle
