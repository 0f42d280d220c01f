// `kcycle experiment scaling`: weak and strong scaling of the kappa-cycles on the MPI backend,
// measured on 1, 2, 4, ... of this mpirun's ranks and predicted by the model on a process grid,
// T = alpha * launches + beta * ops + lambda * messages (distributed_model.hpp), fitted here
// on all the ranks, up to 4096 ranks. Writes scaling.csv, .json and .svg.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "experiment.hpp"
#include "kcycle/backends/mpi/mpi_runtime.hpp"
#include "kcycle/model/distributed_model.hpp"
#include "kcycle/model/timing.hpp"
#include "kcycle/solve/execution_target.hpp"
#include "kcycle/solve/solve.hpp"
#include "progress.hpp"
#include "svg_plot.hpp"

namespace kcycle::cli {

namespace {

constexpr int kPredictedRanks = 4096;

struct ScalingRow {
  std::string study;  // "weak" or "strong"
  int kappa = 1, ranks = 1, px = 1, py = 1, levels = 0;
  double measured = NAN, model = NAN;  // seconds per cycle
  double measured_efficiency = NAN, model_efficiency = NAN;
  double ops = 0, messages = 0;  // the busiest rank's per cycle
};

std::string number(double x, const char* format) {
  if (!std::isfinite(x)) return "";
  char text[64];
  std::snprintf(text, sizeof text, format, x);
  return text;
}

// Per kappa, measured and modelled efficiency at the most ranks measured, and the model's at
// 4096 ranks.
void print_scaling_table(const std::vector<ScalingRow>& rows, int world, int levels) {
  std::printf("\n%-6s %-7s %8s %10s %12s %12s %10s %10s\n", "study", "kappa", "ranks", "levels", "measured ms",
              "model ms", "meas. eff", "model eff");
  for (const ScalingRow& r : rows) {
    if (r.ranks > world && r.ranks != kPredictedRanks) continue;
    std::printf("%-6s %-7s %8d %10d %12s %12s %10s %10s\n", r.study.c_str(), kappa_to_string(r.kappa).c_str(), r.ranks,
                r.levels, number(r.measured * 1e3, "%.3f").c_str(), number(r.model * 1e3, "%.3f").c_str(),
                number(r.measured_efficiency, "%.3f").c_str(), number(r.model_efficiency, "%.3f").c_str());
  }
  std::printf(
      "(model at 4096 ranks: square 64 x 64 grid; weak: %d levels on one rank, %d at 4096; the levels where a "
      "block keeps 8 points a side are split, the rest live on rank 0)\n",
      levels - 1, levels - 1 + 6);
}

// scaling.csv, .json and .svg: every row, the model's constants and the efficiency plots.
void write_scaling_files(const std::vector<ScalingRow>& rows, const Calibration& c, int world, bool oversubscribed,
                         const std::string& dir) {
  std::string csv =
      "study,kappa,ranks,px,py,levels,measured_ms,model_ms,measured_efficiency,model_efficiency,ops,messages\n";
  nlohmann::json json_rows = nlohmann::json::array();
  std::vector<Plot> panels;
  for (const std::string study : {"weak", "strong"}) {
    Plot plot{study + " scaling: efficiency (measured: markers; model: dashed)",
              "ranks",
              "efficiency",
              true,
              false,
              {},
              {},
              {}};
    for (std::size_t k = 0; k < kKappas.size(); ++k) {
      PlotSeries measured{"kappa=" + kKappaLabels[k], {}, {}, palette(k), false, true};
      PlotSeries model{"model", {}, {}, palette(k), true, false};
      for (const ScalingRow& r : rows) {
        if (r.study != study || r.kappa != kKappas[k]) continue;
        csv += r.study + "," + kappa_to_string(r.kappa) + "," + std::to_string(r.ranks) + "," + std::to_string(r.px) +
               "," + std::to_string(r.py) + "," + std::to_string(r.levels) + "," + number(r.measured * 1e3, "%.6g") +
               "," + number(r.model * 1e3, "%.6g") + "," + number(r.measured_efficiency, "%.4f") + "," +
               number(r.model_efficiency, "%.4f") + "," + number(r.ops, "%.0f") + "," + number(r.messages, "%.0f") +
               "\n";
        const auto or_null = [](double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(); };
        json_rows.push_back({{"study", r.study},
                             {"kappa", kappa_to_string(r.kappa)},
                             {"ranks", r.ranks},
                             {"px", r.px},
                             {"py", r.py},
                             {"levels", r.levels},
                             {"measured_seconds", or_null(r.measured)},
                             {"model_seconds", or_null(r.model)},
                             {"measured_efficiency", or_null(r.measured_efficiency)},
                             {"model_efficiency", or_null(r.model_efficiency)},
                             {"ops", r.ops},
                             {"messages", r.messages}});
        if (std::isfinite(r.measured_efficiency)) {
          measured.x.push_back(r.ranks);
          measured.y.push_back(r.measured_efficiency);
        }
        if (std::isfinite(r.model_efficiency)) {
          model.x.push_back(r.ranks);
          model.y.push_back(r.model_efficiency);
        }
      }
      plot.series.push_back(measured);
      plot.series.push_back(model);
    }
    panels.push_back(plot);
  }
  const std::string json =
      nlohmann::json({{"alpha_seconds", c.model.alpha},
                      {"beta_seconds", c.model.beta},
                      {"lambda_seconds", c.model.lambda},
                      {"lambda_benchmark_seconds", c.measured_lambda},
                      {"lambda_note", latency_note(c)},
                      {"ranks", world},
                      {"cores", std::thread::hardware_concurrency()},
                      {"oversubscribed", oversubscribed},
                      {"note", oversubscribed ? "more ranks than cores: counts exact, times only indicative" : ""},
                      {"rows", json_rows}})
          .dump(1);
  write_files_together(
      {{dir + "/scaling.csv", csv}, {dir + "/scaling.json", json}, {dir + "/scaling.svg", svg_text(panels)}});
}

// What both studies measure and model with: the run on the MPI backend, the model fitted on all
// the ranks, and the ranks measured.
struct ScalingStudy {
  const MultigridSettings& settings;
  const ExecutionTarget& target;
  const TimingPolicy& policy;
  const Calibration& c;
  int levels, world, agglomerate_below;
  std::vector<int> measured_ranks;  // 1, 2, 4, ... and all of them
  Progress& progress;
};

void strong_rows(const ScalingStudy& st, int kappa, std::vector<ScalingRow>& rows) {
  // Strong: `levels` levels on p ranks. Measured where the ranks are, modelled on square grids
  // up to 4096 ranks where the grid still gives every rank two points a side.
  double t1 = NAN;
  for (int p : st.measured_ranks) {
    const CycleTiming t = time_cycle_on_ranks(st.settings, {CycleType::Kappa, kappa}, st.target, p, st.policy);
    st.progress.done("strong: kappa=" + kappa_to_string(kappa) + " on " + std::to_string(p) + " ranks");
    const Decomposition d(st.levels, st.settings.coarsening, t.px, t.py, st.agglomerate_below);
    const DistributedCycleCost m = distributed_cycle_cost(st.settings, kappa, d, st.c.model);
    if (p == 1) t1 = t.median_seconds;
    rows.push_back({"strong", kappa, p, t.px, t.py, st.levels, t.median_seconds, m.seconds, t1 / (p * t.median_seconds),
                    NAN, m.ops, m.messages});
  }
  const double model1 =
      distributed_cycle_cost(st.settings, kappa, Decomposition(st.levels, st.settings.coarsening, 1, 1), st.c.model)
          .seconds;
  for (ScalingRow& r : rows)
    if (r.study == "strong" && r.kappa == kappa) r.model_efficiency = model1 / (r.ranks * r.model);
  for (int side = 2; side * side <= kPredictedRanks; side *= 2) {
    if (side * side <= st.world) continue;  // measured above
    try {
      const Decomposition d(st.levels, st.settings.coarsening, side, side, st.agglomerate_below);
      const DistributedCycleCost m = distributed_cycle_cost(st.settings, kappa, d, st.c.model);
      rows.push_back({"strong", kappa, side * side, side, side, st.levels, NAN, m.seconds, NAN,
                      model1 / (side * side * m.seconds), m.ops, m.messages});
    } catch (const std::exception&) {
      break;  // fewer than 2 points a rank
    }
  }
}

void weak_rows(const ScalingStudy& st, int kappa, std::vector<ScalingRow>& rows) {
  // Weak: levels - 1 levels on one rank, one more for every 4 times the ranks.
  MultigridSettings base = st.settings;
  base.levels = st.levels - 1;
  const std::vector<ScalingPoint> predicted =
      weak_scaling_prediction(base, kappa, st.c.model, kPredictedRanks, st.agglomerate_below);
  double w1 = NAN;
  for (const ScalingPoint& q : predicted) {
    ScalingRow r{"weak", kappa,          q.ranks, q.px,         q.py,       q.levels,
                 NAN,    q.cost.seconds, NAN,     q.efficiency, q.cost.ops, q.cost.messages};
    if (q.ranks <= st.world) {
      MultigridSettings s = base;
      s.levels = q.levels;
      ExecutionTarget square = st.target;
      square.ranks_x = q.px;
      square.ranks_y = q.py;
      const CycleTiming t = time_cycle_on_ranks(s, {CycleType::Kappa, kappa}, square, q.ranks, st.policy);
      st.progress.done("weak: kappa=" + kappa_to_string(kappa) + " on " + std::to_string(q.ranks) + " ranks");
      if (q.ranks == 1) w1 = t.median_seconds;
      r.measured = t.median_seconds;
      r.measured_efficiency = w1 / t.median_seconds;
    }
    rows.push_back(r);
  }
}

}  // namespace

int scaling_experiment(const ExperimentArgs& a, const std::string& dir) {
  const int world = mpi_ranks();
  if (a.backend_kind != BackendKind::Mpi)
    throw InvalidOptions(
        "experiment scaling runs on the MPI backend: mpirun -np P kcycle experiment scaling "
        "--backend mpi");
  if (world < 2)
    throw InvalidOptions("experiment scaling needs mpirun -np P with P >= 2: lambda is measured between ranks");
  const int levels = a.levels > 0 ? a.levels : 9;  // the strong-scaling problem; weak: levels - 1 on one rank
  if (levels < 4 || a.min_levels >= levels)
    throw InvalidOptions("experiment scaling needs --levels >= 4 and --min-levels below it");
  SolverOptions o;
  o.levels = levels;
  apply_run_options(a, o);
  o.fused = false;  // what the MPI backend runs
  validate(o);
  const ResolvedRun mpi = resolve(o, BackendKind::Mpi);
  const MultigridSettings& settings = mpi.settings;
  ExecutionTarget target = mpi.target;
  target.ranks_x = target.ranks_y = 0;  // each rank count on MPI_Dims_create's grid
  TimingPolicy policy;
  policy.min_seconds = a.min_seconds;

  // The model, fitted on all the ranks.
  CalibrationSweep sweep;
  sweep.min_levels = a.min_levels;
  sweep.max_levels = levels;
  sweep.target = target;
  sweep.policy = policy;
  std::vector<int> measured_ranks;
  for (int p = 1; p <= world; p *= 2) measured_ranks.push_back(p);
  if (measured_ranks.back() != world) measured_ranks.push_back(world);
  int weak_timings = 0;
  for (int p = 1; p <= world; p *= 4) ++weak_timings;
  Progress progress(5 * (levels - a.min_levels + 1) +
                    int(kKappas.size()) * (int(measured_ranks.size()) + weak_timings));
  const Calibration c = calibrate(settings, sweep, [&](const TimingSample& s) {
    progress.done("model: kappa=" + kappa_to_string(s.kappa) + " levels=" + std::to_string(s.levels));
  });
  const bool oversubscribed = world > std::max(1, int(std::thread::hardware_concurrency()));
  std::printf("kcycle experiment scaling: %s(%d,%d), eps=%g, angle=%g; %d ranks%s\n",
              std::string(to_string(o.smoother)).c_str(), o.nu1, o.nu2, o.eps, o.angle_degrees, world,
              oversubscribed ? " on fewer cores: the counts are exact, the times only indicative" : "");
  std::printf("model on %d ranks: alpha %.3g s/launch, beta %.3g s/unknown, lambda %.3g s/message\n", c.ranks,
              c.model.alpha, c.model.beta, c.model.lambda);
  if (const std::string note = latency_note(c); !note.empty()) std::printf("%s\n", note.c_str());

  const ScalingStudy study{settings,       target,  policy, c, levels, world, agglomeration_threshold(o),
                           measured_ranks, progress};
  std::vector<ScalingRow> rows;
  for (int kappa : kKappas) {
    strong_rows(study, kappa, rows);
    weak_rows(study, kappa, rows);
  }

  print_scaling_table(rows, world, levels);
  if (mpi_rank() == 0) write_scaling_files(rows, c, world, oversubscribed, dir);  // one set of files
  return 0;
}

}  // namespace kcycle::cli
