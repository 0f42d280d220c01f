// `kcycle figure cycles`: the paper's Figure 2.1 for a slide or a paper: the kappa-cycles on N
// levels, one diagram each, titled with kappa and totalCalls, as SVG or PNG.
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "cycle_figure_file.hpp"
#include "kcycle/solve/solver_options.hpp"

namespace kcycle::cli {

namespace {

struct FigureArgs {
  int levels = 5;
  std::vector<std::string> kappas{"1", "2", "3", "W"};
  int nu1 = 2, nu2 = 2;
  std::string out;
  float width = 0;
  double png_scale = 2;
};

int run(const FigureArgs& a) {
  std::vector<int> kappas;
  for (const std::string& text : a.kappas) {
    const std::optional<int> kappa = parse_kappa(text);
    if (!kappa) throw InvalidOptions("--kappa: \"" + text.substr(0, 60) + "\" is not a positive integer or W");
    kappas.push_back(*kappa);
  }
  const std::vector<plot::CycleFigurePanel> panels = plot::kappa_cycle_panels(a.levels, kappas, a.nu1, a.nu2);
  try {
    plot::write_cycle_figure(panels, a.out, {a.width, a.png_scale});
  } catch (const plot::FigureRefused& e) {
    throw InvalidOptions(std::string("--out ") + a.out.substr(0, 60) + ": " + e.what());
  }
  for (const auto& p : panels) std::printf("%s\n", plot::panel_title(p).c_str());
  std::printf("wrote %s\n", a.out.c_str());
  return 0;
}

}  // namespace

Subcommand add_figure_command(CLI::App& app) {
  auto args = std::make_shared<FigureArgs>();
  CLI::App* figure = app.add_subcommand("figure", "Draw the paper's figures for slides and papers");
  figure->require_subcommand(1);
  CLI::App* cycles = figure->add_subcommand(
      "cycles",
      "Figure 2.1: one diagram per kappa (an X for every recursive call with its kappa, a circle for each relaxation), "
      "titled with totalCalls");
  cycles->add_option("--levels", args->levels, "Levels of the hierarchy (1 = finest)")->check(CLI::Range(1, 16));
  cycles->add_option("--kappa", args->kappas, "Kappas to draw, one diagram each (a positive integer or W)")
      ->delimiter(',')
      ->capture_default_str();
  cycles->add_option("--nu1", args->nu1, "Relaxations before the coarse-grid correction")->check(CLI::Range(0, 16));
  cycles->add_option("--nu2", args->nu2, "Relaxations after it")->check(CLI::Range(0, 16));
  cycles->add_option("--out", args->out, "The figure: FILE.svg or FILE.png")->required();
  cycles->add_option("--width", args->width, "Width in pixels (default: 10 a node, at least 960)")
      ->check(CLI::Range(200.0, 100000.0));
  cycles->add_option("--png-scale", args->png_scale, "PNG pixels per SVG pixel (sharp on a projector)")
      ->check(CLI::Range(0.25, 8.0));
  return {cycles, [args] { return run(*args); }};
}

}  // namespace kcycle::cli
