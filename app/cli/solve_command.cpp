// `kcycle solve`: one solve with every parameter, its convergence history and a summary,
// as text or as one JSON object.
#include <array>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "kcycle/backends/mpi/mpi_runtime.hpp"
#include "kcycle/core/relaxation_factor.hpp"
#include "kcycle/io/interrupt.hpp"
#include "kcycle/solve/execution_target.hpp"
#include "kcycle/solve/iterative_solver.hpp"
#include "kcycle/solve/solve.hpp"
#include "solver_args.hpp"

namespace kcycle::cli {

namespace {

struct SolveArgs {
  SolverArgs solver;
  int every = 0;  // print every k-th iteration; 0 = all of the first 20, then thinner
  bool json = false;
  bool quiet = false;
  bool level_table = false;
};

const char* const kPhaseNames[kPhases] = {"relax", "restrict", "prolong", "coarse", "tail"};

// The measured side of the model per level: what every level cost over the whole solve.
void print_level_table(const IterativeSolver& solver, int iterations) {
  const std::vector<LevelStats> stats = solver.level_stats();
  double total = 0;
  for (const LevelStats& s : stats) total += s.total_seconds();
  std::printf(
      "\nper level, over %d iterations (each pass timed on its own, a coarse tail as its one launch on its top "
      "level; no graph replay):\n",
      iterations);
  std::printf("%5s %13s %10s %11s %10s %10s %10s %10s %10s %10s %6s\n", "level", "grid", "calls", "launches",
              "relax ms", "restr. ms", "prolong ms", "coarse ms", "tail ms", "us/call", "share");
  for (std::size_t k = 0; k < stats.size(); ++k) {
    const LevelStats& s = stats[k];
    const GridShape g = solver.level_shape(int(k) + 1);
    const std::string grid = std::to_string(g.nx) + "x" + std::to_string(g.ny);
    std::printf("%5zu %13s %10llu %11llu %10.3f %10.3f %10.3f %10.3f %10.3f %10.2f %5.1f%%\n", k + 1, grid.c_str(),
                (unsigned long long)s.calls, (unsigned long long)s.launches, s.seconds[0] * 1e3, s.seconds[1] * 1e3,
                s.seconds[2] * 1e3, s.seconds[3] * 1e3, s.seconds[4] * 1e3,
                s.calls ? s.total_seconds() / double(s.calls) * 1e6 : 0.0,
                total > 0 ? 100 * s.total_seconds() / total : 0.0);
  }
}

nlohmann::json level_table_json(const IterativeSolver& solver) {
  nlohmann::json rows = nlohmann::json::array();
  const std::vector<LevelStats> stats = solver.level_stats();
  for (std::size_t k = 0; k < stats.size(); ++k) {
    const GridShape g = solver.level_shape(int(k) + 1);
    nlohmann::json seconds;
    for (int p = 0; p < kPhases; ++p) seconds[kPhaseNames[p]] = stats[k].seconds[std::size_t(p)];
    rows.push_back({{"level", k + 1},
                    {"nx", g.nx},
                    {"ny", g.ny},
                    {"calls", stats[k].calls},
                    {"launches", stats[k].launches},
                    {"seconds", seconds}});
  }
  return rows;
}

// The MPI backend's communication per level and iteration, over all ranks (empty elsewhere).
nlohmann::json communication_json(const std::vector<CommStats>& stats, int iterations) {
  nlohmann::json rows = nlohmann::json::array();
  const double n = std::max(iterations, 1);
  for (std::size_t l = 1; l < stats.size(); ++l)
    rows.push_back({{"level", l},
                    {"exchanges_per_iteration", double(stats[l].exchanges) / n},
                    {"messages_per_iteration", double(stats[l].messages) / n},
                    {"bytes_per_iteration", double(stats[l].bytes) / n},
                    {"collectives_per_iteration", double(stats[l].collectives) / n}});
  return rows;
}

void print_communication(const std::vector<CommStats>& stats, int iterations, std::array<int, 2> grid, int fold_below) {
  const double n = std::max(iterations, 1);
  std::printf(
      "\ncommunication per iteration, %d ranks as %d x %d, folding 2 x 2 into 1 below %d points a side (messages and "
      "bytes summed over the ranks):\n",
      grid[0] * grid[1], grid[0], grid[1], fold_below);
  std::printf("%5s %12s %12s %12s %12s\n", "level", "exchanges", "messages", "kB", "collectives");
  CommStats total;
  for (std::size_t l = 1; l < stats.size(); ++l) {
    const CommStats& c = stats[l];
    std::printf("%5zu %12.1f %12.1f %12.1f %12.1f\n", l, double(c.exchanges) / n, double(c.messages) / n,
                double(c.bytes) / n * 1e-3, double(c.collectives) / n);
    total.exchanges += c.exchanges, total.messages += c.messages, total.bytes += c.bytes;
    total.collectives += c.collectives;
  }
  std::printf("%5s %12.1f %12.1f %12.1f %12.1f\n", "all", double(total.exchanges) / n, double(total.messages) / n,
              double(total.bytes) / n * 1e-3, double(total.collectives) / n);
}

// How the cycle's passes run, as the schedule says (not the --fused request).
std::string passes_words(const CycleSchedule& schedule, Smoother smoother) {
  if (!schedule.fuses_any()) return "every operation its own pass";
  if (schedule.pipelines(smoother)) return "each sweep one pipelined pass";
  if (smoother == Smoother::Jacobi) return "fused passes (sweeps with the residual and the transfers)";
  return "some passes fused or pipelined";
}

nlohmann::json number_or_null(double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(); }

// Damped Jacobi's LFA smoothing factor at the omega that ran (NaN for other smoothers). Asked
// for here, not at every set-up: the advisor's coarse forecast sets up dozens of small
// hierarchies, and its 200 thousand sampled frequencies took 2 ms of each.
double smoothing_factor_of(const SolverOptions& o, const SolveResult& r) {
  if (o.smoother != Smoother::Jacobi) return NAN;
  return jacobi_smoothing_factor(rotated_anisotropic_stencil(o.eps, o.angle_degrees), r.omega);
}

void print_json(const SolverOptions& o, const MultigridSettings& ran, const SolveResult& r, bool interrupted,
                const nlohmann::json& levels, const nlohmann::json& communication, std::array<int, 2> grid) {
  nlohmann::json history = nlohmann::json::array();
  for (const IterationRecord& h : r.history)
    history.push_back({{"iteration", h.iteration},
                       {"error", number_or_null(h.error_norm)},
                       {"residual", number_or_null(h.residual_norm)},
                       {"factor", number_or_null(h.factor)},
                       {"seconds", h.seconds}});
  nlohmann::json out = {
      {"status", interrupted ? "interrupted" : to_string(r.status)},
      {"message", r.message},
      {"converged", r.converged()},
      {"iterations", r.iterations},
      {"error_reduction", number_or_null(r.error_reduction)},
      {"residual_reduction", number_or_null(r.residual_reduction)},
      {"mean_factor", number_or_null(r.mean_factor)},
      {"initial_error", number_or_null(r.initial_error)},
      {"final_error", number_or_null(r.final_error)},
      {"initial_residual", number_or_null(r.initial_residual)},
      {"final_residual", number_or_null(r.final_residual)},
      {"monitor", r.monitor == Monitor::Error ? "error" : "residual"},
      {"seconds_total", r.seconds_total},
      {"seconds_setup", r.seconds_setup},
      {"seconds_per_iteration", r.seconds_per_iteration},
      {"seconds_per_cycle", r.seconds_per_cycle},
      {"launches_per_iteration", r.launches_per_iteration},
      {"omega", r.omega},
      {"smoothing_factor", number_or_null(smoothing_factor_of(o, r))},
      {"kappa", o.cycle.type == CycleType::Kappa ? nlohmann::json(kappa_to_string(o.cycle.counter)) : nlohmann::json()},
      {"cycle", to_string(o.cycle.type)},
      {"levels", o.levels},
      {"unknowns", r.unknowns},
      {"eps", o.eps},
      {"angle", o.angle_degrees},
      {"smoother", to_string(o.smoother)},
      {"coarsening", to_string(o.coarsening)},
      {"coarse_operator", to_string(o.coarse_operator)},
      {"nu1", o.nu1},
      {"nu2", o.nu2},
      {"symmetric_smoothing", o.symmetric_smoothing},
      {"repeat_coarsest", o.coarsest_calls == CoarsestCalls::Repeated},
      {"solver", to_string(o.solver)},
      {"problem", int(o.problem)},
      {"tol", o.tolerance},
      {"seed", o.seed},
      {"backend", r.backend},
      {"cuda_graphs", r.backend == "cuda" && o.cuda_graphs},
      {"fused", ran.fused},
      {"coarse_tail_unknowns", ran.coarse_tail_unknowns.value_or(0)},
      {"precision", enum_name(o.precision)},
      {"history", history}};
  if (!levels.is_null()) out["levels_table"] = levels;
  if (!communication.empty()) {
    out["communication"] = communication;
    out["process_grid"] = {grid[0], grid[1]};
    out["agglomerate_below"] = agglomeration_threshold(o);
  }
  std::cout << out.dump(1) << "\n";
}

int run(const SolveArgs& args, const CLI::App& cmd) {
  const SolverOptions o = resolve(args.solver, cmd);
  if (args.every < 0) throw InvalidOptions("--every must be non-negative");
  validate(o);
  // --backend cuda without a GPU stops here; auto says why it fell back.
  const ResolvedRun resolved = resolved_run(o);
  const MultigridSettings ran = resolved.settings;
  const bool text = !args.json;
  // Unbalanced smoothing is far from symmetric: CG may stall long before the tolerance.
  if (const CycleAsymmetry asymmetry = cycle_asymmetry(o); o.solver == SolverKind::PCG && !asymmetry.unbalanced.empty())
    std::fprintf(stderr,
                 "kcycle: warning: CG needs a symmetric preconditioner and this cycle is not one (%s): it may stall "
                 "before the tolerance; solver fcg (flexible CG) does not need one\n",
                 asymmetry.unbalanced.c_str());
  if (text) {
    std::printf(
        "kcycle solve: %d levels (%llu unknowns), eps=%g, angle=%g deg, %s, %s(%d,%d), %s coarsening, %s operators, "
        "%s\n",
        o.levels, (unsigned long long)full_coarsening_shape(o.levels, 1).unknowns(), o.eps, o.angle_degrees,
        cycle_name(o).c_str(), std::string(to_string(o.smoother)).c_str(), o.nu1, o.nu2,
        std::string(to_string(o.coarsening)).c_str(), std::string(to_string(o.coarse_operator)).c_str(),
        o.solver == SolverKind::Multigrid ? "stand-alone cycle"
        : o.solver == SolverKind::PCG     ? "CG preconditioned by the cycle (MGCG)"
                                          : "flexible CG preconditioned by the cycle");
    std::printf("problem %d: %s\n", int(o.problem),
                o.problem == ProblemKind::RandomError
                    ? "zero rhs and boundary, random initial guess; stops on the error norm"
                : o.problem == ProblemKind::ZeroMeanRandomError
                    ? "zero rhs and boundary, zero-mean random initial guess; stops on the error norm"
                : o.problem == ProblemKind::FourierMode
                    ? "zero rhs and boundary, one Fourier mode as the initial guess; stops on the error norm"
                : o.problem == ProblemKind::Drawn
                    ? "zero rhs and boundary, a drawn initial guess; stops on the error norm"
                    : "manufactured smooth solution, zero initial guess; stops on the residual norm");
    std::printf("%6s %13s %13s %9s %11s\n", "iter", "error", "residual", "factor", "cycle ms");
  }
  // Print every iteration early on, then thin out so long runs stay readable.
  int printed_last = 0;
  const auto on_iteration = [&](const IterationRecord& h) {
    if (!text || args.quiet) return true;
    const int stride = args.every > 0 ? args.every : (h.iteration <= 20 ? 1 : h.iteration <= 200 ? 10 : 100);
    if (h.iteration % stride == 0 || h.iteration == 1) {
      std::printf("%6d %13.6e %13.6e %9.5f %11.4f\n", h.iteration, h.error_norm, h.residual_norm, h.factor,
                  h.seconds * 1e3);
      printed_last = h.iteration;
    }
    return true;
  };
  const StopOnInterrupt stop;  // Ctrl-C ends the solve at the next cycle boundary, with its summary
  IterativeSolver solver(o, make_problem(o));
  solver.set_level_timing(args.level_table);
  bool interrupted = false;
  while (solver.running()) {
    if ((interrupted = stop.requested_on_any_rank())) {  // every rank stops at the same iteration
      solver.cancel();
      break;
    }
    on_iteration(solver.step());
  }
  SolveResult r = solver.result();
  if (interrupted)
    r.message = "interrupted after " + std::to_string(r.iterations) + " " +
                (o.solver == SolverKind::Multigrid ? "cycles" : "iterations") + " (" + stop.signal_name() + ")";
  const std::vector<CommStats> communication = solver.comm_stats_all_ranks();  // every rank: a collective
  if (!text) {
    print_json(o, ran, r, interrupted, args.level_table ? level_table_json(solver) : nlohmann::json(),
               communication_json(communication, r.iterations), solver.process_grid());
  } else {
    if (!args.quiet && printed_last != r.iterations && !r.history.empty()) {
      const IterationRecord& h = r.history.back();
      std::printf("%6d %13.6e %13.6e %9.5f %11.4f\n", h.iteration, h.error_norm, h.residual_norm, h.factor,
                  h.seconds * 1e3);
    }
    std::printf("\n%s\n", r.message.c_str());
    if (o.smoother == Smoother::Jacobi)
      std::printf("omega %.4f (%s); LFA smoothing factor of damped Jacobi at this omega: %.4f\n", r.omega,
                  o.omega_mode == OmegaMode::Paper     ? "paper's formula, Yavneh & Olvovsky"
                  : o.omega_mode == OmegaMode::Fourier ? "minimizes the LFA smoothing factor"
                                                       : "set by --omega",
                  smoothing_factor_of(o, r));
    std::printf("mean convergence factor %.5f; error %.3e -> %.3e; residual %.3e -> %.3e\n", r.mean_factor,
                r.initial_error, r.final_error, r.initial_residual, r.final_residual);
    std::printf("time: %.4f ms per %s (median), %.4f ms per iteration with norms, total %.3f s, set-up %.3f s\n",
                r.seconds_per_cycle * 1e3, o.solver == SolverKind::Multigrid ? "cycle" : "CG iteration",
                r.seconds_per_iteration * 1e3, r.seconds_total, r.seconds_setup);
    const std::size_t tail = ran.coarse_tail_unknowns.value_or(0);
    std::printf(
        "backend: %s%s, %llu launches per iteration, %s%s, %s\n", r.backend.c_str(),
        r.backend == "cuda" ? (o.cuda_graphs ? " (cycles replayed as CUDA Graphs)" : " (graphs off)") : "",
        (unsigned long long)r.launches_per_iteration, passes_words(resolved.schedule, o.smoother).c_str(),
        tail > 0 ? (", levels of <= " + std::to_string(tail) + " unknowns as one coarse-tail launch").c_str() : "",
        o.precision == Precision::Mixed ? "mixed precision (float hierarchy, double CG and norms)"
                                        : "double precision");
    if (args.level_table) print_level_table(solver, r.iterations);
    if (!communication.empty() && mpi_ranks() > 1)
      print_communication(communication, r.iterations, solver.process_grid(), agglomeration_threshold(o));
  }
  if (interrupted) return kInterruptedExit;
  return r.converged() ? 0 : 3;
}

}  // namespace

Subcommand add_solve_command(CLI::App& app) {
  auto args = std::make_shared<SolveArgs>();
  CLI::App* cmd =
      app.add_subcommand("solve",
                         "Solve -div(K grad u) = f on the unit square (K: 1 along angle phi, eps across) with a "
                         "multigrid kappa-cycle, stand-alone or as a CG preconditioner. Exit status: 0 converged, "
                         "2 bad input, 3 not converged (max iterations, divergence, NaN), 130 interrupted (Ctrl-C or "
                         "SIGTERM: the summary so far is printed).");
  add_solver_options(*cmd, args->solver);
  cmd->add_option("--every", args->every, "Print every k-th iteration (0: 1-20 all, then every 10, then 100)");
  cmd->add_flag("--json", args->json, "Print one JSON object (summary and history) instead of text");
  cmd->add_flag("--quiet", args->quiet, "Text output: summary only");
  cmd->add_flag("--level-table", args->level_table,
                "Per level: calls, launches and milliseconds per phase (relax, restrict, prolong, coarse solve) "
                "over the solve; each operation is timed on its own (CUDA: no graph replay). --json adds levels_table");
  return {cmd, [args, cmd] { return run(*args, *cmd); }};
}

}  // namespace kcycle::cli
