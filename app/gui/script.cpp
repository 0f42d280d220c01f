#include "script.hpp"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "../cli/solver_args.hpp"
#include "panels.hpp"

namespace kcycle::gui {

namespace {

const char* const kVerbs[] = {"set", "run", "pause", "step", "step-op", "reset", "pin", "calibrate", "wait-cycles",
                              "wait-done", "wait-stepping", "frames", "wait-ms", "screenshot", "layout", "csv",
                              "print-summary", "fps-reset", "fps-report", "print-field-path", "stress", "quit"};
constexpr double kWaitTimeout = 120.0;

double number(const std::string& s) {
  std::size_t used = 0;
  const double v = std::stod(s, &used);
  if (used != s.size()) throw std::invalid_argument("not a number: " + s);
  return v;
}

}  // namespace

ScriptRunner::ScriptRunner(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read script " + path);
  std::string text;
  for (int line = 1; std::getline(in, text); ++line) {
    std::istringstream words(text);
    Command c{"", {}, line};
    if (!(words >> c.verb) || c.verb[0] == '#') continue;
    for (std::string w; words >> w;) c.args.push_back(w);
    bool known = false;
    for (const char* v : kVerbs) known |= c.verb == v;
    if (!known) throw std::runtime_error(path + ":" + std::to_string(line) + ": unknown command '" + c.verb + "'");
    commands_.push_back(c);
  }
  fps_start_ = now();
}

double ScriptRunner::now() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void ScriptRunner::fail(const Command& c, const std::string& why) {
  std::fprintf(stderr, "kcycle-gui: script line %d (%s): %s\n", c.line, c.verb.c_str(), why.c_str());
  exit_code_ = 1;
  next_ = commands_.size();
}

bool ScriptRunner::advance(UiState& ui, SolverWorker& worker, const Snapshot& snap) {
  ++fps_frames_;
  if (stress_left_ > 0) {  // one random change a frame, while the worker solves
    SolverOptions o = ui.params;
    o.levels = std::uniform_int_distribution<int>(3, 9)(rng_);
    const int k = std::uniform_int_distribution<int>(1, 6)(rng_);
    o.cycle = {CycleType::Kappa, k == 6 ? kKappaW : k};
    o.eps = std::pow(10.0, -std::uniform_int_distribution<int>(0, 5)(rng_));
    o.angle_degrees = std::uniform_int_distribution<int>(0, 90)(rng_);
    const Smoother smoothers[] = {Smoother::Jacobi, Smoother::GaussSeidel, Smoother::XZebra, Smoother::YZebra,
                                  Smoother::XYZebra};
    o.smoother = smoothers[std::uniform_int_distribution<int>(0, 4)(rng_)];
    o.coarsening = std::uniform_int_distribution<int>(0, 3)(rng_) == 0 ? Coarsening::SemiY : Coarsening::Full;
    o.solver = SolverKind(std::uniform_int_distribution<int>(0, 2)(rng_));
    if (std::uniform_int_distribution<int>(0, 9)(rng_) == 0) worker.step_operation();
    if (std::uniform_int_distribution<int>(0, 9)(rng_) == 0) worker.run();
    ui.params = o;
    generation_ = worker.set_options(o);
    --stress_left_;
    return true;
  }
  if (frames_left_ > 0) {
    --frames_left_;
    return true;
  }
  if (wait_until_ > 0) {
    if (now() < wait_until_) return true;
    wait_until_ = 0;
  }
  while (next_ < commands_.size()) {
    const Command& c = commands_[next_];
    const bool done = execute(c, ui, worker, snap);
    if (exit_code_ != 0) return false;
    if (!done) {  // a wait: try again next frame, within the timeout
      if (wait_started_ < 0) wait_started_ = now();
      if (now() - wait_started_ > kWaitTimeout) {
        fail(c, "timed out after 120 s");
        return false;
      }
      return true;
    }
    wait_started_ = -1;
    ++next_;
    if (frames_left_ > 0 || wait_until_ > 0 || stress_left_ > 0 || !ui.screenshot_path.empty()) return true;
  }
  return false;
}

bool ScriptRunner::execute(const Command& c, UiState& ui, SolverWorker& worker, const Snapshot& snap) {
  const auto& a = c.args;
  auto need = [&](std::size_t n) {
    if (a.size() < n) throw std::invalid_argument("needs " + std::to_string(n) + " argument(s)");
  };
  try {
    if (c.verb == "set") {
      need(2);
      const std::string& name = a[0];
      const std::string& value = a[1];
      SolverOptions& o = ui.params;
      ViewRequest view = ui.view;
      bool solver_change = true;
      if (name == "levels") o.levels = int(number(value));
      else if (name == "eps") o.eps = number(value);
      else if (name == "angle") o.angle_degrees = number(value);
      else if (name == "kappa") {
        const auto k = parse_kappa(value);
        if (!k) throw std::invalid_argument("kappa must be a positive integer or W");
        o.cycle = {CycleType::Kappa, *k};
      } else if (name == "smoother") {
        const auto s = parse_smoother(value);
        if (!s) throw std::invalid_argument("unknown smoother " + value);
        o.smoother = *s;
      } else if (name == "nu1") o.nu1 = int(number(value));
      else if (name == "nu2") o.nu2 = int(number(value));
      else if (name == "omega") {
        if (value == "auto") o.omega_mode = OmegaMode::Paper;
        else if (value == "lfa") o.omega_mode = OmegaMode::Fourier;
        else o.omega_mode = OmegaMode::Fixed, o.omega = number(value);
      } else if (name == "solver") {
        const auto s = parse_solver(value);
        if (!s) throw std::invalid_argument("unknown solver " + value);
        o.solver = *s;
      } else if (name == "problem") o.problem = ProblemKind(int(number(value)));
      else if (name == "tol") o.tolerance = number(value);
      else if (name == "max-iter") o.max_iterations = int(number(value));
      else if (name == "seed") o.seed = std::uint64_t(number(value));
      else if (name == "coarsening") {
        const auto v = parse_coarsening(value);
        if (!v) throw std::invalid_argument("coarsening must be full or semi");
        o.coarsening = *v;
      } else if (name == "coarse-operator") {
        const auto v = parse_coarse_operator(value);
        if (!v) throw std::invalid_argument("coarse-operator must be rediscretized or galerkin");
        o.coarse_operator = *v;
      } else if (name == "preset") {
        const auto p = find_preset(value);
        if (!p) throw std::invalid_argument("unknown preset " + value);
        kcycle::apply(*p, o);
      } else if (name == "symmetric") o.symmetric_smoothing = number(value) != 0;
      else if (name == "backend") {
        const auto b = parse_backend(value);
        if (!b) throw std::invalid_argument("backend must be cpu, cuda or auto");
        o.backend = *b;
      } else if (name == "graphs") o.cuda_graphs = number(value) != 0;
      else {
        solver_change = false;
        if (name == "view-level") view.level = int(number(value));
        else if (name == "residual") view.residual = number(value) != 0;
        else if (name == "follow") view.follow_cycle = number(value) != 0;
        else if (name == "spectrum") view.spectrum = number(value) != 0;
        else if (name == "speed") ui.speed = float(number(value)), worker.set_speed(ui.speed);
        else if (name == "zoom") ui.zoom = float(number(value));
        else if (name == "interop") ui.interop = number(value) != 0;
        else throw std::invalid_argument("unknown parameter " + name);
      }
      if (solver_change) generation_ = worker.set_options(o);
      if (!(view == ui.view)) ui.view = view, worker.set_view(view);
      return true;
    }
    if (c.verb == "print-field-path") {  // how the last frame's field reached its texture
      std::printf("backend: %s; field: %s\n", snap.backend.c_str(), ui.field_path.c_str());
      std::fflush(stdout);
      return true;
    }
    if (c.verb == "run") return worker.run(), true;
    if (c.verb == "pause") return worker.pause(), true;
    if (c.verb == "step") return worker.step_cycle(), true;
    if (c.verb == "step-op") return worker.step_operation(), true;
    if (c.verb == "reset") return generation_ = worker.reset(), true;
    if (c.verb == "pin") {
      ui.pinned.push_back({"kappa=" + kappa_to_string(snap.options.cycle.counter), snap.history});
      return true;
    }
    if (c.verb == "calibrate") {
      need(1);
      worker.calibrate(int(number(a[0])));
      generation_ = 0;
      return true;
    }
    const bool current = generation_ == 0 || snap.generation >= generation_;
    if (c.verb == "wait-cycles") {
      need(1);
      if (!snap.error.empty() && current) throw std::invalid_argument("the solver refused the parameters: " + snap.error);
      return current && !snap.calibrating && snap.history.size() >= std::size_t(number(a[0]));
    }
    if (c.verb == "wait-done") return current && !snap.calibrating && (snap.status != SolveStatus::Running || !snap.error.empty());
    if (c.verb == "wait-stepping") return current && snap.stepping;
    if (c.verb == "frames") {
      need(1);
      frames_left_ = int(number(a[0]));
      return true;
    }
    if (c.verb == "wait-ms") {
      need(1);
      wait_until_ = now() + number(a[0]) / 1000.0;
      return true;
    }
    if (c.verb == "screenshot") {
      need(1);
      ui.screenshot_path = a[0];
      return true;
    }
    if (c.verb == "layout") {
      need(1);
      std::ofstream f(a[0]);
      f << "{\n";
      const auto& rects = panel_rects();
      for (std::size_t k = 0; k < rects.size(); ++k)
        f << "  \"" << rects[k].name << "\": [" << rects[k].x << ", " << rects[k].y << ", " << rects[k].w << ", "
          << rects[k].h << "]" << (k + 1 < rects.size() ? "," : "") << "\n";
      f << "}\n";
      if (!f) throw std::invalid_argument("cannot write " + a[0]);
      return true;
    }
    if (c.verb == "csv") {
      need(1);
      if (!export_history_csv(snap, a[0])) throw std::invalid_argument("cannot write " + a[0]);
      return true;
    }
    if (c.verb == "print-summary") {
      const SolverOptions& o = snap.options;
      std::printf("%d levels, eps=%g, angle=%g, kappa=%s, %s(%d,%d), %s: %s\n", o.levels, o.eps, o.angle_degrees,
                  kappa_to_string(o.cycle.counter).c_str(), std::string(to_string(o.smoother)).c_str(), o.nu1, o.nu2,
                  std::string(to_string(o.solver)).c_str(), snap.message.c_str());
      if (!snap.history.empty())
        std::printf("last cycle: error %.3e, residual %.3e, factor %.4f; %.3f ms per cycle (median)\n",
                    snap.history.back().error_norm, snap.history.back().residual_norm, snap.history.back().factor,
                    snap.seconds_per_cycle * 1e3);
      std::fflush(stdout);
      return true;
    }
    if (c.verb == "fps-reset") {
      fps_start_ = now();
      fps_frames_ = 0;
      return true;
    }
    if (c.verb == "fps-report") {
      const double seconds = now() - fps_start_;
      std::printf("fps: %.1f (%ld frames in %.2f s) at %d levels, %zu cycles done\n", fps_frames_ / seconds, fps_frames_,
                  seconds, snap.options.levels, snap.history.size());
      std::fflush(stdout);
      return true;
    }
    if (c.verb == "stress") {
      need(1);
      stress_left_ = int(number(a[0]));
      return true;
    }
    if (c.verb == "quit") {
      next_ = commands_.size();
      return true;
    }
  } catch (const std::exception& e) {
    fail(c, e.what());
    return true;
  }
  return true;
}

}  // namespace kcycle::gui
