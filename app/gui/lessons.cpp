#include "lessons.hpp"

#include <string>
#include <string_view>
#include <utility>

#include "kcycle/solve/solve.hpp"

namespace kcycle::gui {

namespace {

SolverOptions teaching_start(int levels, double eps, double angle, int kappa) {
  SolverOptions o;
  o.levels = levels;
  o.eps = eps;
  o.angle_degrees = angle;
  o.cycle = {CycleType::Kappa, kappa};
  o.problem = ProblemKind::ZeroMeanRandomError;
  o.max_iterations = 100000;
  return o;
}

ViewRequest watch_smoothing() {
  ViewRequest v;
  v.follow_cycle = true;
  v.before_after = true;
  return v;
}

Lesson with_preset(Lesson lesson, std::string_view preset) {
  apply(find_preset(preset).value(), lesson.options);  // the names below are the library's
  return lesson;
}

// Lessons 1 and 2: strong coupling in x only, watched relaxation, and the slice along a column,
// where the stripes a point smoother leaves vary.
Lesson stripes_lesson(std::string name, std::string what_to_do, std::string_view preset) {
  Lesson lesson{std::move(name), std::move(what_to_do), teaching_start(6, 1e-3, 0.0, 1), watch_smoothing()};
  lesson.slice = lesson.slice_column = true;
  return with_preset(lesson, preset);
}

}  // namespace

const std::vector<Lesson>& lessons() {
  static const std::vector<Lesson> all = [] {
    std::vector<Lesson> l;
    l.push_back({"Smoothing (Poisson)",
                 "Press Relaxation a few times: each Jacobi sweep on level 1 removes the rough part of the "
                 "error (compare before | after) but hardly touches the smooth part. In the Fourier inset "
                 "(smooth modes at the lower left, rough ones toward the upper right) a dark arc opens across "
                 "the rough half: the modes a sweep damps most. The roughest corner only fades and the smooth "
                 "corner keeps its colour: that is what the coarse levels are for. Step on and watch them.",
                 teaching_start(6, 1.0, 0.0, 1), watch_smoothing()});
    l.push_back(stripes_lesson("Point smoother at 0 degrees",
                               "Strong coupling in x only (eps = 1e-3). Press Relaxation: point Jacobi smooths along "
                               "x but leaves stripes that vary fast in y (the slice under the field runs along a "
                               "column: it stays jagged), and the coarse grid cannot represent them: press Run and "
                               "see the slow convergence. Pin the run, then try the next lesson.",
                               "jacobi"));
    l.push_back(stripes_lesson("Line smoother at 0 degrees",
                               "The same problem with the paper's second solver: alternating zebra line relaxation, "
                               "and Galerkin coarse operators (R A P, so the coarse grids see the fine grid's "
                               "anisotropy). Both change; the smoothing is the line smoother's: press Relaxation and "
                               "the column slice turns smooth, as each sweep solves whole lines at once. Press Run "
                               "and compare with the pinned point-smoother run.",
                               "xyzebra-galerkin"));
    l.push_back(with_preset({"Semi-coarsening",
                             "x-line relaxation with coarsening in y only: the lines smooth the strongly coupled "
                             "direction, so only the other one needs coarsening. Watch the levels keep their "
                             "width in the field title while their height halves.",
                             teaching_start(6, 1e-3, 0.0, 1), watch_smoothing()},
                            "xzebra-semi-galerkin"));
    Lesson tuning{"kappa tuning (paper's Table 4.1)",
                  "Stand-alone Jacobi(2,2) at eps = 1e-4, 45 degrees, 9 levels. Press Sweep kappa, above the time "
                  "plot: each kappa's cycles, time per cycle and time to the tolerance, measured beside the "
                  "model's prediction. More calls per cycle buy fewer cycles; the fastest kappa is marked.",
                  teaching_start(9, 1e-4, 45.0, 3), ViewRequest{}, false};
    tuning.advanced = true;
    l.push_back(with_preset(tuning, "jacobi"));
    return l;
  }();
  return all;
}

void apply_lesson(UiState& ui, int index) {
  const Lesson& lesson = lessons().at(std::size_t(index));
  ui.lesson = index;
  ui.params = lesson.options;
  ui.view = lesson.view;
  ui.lock_range = lesson.lock_range;
  ui.show_slice = lesson.slice;
  ui.slice_column = lesson.slice_column;
  if (lesson.advanced) ui.show_advanced = true;
  ui.show_shapes = false;
}

}  // namespace kcycle::gui
