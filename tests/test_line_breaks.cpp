// Issue 44, item 6: the visualizer's wrapped text broke numbers across lines ("error reduced by
// 8." / "42878e-09"), because Dear ImGui's wrapping also breaks after '.'. Lines now break at
// spaces only (line_breaks.hpp); widths here are counted in characters.
#include <gtest/gtest.h>

#include <string>

#include "line_breaks.hpp"

namespace {

double characters(const std::string& line) { return double(line.size()); }

TEST(LineBreaks, ANumberIsNeverSplitAtItsDecimalPoint) {
  const std::string text = "converged: error reduced by 8.42878e-09 in 54 iterations";
  // ImGui broke this after "8." at a width that ends inside the number.
  EXPECT_EQ(kcycle::plot::broken_at_spaces(text, 30, characters),
            "converged: error reduced by\n8.42878e-09 in 54 iterations");
}

TEST(LineBreaks, EveryLineFitsWhereItsWordsDoAndNothingIsLost) {
  const std::string text = "the quick brown fox jumps over the lazy dog";
  const std::string broken = kcycle::plot::broken_at_spaces(text, 10, characters);
  EXPECT_EQ(broken, "the quick\nbrown fox\njumps over\nthe lazy\ndog");
  std::string joined = broken;
  for (char& c : joined)
    if (c == '\n') c = ' ';
  EXPECT_EQ(joined, text);
}

TEST(LineBreaks, OwnNewlinesAndDoubleSpacesAreKeptAndALongWordGetsItsOwnLine) {
  EXPECT_EQ(kcycle::plot::broken_at_spaces("down [a]  up [b]\nnext", 40, characters), "down [a]  up [b]\nnext");
  EXPECT_EQ(kcycle::plot::broken_at_spaces("a 0123456789abcdef b", 8, characters), "a\n0123456789abcdef\nb");
  EXPECT_EQ(kcycle::plot::broken_at_spaces("", 8, characters), "");
  EXPECT_EQ(kcycle::plot::broken_at_spaces("line\n", 8, characters), "line\n");
}

}  // namespace
