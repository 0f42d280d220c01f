// `kcycle experiment krylov`: each kappa plain and Krylov-accelerated (--coarse-krylov), on the
// paper's three smoother/coarsening pairs, stand-alone, to the paper's tolerance: iterations and
// time, both forms of a case solved back to back so that they meet the same machine.
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "experiment.hpp"
#include "kcycle/solve/memory_account.hpp"
#include "progress.hpp"
#include "svg_plot.hpp"

namespace kcycle::cli {

namespace {

// The pairs and the anisotropy of the paper's tables with them (4.1: jacobi at 1e-4; 4.3 and
// 4.5: the zebra smoothers at 1e-5), at 45 degrees unless --angles says otherwise.
struct PairCase {
  const char* preset;
  double eps;
};
constexpr PairCase kPairs[] = {{"jacobi", 1e-4}, {"xyzebra-galerkin", 1e-5}, {"xzebra-semi-galerkin", 1e-5}};

std::string cell(const SolveResult& r) {
  char text[48];
  if (r.converged())
    std::snprintf(text, sizeof text, "%d, %.0f ms", r.iterations, r.seconds_total * 1e3);
  else
    std::snprintf(text, sizeof text, "%s", status_word(r).c_str());
  return text;
}

}  // namespace

int krylov_experiment(const ExperimentArgs& a, const std::string& dir) {
  const int first = a.levels > 0 ? a.levels : 9;
  const int last = a.max_levels > 0 ? a.max_levels : std::max(first, 10);
  if (last < first) throw InvalidOptions("krylov: --max-levels must be at least --levels");
  const std::vector<int> kappas = table_kappas(a);
  const std::vector<double> angles = a.angles.empty() ? std::vector<double>{45} : a.angles;
  auto options_for = [&](const PairCase& pair, int levels, double angle, int kappa, bool krylov) {
    SolverOptions o;
    apply(*find_preset(pair.preset), o);
    o.levels = levels;
    o.eps = pair.eps;
    o.angle_degrees = angle;
    o.cycle = {CycleType::Kappa, kappa};
    o.max_iterations = a.run_options.max_iterations;
    apply_run_options(a, o);
    o.coarse_krylov = krylov;
    return o;
  };
  for (const PairCase& pair : kPairs)  // every case refused before the first solve, not after
    for (int n = first; n <= last; ++n)
      for (double angle : angles)
        for (int kappa : kappas) validate(options_for(pair, n, angle, kappa, true));
  const int cases = int(std::size(kPairs)) * (last - first + 1) * int(angles.size() * kappas.size()) * 2;
  Progress progress(cases);
  const StopOnInterrupt stop;
  RowsSoFar csv(dir + "/krylov.csv",
                "solver,levels,eps,angle,kappa,coarse_krylov,status,cycles,seconds_total,seconds_per_iteration\n");
  nlohmann::json rows = nlohmann::json::array();
  std::vector<Plot> plots;
  for (const PairCase& pair : kPairs) {
    Plot plot{std::string(pair.preset) + ", eps " + std::to_string(pair.eps).substr(0, 7),
              "kappa",
              "solve time (s)",
              false,
              true,
              {},
              {},
              {}};
    for (int kappa : kappas) plot.xtick_labels.push_back(kappa_label(kappa));
    for (int n = first; n <= last; ++n)
      for (double angle : angles) {
        std::printf("\n%s, eps=%g, %d levels, angle %g: cycles and solve time to 1e-8\n%-8s %20s %20s %14s\n",
                    pair.preset, pair.eps, n, angle, "kappa", "plain", "krylov", "time ratio");
        PlotSeries plain_series{
            "plain, " + std::to_string(n) + " levels", {}, {}, palette(std::size_t(n - first)), true};
        PlotSeries krylov_series{"krylov, " + std::to_string(n) + " levels", {}, {}, palette(std::size_t(n - first))};
        for (std::size_t k = 0; k < kappas.size(); ++k) {
          SolveResult r[2];
          for (bool krylov : {false, true}) {
            r[krylov] = timed_solve(options_for(pair, n, angle, kappas[k], krylov), a.case_timeout, stop);
            char line[256];
            std::snprintf(line, sizeof line, "%s,%d,%g,%g,%s,%s,%s,%d,%.6g,%.6g\n", pair.preset, n, pair.eps, angle,
                          kappa_to_string(kappas[k]).c_str(), krylov ? "on" : "off", status_word(r[krylov]).c_str(),
                          r[krylov].iterations, r[krylov].seconds_total, r[krylov].seconds_per_iteration);
            csv.add(line);
            rows.push_back({{"solver", pair.preset},
                            {"levels", n},
                            {"eps", pair.eps},
                            {"angle", angle},
                            {"kappa", kappa_to_string(kappas[k])},
                            {"coarse_krylov", krylov},
                            {"status", status_word(r[krylov])},
                            {"cycles", r[krylov].iterations},
                            {"seconds_total", r[krylov].seconds_total},
                            {"seconds_per_iteration", r[krylov].seconds_per_iteration}});
            progress.done(std::string(pair.preset) + " levels=" + std::to_string(n) + " kappa=" +
                          kappa_to_string(kappas[k]) + (krylov ? " krylov" : " plain") + ": " + cell(r[krylov]));
            stop_if_interrupted(stop, csv, cases);
            PlotSeries& series = krylov ? krylov_series : plain_series;
            if (r[krylov].converged()) series.x.push_back(double(k)), series.y.push_back(r[krylov].seconds_total);
          }
          char ratio[32] = "-";
          if (r[0].converged() && r[1].converged())
            std::snprintf(ratio, sizeof ratio, "%.2f", r[1].seconds_total / r[0].seconds_total);
          std::printf("%-8s %20s %20s %14s\n", kappa_label(kappas[k]).c_str(), cell(r[0]).c_str(), cell(r[1]).c_str(),
                      ratio);
          std::fflush(stdout);
        }
        plot.series.push_back(plain_series);
        plot.series.push_back(krylov_series);
      }
    plots.push_back(plot);
  }
  csv.complete_with({{dir + "/krylov.json", rows.dump(1)}, {dir + "/krylov.svg", svg_text(plots)}});
  return 0;
}

}  // namespace kcycle::cli
