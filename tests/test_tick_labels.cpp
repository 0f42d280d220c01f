// Issue 44, item 6: at 1920x1080 and UI scale 2 the convergence plot's y labels (1e5 .. 1e-9)
// were drawn a few pixels apart, one over the other. Tick labels now skip where they would
// overlap the one drawn before (plot_axis.hpp); the ticks keep their grid lines.
#include <gtest/gtest.h>

#include <vector>

#include "plot_axis.hpp"

namespace {

using kcycle::plot::labels_apart;

TEST(TickLabels, LabelsThatWouldOverlapAreSkippedAndTheFirstIsAlwaysDrawn) {
  // Eight decades in 70 pixels, labels 26 pixels high (the stacked plot): every third one.
  std::vector<float> at, extent;
  for (int k = 0; k < 8; ++k) at.push_back(10.0f * float(k)), extent.push_back(26.0f);
  EXPECT_EQ(labels_apart(at, extent, 0), (std::vector<bool>{true, false, false, true, false, false, true, false}));
  // Room for all: all drawn.
  for (float& a : at) a *= 3;
  EXPECT_EQ(labels_apart(at, extent, 0), std::vector<bool>(8, true));
  // The gap counts: 30 apart with 26-wide labels and a 4-pixel gap just fits, a 5-pixel one does not.
  EXPECT_EQ(labels_apart({0, 30}, {26, 26}, 4), (std::vector<bool>{true, true}));
  EXPECT_EQ(labels_apart({0, 30}, {26, 26}, 5), (std::vector<bool>{true, false}));
  // Wide and narrow labels: the distance is from the last drawn one's end.
  EXPECT_EQ(labels_apart({0, 20, 45}, {40, 10, 10}, 0), (std::vector<bool>{true, false, true}));
  EXPECT_TRUE(labels_apart({}, {}, 0).empty());
}

}  // namespace
