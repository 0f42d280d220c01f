// Problem 4, the drawn error (kcycle/core/drawn_error.hpp): its text reads back to the same
// shapes, each shape is what it says (smooth, rough, one mode), and bad text is refused by name.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "kcycle/core/drawn_error.hpp"
#include "kcycle/core/problem.hpp"
#include "kcycle/io/options_io.hpp"
#include "kcycle/solve/solve.hpp"

namespace kcycle {
namespace {

TEST(DrawnError, TextReadsBackToTheSameShapes) {
  const ParsedShapes p = parse_error_shapes(" bump 0.3 0.4 0.1 1;rough 0.7 0.6 0.08 -0.5 ; mode 3 5 0.25;");
  ASSERT_TRUE(p.error.empty()) << p.error;
  ASSERT_EQ(p.shapes.size(), 3u);
  EXPECT_EQ(p.shapes[1].kind, ErrorShape::Kind::Rough);
  EXPECT_EQ(p.shapes[1].amplitude, -0.5);
  EXPECT_EQ(p.shapes[2].k, 3);
  EXPECT_EQ(p.shapes[2].l, 5);
  EXPECT_EQ(error_shapes_text(p.shapes), "bump 0.3 0.4 0.1 1; rough 0.7 0.6 0.08 -0.5; mode 3 5 0.25");
  EXPECT_EQ(parse_error_shapes(error_shapes_text(p.shapes)).shapes, p.shapes);
}

TEST(DrawnError, EachShapeIsWhatItSays) {
  const GridShape g{31, 31};
  const std::vector<ErrorShape> bump = parse_error_shapes("bump 0.5 0.5 0.1 2").shapes,
                                rough = parse_error_shapes("rough 0.5 0.5 0.1 2").shapes,
                                mode = parse_error_shapes("mode 3 5 0.5").shapes;
  EXPECT_DOUBLE_EQ(drawn_error_at(bump, g, 16, 16), 2.0);  // (0.5, 0.5) is point 16
  EXPECT_NEAR(drawn_error_at(bump, g, 19, 16), 2 * std::exp(-std::pow(3.0 / 32 / 0.1, 2)), 1e-12);
  // The rough patch: the bump's envelope times a checkerboard, sign alternating point to point.
  for (int i = 10; i < 22; ++i)
    EXPECT_DOUBLE_EQ(drawn_error_at(rough, g, i, 16), ((i + 16) % 2 ? -1 : 1) * drawn_error_at(bump, g, i, 16)) << i;
  const double pi = std::numbers::pi;
  EXPECT_NEAR(drawn_error_at(mode, g, 7, 9), 0.5 * std::sin(3 * pi * 7 / 32) * std::sin(5 * pi * 9 / 32), 1e-15);
  // Shapes add up; problem 4's start is their sum, its error the iterate.
  std::vector<ErrorShape> all = bump;
  all.insert(all.end(), mode.begin(), mode.end());
  const DiscreteProblem p = drawn_error_problem(g, all);
  EXPECT_TRUE(p.exact_is_zero);
  EXPECT_DOUBLE_EQ(p.initial_guess(7, 9), drawn_error_at(bump, g, 7, 9) + drawn_error_at(mode, g, 7, 9));
}

TEST(DrawnError, BadTextIsRefusedByName) {
  const struct {
    const char* text;
    const char* message;
  } cases[] = {{"", "no shapes"},
               {"blob 1 2", "shape 1: unknown shape 'blob'"},
               {"bump 0.5 0.5 0.1 1; bump 1.5 0.5 0.1 1", "shape 2: a bump's centre"},
               {"rough 0.5 0.5 0 1", "radius R is in [1e-4, 1]"},
               {"bump 0.5 0.5 0.1 inf", "amplitude A is a finite number"},
               {"bump 0.5 0.5 0.1 1e7", "at most 1e6"},
               {"mode 0 1 1", "K and L are integers from 1"},
               {"mode 1 1", "'mode K L A'"},
               {"bump 0.5 0.5 0.1", "'bump X Y R A'"}};
  for (const auto& c : cases) {
    const ParsedShapes p = parse_error_shapes(c.text);
    EXPECT_NE(p.error.find(c.message), std::string::npos) << c.text << ": " << p.error;
  }
  std::string many;
  for (int k = 0; k < 65; ++k) many += "mode 1 1 1;";
  EXPECT_NE(parse_error_shapes(many).error.find("at most 64 shapes"), std::string::npos);
  EXPECT_NE(error_shapes_problem(parse_error_shapes("mode 64 1 1").shapes, 63, 63).find("beyond this grid"),
            std::string::npos);
}

TEST(DrawnError, IsAProblemOfTheOptionsAndTheirFile) {
  SolverOptions o;
  o.levels = 5;
  o.problem = ProblemKind::Drawn;
  o.drawn_error = "bump 0.25 0.75 0.1 1; mode 2 3 0.5";
  validate(o);
  SolverOptions back;
  apply_settings(back, parse_parameters(to_parameters_file(o), "test"));
  EXPECT_EQ(back.drawn_error, o.drawn_error);
  EXPECT_EQ(back.problem, ProblemKind::Drawn);
  o.drawn_error = "mode 40 1 1";  // 31 points a side at 5 levels
  try {
    validate(o);
    FAIL() << "a mode beyond the grid was accepted";
  } catch (const InvalidOptions& e) {
    EXPECT_NE(std::string(e.what()).find("the drawn error (--error): shape 1: mode 40 1"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace kcycle
