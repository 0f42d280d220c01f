// `kcycle advise`: predict the time to the tolerance for each kappa from short probes and
// the run-time model, and recommend one. --verify also solves each case to compare.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "commands.hpp"
#include "kcycle/model/advisor.hpp"
#include "kcycle/model/kappa_sweep.hpp"
#include "kcycle/solve/execution_target.hpp"
#include "kcycle/solve/solve.hpp"
#include "solver_args.hpp"

namespace kcycle::cli {

namespace {

struct AdviseArgs {
  SolverArgs solver;
  std::string calibration;
  int probe = 40;
  int max_probe = 600;
  double solve_below = 1.0;
  bool verify = false;
  bool json = false;
  std::string iterations = "forecast";  // issue 40: predicted, not probed at the target size
  double budget = 0;                    // the forecast's: 0 is forecast_budget's default
  int seeds = 0;                        // the forecast's random starts per coarse solve: 0 is forecast_seeds' default
  int verify_repeats = 0;               // 0: RepeatPolicy's (at least 5 solves and 1 s per kappa)
  bool settle = false;                  // AdvisorSettings::settle
  double near_tie = AdvisorSettings{}.near_tie;
};

// --iterations' word for where the iterations came from.
const char* option_word(IterationSource source) {
  return source == IterationSource::CoarseForecast ? "forecast" : to_string(source);
}

void print_json(const Advice& advice, const std::vector<KappaSweepRow>& measured, double drift,
                const SolverOptions& o) {
  nlohmann::json rows = nlohmann::json::array();
  for (std::size_t k = 0; k < advice.candidates.size(); ++k) {
    const KappaPrediction& p = advice.candidates[k];
    const auto number = [](double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(); };
    nlohmann::json row = {{"kappa", kappa_to_string(p.kappa)},
                          {"factor", number(p.factor)},
                          {"probe_iterations", p.probe_iterations},
                          {"predicted_iterations", number(p.predicted_iterations)},
                          {"iterations_low", number(p.iterations_low)},
                          {"iterations_high", number(p.iterations_high)},
                          {"converged_in_probe", p.converged_in_probe},
                          {"probe_seconds_per_iteration", number(p.probe_seconds_per_iteration)},
                          {"measured_price", number(p.measured_price)},
                          {"seconds_per_iteration", number(p.seconds_per_iteration)},
                          {"predicted_seconds", number(p.predicted_seconds)},
                          {"predicted_seconds_low", number(p.seconds_low())},
                          {"predicted_seconds_high", number(p.seconds_high())},
                          {"basis", p.basis},
                          {"settled", p.settled}};
    if (k < measured.size()) {
      row["measured_iterations"] = measured[k].iterations;
      row["measured_seconds"] = number(measured[k].seconds_total);
      row["measured_converged"] = measured[k].converged;
      row["measured_solves"] = measured[k].solves;
      row["measured_spread"] = number(measured[k].spread);
    }
    rows.push_back(row);
  }
  nlohmann::json out = {{"levels", o.levels},
                        {"tolerance", o.tolerance},
                        {"recommended_kappa", kappa_to_string(advice.recommended_kappa)},
                        {"fastest_predicted_kappa", kappa_to_string(advice.fastest_kappa)},
                        {"tie_note", advice.tie_note},
                        {"max_iterations", o.max_iterations},
                        {"recommended_fits_max_iterations", advice.fits_max_iterations},
                        {"iterations_from", option_word(advice.iterations_from)},
                        {"time_source", to_string(advice.time_source)},
                        {"time_note", advice.time_note},
                        {"iterations_note", advice.iterations_note},
                        {"level_cost_scale", advice.level_cost_scale},
                        {"krylov_seconds_per_iteration", advice.krylov_seconds_per_iteration},
                        {"advice_seconds", advice.seconds},
                        {"settle_note", advice.settle_note},
                        {"candidates", rows}};
  out["to_settle"] = nlohmann::json::array();
  for (const int kappa : advice.to_settle) out["to_settle"].push_back(kappa_to_string(kappa));
  out["settle_seconds"] = advice.settle_seconds;
  out["close_to_recommended"] = nlohmann::json::array();
  for (const int kappa : close_to_recommended(advice, o.max_iterations))
    out["close_to_recommended"].push_back(kappa_to_string(kappa));
  if (!measured.empty()) out["machine_drift"] = std::isfinite(drift) ? nlohmann::json(drift) : nlohmann::json();
  std::printf("%s\n", out.dump(1).c_str());
}

// The kappas the prediction cannot tell from the pick (close_to_recommended), each with its
// predicted time beside the pick's and its band: a near-tie that a verified solve or a larger
// --budget decides.
void print_close(const Advice& advice, int max_iterations) {
  const std::vector<int> close = close_to_recommended(advice, max_iterations);
  if (close.empty()) return;
  const auto of = [&](int kappa) {
    return *std::find_if(advice.candidates.begin(), advice.candidates.end(),
                         [&](const KappaPrediction& p) { return p.kappa == kappa; });
  };
  const KappaPrediction& pick = of(advice.recommended_kappa);
  std::printf("close to it (predicted time bands overlapping its %.3g-%.3g s):", pick.seconds_low(),
              pick.seconds_high());
  for (std::size_t j = 0; j < close.size(); ++j) {
    const KappaPrediction& p = of(close[j]);
    std::printf("%s kappa=%s %.3g s (%+.1f%%, %.3g-%.3g s)", j == 0 ? "" : ";", kappa_to_string(p.kappa).c_str(),
                p.predicted_seconds, 100.0 * (p.predicted_seconds / pick.predicted_seconds - 1.0), p.seconds_low(),
                p.seconds_high());
  }
  std::printf("; the prediction cannot tell them apart");
  if (!advice.to_settle.empty()) {
    std::printf(": --settle probes kappa=%s at the target size in turns (about %.2g s)",
                kappas_to_string(advice.to_settle).c_str(), advice.settle_seconds);
  }
  std::printf("; --verify solves each\n");
}

int run(const AdviseArgs& a, const CLI::App& cmd) {
  SolverOptions o = resolve(a.solver, cmd);
  const ResolvedRun resolved = resolved_run(o);  // --backend cuda without a GPU stops here
  validate(o);
  if (o.coarse_krylov)
    throw InvalidOptions(
        "advise prices the plain kappa-cycle (its time models count no Krylov steps): leave --coarse-krylov off, "
        "and compare the two with kcycle solve");
  if (a.probe < 2) throw InvalidOptions("--probe must be at least 2 iterations");
  if (a.max_probe < a.probe) throw InvalidOptions("--max-probe must be at least --probe");
  if (!(a.solve_below >= 0.0) || !std::isfinite(a.solve_below))
    throw InvalidOptions("--solve-below must be a number of seconds, 0 or more");
  AdvisorSettings settings;
  settings.probe.min_iterations = a.probe;
  settings.probe.max_iterations = a.max_probe;
  settings.probe.solve_below_seconds = a.solve_below;
  settings.forecast.budget = a.budget;
  settings.forecast.seeds = a.seeds;
  settings.settle = a.settle;
  settings.near_tie = a.near_tie;
  if (a.verify_repeats > 0) {  // deep hierarchies: each solve takes seconds to minutes, a median of few is enough
    settings.repeats.min_repeats = settings.repeats.max_repeats = a.verify_repeats;
    settings.repeats.min_seconds = settings.repeats.unsteady_seconds = 0;
  }
  settings.iterations_from = a.iterations == "forecast" ? IterationSource::CoarseForecast
                             : a.iterations == "lfa"    ? IterationSource::Lfa
                                                        : IterationSource::Probe;
  if (settings.iterations_from == IterationSource::CoarseForecast && !coarse_forecast_fits(o, settings.forecast))
    std::fprintf(stderr,
                 "note: a forecast from coarser solves needs at least %d levels (got %d): each kappa is probed at the "
                 "target size instead\n",
                 coarse_forecast_min_levels(o, settings.forecast), o.levels);
  if (!a.calibration.empty()) {
    settings.calibration = load_calibration(a.calibration);
    const std::string mismatch =
        calibration_mismatch(*settings.calibration, resolved.settings, describe(resolved.target), o.threads);
    if (!mismatch.empty()) {  // its times are another cycle's: the probes' own times are used instead
      std::fprintf(stderr,
                   "warning: the calibration %s does not match this run (%s): not used; the times come from the "
                   "probes\n",
                   a.calibration.c_str(), mismatch.c_str());
      settings.calibration.reset();
    }
  }
  // --verify: the advice, then every kappa solved round-robin (kappa_sweep.hpp).
  std::vector<KappaSweepRow> measured;
  Advice advice;
  double drift = NAN;
  std::vector<std::string> machine_notes;
  std::vector<int> tied;
  if (a.verify) {
    KappaSweep sweep = sweep_kappa(o, settings);
    tied = sweep.tied_with_best();
    drift = sweep.machine_drift();
    machine_notes = sweep.machine_notes();
    advice = std::move(sweep.advice);
    measured = std::move(sweep.rows);
  } else {
    advice = advise(o, settings);
  }
  if (a.json) {
    print_json(advice, measured, drift, o);
    return advice.fits_max_iterations ? 0 : 3;  // as solve exits when not converged
  }
  const bool forecast = advice.iterations_from == IterationSource::CoarseForecast;
  const std::string source =
      forecast ? "iterations forecast from coarser hierarchies"
      : advice.iterations_from == IterationSource::Lfa
          ? "iterations by local Fourier analysis"
          : "probes of " + std::to_string(a.probe) + "-" + std::to_string(a.max_probe) + " iterations";
  std::printf("kcycle advise: %d levels, eps=%g, angle=%g, %s(%d,%d), %s coarsening, %s, tol %g, %s\n", o.levels, o.eps,
              o.angle_degrees, std::string(to_string(o.smoother)).c_str(), o.nu1, o.nu2,
              std::string(to_string(o.coarsening)).c_str(), std::string(to_string(o.solver)).c_str(), o.tolerance,
              source.c_str());
  std::printf("%s\n", advice.time_note.c_str());
  if (!advice.iterations_note.empty()) std::printf("%s\n", advice.iterations_note.c_str());
  if (forecast)
    std::printf(
        "iterations: each kappa solved on coarser hierarchies (a stand-alone cycle's deepest one until its count's\n"
        "estimate settled) and its growth with the levels fitted; the contenders\n"
        "(within %.1fx of the fastest) then probed one or two levels below the target, within a budget of %.2g of\n"
        "the fastest predicted solve (as many as it fits, best first; none that solved as an earlier kappa did, to\n"
        "the iteration: that one's probe serves it), and refitted; then, where the budget leaves\n"
        "room, the coarse solves again from up to %d random starts, their median counts refitted; a kappa left\n"
        "without a probe gets a point at the probes' level placed by the kappa-recursion (its count = a + c H, H\n"
        "its two coarse calls' counts with their rates added), beside the probed kappa nearest in H (within 1.5x;\n"
        "else a from the kappas' own counts there), the V-cycle keeping its own fit; stand-alone fits are\n"
        "log-linear in levels^0.75 where the count is within 5%% of the W-cycle's, in the level where it still\n"
        "grows, through every point below 11 levels and else through the last two solves and the probe's;\n"
        "MGCG's are the geometric mean of the log-linear and linear fits in the level where within 5%%,\n"
        "log-linear in levels^0.75 where it still grows; the solves of kappas that leave the same iterates\n"
        "(kappa >= levels - 1 on a small hierarchy) are made once; the band is the lines through the first two\n"
        "and the last two points; the time band is the iteration band's\n",
        settings.forecast.contender_reach, forecast_budget(o, settings.forecast), forecast_seeds(o, settings.forecast));
  else
    std::printf(
        "iterations: each probe ran until its estimate's band was within +-%.0f%% (stand-alone: the remaining factors\n"
        "at the last one and at the asymptotic one; CG: its recent rate and the Chebyshev bound at its Lanczos\n"
        "condition number), or solved (exact) where that took under %.1f s more; the time band is the iteration "
        "band's\n",
        100 * settings.probe.band, settings.probe.solve_below_seconds);
  std::printf("%6s %9s %6s %10s %13s %13s %12s %17s", "kappa", "factor", "probe", "iterations", "band", "ms/iteration",
              "predicted s", "band s");
  if (a.verify) std::printf(" %12s %12s %9s", "actual iter", "actual s", "error");
  std::printf("\n");
  double best_actual = INFINITY, recommended_actual = NAN;
  int best_kappa = 0;
  for (std::size_t k = 0; k < advice.candidates.size(); ++k) {
    const KappaPrediction& p = advice.candidates[k];
    char band[64] = "exact", seconds_band[64] = "exact";
    if (!p.converged_in_probe) {
      std::snprintf(band, sizeof band, "%.0f-%.0f", p.iterations_low, p.iterations_high);
      std::snprintf(seconds_band, sizeof seconds_band, "%.3f-%.3f", p.seconds_low(), p.seconds_high());
    }
    std::printf("%6s %9.5f %6d %10.0f %13s %13.4f %12.4f %17s", kappa_to_string(p.kappa).c_str(), p.factor,
                p.probe_iterations, p.predicted_iterations, band, p.seconds_per_iteration * 1e3, p.predicted_seconds,
                seconds_band);
    if (a.verify) {
      const KappaSweepRow& m = measured[k];
      std::printf(" %12d %12.4f %+8.1f%%%s", m.iterations, m.seconds_total,
                  100.0 * (p.predicted_seconds / m.seconds_total - 1.0), m.converged ? "" : " (not converged)");
      if (m.converged && m.seconds_total < best_actual) best_actual = m.seconds_total, best_kappa = p.kappa;
      if (p.kappa == advice.recommended_kappa) recommended_actual = m.seconds_total;
    }
    std::printf("\n");
  }
  std::printf("where the iterations come from:\n");
  for (const KappaPrediction& p : advice.candidates)
    std::printf("  kappa=%s: %s\n", kappa_to_string(p.kappa).c_str(), p.basis.c_str());
  for (const KappaPrediction& p : advice.candidates)
    if (advice.fits_max_iterations && p.predicted_iterations > o.max_iterations)
      std::printf("kappa=%s left out: predicted %.0f iterations, over max-iter %d\n", kappa_to_string(p.kappa).c_str(),
                  p.predicted_iterations, o.max_iterations);
  if (!advice.settle_note.empty()) std::printf("%s\n", advice.settle_note.c_str());
  if (advice.fits_max_iterations) {
    std::printf("recommended: kappa=%s\n", kappa_to_string(advice.recommended_kappa).c_str());
    if (!advice.tie_note.empty()) std::printf("%s\n", advice.tie_note.c_str());
    print_close(advice, o.max_iterations);
  } else
    for (const KappaPrediction& p : advice.candidates)
      if (p.kappa == advice.recommended_kappa)
        std::printf(
            "recommended: none within max-iter %d: every kappa is predicted to need more (the fastest, kappa=%s, "
            "about %.0f); raise --max-iter\n",
            o.max_iterations, kappa_to_string(p.kappa).c_str(), p.predicted_iterations);
  for (const KappaPrediction& p : advice.candidates)
    if (p.kappa == advice.recommended_kappa && p.predicted_seconds > 0)
      std::printf("this advice took %.2f s: %.2fx the predicted solve of kappa=%s (%.2f s)\n", advice.seconds,
                  advice.seconds / p.predicted_seconds, kappa_to_string(p.kappa).c_str(), p.predicted_seconds);
  if (a.verify && best_kappa != 0)
    std::printf("measured best: kappa=%s; the recommendation took %.1f%% longer than the best\n",
                kappa_to_string(best_kappa).c_str(), 100.0 * (recommended_actual / best_actual - 1.0));
  if (a.verify && tied.size() > 1) {
    std::printf("within the noise of the best (their solves' spread): kappa=%s tie\n", kappas_to_string(tied).c_str());
  }
  if (a.verify && std::isfinite(drift))
    std::printf("machine drift: %.2fx (a measured iteration over the probes' price, median over kappa)\n", drift);
  for (const std::string& note : machine_notes) std::printf("%s\n", note.c_str());
  return advice.fits_max_iterations ? 0 : 3;  // as solve exits when not converged
}

}  // namespace

Subcommand add_advise_command(CLI::App& app) {
  auto args = std::make_shared<AdviseArgs>();
  CLI::App* cmd = app.add_subcommand(
      "advise", "Predict the solve time of each kappa from short probes and the run-time model; recommend one");
  add_solver_options(*cmd, args->solver);
  cmd->add_option("--calibration", args->calibration,
                  "Calibration file from `kcycle calibrate` (default: time the probes)");
  cmd->add_option("--probe", args->probe, "Iterations a probe runs at least")
      ->capture_default_str()
      ->check(CLI::Range(2, kMaxIterations));
  cmd->add_option("--max-probe", args->max_probe, "Iterations a probe runs at most (then it estimates)")
      ->capture_default_str()
      ->check(CLI::Range(2, kMaxIterations));
  cmd->add_option("--solve-below", args->solve_below,
                  "Seconds: a probe whose solve would be done within this much more time simply solves (exact)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 3600.0));
  cmd->add_flag("--verify", args->verify,
                "Also solve with every kappa (round-robin, at least five times and 1 s each: the median) and compare "
                "with the prediction");
  cmd->add_option("--verify-repeats", args->verify_repeats,
                  "--verify's solves per kappa, exactly (default: at least 5 and 1 s, up to 15 where they vary)")
      ->check(CLI::Range(1, 100));
  cmd->add_flag("--json", args->json, "Print the advice (and --verify's measurements) as JSON");
  cmd->add_flag("--settle", args->settle,
                "Where the prediction cannot tell the pick from the kappas next to it (their time bands overlap, "
                "within 10%), probe the pick and up to two of them at the target size, stepped in turns so that "
                "they share the machine's moments, and pick by those probes' counts (priced as before where a "
                "calibration prices the cycles, else by the probes; about half a solve each; the advice says what "
                "it would take)");
  cmd->add_option("--near-tie", args->near_tie,
                  "A near-tie goes to the kappa of fewer iterations: of the kappas predicted within this fraction "
                  "of the fastest, the one predicted to need the fewest iterations is recommended (a cheaper "
                  "cycle's higher count moves more with the start, and the forecast has put it low in near-ties); "
                  "0: the fastest predicted")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 0.5));
  cmd->add_option(
         "--iterations", args->iterations,
         "Where each kappa's iterations come from: forecast (the default: solves at n-4..n-2 levels, n-5..n-3 "
         "under a budget below half a solve, their growth fitted, refined by probes at n-1 or n-2 levels within "
         "--budget, the contending kappas first (one for kappas that solved alike), the others scaled from the "
         "most alike probed kappa; nothing solved at the target size; probes there below 6 levels), probe (a "
         "probe at the target size, solved outright where cheap: slower, for comparison) or lfa (local Fourier "
         "analysis: nothing solved, blind to the growth with the levels; what the visualizer shows live)")
      ->capture_default_str()
      ->check(CLI::IsMember({"probe", "forecast", "lfa"}));
  cmd->add_option(
         "--budget", args->budget,
         "Under --iterations forecast: what the advice may cost, as a fraction of the fastest kappa's "
         "predicted solve (default 0: 0.08 from 11 levels, under the 0.1 aimed at; 0.8 below, under one solve)")
      ->check(CLI::Range(0.0, 1e6));
  cmd->add_option("--seeds", args->seeds,
                  "Under --iterations forecast: random starts per coarse solve, the median count taken (default 0: "
                  "3 with a random start and a budget of half a solve or more, else 1)")
      ->check(CLI::Range(0, 64));
  return {cmd, [args, cmd] { return run(*args, *cmd); }};
}

}  // namespace kcycle::cli
