// `kcycle calibrate`: time one cycle per kappa and level count, fit the paper's model
// T = alpha * launches + beta * ops, print the relative errors (like Table 3.2) and the
// turning points, and save the calibration for `advise` and the visualizer.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "commands.hpp"
#include "kcycle/backends/mpi/mpi_runtime.hpp"
#include "kcycle/io/file_output.hpp"
#include "kcycle/model/cost_model.hpp"
#include "kcycle/model/distributed_model.hpp"
#include "kcycle/model/krylov_timing.hpp"
#include "kcycle/model/level_cost_model.hpp"
#include "kcycle/model/timing.hpp"
#include "kcycle/solve/execution_target.hpp"
#include "kcycle/solve/solve.hpp"
#include "progress.hpp"
#include "solver_args.hpp"

namespace kcycle::cli {

namespace {

// "relative prediction error ... %" by kappa (rows) and level count (columns), of `error(c, sample)`.
void print_model_errors(const Calibration& c, const char* which,
                        double (*error)(const Calibration&, const TimingSample&)) {
  int lo = 1 << 30, hi = 0;
  for (const TimingSample& s : c.samples) lo = std::min(lo, s.levels), hi = std::max(hi, s.levels);
  std::printf("relative prediction error (predicted - measured) / measured, %%, of %s:\n%8s", which, "kappa\\n");
  for (int n = lo; n <= hi; ++n) std::printf(" %7d", n);
  std::printf("\n");
  for (int kappa : kKappaCandidates) {
    bool any = false;
    for (const TimingSample& s : c.samples) any |= s.kappa == kappa;
    if (!any) continue;
    std::printf("%8s", kappa_to_string(kappa).c_str());
    for (int n = lo; n <= hi; ++n) {
      double e = NAN;
      for (const TimingSample& s : c.samples)
        if (s.kappa == kappa && s.levels == n) e = error(c, s);
      if (std::isnan(e))
        std::printf(" %7s", "-");
      else
        std::printf(" %+7.2f", 100.0 * e);
    }
    std::printf("\n");
  }
}

}  // namespace

void print_calibration_report(const Calibration& c, const SolverOptions& options) {
  std::printf("alpha = %.4g s per launch, beta = %.4g s per unknown visited (%d launches per call as issued, %s)\n",
              c.model.alpha, c.model.beta, c.launches_per_call,
              c.fused ? "fused passes" : "every operation its own pass");
  if (c.coarse_tail > 0)
    std::printf(
        "timed with a coarse tail (levels of <= %d unknowns as one launch): alpha was fitted to the launches "
        "issued\n",
        c.coarse_tail);
  if (c.ranks > 1)
    std::printf(
        "lambda = %.4g s per message, measured on %d ranks (halo exchange rounds of the smallest split "
        "level); ops and messages are the busiest rank's, level by level%s\n",
        c.model.lambda, c.ranks,
        c.ranks > std::max(1, int(std::thread::hardware_concurrency()))
            ? "; more ranks than cores: the counts are exact, the times only indicative"
            : "");
  // Each model's error on every case timed: the paper's against the fastest repetition it was
  // fitted to, the per-level one against the median cycle (what a solve's cycles take).
  print_model_errors(c, "the paper's model, alpha launches + beta ops, against the fastest cycle", paper_model_error);
  if (level_costs(c, c.samples.empty() ? 0 : c.samples.back().levels))
    print_model_errors(c,
                       "the per-level model, sum of level calls x measured seconds per call, against the median cycle",
                       level_model_error);
  if (c.model.alpha > 0 && c.model.beta > 0) {
    std::printf("turning points (alpha * launches = beta * ops):");
    for (int kappa : kKappaCandidates) {
      const double n = turning_point_levels(kappa, c.model, c.launches_per_call);
      std::printf("  kappa=%s: n_tp %.1f (N_tp %.2g)", kappa_to_string(kappa).c_str(), n,
                  std::pow(std::pow(2.0, n) - 1, 2));
    }
    std::printf("\n");
    if (c.coarse_tail > 0) {  // the tail's levels launch once a call: the launch term starts that much later
      const int depth = coarse_tail_depth(std::size_t(c.coarse_tail), options.coarsening);
      std::printf("  with the coarse tail (%d levels below its top as one launch):", depth);
      for (int kappa : kKappaCandidates)
        std::printf("  kappa=%s: n_tp %.1f", kappa_to_string(kappa).c_str(),
                    turning_point_levels(kappa, c.model, c.launches_per_call, depth));
      std::printf("\n");
    }
  } else {
    std::printf("alpha <= 0: launch overhead is below what this sweep resolves; no turning points\n");
  }
  if (c.ranks > 1 && !(c.model.beta > 0))
    std::printf("no turning points on process grids: beta fitted 0 (timings too noisy; try a larger --min-seconds)\n");
  if (c.ranks > 1 && c.model.beta > 0) {
    // Where latency (launches and messages) and work balance, on square grids of P ranks.
    std::printf("turning points n_tp on P ranks (alpha launches + lambda messages = beta ops, busiest rank):\n%8s",
                "P\\kappa");
    for (int kappa : kKappaCandidates) std::printf(" %7s", kappa_to_string(kappa).c_str());
    std::printf("\n");
    MultigridSettings as_run = resolve(options, BackendKind::Mpi).settings;
    for (int side = 1; side <= 64; side *= 2) {
      std::printf("%8d", side * side);
      for (int kappa : kKappaCandidates) {
        const double n = distributed_turning_point(as_run, kappa, side, side, c.model);
        if (std::isnan(n))
          std::printf(" %7s", "-");
        else
          std::printf(" %7.1f", n);
      }
      std::printf("\n");
    }
    // The fold threshold the model prefers for the largest case timed, on a grid as MPI makes it.
    int hi = 0;
    for (const TimingSample& s : c.samples) hi = std::max(hi, s.levels);
    as_run.levels = hi;
    const auto [px, py] = process_grid(c.ranks, 0, 0);
    std::printf("agglomeration: the model's best --agglomerate-below on %d x %d ranks at %d levels:", px, py, hi);
    for (int kappa : kKappaCandidates)
      std::printf("  kappa=%s: %d", kappa_to_string(kappa).c_str(),
                  best_agglomeration_threshold(as_run, kappa, px, py, c.model));
    std::printf("\n");
  }
}

namespace {

struct CalibrateArgs {
  SolverArgs solver;
  int min_levels = 4;
  int max_levels = 11;
  double min_seconds = 0.2;
  std::string out = "kcycle-calibration.json";
  bool force = false;  // save a noisy calibration over a clean one
};

int run(const CalibrateArgs& a, const CLI::App& cmd) {
  const SolverOptions o = resolve(a.solver, cmd);
  if (a.min_levels < 2 || a.max_levels < a.min_levels || a.max_levels > kMaxLevels)
    throw InvalidOptions("need 2 <= --min-levels <= --max-levels <= " + std::to_string(kMaxLevels));
  SolverOptions largest = o;
  largest.levels = a.max_levels;
  validate(largest);
  if (o.coarse_krylov)
    throw InvalidOptions("calibrate times the plain kappa-cycle its model counts: leave --coarse-krylov off");
  if (!(a.min_seconds > 0)) throw InvalidOptions("--min-seconds must be positive");
  // Before minutes of timing, not after: the file must be writable, and not the one read.
  if (same_file(a.out, a.solver.config))
    throw InvalidOptions("--out " + a.out.substr(0, 60) +
                         " is also the --config file it reads: write the calibration " + "to another file");
  if (const std::string why = why_not_writable(a.out); !why.empty())
    throw InvalidOptions("--out " + a.out.substr(0, 60) + ": cannot write it: " + why);
  CalibrationSweep sweep;
  sweep.min_levels = a.min_levels;
  sweep.max_levels = a.max_levels;
  const ResolvedRun run = resolved_run(o);
  sweep.target = run.target;
  sweep.policy.min_seconds = a.min_seconds;
  std::printf("kcycle calibrate: %s backend, %s(%d,%d), %s coarsening, %s operators, eps=%g, angle=%g, levels %d..%d\n",
              describe(sweep.target).c_str(), std::string(to_string(o.smoother)).c_str(), o.nu1, o.nu2,
              std::string(to_string(o.coarsening)).c_str(), std::string(to_string(o.coarse_operator)).c_str(), o.eps,
              o.angle_degrees, a.min_levels, a.max_levels);
  const bool krylov = o.solver != SolverKind::Multigrid;
  Progress progress((krylov ? 10 : 5) * (a.max_levels - a.min_levels + 1));
  Calibration c = calibrate(run.settings, sweep, [&](const TimingSample& s) {
    progress.done("kappa=" + kappa_to_string(s.kappa) + " levels=" + std::to_string(s.levels) + ": " +
                  std::to_string(s.seconds * 1e3) + " ms");
  });
  if (krylov) {  // the advisor prices MGCG by these: the cycles leave out CG's own vector work
    c.krylov = std::string(to_string(o.solver));
    c.krylov_samples = time_krylov_iterations(o, a.min_levels, a.max_levels, a.min_seconds, [&](const KrylovSample& s) {
      progress.done(c.krylov + " kappa=" + kappa_to_string(s.kappa) + " levels=" + std::to_string(s.levels) + ": " +
                    std::to_string(s.seconds * 1e3) + " ms");
    });
  }
  print_calibration_report(c, o);
  if (krylov) {
    std::printf("%s iterations (the cycle, CG's vector work and the norms), ms:\n%6s", c.krylov.c_str(), "levels");
    for (const int kappa : kKappaCandidates) std::printf(" %9s", ("kappa=" + kappa_to_string(kappa)).c_str());
    for (std::size_t k = 0; k < c.krylov_samples.size(); ++k) {
      if (k % kKappaCandidates.size() == 0) std::printf("\n%6d", c.krylov_samples[k].levels);
      std::printf(" %9.4f", c.krylov_samples[k].seconds * 1e3);
    }
    std::printf("\n");
  }
  if (c.noisy()) std::printf("%s\n", noise_note(c).c_str());
  if (const std::string note = latency_note(c); !note.empty()) std::printf("%s\n", note.c_str());
  if (mpi_rank() != 0) return 0;  // one file, whatever the ranks
  if (a.force) {
    save_calibration(c, a.out);
  } else if (const std::string not_saved = save_calibration_unless_noisier(c, a.out); !not_saved.empty()) {
    std::printf("%s; run it again on a quieter machine, or give --force\n", not_saved.c_str());
    return 0;
  }
  std::printf("saved %s%s\n", a.out.c_str(), c.noisy() ? " (marked noisy)" : "");
  return 0;
}

}  // namespace

Subcommand add_calibrate_command(CLI::App& app) {
  auto args = std::make_shared<CalibrateArgs>();
  CLI::App* cmd = app.add_subcommand(
      "calibrate",
      "Time cycles for kappa=1,2,3,4,W over levels, fit T = alpha*launches + beta*ops, save the calibration");
  add_solver_options(*cmd, args->solver);
  cmd->add_option("--min-levels", args->min_levels, "Smallest level count")
      ->capture_default_str()
      ->check(CLI::Range(2, kMaxLevels));
  cmd->add_option("--max-levels", args->max_levels, "Largest level count")
      ->capture_default_str()
      ->check(CLI::Range(2, kMaxLevels));
  cmd->add_option("--min-seconds", args->min_seconds,
                  "Measured time per case (each case keeps its fastest repetition; the spread of the rest says "
                  "whether the machine was busy)")
      ->capture_default_str()
      ->check(CLI::Range(1e-4, 600.0));
  cmd->add_flag("--force", args->force, "Save even a noisy calibration over a clean one");
  cmd->add_option("--out", args->out, "Calibration file to write")->capture_default_str();
  return {cmd, [args, cmd] { return run(*args, *cmd); }};
}

}  // namespace kcycle::cli
