// The visualizer as a teaching tool, as a person sees it under Xvfb: stepping to the next
// relaxation or call and autoplay, before | after a relaxation phase, the colour range locked
// through a cycle, the 1D slice, averaging minification, the Fourier inset's axes, lessons,
// the paused start, tooltips and the calibration cache.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "gui_harness.hpp"

namespace {

using namespace kcycle::gui_testing;

// The narration lines `describe` printed, in order.
std::vector<std::string> narrations(const std::string& out) {
  std::vector<std::string> lines;
  const std::regex re("narration: operation \\d+: ([^\\n]*)");
  for (auto it = std::sregex_iterator(out.begin(), out.end(), re); it != std::sregex_iterator(); ++it)
    lines.push_back((*it)[1]);
  return lines;
}

// Mean distance of the pixels in r from the colour map's neutral grey (zero).
double colourfulness(const Image& img, Rect r) {
  double sum = 0;
  for (int y = r.y; y < r.y + r.h; ++y)
    for (int x = r.x; x < r.x + r.w; ++x)
      for (int c = 0; c < 3; ++c) sum += std::abs(int(img.at(x, y)[c]) - 221);
  return sum / (3.0 * r.w * r.h);
}

TEST(GuiTeaching, StepsToTheNextRelaxationOrCallAndAutoplays) {
  std::string out;
  ASSERT_EQ(run_gui("set levels 5\nset kappa 3\nwait-cycles 0\n"
                    "step-relax\nwait-operation 2\ndescribe\n"
                    "step-call\nwait-operation 6\ndescribe\n"
                    "step-relax\nwait-operation 7\ndescribe\n"
                    "autoplay 40\nwait-operation 20\nprint-text\nautoplay 0\nwait-ms 300\nprint-stepping\n"
                    "step-op\nwait-ms 300\nprint-stepping\n",
                    &out, 1900, "--start paused"),
            0)
      << out;
  const std::vector<std::string> said = narrations(out);
  ASSERT_EQ(said.size(), 3u) << out;
  EXPECT_EQ(said[0], "pre-relax 1/2 on level 1");
  EXPECT_EQ(said[1], "recursive call on level 2 with kappa=3");
  EXPECT_EQ(said[2], "pre-relax 1/2 on level 2");
  const std::vector<std::string> texts = shown_texts(out);
  ASSERT_EQ(texts.size(), 1u);
  EXPECT_TRUE(shows(texts[0], "autoplay, 40.0 operations/s")) << texts[0];
  // Autoplay stopped holds the operation it reached; one more step goes one further.
  const std::regex at("stepping: operation (\\d+) is");
  std::vector<int> positions;
  for (auto it = std::sregex_iterator(out.begin(), out.end(), at); it != std::sregex_iterator(); ++it)
    positions.push_back(std::stoi((*it)[1]));
  ASSERT_EQ(positions.size(), 2u) << out;
  EXPECT_GE(positions[0], 20);
  EXPECT_EQ(positions[1], positions[0] + 1);
}

TEST(GuiTeaching, ARelaxationPhaseIsShownBeforeAndAfterSideBySide) {
  const std::string shot = temp("before_after.png"), layout = temp("before_after.json");
  std::string out;
  // Lesson 0: Poisson, zero-mean random start, before | after on.
  ASSERT_EQ(run_gui("lesson 0\nwait-cycles 0\nstep-relax\nstep-relax\nwait-operation 3\nframes 3\nprint-text\n"
                    "screenshot " +
                        shot + "\nlayout " + layout + "\nstep-op\nwait-operation 4\nframes 3\nprint-text\n",
                    &out),
            0)
      << out;
  const std::vector<std::string> texts = shown_texts(out);
  ASSERT_EQ(texts.size(), 2u);
  EXPECT_TRUE(shows(texts[0], "before | after the pre-relaxation: pre-relax 2/2 on level 1")) << texts[0];
  EXPECT_FALSE(shows(texts[1], "before | after the")) << "the restriction ends the phase: one picture\n" << texts[1];
  const Image img = load_png(shot);
  ASSERT_GT(img.w, 0);
  // The two pictures, where the layout file says the field panel drew them.
  const Rect b = panel(layout, "field picture before"), a = panel(layout, "field picture");
  EXPECT_GT(b.w, 100) << "the pictures fill the panel's width";
  EXPECT_NEAR(a.y, b.y, 1) << "side by side";
  EXPECT_GT(a.x, b.x + b.w) << "after, right of before";
  const Rect left{b.x + 4, b.y + 4, b.w - 8, b.h - 8}, right{a.x + 4, a.y + 4, a.w - 8, a.h - 8};
  const double before = colourfulness(img, left), after = colourfulness(img, right);
  EXPECT_GT(before, 1.5 * after) << "two Jacobi sweeps damp the random start's rough error: before " << before
                                 << ", after " << after;
  EXPECT_GT(after, 3.0) << "the after picture is drawn (not blank)";
}

// Mean brightness (R + G + B over 3) of the pixels of r where keep(u, v) holds, (u, v) in [0, 1)
// from the lower left: in a Fourier inset, u ~ k / nx and v ~ l / ny.
template <class Keep>
double brightness(const Image& img, Rect r, Keep keep) {
  double sum = 0;
  int count = 0;
  for (int y = r.y; y < r.y + r.h; ++y)
    for (int x = r.x; x < r.x + r.w; ++x) {
      const double u = double(x - r.x) / r.w, v = 1.0 - double(y - r.y + 1) / r.h;
      if (!keep(u, v)) continue;
      sum += (img.at(x, y)[0] + img.at(x, y)[1] + img.at(x, y)[2]) / 3.0;
      ++count;
    }
  return count ? sum / count : 0.0;
}

// Before | after a relaxation, each picture's Fourier inset is drawn under it on one colour
// scale, which is drawn (a strip under each inset) and labelled: the rough half goes dark across the sweep while the
// smoothest modes keep their colour, as lesson 0 tells the class to watch.
TEST(GuiTeaching, TheFourierInsetsBeforeAndAfterARelaxationShareOneColourScale) {
  const std::string shot = temp("insets.png"), layout = temp("insets.json");
  std::string out;
  ASSERT_EQ(run_gui("lesson 0\nui-scale 1.5\nwait-cycles 0\nstep-relax\nwait-operation 2\nframes 3\nprint-text\n"
                    "screenshot " +
                        shot + "\nlayout " + layout + "\n",
                    &out, 1280, "--lecture", 720),
            0)
      << out;
  const std::vector<std::string> texts = shown_texts(out);
  ASSERT_EQ(texts.size(), 1u) << out;
  EXPECT_TRUE(shows(texts[0], "Fourier inset (before): k = 1..63 (x), l = 1..63 (y)")) << texts[0];
  EXPECT_TRUE(shows(texts[0], "Fourier inset (after): k = 1..63 (x), l = 1..63 (y)")) << texts[0];
  const std::smatch scale = [&] {
    std::smatch m;
    std::regex_search(texts[0], m,
                      std::regex("Fourier inset \\(after\\): [^\\n]* from (\\S+) \\(dark\\) to (\\S+) \\(yellow\\)"));
    return m;
  }();
  ASSERT_EQ(scale.size(), 3u) << texts[0];
  EXPECT_NEAR(std::stod(scale[2]) / std::stod(scale[1]), 1e8, 1e7) << "eight decades";
  const Image img = load_png(shot);
  ASSERT_GT(img.w, 0);
  const Rect b = panel(layout, "Fourier inset before"), a = panel(layout, "Fourier inset");
  const Rect pb = panel(layout, "field picture before"), pa = panel(layout, "field picture");
  ASSERT_GT(b.w, 40);
  EXPECT_EQ(a.w, b.w);
  EXPECT_NEAR(b.x, pb.x, 1) << "under the before picture";
  EXPECT_NEAR(a.x, pa.x, 1) << "under the after picture";
  EXPECT_GT(b.y, pb.y + pb.h - 1) << "under it";
  auto inside = [](Rect r) { return Rect{r.x + 2, r.y + 2, r.w - 4, r.h - 4}; };
  auto rough = [](double u, double v) { return u + v > 1.0; };
  auto smooth = [](double u, double v) { return u < 0.15 && v < 0.15; };
  const double rough_before = brightness(img, inside(b), rough), rough_after = brightness(img, inside(a), rough);
  const double smooth_before = brightness(img, inside(b), smooth), smooth_after = brightness(img, inside(a), smooth);
  EXPECT_LT(rough_after, 0.95 * rough_before)
      << "the rough half darkens (a log scale over 8 decades; one sweep): " << rough_before << " -> " << rough_after;
  EXPECT_NEAR(smooth_after, smooth_before, 0.03 * smooth_before)
      << "the smoothest modes keep their colour: " << smooth_before << " -> " << smooth_after;
}

// The median length of the runs of one colour along a line of pixels (a cell's width, drawn).
double median_run(const Image& img, int x0, int y0, int dx, int dy, int length) {
  std::vector<int> runs;
  int run = 1;
  for (int k = 1; k < length; ++k) {
    const unsigned char *a = img.at(x0 + (k - 1) * dx, y0 + (k - 1) * dy), *b = img.at(x0 + k * dx, y0 + k * dy);
    if (a[0] == b[0] && a[1] == b[1] && a[2] == b[2]) {
      ++run;
    } else {
      runs.push_back(run);
      run = 1;
    }
  }
  if (runs.empty()) return length;
  std::nth_element(runs.begin(), runs.begin() + std::ptrdiff_t(runs.size() / 2), runs.end());
  return runs[runs.size() / 2];
}

// A semi-coarsened level (x-zebra, coarsened in y: 63 x 31 on level 2) is drawn on the same
// unit square as level 1, its cells twice as tall as they are wide, and the header says so.
TEST(GuiTeaching, ASemiCoarsenedLevelIsDrawnOnTheUnitSquareWithItsCellsTrueAspect) {
  const std::string shot = temp("semi.png"), layout = temp("semi.json");
  std::string out;
  ASSERT_EQ(run_gui("set preset xzebra-semi-galerkin\nset levels 6\nset before-after 0\npause\nreset\nwait-cycles 0\n"
                    "step-call\nstep-call\nstep-relax\nframes 3\nprint-stepping\nprint-text\nscreenshot " +
                        shot + "\nlayout " + layout + "\n",
                    &out, 1600, "", 900),
            0)
      << out;
  EXPECT_NE(out.find("field shows level 2"), std::string::npos) << out;
  const std::vector<std::string> texts = shown_texts(out);
  ASSERT_EQ(texts.size(), 1u) << out;
  EXPECT_TRUE(shows(texts[0], "(63 x 31)")) << texts[0];
  EXPECT_TRUE(shows(texts[0], "the same unit square: cells h_x = 1/64 wide, h_y = 1/32 tall (coarsened in y only)"))
      << texts[0];
  const Image img = load_png(shot);
  ASSERT_GT(img.w, 0);
  const Rect r = panel(layout, "field picture");
  EXPECT_EQ(r.w, r.h) << "the unit square, drawn square";
  const double across = median_run(img, r.x + 2, r.y + r.h / 2, 1, 0, r.w - 4);
  const double down = median_run(img, r.x + r.w / 2, r.y + 2, 0, 1, r.h - 4);
  EXPECT_NEAR(across, r.w / 64.0, 0.3 * r.w / 64.0) << "a cell 1/64 wide";
  EXPECT_NEAR(down, r.h / 32.0, 0.3 * r.h / 32.0) << "a cell 1/32 tall";
}

TEST(GuiTeaching, TheColourRangeCanBeLockedThroughACycle) {
  // Locked: level 1 keeps the range it had at the cycle's start while the sweeps shrink the
  // error; unlocked, the colour bar rescales at every sweep.
  auto ranges = [](bool lock) {
    std::string out;
    const std::string lock_line = std::string("set lock-range ") + (lock ? "1" : "0") + "\n";
    EXPECT_EQ(run_gui("set levels 6\nset problem 2\n" + lock_line +
                          "wait-cycles 0\nstep-op\nwait-operation 1\nframes 3\nprint-text\nstep-relax\nstep-relax\n"
                          "wait-operation 3\nframes 3\nprint-text\n",
                      &out, 1900, "--start paused"),
              0)
        << out;
    std::vector<std::string> tops;
    for (const std::string& t : shown_texts(out)) {
      std::smatch m;  // the colour bar's upper label, the first "+d.de+xx" after the field's title
      const std::size_t at = t.find("error u - u* on level 1");
      const std::string rest = at == std::string::npos ? "" : t.substr(at);
      tops.push_back(std::regex_search(rest, m, std::regex("\\n(\\+\\d\\.\\de[+-]\\d\\d)\\n")) ? m[1].str() : "");
    }
    return tops;
  };
  const std::vector<std::string> locked = ranges(true), free = ranges(false);
  ASSERT_EQ(locked.size(), 2u);
  ASSERT_EQ(free.size(), 2u);
  EXPECT_FALSE(locked[0].empty());
  EXPECT_EQ(locked[0], locked[1]) << "locked through the cycle";
  EXPECT_EQ(free[0], locked[0]) << "the same start";
  EXPECT_NE(free[1], free[0]) << "auto range follows the shrinking error";
}

// With the lock on (lesson 0), the coarse levels' corrections are drawn in their own colours:
// the restriction before them shows the coarse right-hand side, thousands of times larger, and
// a lock keyed by the level alone kept that range and drew every correction as flat grey.
TEST(GuiTeaching, TheLockedCoarseCorrectionsAreDrawnInColour) {
  const std::string shot2 = temp("lock_level2.png"), shot3 = temp("lock_level3.png");
  const std::string layout2 = temp("lock_level2.json"), layout3 = temp("lock_level3.json");
  // The clicker's key, one operation at a time: restrict, zero, call, then the pre-relaxation.
  auto step_to = [](int from, int to) {
    std::string keys;
    for (int k = from; k <= to; ++k) keys += "key PageDown\nwait-at-operation " + std::to_string(k) + "\n";
    return keys + "frames 3\nprint-stepping\nprint-text\n";
  };
  std::string out;
  ASSERT_EQ(run_gui("lesson 0\nwait-cycles 0\n" + step_to(1, 7) + "screenshot " + shot2 + "\nlayout " + layout2 + "\n" +
                        step_to(8, 12) + "screenshot " + shot3 + "\nlayout " + layout3 + "\n",
                    &out, 1280, "", 720),
            0)
      << out;
  EXPECT_NE(out.find("stepping: operation 7 is pre-relax on level 2"), std::string::npos) << out;
  EXPECT_NE(out.find("stepping: operation 12 is pre-relax on level 3"), std::string::npos) << out;
  const std::vector<std::string> texts = shown_texts(out);
  ASSERT_EQ(texts.size(), 2u) << out;
  for (int k = 0; k < 2; ++k) {
    const int level = k + 2;
    EXPECT_TRUE(shows(texts[std::size_t(k)], "colour range locked")) << texts[std::size_t(k)];
    EXPECT_TRUE(
        shows(texts[std::size_t(k)], "correction v" + std::to_string(level) + " on level " + std::to_string(level)))
        << texts[std::size_t(k)];
    const Image img = load_png(k == 0 ? shot2 : shot3);
    ASSERT_GT(img.w, 0);
    const Rect a = panel(k == 0 ? layout2 : layout3, "field picture");
    const double after = colourfulness(img, {a.x + 4, a.y + 4, a.w - 8, a.h - 8});
    EXPECT_GT(after, 10.0) << "level " << level << "'s correction after its sweep is drawn in colour, not grey";
  }
}

TEST(GuiTeaching, ASliceAcrossTheFieldIsPlottedAndMarked) {
  const std::string with = temp("slice1.png"), without = temp("slice0.png"), layout = temp("slice.json");
  std::string out;
  ASSERT_EQ(run_gui("set levels 6\nset problem 2\nwait-cycles 0\nframes 3\nscreenshot " + without +
                        "\nset slice 1\nset slice-y 0.3\nframes 3\nscreenshot " + with + "\nlayout " + layout + "\n",
                    &out, 1900, "--start paused"),
            0)
      << out;
  const Image a = load_png(without), b = load_png(with);
  ASSERT_GT(a.w, 0);
  ASSERT_GT(b.w, 0);
  const Rect field = panel(layout, "Error field");
  auto yellow = [](const unsigned char* p) { return p[0] > 235 && p[1] > 235 && p[2] > 50 && p[2] < 110; };
  auto count = [&](const Image& img) {
    int n = 0;
    for (int y = field.y; y < field.y + field.h; ++y)
      for (int x = field.x; x < field.x + field.w; ++x) n += yellow(img.at(x, y));
    return n;
  };
  EXPECT_LT(count(a), 20) << "no slice, no yellow line";
  EXPECT_GT(count(b), 300) << "the slice's row on the field and its plot under it";
}

TEST(GuiTeaching, AGridLargerThanThePanelIsAveragedNotSampled) {
  // 1023 x 1023 zero-mean random points on about 500 pixels: averaging shows the mean (grey),
  // nearest-point sampling shows full-range noise.
  const std::string avg = temp("minify_avg.png"), nearest = temp("minify_nearest.png"), layout = temp("minify.json");
  std::string out;
  ASSERT_EQ(run_gui("set levels 10\nset problem 2\nset spectrum 0\nwait-cycles 0\nframes 3\nscreenshot " + avg +
                        "\nlayout " + layout + "\nset average-minify 0\nframes 3\nscreenshot " + nearest + "\n",
                    &out, 1900, "--start paused"),
            0)
      << out;
  const Image a = load_png(avg), n = load_png(nearest);
  ASSERT_GT(a.w, 0);
  ASSERT_GT(n.w, 0);
  const Rect field = panel(layout, "Error field");
  const Rect inside{field.x + 40, field.y + 80, 300, 300};
  const double averaged = colourfulness(a, inside), sampled = colourfulness(n, inside);
  EXPECT_LT(averaged, 0.5 * sampled) << "averaged " << averaged << ", sampled " << sampled;
}

TEST(GuiTeaching, TheFourierInsetHasAxes) {
  std::string out;
  ASSERT_EQ(run_gui("set levels 6\nwait-cycles 0\nframes 3\nprint-text\n", &out, 1900, "--start paused"), 0) << out;
  const std::vector<std::string> texts = shown_texts(out);
  ASSERT_EQ(texts.size(), 1u);
  EXPECT_TRUE(shows(texts[0], "Fourier inset: k = 1..63 (x), l = 1..63 (y), log |c_kl| over 8 decades")) << texts[0];
}

TEST(GuiTeaching, APersonStartsPausedOnTheInitialErrorWithAHint) {
  std::string out;
  ASSERT_EQ(run_gui("wait-cycles 0\nwait-ms 500\nprint-text\nprint-summary\n", &out, 1900, "--start paused"), 0) << out;
  const std::vector<std::string> texts = shown_texts(out);
  ASSERT_EQ(texts.size(), 1u);
  EXPECT_TRUE(shows(texts[0], "Paused on the initial error (cycle 0). Press Operation")) << texts[0];
  EXPECT_TRUE(shows(texts[0], "paused, no cycle done yet")) << texts[0];
  EXPECT_EQ(out.find("last cycle:"), std::string::npos) << "no cycle ran: " << out;
}

TEST(GuiTeaching, EachLessonSetsItsProblemStartsPausedAndSaysWhatToDo) {
  struct Expect {
    int lesson;
    const char* smoother;
    const char* coarsening;
  };
  const Expect lessons[] = {{0, "damped Jacobi", "full"},
                            {1, "damped Jacobi", "full"},
                            {2, "alternating", "full"},
                            {3, "x-line", "semi"},
                            {4, "damped Jacobi", "full"}};
  std::string script;
  for (const Expect& e : lessons)
    script += "lesson " + std::to_string(e.lesson) + "\nwait-cycles 0\nwait-ms 200\nframes 2\nprint-text\n";
  std::string out;
  ASSERT_EQ(run_gui(script, &out, 1900, "--start paused"), 0) << out;
  const std::vector<std::string> texts = shown_texts(out);
  ASSERT_EQ(texts.size(), 5u);
  for (std::size_t k = 0; k < texts.size(); ++k) {
    const std::string& t = texts[k];
    EXPECT_TRUE(shows(t, "Lesson: ")) << t;
    EXPECT_TRUE(shows(t, "Paused on the initial error")) << "lesson " << k << " starts paused\n" << t;
    EXPECT_TRUE(shows(t, lessons[k].smoother)) << t;
    EXPECT_TRUE(shows(t, lessons[k].coarsening)) << t;
    EXPECT_TRUE(shows(t, "2: zero-mean random error")) << "teaching presets start zero-mean\n" << t;
  }
}

// Lessons 1 and 2 (point versus line smoother at 0 degrees) show the slice along a column, where
// the stripes that vary in y are: a vertical yellow line on the field, none across it. Lesson 4
// shows the time panel with Sweep kappa, which its text points to, even where the advanced
// panels were hidden.
TEST(GuiTeaching, TheLessonsShowWhatTheirTextsPointTo) {
  std::string out;
  const std::string shot1 = temp("lesson1_slice.png"), shot2 = temp("lesson2_slice.png"), layout = temp("lesson.json");
  ASSERT_EQ(run_gui("set advanced 0\nlesson 1\nwait-cycles 0\nframes 3\nscreenshot " + shot1 + "\nlayout " + layout +
                        "\nlesson 2\nwait-cycles 0\nframes 3\nscreenshot " + shot2 +
                        "\nlesson 4\nwait-cycles 0\nframes 3\nprint-text\n",
                    &out, 1600, "--start paused", 1000),
            0)
      << out;
  const Rect field = panel(layout, "Error field");
  auto yellow = [](const unsigned char* p) { return p[0] > 235 && p[1] > 235 && p[2] > 50 && p[2] < 110; };
  for (const std::string& shot : {shot1, shot2}) {
    const Image img = load_png(shot);
    ASSERT_GT(img.w, 0);
    int longest_column = 0, longest_row = 0;
    for (int x = field.x; x < field.x + field.w; ++x) {
      int n = 0;
      for (int y = field.y; y < field.y + field.h; ++y) n += yellow(img.at(x, y));
      longest_column = std::max(longest_column, n);
    }
    for (int y = field.y; y < field.y + field.h; ++y) {
      int n = 0;
      for (int x = field.x; x < field.x + field.w; ++x) n += yellow(img.at(x, y));
      longest_row = std::max(longest_row, n);
    }
    // The line is drawn translucent over the field: a part of it is pure yellow.
    EXPECT_GT(longest_column, 60) << shot << ": the slice's column on the field";
    EXPECT_LT(longest_row, 60) << shot << ": no row marked";
  }
  const std::vector<std::string> texts = shown_texts(out);
  ASSERT_EQ(texts.size(), 1u) << out;
  EXPECT_TRUE(shows(texts[0], "Press Sweep kappa, above the time plot")) << texts[0];
  EXPECT_TRUE(shows(texts[0], "Sweep kappa")) << texts[0];
  EXPECT_TRUE(shows(texts[0], "max levels")) << "the time panel is shown\n" << texts[0];
}

// Every control the frame draws (the frame's own record of them, UiState::controls_drawn:
// every control goes through panels/widgets.hpp, Layout.PanelsDrawControlsOnlyThroughWidgets),
// with the settings that show the conditional ones: each has a tooltip, and each tooltip shows
// when its control is probed as if hovered.
TEST(GuiTeaching, EveryControlHasATooltip) {
  const std::string reveal = "wait-cycles 0\nset slice 1\nset omega 0.7\nset auto-range 0\nframes 2\n";
  std::string listed;
  ASSERT_EQ(run_gui(reveal + "print-controls\n", &listed, 1900, "--start paused"), 0) << listed;
  std::vector<std::string> controls;
  std::istringstream lines(listed);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("control ", 0) != 0) continue;
    const std::size_t tab = line.find('\t');
    ASSERT_NE(tab, std::string::npos) << line;
    controls.push_back(line.substr(8, tab - 8));
    EXPECT_GT(line.size(), tab + 1 + 10) << "a control without a real tooltip: " << line;
  }
  // The frame drew them all: the six panels' controls, the conditional ones included.
  EXPECT_GE(controls.size(), 50u) << listed;
  for (const char* c :
       {"lesson", "kappa", "omega value", "range +/-", "at", "along a column", "Calibrate", "x: seconds", "UI scale"})
    EXPECT_NE(std::find(controls.begin(), controls.end(), c), controls.end()) << c << "\n" << listed;
  std::string script = reveal;
  for (const std::string& c : controls) script += "print-tooltip " + c + "\n";
  std::string out;
  ASSERT_EQ(run_gui(script, &out, 1900, "--start paused"), 0) << out;
  for (const std::string& c : controls) EXPECT_TRUE(shows(out, "tooltip " + c + ": ")) << c;
  EXPECT_TRUE(shows(out, "tooltip kappa: The cycle counter")) << out;
}

TEST(GuiTeaching, HidingTheAdvancedPanelsLeavesTheEssentials) {
  std::string out;
  ASSERT_EQ(run_gui("wait-cycles 0\nset advanced 0\nframes 3\nprint-text\n", &out, 1900, "--start paused"), 0) << out;
  const std::vector<std::string> texts = shown_texts(out);
  ASSERT_EQ(texts.size(), 1u);
  for (const char* hidden : {"Calibrate", "precision", "coarse operator", "cpu (threads)"})
    EXPECT_FALSE(shows(texts[0], hidden)) << hidden;
  for (const char* kept : {"kappa", "smoother", "Operation", "error u - u*", "Pin this run"})
    EXPECT_TRUE(shows(texts[0], kept)) << kept;
}

TEST(GuiTeaching, TheFirstStartCalibratesInTheBackgroundAndTheNextLoadsTheCache) {
  const std::string cache = temp("cache_dir");
  std::filesystem::remove_all(cache);
  const std::string args = "--start paused --auto-calibrate on --cache-dir " + cache;
  std::string first, second;
  ASSERT_EQ(run_gui("set levels 6\nwait-calibrated\nframes 3\nprint-text\n", &first, 1900, args), 0) << first;
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(cache)) files.push_back(entry.path().filename());
  ASSERT_EQ(files.size(), 1u);
  EXPECT_TRUE(shows(files[0], "calibration-jacobi-full-cpu-")) << files[0];
  const std::vector<std::string> t1 = shown_texts(first);
  ASSERT_EQ(t1.size(), 1u);
  EXPECT_TRUE(shows(t1[0], "model T = a L + b W")) << t1[0];
  EXPECT_FALSE(shows(t1[0], "does not match")) << t1[0];

  ASSERT_EQ(run_gui("set levels 6\nwait-calibrated\nframes 3\nprint-text\n", &second, 1900, args), 0) << second;
  const std::vector<std::string> t2 = shown_texts(second);
  ASSERT_EQ(t2.size(), 1u);
  EXPECT_TRUE(shows(t2[0], "calibration from the cache")) << t2[0];
  EXPECT_FALSE(shows(t2[0], "calibrating")) << "nothing timed again\n" << t2[0];
}

// Each configuration gets its own background calibration the first time it is shown, not only
// the first start's: after a change of smoother the time panel's model is the new smoother's.
TEST(GuiTeaching, AChangeOfSmootherIsCalibratedInTheBackgroundToo) {
  const std::string cache = temp("cache_dir_smoothers");
  std::filesystem::remove_all(cache);
  const std::string args = "--start paused --auto-calibrate on --cache-dir " + cache;
  std::string out;
  ASSERT_EQ(run_gui("set levels 6\nwait-calibrated\nset smoother gs-rb\nwait-ms 1500\nwait-calibrated\nframes 3\n"
                    "print-text\n",
                    &out, 1900, args),
            0)
      << out;
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(cache)) files.push_back(entry.path().filename());
  std::sort(files.begin(), files.end());
  ASSERT_EQ(files.size(), 2u) << out;
  EXPECT_TRUE(shows(files[0], "calibration-gs-rb-full-cpu-")) << files[0];
  EXPECT_TRUE(shows(files[1], "calibration-jacobi-full-cpu-")) << files[1];
  const std::vector<std::string> texts = shown_texts(out);
  ASSERT_EQ(texts.size(), 1u);
  EXPECT_FALSE(shows(texts[0], "does not match")) << "the model in use is gs-rb's\n" << texts[0];
}

}  // namespace
