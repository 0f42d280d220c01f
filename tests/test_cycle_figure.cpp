// The paper's Figure 2.1 as `kcycle figure cycles` and the visualizer draw it: the calls it shows
// are the paper's totalCalls, every kappa label it writes overlaps nothing, its files are written
// or refused whole.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "cycle_figure.hpp"
#include "cycle_figure_file.hpp"
#include "cycle_figure_svg.hpp"
#include "kcycle/cycle/cycle_counts.hpp"
#include "kcycle/cycle/cycle_plan.hpp"
#include "kcycle/io/file_output.hpp"
#include "kcycle/solve/solver_options.hpp"
#include "svg_raster.hpp"

#if KCYCLE_TEST_PNG_PIXELS
#include <stb/stb_image.h>
#endif

namespace {

using namespace kcycle;

Trace kappa_plan(int kappa, int levels) { return planned_cycle({CycleType::Kappa, kappa}, levels, 2, 2); }

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(CycleFigure, ItsCallsAreThePapersTotalCalls) {
  for (int n = 1; n <= 9; ++n)
    for (int kappa : {1, 2, 3, 4, 6, kKappaW}) {
      const Trace plan = kappa_plan(kappa, n);
      EXPECT_EQ(plot::calls_in(plan), total_calls(std::min(kappa, n), n))
          << "kappa " << kappa << ", " << n << " levels";
      // An X for each call but the top one (the figure starts at level 1's first relaxation).
      const auto nodes = plot::cycle_figure_nodes(plan);
      EXPECT_EQ(std::size_t(std::count_if(nodes.begin(), nodes.end(), [](const auto& v) { return v.call; })),
                plot::calls_in(plan) - 1);
    }
}

TEST(CycleFigure, NodesFollowThePathOneLevelAtATime) {
  // Between neighbouring nodes the path moves at most one level: the diagram is the recursion's walk.
  const auto nodes = plot::cycle_figure_nodes(kappa_plan(3, 6));
  ASSERT_FALSE(nodes.empty());
  EXPECT_EQ(nodes.front().level, 1);
  EXPECT_FALSE(nodes.front().call);
  for (std::size_t k = 1; k < nodes.size(); ++k) EXPECT_LE(std::abs(nodes[k].level - nodes[k - 1].level), 1) << k;
}

TEST(CycleFigure, CounterLabelsSayWForTheWCycle) {
  EXPECT_EQ(plot::counter_label(3), "3");
  EXPECT_EQ(plot::counter_label(kKappaW), "W");
  EXPECT_EQ(plot::counter_label(kKappaW - 5), "W");
}

// Every placed label overlaps no other placed label and no marker but its own X's.
void expect_labels_clear(const std::vector<plot::CycleFigureNode>& nodes, const plot::CycleFigureLayout& layout,
                         const std::vector<std::optional<plot::Box>>& placed, float char_w, float h) {
  const float r = layout.radius;
  std::vector<plot::Box> labels;
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    if (!placed[k]) continue;
    ASSERT_TRUE(nodes[k].call);
    const plot::Box b = *placed[k];
    EXPECT_NEAR(b.x1 - b.x0, char_w * float(plot::counter_label(nodes[k].counter).size()), 0.01);
    EXPECT_NEAR(b.y1 - b.y0, h, 0.01);
    // Beside its own X: within a unit or two of the square around it.
    const plot::Point own = layout.node(k, nodes[k].level);
    const plot::Box near{own.x - r - 2, own.y - r - 2, own.x + r + 2, own.y + r + 2};
    EXPECT_TRUE(b.overlaps(near)) << k;
    for (const plot::Box& other : labels) EXPECT_FALSE(b.overlaps(other)) << "label of node " << k;
    for (std::size_t j = 0; j < nodes.size(); ++j) {
      const plot::Point p = layout.node(j, nodes[j].level);
      if (j != k) {
        EXPECT_FALSE(b.overlaps({p.x - r, p.y - r, p.x + r, p.y + r})) << "label " << k << ", marker " << j;
      }
    }
    labels.push_back(b);
  }
}

TEST(CycleFigure, EveryCallIsLabelledWhereThereIsRoomAndNoLabelOverlapsAnything) {
  const float char_w = 7, h = 12;
  auto width = [&](const std::string& t) { return char_w * float(t.size()); };
  for (int n : {5, 7, 9})
    for (int kappa : {1, 2, 3, kKappaW}) {
      const auto nodes = plot::cycle_figure_nodes(kappa_plan(kappa, n));
      // Room: 40 units a node, 40 a level.
      const plot::CycleFigureLayout roomy = plot::layout_cycle_figure(
          {0, 0, 40.0f * float(nodes.size()) + 60, 40.0f * float(n - 1)}, n, nodes.size(), 60, 2, 7);
      const auto all = plot::placed_counter_labels(nodes, roomy, width, h, {-1e9f, -1e9f, 1e9f, 1e9f});
      for (std::size_t k = 0; k < nodes.size(); ++k)
        EXPECT_EQ(all[k].has_value(), nodes[k].call) << "kappa " << kappa << ", " << n << " levels, node " << k;
      expect_labels_clear(nodes, roomy, all, char_w, h);
      // A tight panel (a projector's diagram at 7+ levels): thinned, still clear, not empty.
      const plot::CycleFigureLayout tight = plot::layout_cycle_figure({0, 0, 600, 150}, n, nodes.size(), 60, 2.5f, 8);
      const plot::Box panel{0, -20, 600, 170};
      const auto some = plot::placed_counter_labels(nodes, tight, width, h, panel);
      for (const auto& b : some)
        if (b) {
          EXPECT_TRUE(b->x0 >= panel.x0 && b->x1 <= panel.x1 && b->y0 >= panel.y0 && b->y1 <= panel.y1);
        }
      expect_labels_clear(nodes, tight, some, char_w, h);
      EXPECT_GT(std::count_if(some.begin(), some.end(), [](const auto& b) { return b.has_value(); }), 0)
          << "kappa " << kappa << ", " << n << " levels";
    }
}

TEST(CycleFigure, ADenseDiagramLabelsOnlyTheCallsALabelCanName) {
  // W at 11 levels in 600 units: the coarse rows' calls are a fraction of a unit apart.
  const float char_w = 7, h = 12;
  const auto nodes = plot::cycle_figure_nodes(kappa_plan(kKappaW, 11));
  const plot::CycleFigureLayout layout = plot::layout_cycle_figure({0, 0, 660, 300}, 11, nodes.size(), 60, 2.5f, 8);
  const auto labels = plot::placed_counter_labels(
      nodes, layout, [&](const std::string& t) { return char_w * float(t.size()); }, h, {0, -20, 660, 320});
  std::size_t placed = 0;
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    if (!labels[k]) continue;
    ++placed;
    const float x = layout.node(k, nodes[k].level).x;
    for (std::size_t j = 0; j < nodes.size(); ++j)
      if (j != k && nodes[j].call && nodes[j].level == nodes[k].level) {
        EXPECT_GE(std::abs(layout.node(j, 1).x - x), char_w + 2 * layout.radius) << "label of " << k << " near " << j;
      }
  }
  EXPECT_GT(placed, 0u) << "the top levels' calls are far apart: they are labelled";
  EXPECT_LT(placed, 200u) << "the coarse rows are not";
  expect_labels_clear(nodes, layout, labels, char_w, h);
}

TEST(CycleFigure, MarkersShrinkWithTheSpacingAndKeepNeighboursApart) {
  const plot::CycleFigureLayout wide = plot::layout_cycle_figure({0, 0, 1000, 200}, 5, 20, 50, 2, 9);
  const plot::CycleFigureLayout narrow = plot::layout_cycle_figure({0, 0, 1000, 200}, 5, 200, 50, 2, 9);
  EXPECT_EQ(wide.radius, 9);  // capped
  EXPECT_LT(narrow.radius, wide.radius);
  EXPECT_LT(2 * narrow.radius, narrow.dx);
}

TEST(CycleFigure, TheSvgHasFourTitledDiagramsAtFiveLevels) {
  const auto panels = plot::kappa_cycle_panels(5, {1, 2, 3, kKappaW}, 2, 2);
  const std::string svg = plot::cycle_figure_svg(panels);
  const int totals[] = {5, 15, 25, 31};
  const char* names[] = {"1", "2", "3", "W"};
  for (int k = 0; k < 4; ++k)
    EXPECT_EQ(count(svg, "\u03ba = " + std::string(names[k]) + ", totalCalls = " + std::to_string(totals[k]) + "<"), 1u)
        << names[k];
  EXPECT_EQ(count(svg, "class='call'"), std::size_t(5 + 15 + 25 + 31 - 4));
  EXPECT_GT(count(svg, "class='kappa'"), 0u);
  EXPECT_LE(count(svg, "class='kappa'"), count(svg, "class='call'"));
  EXPECT_EQ(count(svg, "<svg"), 1u);
  EXPECT_EQ(count(svg, "</svg>"), 1u);
}

#if !KCYCLE_HAVE_PNG_FIGURES
// The GPU pack's build (-DKCYCLE_PNG_FIGURES=OFF): a PNG is refused, saying why.
TEST(CycleFigure, ABuildWithoutLibrsvgRefusesAPngAndSaysWhy) {
  EXPECT_FALSE(plot::can_render_svg());
  try {
    plot::svg_to_png("<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'/>", 1.0);
    ADD_FAILURE() << "no PNG without librsvg";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("without librsvg"), std::string::npos) << e.what();
  }
}
#else
TEST(CycleFigure, ThePngIsTheSvgRenderedWithItsMarkers) {
  ASSERT_TRUE(plot::can_render_svg()) << "this build has PNG figures";
  const std::string svg = plot::cycle_figure_svg(plot::kappa_cycle_panels(4, {3}, 2, 2), 960);
  const std::string png = plot::svg_to_png(svg, 2.0);
  ASSERT_GT(png.size(), 24u);
  EXPECT_EQ(png.substr(1, 3), "PNG");
  auto be32 = [&](std::size_t at) {
    return (unsigned(std::uint8_t(png[at])) << 24) | (unsigned(std::uint8_t(png[at + 1])) << 16) |
           (unsigned(std::uint8_t(png[at + 2])) << 8) | unsigned(std::uint8_t(png[at + 3]));
  };
  EXPECT_EQ(be32(16), 1920u);  // IHDR: twice the SVG's width
#if KCYCLE_TEST_PNG_PIXELS
  int w = 0, h = 0, channels = 0;
  unsigned char* pixels =
      stbi_load_from_memory(reinterpret_cast<const unsigned char*>(png.data()), int(png.size()), &w, &h, &channels, 3);
  ASSERT_NE(pixels, nullptr);
  std::size_t red = 0, blue = 0, white = 0;
  for (int i = 0; i < w * h; ++i) {
    const int r = pixels[3 * i], g = pixels[3 * i + 1], b = pixels[3 * i + 2];
    red += r > 180 && g < 80 && b < 80;
    blue += b > 150 && r < 80;
    white += r > 250 && g > 250 && b > 250;
  }
  stbi_image_free(pixels);
  EXPECT_GT(red, 100u);                      // the X's
  EXPECT_GT(blue, 100u);                     // the circles
  EXPECT_GT(white, std::size_t(w * h / 2));  // a slide's background
#endif
}
#endif

class FigureFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("kcycle_figure_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::filesystem::path dir_;
};

TEST_F(FigureFiles, AWriteReplacesTheFileWholeAndLeavesNoTemporary) {
  write_file_replacing(path("a.txt"), "first");
  write_file_replacing(path("a.txt"), "second");
  EXPECT_EQ(read(path("a.txt")), "second");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir_), std::filesystem::directory_iterator()), 1);
}

TEST_F(FigureFiles, AWriteThroughALinkReplacesTheFileAndKeepsTheLink) {
  write_file_replacing(path("real.txt"), "first");
  std::filesystem::create_symlink(path("real.txt"), path("link.txt"));
  write_file_replacing(path("link.txt"), "second");
  EXPECT_TRUE(std::filesystem::is_symlink(path("link.txt")));
  EXPECT_EQ(read(path("real.txt")), "second");
}

TEST_F(FigureFiles, AFailedWriteSaysWhyAndKeepsWhatWasThere) {
  auto message = [](const std::string& p) {
    try {
      write_file_replacing(p, "data");
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("/dev/full").find("No space left on device"), std::string::npos) << message("/dev/full");
  EXPECT_NE(message(dir_.string()).find("is a directory"), std::string::npos);
  EXPECT_NE(message(path("missing/x.svg")).find("No such file or directory"), std::string::npos);
  EXPECT_NE(message("").find("empty file name"), std::string::npos);
}

TEST_F(FigureFiles, AFigureNamesItsFormatOrIsRefusedBeforeAnyWork) {
  const auto panels = plot::kappa_cycle_panels(5, {1, 2}, 2, 2);
  plot::write_cycle_figure(panels, path("fig.svg"));
  EXPECT_NE(read(path("fig.svg")).find("totalCalls = 15"), std::string::npos);
  EXPECT_THROW(plot::write_cycle_figure(panels, path("fig.pdf")), plot::FigureRefused);
  EXPECT_FALSE(std::filesystem::exists(path("fig.pdf")));
  // W at 16 levels: 65535 calls, beyond any slide.
  EXPECT_THROW(plot::write_cycle_figure(plot::kappa_cycle_panels(16, {kKappaW}, 1, 1), path("w.svg")),
               plot::FigureRefused);
}

}  // namespace
