// The visualizer as a person sees it: kcycle-gui runs under Xvfb from a script, writes
// screenshots, and these tests look at the pixels (panels found through the layout file).
#include "gui_harness.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "kcycle/backends/backend_selection.hpp"
#include "kcycle/cycle/cycle_counts.hpp"
#include "kcycle/model/cost_model.hpp"

namespace {

using namespace kcycle::gui_testing;

TEST(Gui, FieldIsDrawnAndChangesUnderCycles) {
  const std::string a = temp("field0.png"), b = temp("field1.png"), layout = temp("field_layout.json");
  std::string out;
  ASSERT_EQ(run_gui("set levels 7\nset kappa 2\npause\nreset\nframes 5\nscreenshot " + a + "\nlayout " + layout +
                        "\nstep\nwait-cycles 1\nstep\nwait-cycles 2\nframes 5\nscreenshot " + b + "\n",
                    &out),
            0)
      << out;
  const Image i0 = load_png(a), i1 = load_png(b);
  ASSERT_GT(i0.w, 0);
  const Rect field = body(panel(layout, "Error field"), 50);
  // Not blank: a random initial error shows many colours.
  std::vector<int> seen;
  int distinct = 0;
  std::vector<char> hist(1 << 18, 0);
  for (int y = field.y; y < field.y + field.h; y += 2)
    for (int x = field.x; x < field.x + field.w; x += 2) {
      const unsigned char* p = i0.at(x, y);
      const int key = (p[0] >> 2) << 12 | (p[1] >> 2) << 6 | (p[2] >> 2);
      if (!hist[std::size_t(key)]) hist[std::size_t(key)] = 1, ++distinct;
    }
  EXPECT_GT(distinct, 200) << "the field panel looks blank";
  // Two cycles later the field looks different (rough error gone, the rest smaller).
  EXPECT_GT(mean_abs_difference(i0, i1, field), 5.0);
}

TEST(Gui, CycleDiagramShowsOneRedXPerRecursiveCall) {
  std::vector<Image> images;
  Rect diagram{};
  for (const char* kappa : {"1", "2", "3", "W"}) {
    const std::string shot = temp(std::string("diagram_") + kappa + ".png"), layout = temp("diagram_layout.json");
    std::string out;
    ASSERT_EQ(run_gui(std::string("set levels 5\nset kappa ") + kappa + "\nwait-cycles 2\nframes 3\nscreenshot " +
                          shot + "\nlayout " + layout + "\n",
                      &out),
              0)
        << out;
    images.push_back(load_png(shot));
    diagram = body(panel(layout, "Cycle diagram"), 62);
    const int k = std::string(kappa) == "W" ? 5 : std::stoi(kappa);
    const int expected = int(kcycle::total_calls(k, 5)) - 1;  // every call but the top one
    const int red =
        components(images.back(), diagram, [](const unsigned char* p) { return p[0] > 200 && p[1] < 60 && p[2] < 60; });
    EXPECT_EQ(red, expected) << "kappa=" << kappa << " (" << shot << ")";
  }
  for (std::size_t a = 0; a < images.size(); ++a)
    for (std::size_t b = a + 1; b < images.size(); ++b)
      EXPECT_GT(mean_abs_difference(images[a], images[b], diagram), 0.5)
          << "diagrams " << a << " and " << b << " look alike";
}

// Faint red (a call not yet run: red a third of the way from the dark panel) and solid red.
bool faint_red(const unsigned char* p) { return p[0] > 60 && p[0] < 150 && p[1] < 40 && p[2] < 40; }
bool solid_red(const unsigned char* p) { return p[0] > 200 && p[1] < 60 && p[2] < 60; }

TEST(Gui, TheWholeCycleIsDrawnBeforeItsFirstStep) {
  // The diagram was drawn from what had run: nothing before the first cycle, and it re-spaced
  // at every step. Now the planned cycle is drawn at once, faint until it runs.
  const std::string shot = temp("plan.png"), layout = temp("plan_layout.json");
  std::string out;
  ASSERT_EQ(run_gui("set levels 5\nset kappa 3\npause\nreset\nframes 3\nscreenshot " + shot + "\nlayout " + layout +
                        "\nprint-text\n",
                    &out),
            0)
      << out;
  const Image img = load_png(shot);
  const Rect diagram = body(panel(layout, "Cycle diagram"), 62);
  EXPECT_EQ(components(img, diagram, faint_red), int(kcycle::total_calls(3, 5)) - 1) << shot;
  EXPECT_EQ(components(img, diagram, solid_red), 0) << "nothing has run yet: " << shot;
  EXPECT_NE(out.find("134 operations a cycle; press Operation to step through one"), std::string::npos) << out;
}

TEST(Gui, SteppingNarratesEachOperationAndHighlightsTheLevelTheFieldShows) {
  // Every operation of a kappa=3 cycle at 5 levels, one step at a time: the narration names
  // it, and the highlight in the diagram sits on the level the field panel shows (looked at
  // in every third step and the last: a screenshot a step took most of the test's time).
  const int ops = 134;
  const auto looked_at = [](int k) { return k % 3 == 1 || k == ops; };
  const std::string layout = temp("narrate_layout.json");
  std::string script = "set levels 5\nset kappa 3\npause\nreset\n";
  for (int k = 1; k <= ops; ++k) {
    script += "step-op\nwait-operation " + std::to_string(k) + "\nframes 2\ndescribe\nprint-stepping\n";
    if (looked_at(k)) script += "screenshot " + temp("narrate_" + std::to_string(k) + ".png") + "\n";
  }
  script += "layout " + layout + "\n";
  std::string out;
  ASSERT_EQ(run_gui(script, &out, 1280), 0) << out;
  for (const char* said : {"the cycle starts on level 1 with kappa=3", "pre-relax 1/2 on level 1",
                           "pre-relax 2/2 on level 1", "restrict the residual, level 1 -> 2",
                           "zero the correction on level 2", "recursive call on level 2 with kappa=3",
                           "recursive call on level 3 with kappa=2", "solve exactly on the coarsest level 5",
                           "prolong the correction, level 5 -> 4, and add it", "post-relax 2/2 on level 1"})
    EXPECT_NE(out.find(said), std::string::npos) << said;
  EXPECT_NE(out.find("narration: operation 134: post-relax 2/2 on level 1"), std::string::npos) << out;
  // The second recursive call of level 2 lowers the counter: Algorithm 3's second call line.
  EXPECT_NE(out.find("recursive call on level 3 with kappa=2\n  call stack: level 1 (kappa=3) > level 2 (kappa=3) > "
                     "level 3 (kappa=2)\n  algorithm 3:   if kappa > 1: kappa_cycle(l+1, kappa-1)"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("restrict the residual, level 1 -> 2\n  call stack: level 1 (kappa=3)\n  algorithm 3:   restrict "
                     "the residual to level l+1"),
            std::string::npos);
  // The levels the field showed, in order.
  std::vector<int> field_levels;
  for (std::size_t at = out.find("field shows level "); at != std::string::npos;
       at = out.find("field shows level ", at + 1))
    field_levels.push_back(std::stoi(out.substr(at + 18)));
  ASSERT_EQ(field_levels.size(), std::size_t(ops)) << out;
  const Rect diagram = body(panel(layout, "Cycle diagram"), 62);
  std::set<int> levels_looked_at;
  for (int k = 1; k <= ops; ++k) {
    if (!looked_at(k)) continue;
    levels_looked_at.insert(field_levels[std::size_t(k - 1)]);
    const Image img = load_png(temp("narrate_" + std::to_string(k) + ".png"));
    ASSERT_GT(img.w, 0);
    // The level lines, evenly spaced: the first and last rows of the grid colour (55, 58, 66)
    // across most of the diagram (the lines between may fall between pixel rows).
    std::vector<int> grid_rows;
    for (int y = diagram.y; y < diagram.y + diagram.h; ++y) {
      int n = 0;
      for (int x = diagram.x; x < diagram.x + diagram.w; ++x) {
        const unsigned char* p = img.at(x, y);
        n += std::abs(p[0] - 55) < 6 && std::abs(p[1] - 58) < 6 && std::abs(p[2] - 66) < 6;
      }
      if (n > diagram.w / 2) grid_rows.push_back(y);
    }
    ASSERT_GE(grid_rows.size(), 2u) << "no level lines in step " << k;
    std::vector<double> rows;
    for (int l = 0; l < 5; ++l) rows.push_back(grid_rows.front() + (grid_rows.back() - grid_rows.front()) * l / 4.0);
    // The highlight: translucent yellow over the dark panel.
    double sum_y = 0;
    int count = 0;
    for (int y = grid_rows.front() - 12; y <= grid_rows.back() + 12; ++y)  // the diagram, not the text above it
      for (int x = diagram.x; x < diagram.x + diagram.w; ++x) {
        const unsigned char* p = img.at(x, y);
        if (p[0] > 130 && p[0] < 210 && p[1] > 110 && p[1] < 185 && p[2] < 90 && p[0] > p[1]) sum_y += y, ++count;
      }
    ASSERT_GT(count, 10) << "no highlight in step " << k;
    const double centre = sum_y / count;
    int level = 1;
    for (int l = 1; l <= 5; ++l)
      if (std::abs(rows[std::size_t(l - 1)] - centre) < std::abs(rows[std::size_t(level - 1)] - centre)) level = l;
    EXPECT_EQ(level, field_levels[std::size_t(k - 1)]) << "step " << k;
  }
  EXPECT_EQ(levels_looked_at.size(), 5u) << "the steps looked at show every level";
}

// A kappa sweep at 10 levels takes minutes (317 s measured); Stop sweep, a parameter change and
// closing the window each end it within an iteration, and the solve goes on.
TEST(Gui, AKappaSweepStopsForTheButtonAndForANewParameter) {
  std::string out;
  ASSERT_EQ(run_gui("set levels 10\nstart-sweep-kappa\nwait-sweeping\nwait-ms 300\nframes 2\nprint-text\n"
                    "print-controls\nstop-sweep\nwait-cycles 2\nframes 3\nprint-text\n"
                    "start-sweep-kappa\nwait-sweeping\nwait-ms 300\nset levels 5\nwait-cycles 2\nprint-summary\n",
                    &out),
            0)
      << out;
  const std::vector<std::string> texts = shown_texts(out);
  ASSERT_EQ(texts.size(), 2u) << out;
  EXPECT_TRUE(shows(texts[0], "sweeping kappa: ")) << texts[0];
  EXPECT_NE(out.find("control Stop sweep\t"), std::string::npos) << "the button says what it does now: " << out;
  EXPECT_FALSE(shows(texts[1], "sweeping kappa: ")) << texts[1];
  EXPECT_TRUE(shows(texts[1], "kappa sweep stopped before its end")) << texts[1];
  EXPECT_NE(out.find("5 levels"), std::string::npos) << "the new parameters run: " << out;
}

// Issue 44, item 6: at 1280x720 and UI scale 2 Stop sweep sat below the time panel's fold. While
// a sweep runs it comes first in the panel, in view; Sweep kappa (in the button row) is not
// drawn meanwhile. print-controls says which controls their panel must scroll to.
TEST(Gui, StopSweepIsInViewAt1280x720AndScale2) {
  // With a calibration the panel's text (the predicted times, the model and its errors) fills it.
  const std::string calibration = temp("stop_sweep_calibration.json");
  int status = -1;
  const std::string calibrated = run_cli("calibrate --threads 1 --max-levels 6 --out " + calibration, &status);
  ASSERT_EQ(status, 0) << calibrated;
  std::string out;
  ASSERT_EQ(
      run_gui("ui-scale 2\nset levels 9\nstart-sweep-kappa\nwait-sweeping\nframes 3\nprint-controls\n"
              "stop-sweep\nwait-cycles 1\nframes 3\nprint-controls\n",
              &out, 1280, "--threads 1 --calibration " + calibration + " --cache-dir " + temp("stop_sweep_cache"), 720),
      0)
      << out;
  const std::size_t during = out.find("control Stop sweep\t");
  ASSERT_NE(during, std::string::npos) << out;
  const std::string line = out.substr(during, out.find('\n', during) - during);
  EXPECT_EQ(line.find("(out of view"), std::string::npos) << line;
  const std::size_t after = out.find("control Sweep kappa\t", during);
  EXPECT_NE(after, std::string::npos) << "after the sweep, Sweep kappa again: " << out;
  EXPECT_EQ(out.find("control Stop sweep\t", during + 1), std::string::npos) << out;
  // Below the fold at this scale, and said to be: print-controls tells the two apart.
  EXPECT_NE(out.find("(out of view: its panel must scroll to it)"), std::string::npos) << out;
}

// One level: the zero-mean start on its one unknown is exact. The window says so (no "-nan",
// no "correction" on the finest level), and the kappa label reads as the slider does.
TEST(Gui, OneLevelSaysItsErrorIsZeroAndNamesItsCycleOnce) {
  std::string out;
  ASSERT_EQ(run_gui("set levels 1\nset problem 2\nwait-done\nframes 3\nprint-text\n", &out), 0) << out;
  const std::vector<std::string> texts = shown_texts(out);
  ASSERT_EQ(texts.size(), 1u) << out;
  EXPECT_EQ(texts[0].find("nan"), std::string::npos) << texts[0];
  EXPECT_TRUE(shows(texts[0], "converged: the initial error is already zero")) << texts[0];
  EXPECT_TRUE(shows(texts[0], "zero field: the error is zero everywhere")) << texts[0];
  EXPECT_FALSE(shows(texts[0], "this correction starts from zero")) << texts[0];
  EXPECT_TRUE(shows(texts[0], "{ W } kappa W\n")) << texts[0];
}

// Switching to a large hierarchy says so at once, instead of showing the old run as running;
// then the new run takes over. 12 levels: since the hierarchy's pages are no longer cleared at
// set-up (field.hpp), 11 levels set up within a frame or two; 12 take a few tenths of a second.
TEST(Gui, ALargeSetUpIsAnnouncedWhileItRuns) {
  std::string out;
  ASSERT_EQ(run_gui("set levels 5\nwait-cycles 1\nset levels 12\nwait-setting-up\nframes 1\nprint-text\n"
                    "wait-cycles 1\nframes 3\nprint-text\n",
                    &out),
            0)
      << out;
  const std::vector<std::string> texts = shown_texts(out);
  ASSERT_EQ(texts.size(), 2u) << out;
  EXPECT_TRUE(shows(texts[0], "setting up 12 levels: 16.8M unknowns on the finest grid")) << texts[0];
  EXPECT_FALSE(shows(texts[0], "\nrunning")) << "not the old run: " << texts[0];
  EXPECT_FALSE(shows(texts[1], "setting up")) << texts[1];
}

TEST(Gui, ClosingDuringAKappaSweepEndsTheProcessAtOnce) {
  // The same session with and without a sweep under way when it quits: the difference is what
  // the sweep holds the window for (before the fix: the rest of the sweep, minutes).
  const auto seconds = [](const std::string& script) {
    std::string out;
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(run_gui(script, &out), 0) << out;
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  const double quiet = seconds("set levels 10\nwait-cycles 1\nwait-ms 1000\nquit\n");
  const double sweeping =
      seconds("set levels 10\nwait-cycles 1\nstart-sweep-kappa\nwait-sweeping\nwait-ms 1000\nquit\n");
  std::printf("closing: %.2f s with a sweep under way, %.2f s without\n", sweeping, quiet);
  EXPECT_LT(sweeping - quiet, 5.0) << "the issue asks for 2 s; 5 leaves room for a loaded machine";
}

TEST(Gui, SweepKappaWritesTheMeasuredAndPredictedTotalsAndMarksTheFastest) {
  // Table 4.1's setting (stand-alone Jacobi(2,2), eps=1e-4, 45 degrees) at 8 levels, not its 9:
  // a quarter of the work, which under ASan is minutes.
  const std::string csv = temp("sweep.csv");
  std::string out;
  // Three solves of each kappa: the table's form and marks, not the timing (the CLI's table is that).
  const std::string shot = temp("sweep.png"), layout = temp("sweep_layout.json");
  ASSERT_EQ(run_gui("set levels 8\nsweep-kappa " + csv + " 3\nframes 3\nprint-text\nscreenshot " + shot + "\nlayout " +
                        layout + "\npin-sweep\nprint-pins\n",
                    &out),
            0)
      << out;
  std::ifstream f(csv);
  std::string line;
  std::getline(f, line);
  EXPECT_EQ(line,
            "kappa,iterations,converged,seconds_per_cycle,seconds_total,predicted_seconds_total,predicted_low,"
            "predicted_high,predicted_iterations,best,solves,spread");
  struct Row {
    std::string kappa;
    int iterations = 0, converged = 0, best = 0;
    double per_cycle = 0, total = 0, predicted = 0, low = 0, high = 0, predicted_iterations = 0;
    int solves = 0;
    double spread = 0;
  };
  std::vector<Row> rows;
  while (std::getline(f, line)) {
    Row r;
    std::replace(line.begin(), line.end(), ',', ' ');
    std::istringstream(line) >> r.kappa >> r.iterations >> r.converged >> r.per_cycle >> r.total >> r.predicted >>
        r.low >> r.high >> r.predicted_iterations >> r.best >> r.solves >> r.spread;
    rows.push_back(r);
  }
  ASSERT_EQ(rows.size(), 5u);
  const char* kappas[] = {"1", "2", "3", "4", "W"};
  std::size_t fastest = 0;
  int marked = 0;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    EXPECT_EQ(rows[k].kappa, kappas[k]);
    EXPECT_EQ(rows[k].converged, 1) << kappas[k];
    EXPECT_GT(rows[k].total, 0.0);
    EXPECT_GT(rows[k].predicted, 0.0) << "the advisor's prediction (measured probe times)";
    EXPECT_LE(rows[k].low, rows[k].predicted * (1 + 1e-5)) << kappas[k] << ": the band holds the prediction";
    EXPECT_GE(rows[k].high, rows[k].predicted * (1 - 1e-5)) << kappas[k];
    EXPECT_GT(rows[k].predicted_iterations, 0.0) << kappas[k];
    EXPECT_EQ(rows[k].solves, 3) << kappas[k] << ": the solves asked for";
    EXPECT_GE(rows[k].spread, 1.0) << kappas[k] << ": slowest over fastest";
    if (k > 0) EXPECT_LE(rows[k].iterations, rows[k - 1].iterations) << "more kappa, no more cycles";
    if (rows[k].total < rows[fastest].total) fastest = k;
    marked += rows[k].best;
  }
  EXPECT_EQ(marked, 1);
  EXPECT_EQ(rows[fastest].best, 1) << "the fastest measured total is kappa=" << kappas[fastest];
  // Crowned fastest where it leads by more than the noise; else tied, and said so (not both).
  const bool crowned = out.find(std::string(kappas[fastest]) + " fastest") != std::string::npos;
  const bool tied = out.find(std::string(kappas[fastest]) + " tied") != std::string::npos &&
                    out.find("no fastest kappa: ") != std::string::npos;
  EXPECT_NE(crowned, tied) << out;
  EXPECT_NE(out.find("advisor: time per"), std::string::npos) << "which model the advisor used: " << out;
  // Issue 44, item 7: the sweep draws a chart, a bar a kappa, the fastest (or tied) green.
  const Image img = load_png(shot);
  ASSERT_GT(img.w, 0) << shot;
  const Rect chart = panel(layout, "sweep chart");
  ASSERT_LE(chart.y + chart.h, img.h) << "the chart lies below the window, scrolled out of sight: " << shot;
  ASSERT_LE(chart.x + chart.w, img.w) << shot;
  // Bars stand on the chart's base line: a row just above it crosses each bar once (the
  // prediction's tick may cut a bar higher up).
  int green = 0, blue = 0;
  for (int y = chart.y + chart.h - 1; y > chart.y + chart.h / 2; --y) {
    int g = 0, b = 0;
    for (int x = chart.x, previous = 0; x < chart.x + chart.w; ++x) {
      const unsigned char* p = img.at(x, y);
      const int colour = p[0] == 90 && p[1] == 200 && p[2] == 90 ? 1 : p[0] == 90 && p[1] == 120 && p[2] == 170 ? 2 : 0;
      if (colour != 0) {
        if (colour != previous && colour == 1) ++g;
        if (colour != previous && colour == 2) ++b;
        previous = colour;
      } else if (std::max({p[0], p[1], p[2]}) < 80) {
        previous = 0;  // the chart's dark background: a bar ends here; a magenta band drawn through one does not
      }
    }
    if (g + b > green + blue) green = g, blue = b;
  }
  EXPECT_EQ(green + blue, 5) << shot;
  if (crowned)
    EXPECT_EQ(green, 1) << shot;
  else
    EXPECT_GE(green, 2) << "the tied kappas, each green: " << shot;
  // "Pin each kappa's run": each kappa's median solve becomes a pinned curve, as long as the
  // table says (the sweep kept no histories before).
  EXPECT_NE(out.find("[ Pin each kappa's run ]"), std::string::npos) << out;
  for (std::size_t k = 0; k < rows.size(); ++k)
    EXPECT_NE(out.find("pinned kappa=" + rows[k].kappa + ": " + std::to_string(rows[k].iterations) + " cycles"),
              std::string::npos)
        << out;
}

TEST(Gui, PinnedRunsAreLabelledWithWhatDiffersAndTheirTimes) {
  // Pinned runs were labelled "kappa=K" only: runs of another angle looked alike. And the
  // x-axis can be seconds (the time to solution kappa tuning is about).
  const std::string shot = temp("pins.png"), layout = temp("pins_layout.json");
  std::string out;
  ASSERT_EQ(run_gui("set levels 6\nset kappa 2\nwait-done\npin\nset angle 30\nset kappa 3\nwait-done\n"
                    "set x-seconds 1\nframes 3\nprint-pins\nprint-text\nscreenshot " +
                        shot + "\nlayout " + layout + "\n",
                    &out),
            0)
      << out;
  const std::size_t at = out.find("pinned kappa=2 angle=45:");
  ASSERT_NE(at, std::string::npos) << out;
  const std::string pin = out.substr(at, out.find('\n', at) - at);
  EXPECT_NE(pin.find(" cycles, "), std::string::npos) << pin;
  EXPECT_NE(pin.find(" ms/cycle, "), std::string::npos) << pin;
  EXPECT_EQ(pin.find("levels="), std::string::npos) << "only what differs: " << pin;
  const std::vector<std::string> t = shown_texts(out);
  ASSERT_EQ(t.size(), 1u) << out;
  EXPECT_TRUE(shows(t[0], "[x] x: seconds")) << t[0];
}

TEST(Gui, TheSecondsAxisShowsEveryPinnedRun) {
  // A slow V-cycle and an F-cycle pinned, then a fast W-cycle: on the seconds axis the axis reaches
  // past every pinned run's end (it started at 1 s and ended with the current run), and ends
  // with the longest (no floor). The W-cycle runs on 5 levels, so that it is the shortest run
  // however busy the machine is (on 7 it once took longer than the pinned V-cycle).
  std::string out;
  ASSERT_EQ(run_gui("set levels 7\nset kappa 1\nwait-done\npin\nset kappa 2\nwait-done\npin\nset levels 5\n"
                    "set kappa W\nwait-done\nset x-seconds 1\nframes 3\nprint-pins\n",
                    &out),
            0)
      << out;
  const std::regex pinned(R"(pinned kappa=[12][^\n]*, ([0-9.e+-]+) s solving)"),
      axis(R"(x axis: 0 to ([0-9.e+-]+) seconds)");
  std::vector<double> pins;
  for (auto it = std::sregex_iterator(out.begin(), out.end(), pinned); it != std::sregex_iterator(); ++it)
    pins.push_back(std::stod((*it)[1]));
  ASSERT_EQ(pins.size(), 2u) << out;
  std::smatch a;
  ASSERT_TRUE(std::regex_search(out, a, axis)) << out;
  const double axis_end = std::stod(a[1]), longest = std::max(pins[0], pins[1]);
  for (double p : pins) EXPECT_GE(axis_end, p) << out;
  EXPECT_LT(axis_end, 1.1 * longest) << "no floor: the axis ends with the longest run" << out;
}

TEST(Gui, AFailedExportIsSaidWithTheReason) {
  // Writes were never checked: a script's csv to /dev/full, or a screenshot into a missing folder,
  // ended 0 in silence. Each now fails the script with the OS's reason.
  std::string out;
  EXPECT_NE(run_gui("set levels 4\nwait-cycles 1\ncsv /dev/full\n", &out), 0);
  EXPECT_NE(out.find("cannot write /dev/full: No space left on device"), std::string::npos) << out;
  EXPECT_NE(run_gui("set levels 4\nwait-cycles 1\nparameters /nonexistent-folder/p.toml\n", &out), 0);
  EXPECT_NE(out.find("cannot write /nonexistent-folder/p.toml: No such file or directory"), std::string::npos) << out;
  EXPECT_NE(run_gui("set levels 4\nwait-cycles 1\nlayout /dev/full\n", &out), 0);
  EXPECT_NE(out.find("No space left on device"), std::string::npos) << out;
  EXPECT_NE(run_gui("set levels 4\nwait-cycles 1\nscreenshot /nonexistent-folder/s.png\nframes 2\n", &out), 0);
  EXPECT_NE(out.find("cannot write /nonexistent-folder/s.png: No such file or directory"), std::string::npos) << out;
}

TEST(GuiScript, AMisspeltWindowIsRefusedNotPassed) {
  // check-text-fits on a window the frame does not have checked nothing and passed.
  std::string out;
  EXPECT_NE(run_gui("set levels 4\nwait-cycles 1\nframes 2\ncheck-text-fits Convergnce\n", &out), 0);
  EXPECT_NE(out.find("no window named 'Convergnce' in the last frame: it checks nothing (drawn: 'Parameters'"),
            std::string::npos)
      << out;
  EXPECT_EQ(run_gui("set levels 4\nwait-cycles 1\nframes 2\ncheck-text-fits Convergence\n", &out), 0) << out;
}

TEST(GuiScript, SetBackendIsTheBackendThatRuns) {
  // `set backend mpi` showed mpi while the CPU ran; the backend printed is the solver's own
  // resolved target (the MPI backend on one rank here).
  std::string out;
#ifndef KCYCLE_HAVE_MPI
  GTEST_SKIP() << "built without MPI";
#endif
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "MPI keeps its own allocations until exit, which LeakSanitizer reports as leaks";
#endif
  ASSERT_EQ(run_gui("set levels 4\nset backend mpi\nwait-cycles 2\nframes 2\nprint-field-path\n", &out), 0) << out;
  EXPECT_NE(out.find("backend: mpi;"), std::string::npos) << out;
  ASSERT_EQ(run_gui("set levels 4\nset backend cpu\nwait-cycles 2\nframes 2\nprint-field-path\n", &out), 0) << out;
  EXPECT_NE(out.find("backend: cpu;"), std::string::npos) << out;
}

TEST(Gui, ALongPinLegendWrapsInsideItsPlot) {
  // A pin that differs in five settings has a legend wider than the plot at 1280 x 720: it ran
  // off the plot's left edge and lost its swatch. It wraps now; every glyph of the panel shows.
  std::string out;
  ASSERT_EQ(run_gui("set levels 5\nwait-done\npin\nset eps 0.01\nset angle 30\nset nu1 1\nset smoother gs-rb\n"
                    "set symmetric true\nwait-done\nframes 3\nprint-pins\ncheck-text-fits Convergence\n",
                    &out, 1280, "", 720),
            0)
      << out;
  EXPECT_NE(out.find("smoother=jacobi"), std::string::npos) << out;
  EXPECT_NE(out.find("s solving"), std::string::npos) << "the pin says what its time counts: " << out;
  EXPECT_NE(out.find("text fits"), std::string::npos) << out;
}

TEST(Gui, LectureViewDrawsTheFourCycleShapesWithoutSolving) {
  // V, F, kappa=3 and W at 5 levels: 4 + 14 + 24 + 30 recursive calls (totalCalls - 1 each).
  const std::string shot = temp("shapes.png"), layout = temp("shapes_layout.json");
  std::string out;
  ASSERT_EQ(run_gui("set levels 5\npause\nreset\nset shapes 1\nframes 3\nscreenshot " + shot + "\nlayout " + layout +
                        "\nprint-text\n",
                    &out),
            0)
      << out;
  const Image img = load_png(shot);
  const Rect r = panel(layout, "Cycle shapes");
  const Rect diagrams{r.x, r.y, r.w, r.h * 72 / 100};  // above the totalCalls chart
  int expected = 0;
  for (int kappa : {1, 2, 3, 5}) expected += int(kcycle::total_calls(kappa, 5)) - 1;
  EXPECT_EQ(components(img, diagrams, solid_red), expected) << shot;
  for (const char* label : {"V-cycle (kappa=1): totalCalls = 5", "F-cycle (kappa=2): totalCalls = 15",
                            "kappa=3: totalCalls = 25", "W-cycle (kappa>=levels): totalCalls = 31"})
    EXPECT_NE(out.find(label), std::string::npos) << label;
}

TEST(Gui, ConvergencePlotDescends) {
  const std::string shot = temp("convergence.png"), layout = temp("convergence_layout.json");
  std::string out;
  ASSERT_EQ(
      run_gui("set levels 7\nset kappa 2\nwait-cycles 25\nframes 3\nscreenshot " + shot + "\nlayout " + layout + "\n",
              &out),
      0)
      << out;
  const Image img = load_png(shot);
  const Rect panel_body = body(panel(layout, "Convergence"), 80);
  // The left 70% of the plot: the curve spans the width, the legend (with a cyan sample
  // line) sits at the top right and would bias the right end.
  const Rect plot{panel_body.x, panel_body.y, panel_body.w * 7 / 10, panel_body.h};
  // The error curve is drawn in cyan (80, 200, 255): its left end must sit higher (smaller y).
  double left_y = 0, right_y = 0;
  int left_n = 0, right_n = 0, min_x = plot.x + plot.w, max_x = plot.x;
  auto cyan = [](const unsigned char* p) {
    return std::abs(p[0] - 80) < 30 && std::abs(p[1] - 200) < 30 && p[2] > 220;
  };
  for (int y = plot.y; y < plot.y + plot.h * 2 / 3; ++y)
    for (int x = plot.x; x < plot.x + plot.w; ++x)
      if (cyan(img.at(x, y))) min_x = std::min(min_x, x), max_x = std::max(max_x, x);
  ASSERT_LT(min_x + 50, max_x) << "no error curve found";
  for (int y = plot.y; y < plot.y + plot.h * 2 / 3; ++y)
    for (int x = min_x; x <= max_x; ++x) {
      if (!cyan(img.at(x, y))) continue;
      if (x < min_x + (max_x - min_x) / 5) left_y += y, ++left_n;
      if (x > max_x - (max_x - min_x) / 5) right_y += y, ++right_n;
    }
  ASSERT_GT(left_n, 0);
  ASSERT_GT(right_n, 0);
  EXPECT_LT(left_y / left_n + 40, right_y / right_n) << "the error curve should descend from left to right";
}

TEST(Gui, StepsThroughOperations) {
  // Algorithm 3 at 5 levels: call on level 1, two pre-relaxations, restriction, zeroing of
  // the level-2 correction. Each "Operation" press shows the next one, and the field follows
  // the level the operation wrote (the zeroing writes level 2).
  std::string out;
  ASSERT_EQ(run_gui("set levels 5\nset kappa 2\npause\nreset\nstep-op\nwait-operation 1\nprint-stepping\n"
                    "step-op\nstep-op\nwait-operation 3\nprint-stepping\nstep-op\nstep-op\nwait-operation 5\n"
                    "print-stepping\nscreenshot " +
                        temp("stepping.png") + "\nrun\nwait-done\nprint-stepping\nprint-summary\n",
                    &out),
            0)
      << out;
  EXPECT_NE(out.find("stepping: operation 1 is call on level 1; field shows level 1"), std::string::npos) << out;
  EXPECT_NE(out.find("stepping: operation 3 is pre-relax on level 1; field shows level 1"), std::string::npos) << out;
  EXPECT_NE(out.find("stepping: operation 5 is zero-coarse on level 1; field shows level 2"), std::string::npos) << out;
  EXPECT_NE(out.find("not stepping"), std::string::npos) << "after run the cycle completes" << out;
  EXPECT_NE(out.find("converged"), std::string::npos) << out;
}

TEST(Gui, AZeroCorrectionIsSaidNotDrawnAsABlankMapWithAYellowSpectrum) {
  // Operation 5 of a 5-level cycle zeroes level 2's correction, which the field then shows.
  const std::string shot = temp("zero_field.png"), layout = temp("zero_field_layout.json");
  std::string out;
  ASSERT_EQ(run_gui("set levels 5\nset kappa 2\npause\nreset\nstep-op\nstep-op\nstep-op\nstep-op\nstep-op\n"
                    "wait-operation 5\nframes 3\nprint-stepping\nprint-text\nscreenshot " +
                        shot + "\nlayout " + layout + "\n",
                    &out),
            0)
      << out;
  EXPECT_NE(out.find("operation 5 is zero-coarse on level 1; field shows level 2"), std::string::npos) << out;
  const std::vector<std::string> t = shown_texts(out);
  ASSERT_EQ(t.size(), 1u) << out;
  EXPECT_TRUE(shows(t[0], "zero field: this correction starts from zero")) << t[0];
  const Image img = load_png(shot);
  const Rect r = panel(layout, "Error field");
  int yellow = 0;  // the spectrum of zeros drawn at its maximum colour
  for (int y = r.y; y < r.y + r.h; ++y)
    for (int x = r.x; x < r.x + r.w; ++x) {
      const unsigned char* p = img.at(x, y);
      yellow += p[0] > 200 && p[1] > 200 && p[2] < 100;
    }
  EXPECT_LT(yellow, 100) << "a yellow Fourier inset of the zero field";
}

TEST(Gui, SurvivesRapidParameterChangesWhileSolving) {
  std::string out;
  ASSERT_EQ(run_gui("set levels 6\nwait-cycles 2\nstress 500\nset levels 6\nset kappa 2\nset smoother jacobi\n"
                    "set solver mg\nset coarsening full\nrun\nwait-cycles 3\nprint-summary\n",
                    &out),
            0)
      << out;
  EXPECT_NE(out.find("6 levels"), std::string::npos) << out;
}

TEST(Gui, BadParametersAreShownNotFatal) {
  // nu1 = nu2 = 0 is refused by the solver (each value alone is in range): the GUI keeps
  // running and says why. A value out of its range is refused by `set` itself, exit 2.
  const std::string shot = temp("bad.png");
  std::string out;
  EXPECT_NE(run_gui("set nu1 0\nset nu2 0\nwait-cycles 1\n", &out), 0);
  EXPECT_NE(out.find("refused the parameters: nu1 + nu2 must be at least 1"), std::string::npos) << out;
  ASSERT_EQ(run_gui("set nu1 0\nset nu2 0\nframes 10\nscreenshot " + shot + "\nset nu2 1\nwait-cycles 2\n", &out), 0)
      << out;
  EXPECT_EQ(run_gui("set eps 0\nwait-cycles 1\n", &out), 2);
  EXPECT_NE(out.find("set eps must be a number in (0, 1] (got '0')"), std::string::npos) << out;
}

// Every line is checked when the script is read (issue 45): the argument count exact (a path
// with spaces in double quotes), numbers in their ranges, words among their choices, set's
// option and value as the CLI checks them. A refusal names the line and why, exit 2, before a
// single frame: a wait earlier in the script never runs.
TEST(GuiScript, ALineIsCheckedWhenTheScriptIsRead) {
  const std::string dir = temp("quoted dir");
  std::filesystem::create_directories(dir);
  const std::string spaced = dir + "/my shot.png";
  std::string out;
  ASSERT_EQ(run_gui("screenshot " + spaced + "\n", &out), 2) << out;
  EXPECT_NE(out.find(":1: screenshot: takes 1 argument(s), got 3: screenshot PATH (a word with spaces goes in "
                     "double quotes)"),
            std::string::npos)
      << out;
  ASSERT_EQ(run_gui("set levels 4\nscreenshot \"" + spaced + "\"\nframes 2\n", &out), 0) << out;
  EXPECT_TRUE(std::filesystem::exists(spaced)) << out;

  const auto refused = [&](const std::string& script, const std::string& why) {
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(run_gui(script, &out), 2) << script << "\n" << out;
    EXPECT_NE(out.find(why), std::string::npos) << script << "\n" << out;
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 20) << script;
  };
  refused("wait-ms 600000\nframes 1e9\n", ":2: frames: N must be from 0 to 100000 (got '1e9')");
  refused("wait-ms 600000\nkey Hyper\n", ":2: key: unknown key: Hyper");
  refused("wait-ms 600000\nmouse maybe\n", ":2: mouse: STATE must be on|off (got 'maybe')");
  refused("wait-ms 600000\nset levels 99\n", ":2: set: ");
  refused("wait-ms 600000\nset no-such 1\n", ":2: set: unknown parameter no-such");
  refused("wait-ms 600000\nui-scale 40\n", ":2: ui-scale: ");
  refused("wait-ms 600000\ndraw mode 0 1\n", ":2: draw: draw mode K L: whole numbers from 1 (got '0')");
  refused("wait-ms 600000\nrun now\n", ":2: run: takes 0 argument(s), got 1: run\n");
  refused("wait-ms 600000\ncsv \"unclosed\n", ":2: csv: an unclosed quote");
}

// The visualizer run on SCRIPT in the background while a shell does SIGNALLING to it (its pid
// is $p; its output is appended to after it ends): what it and the shell wrote.
std::string gui_signalled(const std::string& name, const std::string& script, const std::string& signalling) {
  const std::string script_file = temp(name + "_script.txt"), out_file = temp(name + "_out.txt");
  std::ofstream(script_file) << script;
  const char* moved = std::getenv("KCYCLE_GUI");
  const std::string gui = moved && *moved ? moved : KCYCLE_GUI_PATH;
  const std::string inner =
      gui + " --script " + script_file + " > " + out_file + " 2>&1 & p=$!; { " + signalling + "; } >> " + out_file;
  const char* on_display = std::getenv("KCYCLE_GUI_ON_DISPLAY");
  const std::string display =
      on_display && std::string(on_display) == "1" ? std::string() : "xvfb-run -a -s '-screen 0 1280x720x24' ";
  const std::string cmd = display + "bash -c '" + inner + "'";
  std::system(cmd.c_str());  // xvfb-run's own status varies with how its client ended
  std::ifstream f(out_file);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

TEST(Gui, CtrlCStopsAKappaSweepWithinACycle) {
  // Ctrl-C during a kappa sweep at 9 levels took 40 s (the sweep's solve ran to its end); the
  // window now closes at the next cycle boundary: exit 130 within 2 s.
  const std::string out = gui_signalled("sweep_int", "set levels 9\nstart-sweep-kappa\nwait-sweeping\nwait-ms 600000\n",
                                        "sleep 4; t0=$(date +%s%N); kill -INT $p; wait $p; s=$?; "
                                        "echo \"exit status $s after $(( ($(date +%s%N) - t0) / 1000000 )) ms\"");
  const std::size_t at = out.find("exit status 130 after ");
  ASSERT_NE(at, std::string::npos) << out;
  EXPECT_LT(std::stoi(out.substr(at + 22)), 2000) << out;
}

TEST(Gui, AFatalSignalIsReportedWithItsStack) {
  // A CI run ended in glibc's "corrupted double-linked list" and "Aborted", nothing more: the
  // visualizer now names the signal and prints the stack of the thread it hit. Either way the
  // process still dies of the signal (exit 134), as it would have.
  const std::string out =
      gui_signalled("crash", "wait-ms 30000\nquit\n", "sleep 2; kill -ABRT $p; wait $p; echo \"exit status $?\"");
  EXPECT_NE(out.find("exit status 134"), std::string::npos) << "it still dies of the signal: " << out;
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  // The sanitizers keep their own handlers, so the report is not installed there: none printed.
  EXPECT_EQ(out.find("kcycle-gui: fatal signal"), std::string::npos) << out;
#else
  EXPECT_NE(out.find("kcycle-gui: fatal signal SIGABRT (abort); the stack of the thread it hit:"), std::string::npos)
      << out;
  // At least the handler's own frame: how deep the unwinding goes depends on where the signal
  // lands (in llvmpipe's generated code, which has no unwind tables, it stops there).
  EXPECT_NE(out.find("kcycle-gui(", out.find("the stack of the thread it hit:")), std::string::npos)
      << "a stack: " << out;
#endif
}

TEST(Gui, CudaBackendWithoutAGpuIsShownNotFatal) {
  const kcycle::CudaDeviceStatus& cuda = kcycle::cuda_device_status();
  if (cuda.usable) GTEST_SKIP() << "a GPU is present (" << cuda.device << ")";
  std::string out;
  EXPECT_NE(run_gui("set backend cuda\nwait-cycles 1\n", &out), 0);
  EXPECT_NE(out.find("backend cuda: " + cuda.reason), std::string::npos) << out;
  ASSERT_EQ(run_gui("set backend auto\nwait-cycles 2\nframes 3\nprint-field-path\n", &out), 0) << out;
  EXPECT_NE(out.find("backend: cpu; field: host upload"), std::string::npos) << out;
}

// The same paused state drawn twice: through CUDA-OpenGL interop and through the host.

// The convergence panel shows the factor LFA predicts for the parameters set, the same as
// `kcycle lfa` for the parameters file the visualizer writes: stand-alone and preconditioning CG
// (whose factor is CG's bound from the cycle's), and again after a change.
TEST(Gui, TheConvergencePanelShowsTheFactorKcycleLfaPredicts) {
  for (const std::string& setting : {std::string("set eps 0.01\nset angle 30\nset kappa 2\n"),
                                     std::string("set preset jacobi+cg\nset kappa 3\nset angle 60\n")}) {
    const std::string file = temp("lfa_parameters.toml");
    std::remove(file.c_str());
    std::string out;
    ASSERT_EQ(run_gui("set levels 6\n" + setting + "wait-cycles 2\nwait-predicted\nframes 2\nprint-text\nparameters " +
                          file + "\n",
                      &out),
              0)
        << out;
    const std::vector<std::string> texts = shown_texts(out);
    ASSERT_EQ(texts.size(), 1u) << out;
    const std::size_t at = texts[0].find(", LFA ");
    ASSERT_NE(at, std::string::npos) << texts[0];
    const double shown = std::stod(texts[0].substr(at + 6));
    int status = -1;
    const std::string text = run_cli("lfa --config " + file + " --json", &status);
    ASSERT_EQ(status, 0) << text;
    const auto j = nlohmann::json::parse(text, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << text;
    const std::string kappa = setting.find("kappa 2") != std::string::npos ? "2" : "3";
    EXPECT_NEAR(shown, j["solve_factors"][kappa].get<double>(), 5e-5) << setting << texts[0];
    EXPECT_EQ(j["solver"].get<std::string>(), setting.find("+cg") != std::string::npos ? "pcg" : "multigrid");
  }
}

// Issue 44, item 5: the memory a larger hierarchy needs is said before it is chosen (the levels
// slider's tooltip, 9 to 12 levels) and the figure holds: going from 9 to 11 levels grows the
// process by what the tooltip's two lines differ by, within what a resident-set measure allows
// (pages allocated but never touched, the allocator's reuse).
TEST(Gui, TheLevelsSliderSaysWhatALargerHierarchyCostsBeforeItIsChosen) {
#if defined(__SANITIZE_ADDRESS__)
  // AddressSanitizer keeps up to 256 MiB of freed blocks (the visualizer's pictures, replaced
  // each frame) in quarantine: more than the 0.16 GB the step is about. A small quarantine for
  // the visualizer this test starts.
  const char* asan = std::getenv("ASAN_OPTIONS");
  const std::string options = std::string(asan ? asan : "") + (asan && *asan ? ":" : "") + "quarantine_size_mb=8";
  setenv("ASAN_OPTIONS", options.c_str(), 1);
#endif
  std::string out;
  ASSERT_EQ(run_gui("set levels 9\nwait-cycles 1\nframes 2\nprint-controls\nprint-text\nset levels 11\n"
                    "wait-cycles 3\nframes 5\nprint-text\n",
                    &out, 1600, "--threads 1"),
            0)
      << out;
  const std::regex line("(\\d+) levels: [0-9.]+ M unknowns, about ([0-9.e+-]+) GB to set up");
  std::map<int, double> gb;
  const std::size_t tip = out.find("control levels\t");
  ASSERT_NE(tip, std::string::npos) << out;
  const std::string tooltip = out.substr(tip, out.find("control ", tip + 1) - tip);
  for (auto it = std::sregex_iterator(tooltip.begin(), tooltip.end(), line); it != std::sregex_iterator(); ++it)
    gb[std::stoi((*it)[1])] = std::stod((*it)[2]);
  ASSERT_EQ(gb.size(), 4u) << tooltip;
  EXPECT_LT(gb[9], gb[10]);
  EXPECT_LT(gb[11], gb[12]);
  const std::vector<std::string> texts = shown_texts(out);
  ASSERT_EQ(texts.size(), 2u) << out;
  std::vector<double> mib;
  for (const std::string& t : texts) {
    std::smatch m;
    ASSERT_TRUE(std::regex_search(t, m, std::regex("memory (\\d+) MiB"))) << t;
    mib.push_back(std::stod(m[1]));
  }
  EXPECT_TRUE(shows(texts[1], "11 levels: 4.19 M unknowns")) << texts[1];  // the line under the slider from 10
  const double grown = (mib[1] - mib[0]) * 1048576 / 1e9, expected = gb[11] - gb[9];
  std::printf("grew %.3f GB from 9 to 11 levels, the tooltip said %.3f GB\n", grown, expected);
  EXPECT_GT(grown, 0.5 * expected) << "grew " << grown << " GB, the tooltip said " << expected;
#if defined(__SANITIZE_ADDRESS__)
  // AddressSanitizer's shadow (an eighth of what is touched) and its redzones.
  constexpr double most = 1.6;
#else
  constexpr double most = 1.3;
#endif
  EXPECT_LT(grown, most * expected) << "grew " << grown << " GB, the tooltip said " << expected;
}

// The time panel predicts each kappa's time without solving (LFA's iterations, the calibration's
// price) and picks the one `kcycle advise --iterations lfa` picks for the same parameters and
// calibration; the pick follows a change of the parameters (here from kappa=2 at the paper's
// anisotropy to the V-cycle at eps = 1, where every kappa converges alike and V costs least).
TEST(Gui, TheTimePanelPicksTheKappaKcycleAdvisePicksWithoutSolving) {
  const std::string calibration = temp("lfa_pick_calibration.json");
  int status = -1;
  const std::string calibrated = run_cli("calibrate --threads 1 --max-levels 7 --out " + calibration, &status);
  ASSERT_EQ(status, 0) << calibrated;
  std::vector<std::string> picks;
  for (const std::string& setting : {std::string("set levels 7\n"), std::string("set levels 6\nset eps 1\n")}) {
    const std::string file = temp("lfa_pick_parameters.toml");
    std::remove(file.c_str());
    std::string out;
    ASSERT_EQ(run_gui(setting + "wait-cycles 2\nwait-predicted\nframes 2\nprint-text\nparameters " + file + "\n", &out,
                      1900, "--threads 1 --calibration " + calibration + " --cache-dir " + temp("lfa_pick_cache")),
              0)
        << out;
    const std::vector<std::string> texts = shown_texts(out);
    ASSERT_EQ(texts.size(), 1u) << out;
    const std::size_t at = texts[0].find("; pick kappa=");
    ASSERT_NE(at, std::string::npos) << texts[0];
    EXPECT_TRUE(shows(texts[0], "predicted without solving (LFA x calibration): 1: ")) << texts[0];
    const std::string shown = texts[0].substr(at + 13, 1);
    const std::string advice =
        run_cli("advise --config " + file + " --threads 1 --calibration " + calibration + " --iterations lfa --json",
                &status);  // the visualizer's --threads is its own, not the parameters'
    ASSERT_EQ(status, 0) << advice;
    const auto j = nlohmann::json::parse(advice.substr(advice.find('{')), nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << advice;
    EXPECT_NE(j["time_source"].get<std::string>(), "probe") << "the calibration prices the cycles: " << advice;
    EXPECT_EQ(shown, j["recommended_kappa"].get<std::string>()) << setting << texts[0] << advice;
    for (const auto& c : j["candidates"]) {  // nothing is solved: every kappa's iterations are LFA's
      EXPECT_EQ(c["probe_iterations"].get<int>(), 0) << advice;
      EXPECT_EQ(c["basis"].get<std::string>().rfind("local Fourier analysis", 0), 0u) << advice;
    }
    std::printf("advice in %.3f s\n", j["advice_seconds"].get<double>());
    picks.push_back(shown);
  }
  EXPECT_NE(picks[0], picks[1]) << "the pick follows the parameters";
}

// The file the visualizer's Parameters button writes, set through its controls (the script's
// set verbs), read back by `kcycle solve --config`: every setting arrives, and options on the
// command line override the file. (Named for the CLI, whose reading it checks.)
TEST(Cli, ReadsTheParametersFileTheVisualizerWrites) {
  const std::string file = temp("exported_parameters.toml");
  std::remove(file.c_str());
  std::string out;
  ASSERT_EQ(run_gui("pause\nset levels 5\nset eps 0.001\nset angle 30\nset kappa 3\nset smoother xyzebra\n"
                    "set coarse-operator galerkin\nset nu1 1\nset nu2 3\nset symmetric true\nset solver fcg\n"
                    "set problem 1\nset tol 1e-07\nset seed 3\nset max-iter 400\nframes 2\nparameters " +
                        file + "\n",
                    &out),
            0)
      << out;
  const auto solve = [&](const std::string& args) {
    int status = -1;
    const std::string text = run_cli("solve --config " + file + " " + args + " --json", &status);
    EXPECT_EQ(status, 0) << text;
    return nlohmann::json::parse(text, nullptr, false);
  };
  const auto j = solve("");
  ASSERT_FALSE(j.is_discarded());
  EXPECT_EQ(j["levels"], 5);
  EXPECT_EQ(j["eps"], 0.001);
  EXPECT_EQ(j["angle"], 30.0);
  EXPECT_EQ(j["kappa"], "3");
  EXPECT_EQ(j["smoother"], "xyzebra");
  EXPECT_EQ(j["coarse_operator"], "galerkin");
  EXPECT_EQ(j["nu1"], 1);
  EXPECT_EQ(j["nu2"], 3);
  EXPECT_EQ(j["symmetric_smoothing"], true);
  EXPECT_EQ(j["solver"], "fcg");
  EXPECT_EQ(j["problem"], 1);
  EXPECT_EQ(j["tol"], 1e-07);
  EXPECT_EQ(j["seed"], 3);
  EXPECT_TRUE(j["converged"].get<bool>());
  EXPECT_EQ(solve("--levels 4")["levels"], 4);
}

// Under the diagram: the passes the backend runs per call (the cycle's schedule), fused when
// running, each operation on its own while stepping.
TEST(Gui, TheCycleDiagramSaysWhichPassesRun) {
  std::string out;
  ASSERT_EQ(run_gui("set levels 6\nset smoother jacobi\npause\nreset\nframes 3\nprint-text\nstep-op\nwait-operation 1\n"
                    "frames 2\nprint-text\n",
                    &out),
            0)
      << out;
  const std::vector<std::string> t = shown_texts(out);
  ASSERT_EQ(t.size(), 2u) << out;
  EXPECT_TRUE(shows(t[0],
                    "CPU passes per call on level 1: down [one pass: 2 sweeps + residual + restriction]  up "
                    "[one pass: prolongation + 2 sweeps + norms]"))
      << t[0];
  EXPECT_TRUE(shows(t[1],
                    "while stepping (each operation on its own): down [2 sweeps, residual + restriction, zero "
                    "coarse correction]  up [prolongation, 2 sweeps]"))
      << t[1];
}

TEST(Gui, SaysWhetherTheSolveIsPausedSteppingOrDoneAndNoFactorBeforeTheFirstCycle) {
  // It said "running" (and "last factor nan") while paused before the first cycle and while stepping.
  std::string out;
  ASSERT_EQ(
      run_gui(
          "set levels 6\npause\nreset\nframes 3\nprint-text\nstep-op\nstep-op\nstep-op\nwait-operation 3\nframes 2\n"
          "print-text\nrun\nwait-done\nframes 2\nprint-text\n",
          &out),
      0)
      << out;
  const std::vector<std::string> t = shown_texts(out);
  ASSERT_EQ(t.size(), 3u) << out;
  EXPECT_TRUE(shows(t[0], "paused, no cycle done yet")) << t[0];
  EXPECT_TRUE(shows(t[0], "paused | no cycle timed yet | 0 cycles | backend: ")) << t[0];
  EXPECT_FALSE(shows(t[0], "running")) << t[0];
  EXPECT_FALSE(shows(t[0], "nan")) << t[0];
  EXPECT_TRUE(shows(t[1], "stepping (operation 3 of the cycle), no cycle done yet")) << t[1];
  EXPECT_TRUE(shows(t[1], "stepping (operation 3 of the cycle) | no cycle timed yet")) << t[1];
  EXPECT_FALSE(shows(t[1], "running")) << t[1];
  EXPECT_TRUE(shows(t[2], "converged: error reduced by")) << t[2];
  EXPECT_TRUE(shows(t[2], "\nconverged | ")) << t[2];
}

TEST(Gui, TimePanelShowsTheModelOnceCalibratedAndNoLongerSaysThereIsNone) {
  // With a calibration it showed both "model T = ..." and "No calibration yet" (an else bound
  // to the wrong if).
  std::string out;
  ASSERT_EQ(run_gui("set levels 5\nframes 2\nprint-text\ncalibrate 5\nwait-calibrated\nframes 2\nprint-text\n", &out),
            0)
      << out;
  const std::vector<std::string> t = shown_texts(out);
  ASSERT_EQ(t.size(), 2u) << out;
  EXPECT_TRUE(shows(t[0], "No calibration yet")) << t[0];
  EXPECT_FALSE(shows(t[0], "model T =")) << t[0];
  EXPECT_TRUE(shows(t[1], "paper's model T = a L + b W (cpu, dashed)")) << t[1];
  EXPECT_FALSE(shows(t[1], "No calibration yet")) << t[1];
  // Both models' errors on the cycles timed, the per-level one drawn solid.
  EXPECT_TRUE(shows(t[1], "its error on the 15 cycles timed:")) << t[1];  // levels 3 to 5, five kappas
  EXPECT_TRUE(shows(t[1], "per-level model (solid):")) << t[1];
}

TEST(Gui, ACalibrationOfAnotherCycleShowsAWarning) {
  // A Jacobi calibration stayed in use, silently, after switching to a line smoother.
  std::string out;
  ASSERT_EQ(run_gui("set levels 5\ncalibrate 5\nwait-calibrated\nwait-cycles 1\nframes 2\nprint-text\n"
                    "set smoother yzebra\nwait-cycles 1\nframes 2\nprint-text\n",
                    &out),
            0)
      << out;
  const std::vector<std::string> t = shown_texts(out);
  ASSERT_EQ(t.size(), 2u) << out;
  EXPECT_FALSE(shows(t[0], "Warning: this calibration does not match")) << t[0];
  EXPECT_TRUE(shows(t[1],
                    "Warning: this calibration does not match the run (made for jacobi/full, cpu, 1 thread, "
                    "fused; this run: yzebra/full, cpu, 1 thread, fused)"))
      << t[1];
}

TEST(Gui, SweepKappaLeavesOutACalibrationOfAnotherCycleAndSaysSo) {
  // The sweep priced cycles with a calibration the time panel itself flagged as not matching.
  const std::string csv = temp("sweep_mismatch.csv");
  std::string out;
  ASSERT_EQ(run_gui("set levels 5\ncalibrate 5\nwait-calibrated\nset smoother yzebra\nsweep-kappa " + csv +
                        "\nframes 3\nprint-text\n",
                    &out),
            0)
      << out;
  const std::vector<std::string> t = shown_texts(out);
  ASSERT_EQ(t.size(), 1u) << out;
  EXPECT_TRUE(shows(t[0],
                    "advisor: time per iteration: measured in the probes (no calibration given) (the "
                    "calibration in use was left out: made for jacobi/full"))
      << t[0];
}

TEST(Gui, ANoisyCalibrationSaysSo) {
  // A calibration timed on a busy machine: the time panel says how much its timings varied.
  kcycle::Calibration c;
  c.model = {3e-6, 2e-9};
  c.smoother = "jacobi";
  c.coarsening = "full";
  c.samples = {{1, 5, 35, 1000, 1e-4, 0, 1.2}, {3, 5, 90, 3000, 3e-4, 0, 3.0}};
  c.spread = 3.0;
  const std::string file = temp("noisy_calibration.json");
  kcycle::save_calibration(c, file);
  std::string out;
  ASSERT_EQ(run_gui("set levels 5\nframes 2\nprint-text\n", &out, 1900, "--calibration " + file), 0) << out;
  const std::vector<std::string> t = shown_texts(out);
  ASSERT_EQ(t.size(), 1u) << out;
  EXPECT_TRUE(shows(t[0], "timings varied 3.0x (kappa=3, 5 levels): the machine was busy; calibration marked noisy"))
      << t[0];
}

TEST(Gui, CalibrateShowsItsProgress) {
  // It showed the same line from start to end. Levels 3..8: 30 cases of at least 50 ms each.
  std::string out;
  ASSERT_EQ(
      run_gui("set levels 5\ncalibrate 8\nwait-ms 500\nprint-text\nwait-calibrated\nframes 2\nprint-text\n", &out), 0)
      << out;
  const std::vector<std::string> t = shown_texts(out);
  ASSERT_EQ(t.size(), 2u) << out;
  EXPECT_TRUE(shows(t[0], "calibrating: timing cycles for kappa = 1, 2, 3, 4, W: timed ")) << t[0];
  EXPECT_TRUE(shows(t[0], " of 30 cases")) << t[0];
  EXPECT_TRUE(shows(t[1], "model T = a L + b W")) << t[1];
}

TEST(Gui, RefusedParametersShowTheReasonNotTheOldFieldUnderANewHeader) {
  // The field of the last accepted parameters stayed under "level 1 of 20". 16 levels are in
  // range, but no machine here has the 280 GiB they need with MGCG on problem 1.
  std::string out;
  EXPECT_NE(run_gui("set levels 5\nwait-cycles 1\nset solver pcg\nset problem 1\nset levels 16\nframes 5\nprint-text\n"
                    "wait-cycles 1\n",
                    &out),
            0);
  const std::vector<std::string> t = shown_texts(out);
  ASSERT_EQ(t.size(), 1u) << out;
  EXPECT_TRUE(shows(t[0], "Not solving: levels 16 need about")) << t[0];
  EXPECT_FALSE(shows(t[0], "of 16")) << t[0];
  EXPECT_TRUE(shows(t[0], "not solving (parameters refused) | ")) << t[0];
}

TEST(Gui, AHeldOperationIsNotCountedAsCycleTime) {
  // A cycle stepped with a 1.5 s pause inside it is timed without the pause.
  std::string out;
  ASSERT_EQ(run_gui("set levels 5\npause\nreset\nstep-op\nwait-operation 1\nwait-ms 1500\nstep\nwait-cycles 1\n"
                    "frames 2\nprint-text\n",
                    &out),
            0)
      << out;
  const std::vector<std::string> t = shown_texts(out);
  ASSERT_EQ(t.size(), 1u) << out;
  const std::size_t at = t[0].find(" ms per cycle");
  ASSERT_NE(at, std::string::npos) << t[0];
  const std::size_t from = t[0].rfind("| ", at);
  const double ms = std::stod(t[0].substr(from + 2, at - from - 2));
  EXPECT_LT(ms, 100.0) << t[0];
}

TEST(Gui, ARunOfOneCycleIsPlottedFromTheInitialGuess) {
  // A run stopped after one cycle had an empty convergence plot: one point per series and no
  // cycle 0 (the initial norms). Now the error falls from cycle 0 to 1, the factor has its
  // marker, and neither axis has ticks between whole cycles.
  const std::string shot = temp("one_cycle.png"), layout = temp("one_cycle_layout.json");
  std::string out;
  ASSERT_EQ(run_gui("set levels 6\nset max-iter 1\nwait-done\nframes 3\nscreenshot " + shot + "\nlayout " + layout +
                        "\nprint-text\n",
                    &out),
            0)
      << out;
  EXPECT_NE(out.find("after 1 iterations (the iteration limit, max-iter)"), std::string::npos) << out;
  const Image img = load_png(shot);
  const Rect plot = body(panel(layout, "Convergence"), 80);
  auto cyan = [](const unsigned char* p) {
    return std::abs(p[0] - 80) < 30 && std::abs(p[1] - 200) < 30 && p[2] > 220;
  };
  // The error curve's pixels in the left 70% of the norm plot (the legend sits at the right).
  int min_x = plot.x + plot.w, max_x = plot.x;
  for (int y = plot.y; y < plot.y + plot.h * 6 / 10; ++y)
    for (int x = plot.x; x < plot.x + plot.w * 7 / 10; ++x)
      if (cyan(img.at(x, y))) min_x = std::min(min_x, x), max_x = std::max(max_x, x);
  EXPECT_LT(min_x + plot.w / 3, max_x) << "no error line from cycle 0 to cycle 1";
  // The factor plot's marker: yellow (200, 200, 90) pixels near the bottom of the factor plot
  // (the factor is 0.08; the legend's yellow sample sits at its top).
  int yellow = 0;
  for (int y = plot.y + plot.h * 82 / 100; y < plot.y + plot.h; ++y)
    for (int x = plot.x; x < plot.x + plot.w; ++x) {
      const unsigned char* p = img.at(x, y);
      yellow += std::abs(p[0] - 200) < 30 && std::abs(p[1] - 200) < 30 && p[2] < 130;
    }
  EXPECT_GT(yellow, 15) << "the one factor is not drawn";
}

TEST(Gui, HeadlessScreenshotsHaveNoHoverTooltip) {
  // Xvfb leaves the pointer at the screen's centre, over the field: its value tooltip (a dark
  // box) covered part of the heat map in every scripted screenshot. (The Fourier inset is off:
  // its darkest colours are nearly grey.)
  const std::string shot = temp("no_tooltip.png"), layout = temp("no_tooltip_layout.json");
  std::string out;
  ASSERT_EQ(
      run_gui("set spectrum 0\nset levels 7\nwait-cycles 3\nframes 3\nscreenshot " + shot + "\nlayout " + layout + "\n",
              &out, 1600),
      0)
      << out;
  const Image img = load_png(shot);
  const Rect r = panel(layout, "Error field");
  // The heat map: the longest run of columns, and of rows, with many light pixels (the
  // diverging map is light near 0; the labels and the colourbar beside it are apart from it).
  auto light = [&](int x, int y) { return std::min({img.at(x, y)[0], img.at(x, y)[1], img.at(x, y)[2]}) > 150; };
  auto longest_run = [](const std::vector<bool>& on, int& first, int& last) {
    first = 0, last = -1;
    for (int k = 0, start = 0; k <= int(on.size()); ++k) {
      if (k < int(on.size()) && on[std::size_t(k)]) continue;
      if (k - 1 - start > last - first) first = start, last = k - 1;
      start = k + 1;
    }
  };
  std::vector<bool> columns(std::size_t(r.w)), rows(std::size_t(r.h));
  for (int x = 0; x < r.w; ++x) {
    int n = 0;
    for (int y = 40; y < r.h; ++y) n += light(r.x + x, r.y + y);
    columns[std::size_t(x)] = n > 100;
  }
  for (int y = 40; y < r.h; ++y) {
    int n = 0;
    for (int x = 0; x < r.w; ++x) n += light(r.x + x, r.y + y);
    rows[std::size_t(y)] = n > 100;
  }
  int x0, x1, y0, y1;
  longest_run(columns, x0, x1);
  longest_run(rows, y0, y1);
  x0 += r.x, x1 += r.x, y0 += r.y, y1 += r.y;
  ASSERT_LT(x0 + 100, x1) << "no heat map found";
  int dark_grey = 0;  // a tooltip's background; the colour maps have no grey
  for (int y = y0; y <= y1; ++y)
    for (int x = x0; x <= x1; ++x) {
      const unsigned char* p = img.at(x, y);
      const int hi = std::max({p[0], p[1], p[2]}), lo = std::min({p[0], p[1], p[2]});
      dark_grey += hi < 60 && hi - lo < 12;
    }
  EXPECT_LT(dark_grey, 50) << "a tooltip covers the field";
}

TEST(Gui, InteropDrawsTheSameImageAsTheHostUpload) {
  const kcycle::CudaDeviceStatus& cuda = kcycle::cuda_device_status();
  if (!cuda.usable) GTEST_SKIP() << "no usable GPU: " << cuda.reason;
  const std::string layout = temp("interop_layout.json");
  auto draw = [&](const std::string& interop, std::string& out) {
    const std::string shot = temp("interop_" + interop + ".png");
    const int rc = run_gui(
        "pause\nset backend cuda\nset levels 6\nstep\nwait-cycles 1\nstep\nwait-cycles 2\n"
        "frames 5\nprint-field-path\nlayout " +
            layout + "\nscreenshot " + shot + "\n",
        &out, 1900, "--interop " + interop);
    EXPECT_EQ(rc, 0) << out;
    return load_png(shot);
  };
  std::string with_out, without_out;
  const Image with = draw("on", with_out);
  if (with_out.find("field: CUDA-OpenGL interop") == std::string::npos)
    GTEST_SKIP() << "CUDA-OpenGL interop is unavailable with this display's OpenGL: " << with_out;
  const Image without = draw("off", without_out);
  EXPECT_NE(without_out.find("field: host upload (interop off)"), std::string::npos) << without_out;
  ASSERT_EQ(with.w, without.w);
  const Rect r = panel(layout, "Error field");
  int differing = 0;
  for (int y = r.y; y < r.y + r.h; ++y)
    for (int x = r.x; x < r.x + r.w; ++x)
      for (int c = 0; c < 3; ++c) differing += with.at(x, y)[c] != without.at(x, y)[c];
  EXPECT_EQ(differing, 0) << "the two paths drew different field images";
}

}  // namespace

namespace {

// The script verbs fuzzed (issue 26): a random line, any verb with arguments drawn from valid,
// out-of-range, non-finite and malformed values and failing paths, after `wait-timeout 3`,
// ends within 20 s with 0, 1 (a failed check, wait or write) or 2 (a refused argument), never
// by a signal. Deterministic: the same lines on every run.
TEST(GuiFuzz, EveryScriptLineEndsInBoundedTimeWithItsStatus) {
  const std::vector<std::string> verbs = {"set",
                                          "run",
                                          "pause",
                                          "step",
                                          "step-op",
                                          "step-relax",
                                          "step-call",
                                          "autoplay",
                                          "lesson",
                                          "print-controls",
                                          "print-tooltip",
                                          "reset",
                                          "pin",
                                          "calibrate",
                                          "wait-cycles",
                                          "wait-done",
                                          "wait-calibrated",
                                          "sweep-kappa",
                                          "wait-stepping",
                                          "wait-operation",
                                          "wait-at-operation",
                                          "key",
                                          "print-field-hash",
                                          "print-stepping",
                                          "describe",
                                          "frames",
                                          "wait-ms",
                                          "screenshot",
                                          "layout",
                                          "csv",
                                          "parameters",
                                          "figure",
                                          "record",
                                          "print-summary",
                                          "fps-reset",
                                          "fps-report",
                                          "print-field-path",
                                          "print-text",
                                          "check-text-fits",
                                          "print-pins",
                                          "ui-scale",
                                          "stress",
                                          "quit",
                                          "wait-timeout",
                                          "no-such-verb"};
  const std::vector<std::string> values = {"0",
                                           "1",
                                           "3",
                                           "-1",
                                           "2.5",
                                           "nan",
                                           "inf",
                                           "1e12",
                                           "2000000000",
                                           "99999999999999999999",
                                           "abc",
                                           "W",
                                           "/dev/full",
                                           "/nonexistent/x.png",
                                           temp("fuzz_out.png"),
                                           "PageDown",
                                           "levels",
                                           "nu1",
                                           "eps",
                                           "view-level",
                                           "zoom",
                                           "kappa",
                                           "nosuch"};
  // Lines like "csv nan" write where the visualizer runs: a scratch folder, not the source tree.
  const std::filesystem::path was = std::filesystem::current_path();
  const std::filesystem::path scratch = temp("fuzz_cwd");
  std::filesystem::create_directories(scratch);
  std::filesystem::current_path(scratch);
  struct BackTo {
    std::filesystem::path path;
    ~BackTo() { std::filesystem::current_path(path); }
  } back_to{was};
  std::mt19937 rng(26);
  auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); };
  int status_count[3] = {0, 0, 0};
  for (int k = 0; k < 40; ++k) {
    std::string line = verbs[pick(verbs.size())];
    for (std::size_t a = 0, n = pick(4); a < n; ++a) line += " " + values[pick(values.size())];
    std::string out;
    const auto start = std::chrono::steady_clock::now();
    const int rc = run_gui("wait-timeout 3\n" + line + "\n", &out, 1280, "", 720);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_TRUE(rc == 0 || rc == 1 || rc == 2) << line << " -> " << rc << "\n" << out;
    EXPECT_LT(seconds, 20) << line;
    if (rc >= 0 && rc <= 2) ++status_count[rc];
    if (rc == 2) EXPECT_NE(out.find("kcycle-gui: "), std::string::npos) << line << ": refused without a word\n" << out;
  }
  // The lines reach every outcome, not one.
  EXPECT_GT(status_count[0], 3);
  EXPECT_GT(status_count[2], 3);
}

}  // namespace
