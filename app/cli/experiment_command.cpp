// `kcycle experiment NAME`: the paper's experiments, sized by level count so they run on a
// laptop. Each writes NAME.csv, NAME.json and NAME.svg under --out and prints a summary in
// the paper's layout; long runs report progress on stderr.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "commands.hpp"
#include "experiment.hpp"
#include "kcycle/io/file_output.hpp"
#include "kcycle/io/options_io.hpp"
#include "kcycle/model/cost_model.hpp"
#include "kcycle/model/timing.hpp"
#include "kcycle/solve/memory_account.hpp"
#include "kcycle/solve/solve.hpp"
#include "peak_memory.hpp"
#include "progress.hpp"
#include "solver_args.hpp"
#include "svg_plot.hpp"

namespace kcycle::cli {

void write_text(const std::string& path, const std::string& text) { write_file_replacing(path, text); }

SolveResult timed_solve(const SolverOptions& o, double timeout, const StopOnInterrupt& stop) {
  const auto start = std::chrono::steady_clock::now();
  return solve(o, [&](const IterationRecord&) {
    return !stop.requested_on_any_rank() &&
           std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < timeout;
  });
}

std::string status_word(const SolveResult& r) {
  return r.status == SolveStatus::Cancelled ? "timeout" : std::string(to_string(r.status));
}

// The kappas a table runs (--kappas, else the paper's five), in the paper's order.
std::vector<int> table_kappas(const ExperimentArgs& a) {
  if (a.kappas.empty()) return kKappas;
  std::vector<int> chosen;
  for (const std::string& text : a.kappas) {
    const std::optional<int> kappa = parse_kappa(text);
    if (!kappa) throw InvalidOptions("--kappas: '" + text.substr(0, 20) + "' is not a kappa (1, 2, 3, ... or W)");
    if (std::find(chosen.begin(), chosen.end(), *kappa) == chosen.end()) chosen.push_back(*kappa);
  }
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

std::string kappa_label(int kappa) {
  const auto k = std::find(kKappas.begin(), kKappas.end(), kappa);
  return k == kKappas.end() ? kappa_to_string(kappa) : kKappaLabels[std::size_t(k - kKappas.begin())];
}

namespace {

// --- Figure 3.1: cycle times vs levels, with the fitted model and turning points ------------
int figure_3_1(const ExperimentArgs& a, const std::string& dir) {
  const int max_levels = a.max_levels > 0 ? a.max_levels : 11;
  SolverOptions o;
  o.levels = max_levels;
  o.eps = 1e-4;
  o.angle_degrees = 45;
  apply_run_options(a, o);
  validate(o);
  CalibrationSweep sweep;
  sweep.min_levels = a.min_levels;
  sweep.max_levels = max_levels;
  const ResolvedRun run = resolved_run(o);
  sweep.target = run.target;
  sweep.policy.min_seconds = a.min_seconds;
  Progress progress(5 * (max_levels - a.min_levels + 1));
  const Calibration c = calibrate(run.settings, sweep, [&](const TimingSample& s) {
    progress.done("fig3.1 kappa=" + kappa_to_string(s.kappa) + " levels=" + std::to_string(s.levels));
  });
  print_calibration_report(c, o);
  save_calibration(c, dir + "/calibration.json");

  std::string csv =
      "kappa,levels,unknowns,launches,ops,measured_ms,predicted_ms,launch_part_ms,ops_part_ms,relative_error\n";
  nlohmann::json samples = nlohmann::json::array();
  Plot plot{
      "Figure 3.1: time per cycle (CPU), measured and model", "levels n", "ms per cycle", false, true, {}, {}, {}};
  for (std::size_t k = 0; k < kKappas.size(); ++k) {
    PlotSeries measured{"kappa=" + kKappaLabels[k], {}, {}, palette(k), false, true};
    PlotSeries model{"model", {}, {}, palette(k), true, false};
    for (const TimingSample& s : c.samples) {
      if (s.kappa != kKappas[k]) continue;
      const double predicted = c.model.predict(s.launches, s.ops);
      const double unknowns = std::pow(std::pow(2.0, s.levels) - 1, 2);
      char line[256];
      std::snprintf(line, sizeof line, "%s,%d,%.0f,%.0f,%.0f,%.6g,%.6g,%.6g,%.6g,%.4f\n",
                    kappa_to_string(s.kappa).c_str(), s.levels, unknowns, s.launches, s.ops, s.seconds * 1e3,
                    predicted * 1e3, c.model.alpha * s.launches * 1e3, c.model.beta * s.ops * 1e3,
                    (predicted - s.seconds) / s.seconds);
      csv += line;
      samples.push_back({{"kappa", kappa_to_string(s.kappa)},
                         {"levels", s.levels},
                         {"measured_s", s.seconds},
                         {"predicted_s", predicted}});
      measured.x.push_back(s.levels);
      measured.y.push_back(s.seconds * 1e3);
      model.x.push_back(s.levels);
      model.y.push_back(predicted * 1e3);
    }
    plot.series.push_back(measured);
    plot.series.push_back(model);
  }
  nlohmann::json turning = nlohmann::json::object();
  for (std::size_t k = 0; k < kKappas.size(); ++k) {
    const double n = turning_point_levels(kKappas[k], c.model, c.launches_per_call);
    turning[kappa_to_string(kKappas[k])] = n;
    if (std::isfinite(n) && n >= a.min_levels && n <= max_levels)
      plot.vlines.push_back({n, "n_tp(" + kKappaLabels[k] + ")=" + std::to_string(n).substr(0, 4), palette(k)});
  }
  nlohmann::json out = {{"alpha_seconds", c.model.alpha},
                        {"beta_seconds", c.model.beta},
                        {"launches_per_call", c.launches_per_call},
                        {"turning_points_levels", turning},
                        {"samples", samples}};
  if (c.coarse_tail > 0) {  // the same model with the tail's launches taken out
    const int depth = coarse_tail_depth(std::size_t(c.coarse_tail), multigrid_settings(o).coarsening);
    nlohmann::json with_tail = nlohmann::json::object();
    for (int kappa : kKappas)
      with_tail[kappa_to_string(kappa)] = turning_point_levels(kappa, c.model, c.launches_per_call, depth);
    out["coarse_tail_unknowns"] = c.coarse_tail;
    out["turning_points_levels_with_tail"] = with_tail;
  }
  write_files_together(
      {{dir + "/fig3.1.csv", csv}, {dir + "/fig3.1.json", out.dump(1)}, {dir + "/fig3.1.svg", svg_text({plot})}});
  return 0;
}

// --- Figure 4.1: solve time vs eps for a small and a larger problem -------------------------
int figure_4_1(const ExperimentArgs& a, const std::string& dir) {
  const int small = a.levels > 0 ? a.levels : 7, large = a.max_levels > 0 ? a.max_levels : 9;
  const std::vector<double> epsilons = {1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1.0};
  const int cases = int(2 * epsilons.size() * kKappas.size());
  Progress progress(cases);
  const StopOnInterrupt stop;
  RowsSoFar csv(dir + "/fig4.1.csv", "levels,eps,kappa,status,iterations,seconds_total,seconds_per_cycle\n");
  nlohmann::json rows = nlohmann::json::array();
  std::vector<Plot> panels;
  for (int levels : {small, large}) {
    Plot plot{"Figure 4.1: " + std::to_string(levels) + " levels, Jacobi(2,2), 45 deg",
              "epsilon",
              "solve time (s)",
              true,
              true,
              {},
              {},
              {}};
    std::printf("%d levels: best kappa per eps:", levels);
    std::vector<double> best(epsilons.size(), INFINITY);
    std::vector<int> best_kappa(epsilons.size(), 0);
    for (std::size_t k = 0; k < kKappas.size(); ++k) {
      PlotSeries series{"kappa=" + kKappaLabels[k], {}, {}, palette(k), false, true};
      for (std::size_t e = 0; e < epsilons.size(); ++e) {
        SolverOptions o;
        o.levels = levels;
        o.eps = epsilons[e];
        o.angle_degrees = 45;
        o.cycle = {CycleType::Kappa, kKappas[k]};
        o.max_iterations = a.run_options.max_iterations;
        apply_run_options(a, o);
        validate(o);
        const SolveResult r = timed_solve(o, a.case_timeout, stop);
        stop_if_interrupted(stop, csv, cases);  // the cancelled case is not a row
        char line[200];
        std::snprintf(line, sizeof line, "%d,%g,%s,%s,%d,%.6g,%.6g\n", levels, o.eps,
                      kappa_to_string(kKappas[k]).c_str(), status_word(r).c_str(), r.iterations, r.seconds_total,
                      r.seconds_per_cycle);
        csv.add(line);
        rows.push_back({{"levels", levels},
                        {"eps", o.eps},
                        {"kappa", kappa_to_string(kKappas[k])},
                        {"status", status_word(r)},
                        {"iterations", r.iterations},
                        {"seconds_total", r.seconds_total}});
        if (r.converged()) {
          series.x.push_back(o.eps);
          series.y.push_back(r.seconds_total);
          if (r.seconds_total < best[e]) best[e] = r.seconds_total, best_kappa[e] = kKappas[k];
        }
        progress.done("fig4.1 levels=" + std::to_string(levels) + " eps=" + std::to_string(o.eps).substr(0, 7) +
                      " kappa=" + kappa_to_string(kKappas[k]) + ": " + status_word(r) + " in " +
                      std::to_string(r.iterations) + " cycles");
      }
      plot.series.push_back(series);
    }
    for (std::size_t e = 0; e < epsilons.size(); ++e)
      std::printf("  eps=%g: %s", epsilons[e], best_kappa[e] ? kappa_to_string(best_kappa[e]).c_str() : "-");
    std::printf("\n");
    panels.push_back(plot);
  }
  csv.complete_with({{dir + "/fig4.1.json", rows.dump(1)}, {dir + "/fig4.1.svg", svg_text(panels)}});
  return 0;
}

// --- Tables 4.1-4.6: each of the six solvers over kappa (and angles) ------------------------

int table(const ExperimentArgs& a, const std::string& dir, const std::string& preset_name, double eps,
          const std::vector<double>& paper_angles, int default_levels) {
  const Preset preset = *find_preset(preset_name);
  const int levels = a.levels > 0 ? a.levels : default_levels;
  const bool cg = preset.solver != SolverKind::Multigrid;
  const std::string unit = cg ? "iterations" : "cycles";
  const std::vector<int> kappas = table_kappas(a);
  const std::vector<double> angles = a.angles.empty() ? paper_angles : a.angles;
  const int cases = int(angles.size() * kappas.size());
  auto options_for = [&](int kappa, double angle) {
    SolverOptions o;
    apply(preset, o);
    o.levels = levels;
    o.eps = eps;
    o.angle_degrees = angle;
    o.cycle = {CycleType::Kappa, kappa};
    o.max_iterations = a.run_options.max_iterations;
    apply_run_options(a, o);
    return o;
  };
  // Every case before the first solve: a refusal (the memory a case needs over what this
  // process may use, an angle out of range) ends the experiment before it starts.
  for (int kappa : kappas)
    for (double angle : angles) validate(options_for(kappa, angle));
  const std::size_t memory = estimated_memory_bytes(options_for(kappas.front(), angles.front()));
  Progress progress(cases);
  const StopOnInterrupt stop;
  std::vector<std::vector<SolveResult>> results(kappas.size());
  RowsSoFar csv(dir + "/" + a.name + ".csv", "solver,levels,eps,angle,kappa,status," + unit +
                                                 ",seconds_total,seconds_per_iteration,setup_seconds,memory_bytes,"
                                                 "peak_resident_bytes\n");
  nlohmann::json rows = nlohmann::json::array();
  for (std::size_t k = 0; k < kappas.size(); ++k)
    for (double angle : angles) {
      const SolverOptions o = options_for(kappas[k], angle);
      const bool own_peak = reset_peak_resident();
      const SolveResult r = timed_solve(o, a.case_timeout, stop);
      const std::optional<std::size_t> peak = peak_resident_bytes();
      stop_if_interrupted(stop, csv, cases);
      results[k].push_back(r);
      char line[320];
      std::snprintf(line, sizeof line, "%s,%d,%g,%g,%s,%s,%d,%.6g,%.6g,%.6g,%zu,%s\n", preset_name.c_str(), levels, eps,
                    angle, kappa_to_string(kappas[k]).c_str(), status_word(r).c_str(), r.iterations, r.seconds_total,
                    r.seconds_per_iteration, r.seconds_setup, memory,
                    peak && own_peak ? std::to_string(*peak).c_str() : "");
      csv.add(line);
      nlohmann::json row = {{"solver", preset_name},
                            {"levels", levels},
                            {"eps", eps},
                            {"angle", angle},
                            {"kappa", kappa_to_string(kappas[k])},
                            {"status", status_word(r)},
                            {unit, r.iterations},
                            {"seconds_total", r.seconds_total},
                            {"seconds_per_iteration", r.seconds_per_iteration},
                            {"setup_seconds", r.seconds_setup},
                            {"memory_bytes", memory}};
      if (peak && own_peak) row["peak_resident_bytes"] = *peak;
      rows.push_back(row);
      char memory_note[96] = "";
      if (peak && own_peak) std::snprintf(memory_note, sizeof memory_note, ", peak %s", bytes_text(*peak).c_str());
      char setup_note[64];
      std::snprintf(setup_note, sizeof setup_note, ", set-up %.2f s", r.seconds_setup);
      progress.done(preset_name + " angle=" + std::to_string(int(angle)) + " kappa=" + kappa_to_string(kappas[k]) +
                    ": " + status_word(r) + " in " + std::to_string(r.iterations) + " " + unit + setup_note +
                    memory_note);
    }

  std::printf("%s: %s, eps=%g, %d levels (%llu unknowns), %s precision, %s%s%s; memory %s by the account\n",
              preset_name.c_str(), std::string(preset.description).c_str(), eps, levels,
              (unsigned long long)full_coarsening_shape(levels, 1).unknowns(),
              std::string(enum_name(a.run_options.precision)).c_str(), a.run_options.fused ? "fused passes" : "unfused",
              a.run_options.coarse_krylov ? ", Krylov-accelerated coarse calls" : "",
              a.run_options.coarsest_calls == CoarsestCalls::Once ? ", the coarsest level called once a call" : "",
              bytes_text(memory).c_str());
  if (angles.size() == 1) {
    // The layout of Tables 4.1 and 4.2: relative to W (stand-alone) or F (CG), as the paper.
    const int reference = cg ? 2 : kKappas.back();
    const auto ref = std::find(kappas.begin(), kappas.end(), reference);
    std::printf("%-8s %14s %14s %18s %10s %10s\n", "kappa", "total ms", "relative", "ms per iteration", unit.c_str(),
                "set-up s");
    for (std::size_t k = 0; k < kappas.size(); ++k) {
      const SolveResult& r = results[k][0];
      char relative[32] = "-";
      if (ref != kappas.end())
        std::snprintf(relative, sizeof relative, "%.3f",
                      r.seconds_total / results[std::size_t(ref - kappas.begin())][0].seconds_total);
      std::printf("%-8s %14.1f %14s %18.3f %10d %10.2f%s\n", kappa_label(kappas[k]).c_str(), r.seconds_total * 1e3,
                  relative, r.seconds_per_iteration * 1e3, r.iterations, r.seconds_setup,
                  r.converged() ? "" : (" " + status_word(r)).c_str());
    }
  } else {
    std::printf("total ms (%s); * marks the fastest kappa per angle\n%-8s", unit.c_str(), "kappa");
    for (double angle : angles) std::printf(" %18.0f", angle);
    std::printf("\n");
    for (std::size_t k = 0; k < kappas.size(); ++k) {
      std::printf("%-8s", kappa_label(kappas[k]).c_str());
      for (std::size_t i = 0; i < angles.size(); ++i) {
        const SolveResult& r = results[k][i];
        bool best = r.converged();
        for (std::size_t q = 0; q < kappas.size(); ++q)
          if (results[q][i].converged() && results[q][i].seconds_total < r.seconds_total) best = false;
        char cell[64];
        if (r.converged())
          std::snprintf(cell, sizeof cell, "%s%.0f (%d)", best ? "*" : "", r.seconds_total * 1e3, r.iterations);
        else
          std::snprintf(cell, sizeof cell, "%s", status_word(r).c_str());
        std::printf(" %18s", cell);
      }
      std::printf("\n");
    }
  }

  std::vector<std::string> labels;
  for (int kappa : kappas) labels.push_back(kappa_label(kappa));
  Plot plot{a.name + ": " + preset_name + ", " + std::to_string(levels) + " levels",
            "kappa",
            "solve time (s)",
            false,
            true,
            {},
            {},
            labels};
  for (std::size_t i = 0; i < angles.size(); ++i) {
    PlotSeries s{"angle " + std::to_string(int(angles[i])), {}, {}, "", false, true};
    for (std::size_t k = 0; k < kappas.size(); ++k)
      if (results[k][i].converged()) s.x.push_back(double(k)), s.y.push_back(results[k][i].seconds_total);
    plot.series.push_back(s);
  }
  csv.complete_with({{dir + "/" + a.name + ".json", rows.dump(1)}, {dir + "/" + a.name + ".svg", svg_text({plot})}});
  return 0;
}

const std::vector<std::string>& experiment_names() {
  static const std::vector<std::string> names = {"fig3.1",   "fig4.1",   "table4.1", "table4.2", "table4.3",
                                                 "table4.4", "table4.5", "table4.6", "scaling",  "krylov"};
  return names;
}

int run(const ExperimentArgs& a) {
  const std::vector<std::string>& names = experiment_names();
  if (std::find(names.begin(), names.end(), a.name) == names.end()) {
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    throw InvalidOptions("unknown experiment '" + a.name + "' (available: " + list + ")");
  }
  if (a.levels < 0 || a.levels > kMaxLevels || a.max_levels < 0 || a.max_levels > kMaxLevels)
    throw InvalidOptions("--levels and --max-levels must be between 1 and " + std::to_string(kMaxLevels));
  if (a.min_levels < 2) throw InvalidOptions("--min-levels must be at least 2");
  if (a.name == "fig3.1" && a.max_levels > 0 && a.max_levels <= a.min_levels)
    throw InvalidOptions("fig3.1 fits its model to level counts " + std::to_string(a.min_levels) +
                         " (--min-levels) to " + std::to_string(a.max_levels) +
                         " (--max-levels): give --max-levels of at least " + std::to_string(a.min_levels + 1));
  if (!(a.case_timeout > 0)) throw InvalidOptions("--case-timeout must be positive");
  if ((!a.kappas.empty() || !a.angles.empty()) && a.name.rfind("table", 0) != 0 && a.name != "krylov")
    throw InvalidOptions(
        "--kappas and --angles choose the cases of a table (table4.1 ... table4.6) or of krylov, "
        "not of " +
        a.name);
  const std::string dir = a.out.empty() ? "results/" + a.name : a.out;
  // Before the experiment's solves, not after: the folder must be writable.
  if (const std::string why = why_not_writable_folder(dir); !why.empty())
    throw InvalidOptions("--out " + dir.substr(0, 60) + ": cannot write into it: " + why);
  for (const std::string& result :
       {a.name + ".csv", a.name + ".partial.csv", a.name + ".json", a.name + ".svg", std::string("calibration.json")})
    if (same_file(dir + "/" + result, a.solver.config))
      throw InvalidOptions("--config " + a.solver.config.substr(0, 60) + " is also the result " + dir + "/" + result +
                           " this experiment writes: keep the parameters file elsewhere");
  int rc = 0;
  const std::vector<double> angles = {10, 30, 45, 60, 80};
  if (a.name == "fig3.1")
    rc = figure_3_1(a, dir);
  else if (a.name == "fig4.1")
    rc = figure_4_1(a, dir);
  else if (a.name == "table4.1")
    rc = table(a, dir, "jacobi", 1e-4, {45}, 9);
  else if (a.name == "table4.2")
    rc = table(a, dir, "jacobi+cg", 1e-4, {45}, 9);
  else if (a.name == "table4.3")
    rc = table(a, dir, "xyzebra-galerkin", 1e-5, angles, 8);
  else if (a.name == "table4.4")
    rc = table(a, dir, "xyzebra-galerkin+cg", 1e-5, angles, 8);
  else if (a.name == "table4.5")
    rc = table(a, dir, "xzebra-semi-galerkin", 1e-5, angles, 8);
  else if (a.name == "table4.6")
    rc = table(a, dir, "xzebra-semi-galerkin+cg", 1e-5, angles, 8);
  else if (a.name == "scaling")
    rc = scaling_experiment(a, dir);
  else if (a.name == "krylov")
    rc = krylov_experiment(a, dir);
  std::printf("wrote %s/%s.csv, .json, .svg\n", dir.c_str(), a.name.c_str());
  return rc;
}

}  // namespace

Subcommand add_experiment_command(CLI::App& app) {
  auto args = std::make_shared<ExperimentArgs>();
  CLI::App* cmd = app.add_subcommand(
      "experiment",
      "Reproduce the paper's experiments: fig3.1 (cycle times vs levels, model fit, turning points), fig4.1 (solve "
      "time vs eps), table4.1..table4.6 (the six solvers over kappa and angles), scaling (MPI: weak and strong "
      "scaling measured on this mpirun's ranks and modelled to 4096), krylov (each kappa plain and "
      "Krylov-accelerated on the paper's three smoother/coarsening pairs). Writes CSV, JSON and SVG.");
  std::string members;  // the type name lists them: --help shows them, and the shell completion offers them
  for (const std::string& n : experiment_names()) members += (members.empty() ? "" : ",") + n;
  cmd->add_option("name", args->name, "The experiment to run (described above)")
      ->required()
      ->type_name("NAME:{" + members + "}");
  cmd->add_option(
         "--levels", args->levels,
         "Level count (tables: default 9 for 4.1/4.2, 8 for 4.3-4.6; fig4.1: the small problem, default 7; scaling: "
         "the strong-scaling problem, default 9, weak: one level fewer on one rank)")
      ->check(CLI::Range(1, kMaxLevels));
  cmd->add_option("--max-levels", args->max_levels,
                  "fig3.1: largest level count (default 11); fig4.1: the large problem (default 9)")
      ->check(CLI::Range(1, kMaxLevels));
  cmd->add_option("--min-levels", args->min_levels, "fig3.1 and scaling's model fit: smallest level count")
      ->capture_default_str()
      ->check(CLI::Range(2, kMaxLevels));
  cmd->add_option("--out", args->out, "Output folder (default results/NAME)");
  cmd->add_option("--case-timeout", args->case_timeout, "Seconds before a solve is reported as timeout")
      ->capture_default_str()
      ->check(CLI::Range(1e-3, 86400.0));
  cmd->add_option("--min-seconds", args->min_seconds, "fig3.1, scaling: measured time per case")
      ->capture_default_str()
      ->check(CLI::Range(1e-4, 600.0));
  cmd->add_option("--kappas", args->kappas, "Tables: the kappas to run, comma-separated (default 1,2,3,4,W)")
      ->delimiter(',');
  cmd->add_option(
         "--angles", args->angles,
         "Tables: the angles to run in degrees, comma-separated (default 45 for 4.1/4.2, 10,30,45,60,80 for 4.3-4.6)")
      ->delimiter(',');
  add_solver_options(*cmd, args->solver,
                     {"max-iter", "threads", "backend", "graphs", "fused", "precision", "coarse-tail", "line-solver",
                      "repeat-coarsest", "coarse-krylov"},
                     experiment_defaults());
  return {cmd, [args, cmd] {
            const SolverOptions requested = resolve(args->solver, *cmd, experiment_defaults());
            args->run_options = requested;
            args->backend_kind = resolved_run(requested).target.backend;  // says once if auto fell back
            return run(*args);
          }};
}

}  // namespace kcycle::cli
