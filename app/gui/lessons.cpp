#include "lessons.hpp"

#include <string_view>

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

}  // namespace

const std::vector<Lesson>& lessons() {
  static const std::vector<Lesson> all = [] {
    std::vector<Lesson> l;
    l.push_back({"Smoothing (Poisson)",
                 "Press Relaxation a few times: each Jacobi sweep on level 1 removes the rough part of the "
                 "error (before | after, and the Fourier inset's upper right empties) but hardly touches the "
                 "smooth part. Then step on: the coarse levels remove what smoothing left.",
                 teaching_start(6, 1.0, 0.0, 1), watch_smoothing()});
    l.push_back(with_preset({"Point smoother at 0 degrees",
                             "Strong coupling in x only (eps = 1e-3). Press Relaxation: point Jacobi smooths along "
                             "x but leaves stripes that vary fast in y, and the coarse grid cannot represent them: "
                             "press Run and see the slow convergence. Pin the run, then try the next lesson.",
                             teaching_start(6, 1e-3, 0.0, 1), watch_smoothing()},
                            "jacobi"));
    l.push_back(with_preset({"Line smoother at 0 degrees",
                             "The same problem with alternating zebra line relaxation: each sweep solves whole "
                             "lines at once, so the stripes vanish and the cycle converges fast. Compare with the "
                             "pinned point-smoother run.",
                             teaching_start(6, 1e-3, 0.0, 1), watch_smoothing()},
                            "xyzebra-galerkin"));
    l.push_back(with_preset({"Semi-coarsening",
                             "x-line relaxation with coarsening in y only: the lines smooth the strongly coupled "
                             "direction, so only the other one needs coarsening. Watch the levels keep their "
                             "width in the field title while their height halves.",
                             teaching_start(6, 1e-3, 0.0, 1), watch_smoothing()},
                            "xzebra-semi-galerkin"));
    Lesson tuning{"kappa tuning (paper's Table 4.1)",
                  "Stand-alone Jacobi(2,2) at eps = 1e-4, 45 degrees, 9 levels. Press Sweep kappa under the time "
                  "plot: each kappa's cycles, time per cycle and time to the tolerance, measured beside the "
                  "model's prediction. More calls per cycle buy fewer cycles; the fastest kappa is marked.",
                  teaching_start(9, 1e-4, 45.0, 3), ViewRequest{}, false};
    l.push_back(with_preset(tuning, "jacobi"));
    return l;
  }();
  return all;
}

}  // namespace kcycle::gui
