#pragma once
// The multigrid hierarchy over a backend: per-level operators and vectors, the coarsest
// level's exact solver, and the executor that runs the recursive cycles of cycles.hpp on
// the backend while recording the trace.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <utility>
#include <vector>

#include "kcycle/backends/backend.hpp"
#include "kcycle/backends/capabilities.hpp"
#include "kcycle/core/banded_lu.hpp"
#include "kcycle/core/galerkin.hpp"
#include "kcycle/core/grid.hpp"
#include "kcycle/core/stencil.hpp"
#include "kcycle/core/tridiagonal.hpp"
#include "kcycle/cycle/cycle_schedule.hpp"
#include "kcycle/cycle/cycles.hpp"
#include "kcycle/cycle/multigrid_choices.hpp"
#include "kcycle/cycle/multigrid_settings.hpp"
#include "kcycle/cycle/trace.hpp"
#include "kcycle/solve/coarse_krylov.hpp"

namespace kcycle {

// Called after every operation a cycle performs (the visualizer's step-by-operation mode).
// It may throw to abandon the cycle; the hierarchy's vectors are then mid-cycle.
using OpObserver = std::function<void(const TraceEvent&)>;

// Thrown out of a cycle whose stop token was triggered; the hierarchy is then mid-cycle.
class CycleCancelled : public std::runtime_error {
 public:
  CycleCancelled() : std::runtime_error("cycle cancelled") {}
};

// What a cycle runs with besides its choice. Cancelling and watching are apart: the stop
// token costs one atomic load per call and leaves graph replay on; an observer sees every
// operation, so a watched cycle runs operation by operation.
// Sums of the finest level's iterate as the cycle ends: those asked for (not null) are written
// by the pass the schedule says yields them (CycleSchedule::sums_pass), if the cycle runs one;
// a caller that needs them otherwise takes passes of its own.
struct FinestSums {
  double* f_dot_v = nullptr;    // (f, v): MGCG's (r, z)
  double* v_norm2 = nullptr;    // (v, v): the error's norm when the exact solution is zero
  double* residual2 = nullptr;  // |f - A v|^2
};

struct CycleHooks {
  Trace* trace = nullptr;                // records every executed operation
  const OpObserver* observer = nullptr;  // watches every operation (stepping)
  std::stop_token stop;                  // checked at every call's entry
  FinestSums sums;                       // written by the schedule's sums pass
};

// The measured side of the model, per level (HPGMG style): filled while
// Multigrid::set_level_timing(true); each pass then waits for the device. The passes timed are
// those a normal cycle runs (CycleMode::Timed): a coarse tail is timed as one launch, on its
// top level (CoarseTail); the levels below it count calls but no launches or time.
struct LevelStats {
  std::uint64_t calls = 0;                // cycle-routine calls on this level
  std::uint64_t launches = 0;             // backend launches issued for this level's operations
  std::array<double, kPhases> seconds{};  // per Phase; Restrict includes zeroing the correction
  double total_seconds() const {
    double total = 0;
    for (double t : seconds) total += t;
    return total;
  }
};

// The coarse tail's threshold on backend B: the one asked for, else B's default; 0 where B
// runs no tails.
template <class B>
std::size_t coarse_tail_on(std::optional<std::size_t> asked) {
  if constexpr (RunsCoarseTails<B>)
    return asked.value_or(B::kCoarseTailUnknowns);
  else
    return 0;
}

// What Multigrid<B> makes of `settings`: fused only where B has the fused passes, the coarse
// tail's threshold resolved to B's default (0 where B runs no tails, and for the
// Krylov-accelerated cycle, whose steps the tail's recursion lacks). resolve() applies the same.
template <class B>
MultigridSettings as_run_by(MultigridSettings settings) {
  settings.fused = settings.fused && FusesPasses<B>;
  settings.coarse_tail_unknowns = settings.coarse_krylov ? 0 : coarse_tail_on<B>(settings.coarse_tail_unknowns);
  return settings;
}

template <MultigridBackend Backend>
class Multigrid {
 public:
  using Vector = typename Backend::Vector;
  using LineFactor = typename Backend::LineFactor;
  struct Level {
    GridShape shape;
    Stencil9 A;
    Vector v;                               // iterate (correction on coarse levels)
    Vector f;                               // right-hand side
    Vector t;                               // Jacobi's output, swapped with v after each sweep
    LineFactor x_line, y_line;              // zebra smoothers' line matrices, factored
    LevelStats stats;                       // see set_level_timing
    bool v_is_zero = false;                 // v stands for zero, its zeroing left to the fused down pass
    CoarseKrylovState<Vector> krylov = {};  // the Krylov-accelerated cycle's, on levels 2 .. n - 1
  };

  // settings().fused is cleared where the backend has no fused passes: the settings are what runs.
  Multigrid(Backend& backend, const MultigridSettings& settings)
      : backend_(backend), settings_(as_run_by<Backend>(settings)) {
    if (settings.levels < 1) throw std::invalid_argument("multigrid needs at least one level");
    levels_.reserve(std::size_t(settings.levels));
    for (int l = 1; l <= settings.levels; ++l) {
      const GridShape shape = level_shape(settings.levels, l, settings.coarsening);
      const Stencil9 A = l == 1 || settings.coarse_operator == CoarseOperator::Rediscretized
                             ? discretize(settings.tensor, shape.hx(), shape.hy())
                             : galerkin_coarse(levels_.back().A, settings.coarsening);
      Level level{shape, A, backend.make_vector(shape), backend.make_vector(shape), Vector{}, {}, {}, {}, false};
      if (settings.smoother == Smoother::Jacobi) level.t = backend.make_vector(shape);
      if (settings.coarse_krylov && l > 1 && l < settings.levels)
        level.krylov = {backend.make_vector(shape), backend.make_vector(shape), backend.make_vector(shape)};
      if (settings.smoother == Smoother::XZebra || settings.smoother == Smoother::XYZebra)
        level.x_line = backend.make_line_factor(TridiagonalFactor::constant(A.a[1][0], A.a[1][1], A.a[1][2], shape.nx));
      if (settings.smoother == Smoother::YZebra || settings.smoother == Smoother::XYZebra)
        level.y_line = backend.make_line_factor(TridiagonalFactor::constant(A.a[0][1], A.a[1][1], A.a[2][1], shape.ny));
      levels_.push_back(std::move(level));
    }
    const Level& coarsest = levels_.back();
    coarse_solver_ = backend.make_coarse_solver(BandedLU(coarsest.A, coarsest.shape));
    if constexpr (RecordsCycles<Backend>) recordings_ = backend.new_recording_owner();
    for (CycleMode mode : {CycleMode::Normal, CycleMode::Watched, CycleMode::Timed}) {
      schedules_[std::size_t(mode)] = CycleSchedule::plan(settings_, capabilities(), mode);
      // The executor runs every pass it is given or refuses: none is skipped.
      if (const Pass* p = schedules_[std::size_t(mode)].first_pass_beyond(capabilities()))
        throw std::logic_error(std::string("the cycle's schedule has a '") + pass_kind_name(p->kind) +
                               "' pass, which this backend cannot run");
    }
  }
  // A backend that records cycles drops this hierarchy's recordings with it: a later hierarchy
  // whose buffers land at the same addresses must never replay them (old stencils, freed
  // line factors and LU).
  ~Multigrid() {
    if constexpr (RecordsCycles<Backend>) backend_.forget_recordings(recordings_);
  }
  Multigrid(const Multigrid&) = delete;
  Multigrid& operator=(const Multigrid&) = delete;

  int levels() const { return settings_.levels; }
  const MultigridSettings& settings() const { return settings_; }
  Backend& backend() { return backend_; }
  Level& level(int l) { return levels_[std::size_t(l - 1)]; }
  const Level& level(int l) const { return levels_[std::size_t(l - 1)]; }

  // The top level of the coarse tail an unwatched cycle runs as one launch, or 0 (none).
  int coarse_tail_first() const { return schedule(CycleMode::Normal).tail_top(); }
  // What the backend can run besides every backend's operations.
  static constexpr Capabilities capabilities() { return capabilities_of<Backend>(); }
  // What a cycle in `mode` physically runs.
  const CycleSchedule& schedule(CycleMode mode) const { return schedules_[std::size_t(mode)]; }
  // What the backend runs for a call of `scheme` with `counter` entering level `first`: the
  // settings and every level from `first` down, as they are now (Jacobi's swaps included).
  CoarseTail coarse_tail(int first, CycleType scheme, int counter) requires RunsCoarseTails<Backend> {
    const MultigridSettings& s = settings_;
    CoarseTail tail;
    tail.smoother = s.smoother;
    tail.coarsening = s.coarsening;
    tail.omega = s.omega;
    tail.nu1 = s.nu1;
    tail.nu2 = s.nu2;
    tail.symmetric_smoothing = s.symmetric_smoothing;
    tail.coarsest_calls = s.coarsest_calls;
    tail.scheme = scheme;
    tail.counter = counter;
    tail.first = first;
    tail.count = levels() - first + 1;
    for (int l = first; l <= levels(); ++l) {
      Level& L = level(l);
      TailLevel& T = tail.levels[l - first];
      T.A = L.A;
      T.nx = L.shape.nx;
      T.ny = L.shape.ny;
      T.v = L.v.data();
      T.f = L.f.data();
      T.t = L.t.data();
      if (s.smoother == Smoother::XZebra || s.smoother == Smoother::XYZebra) T.x_line = backend_.line_view(L.x_line);
      if (s.smoother == Smoother::YZebra || s.smoother == Smoother::XYZebra) T.y_line = backend_.line_view(L.y_line);
    }
    tail.coarse = backend_.coarse_view(coarse_solver_);
    return tail;
  }

  // Per-level counters and timers (LevelStats), off unless asked for: timing waits for the
  // device after every pass, and cycles are not replayed as graphs (a replay is one launch).
  void set_level_timing(bool on) { level_timing_ = on; }
  bool level_timing() const { return level_timing_; }
  void reset_level_stats() {
    for (Level& L : levels_) L.stats = {};
  }

  // One cycle on the finest level: improves level(1).v for the right-hand side level(1).f.
  // A backend that records cycles (CUDA Graphs, when on) replays them, unless an observer
  // watches each operation or levels are timed: then every operation runs on its own.
  // Throws CycleCancelled when hooks.stop is triggered (checked at each call's entry).
  void cycle(CycleChoice choice, const CycleHooks& hooks) {
    if constexpr (RecordsCycles<Backend>) {
      const bool watched = hooks.observer && *hooks.observer;
      // The Krylov-accelerated cycle's steps branch on dot products: never recorded.
      if (backend_.graphs() && !watched && !level_timing_ && !settings_.coarse_krylov) {
        backend_.run_as_graph(signature(choice), [&] { run_cycle(choice, hooks); });
        return;
      }
    }
    run_cycle(choice, hooks);
  }
  void cycle(CycleChoice choice, Trace* trace = nullptr) { cycle(choice, CycleHooks{trace, nullptr, {}, {}}); }

  // One cycle from a zero iterate on the finest level (its v is overwritten). With the fused
  // down pass the zeroing is left to the first sweep (no pass, v not read).
  void cycle_from_zero(CycleChoice choice, const CycleHooks& hooks = {}) {
    if (schedule_for(hooks).zero_start_in_first_pass())
      level(1).v_is_zero = true;
    else
      backend_.fill(level(1).v, 0.0);
    cycle(choice, hooks);
  }

  // z <- M r: one cycle from a zero initial guess, the MGCG preconditioner. r and z are
  // swapped in and out of the finest level, so nothing is copied. Returns (r, z) when the
  // cycle's last pass sums it on the way (the schedule's sums pass), so CG needs no pass of its
  // own for it; otherwise nothing.
  std::optional<double> precondition(Vector& r, Vector& z, CycleChoice choice, const CycleHooks& hooks = {}) {
    Level& fine = level(1);
    std::swap(fine.f, r);
    std::optional<double> f_dot_v;
    try {
      f_dot_v = cycle_from_zero_summing_f_dot_v(choice, hooks);
    } catch (...) {
      std::swap(fine.f, r);  // give the caller's vectors back
      std::swap(fine.v, z);
      throw;
    }
    std::swap(fine.f, r);
    std::swap(fine.v, z);
    return f_dot_v;
  }
  // cycle_from_zero, returning the finest level's (f, v) where the schedule's sums pass sums it.
  std::optional<double> cycle_from_zero_summing_f_dot_v(CycleChoice choice, CycleHooks hooks = {}) {
    double f_dot_v = 0.0;
    const bool summed = schedule_for(hooks).sums_pass() != nullptr;
    if (summed) hooks.sums.f_dot_v = &f_dot_v;
    cycle_from_zero(choice, hooks);
    if (!summed) return std::nullopt;
    return f_dot_v;
  }

  // What a cycle with these hooks physically runs: watched (an observer), timed (level timing
  // on) or normal.
  const CycleSchedule& schedule_for(const CycleHooks& hooks) const { return schedule(mode_of(hooks)); }

 private:
  static constexpr bool kBackendRunsTails = RunsCoarseTails<Backend>;

  CycleMode mode_of(const CycleHooks& hooks) const {
    if (hooks.observer && *hooks.observer) return CycleMode::Watched;
    return level_timing_ ? CycleMode::Timed : CycleMode::Normal;
  }

  void run_cycle(CycleChoice choice, const CycleHooks& hooks) {
    Executor ops{*this, hooks, choice.type, schedule_for(hooks)};
    // Not clamped: kappa >= levels gives the W-cycle by the recursion itself (Proposition 2.1),
    // and the trace records each call's counter as the paper's Algorithm 3 sets it.
    cycle_call(ops, choice.type, 1, choice.first_counter());
  }

  // This hierarchy, the buffers a cycle touches (Jacobi and MGCG swap them between cycles) and
  // its choice.
  CycleSignature signature(CycleChoice choice) const {
    // Every kappa >= levels executes the same operations (the W-cycle): one recording.
    CycleSignature key{std::uintptr_t(recordings_), std::uintptr_t(choice.type),
                       std::uintptr_t(std::min(choice.counter, levels()))};
    for (const Level& L : levels_)
      for (const Vector* x : {&L.v, &L.f, &L.t}) key.push_back(reinterpret_cast<std::uintptr_t>(x->data()));
    return key;
  }

  // The Ops of cycles.hpp, interpreting the cycle's schedule: each operation is recorded, run
  // on the backend as the schedule plans it (or left to the pass that runs it), timed when level
  // timing is on, and shown to the observer.
  class Executor {
   public:
    Executor(Multigrid& mg, const CycleHooks& hooks, CycleType scheme, const CycleSchedule& schedule)
        : mg_(mg), hooks_(hooks), scheme_(scheme), schedule_(schedule) {}
    int coarsest() const { return mg_.levels(); }
    int nu1() const { return mg_.settings_.nu1; }
    int nu2() const { return mg_.settings_.nu2; }
    CoarsestCalls coarsest_calls() const { return mg_.settings_.coarsest_calls; }
    bool coarse_krylov() const { return mg_.settings_.coarse_krylov; }
    // The Krylov steps on level l + 1 (coarse_krylov.hpp), recorded on level l, timed as part
    // of l's prolongation (they assemble the correction it interpolates).
    bool krylov_weigh(int l) {
      bool second = false;
      perform(OpKind::KrylovWeigh, l, Phase::Prolong, [&] {
        Level& C = mg_.level(l + 1);
        second = kcycle::krylov_weigh(mg_.backend_, C.A, C.v, C.f, C.krylov);
      });
      return second;
    }
    void krylov_combine(int l) {
      perform(OpKind::KrylovCombine, l, Phase::Prolong, [&] {
        Level& C = mg_.level(l + 1);
        kcycle::krylov_combine(mg_.backend_, C.A, C.v, C.f, C.krylov);
      });
    }

    void enter(int l, int counter) {
      if (hooks_.stop.stop_requested()) throw CycleCancelled();
      if (mg_.level_timing_) ++mg_.level(l).stats.calls;
      record(OpKind::Call, l, counter);
      notify(OpKind::Call, l, counter);
      if (l != schedule_.tail_top()) return;
      if (mg_.level_timing_)
        timed(mg_.level(l).stats, Phase::CoarseTail, [&] { run_tail(l, counter); });
      else
        run_tail(l, counter);
    }
    void coarse_solve(int l) { run_planned(OpKind::CoarseSolve, l); }
    // Sweep `sweep` of a relaxation phase; see MultigridSettings::symmetric_smoothing.
    void relax(int l, OpKind phase, int sweep) { run_planned(phase, l, sweep); }
    void restrict_residual(int l) { run_planned(OpKind::Restrict, l); }
    void zero_coarse(int l) { run_planned(OpKind::ZeroCoarse, l); }
    void prolong_add(int l) { run_planned(OpKind::Prolong, l); }

   private:
    static constexpr bool kBackendFuses = FusesPasses<Backend>;

    // The pass the schedule runs at this logical operation, if any: the trace records every
    // operation; one that is part of another pass (or of the coarse tail) is only recorded.
    void run_planned(OpKind op, int l, int sweep = 0) {
      const Pass* pass = schedule_.level(l).pass_at(op, sweep);
      if (!pass) return record(op, l);
      if (pass->launches == 0) {  // bookkeeping only: nothing to time or show
        record(op, l);
        return run(*pass, l);
      }
      perform(op, l, pass_kind_traits(pass->kind).phase, [&] { run(*pass, l); });
    }
    // One planned pass on level l, on the backend.
    void run(const Pass& pass, int l) {
      Level& L = mg_.level(l);
      Backend& be = mg_.backend_;
      const MultigridSettings& s = mg_.settings_;
      switch (pass.kind) {
        case PassKind::Sweep:
        case PassKind::PipelinedSweep: return sweep(L, pass);
        case PassKind::FusedDown: return fused_down(L, l);
        case PassKind::ResidualRestrict: return be.restrict_residual(L.A, L.v, L.f, mg_.level(l + 1).f, s.coarsening);
        case PassKind::RestrictAndZero:
          if constexpr (kBackendFuses)
            return be.restrict_residual_and_zero(L.A, L.v, L.f, mg_.level(l + 1).f, mg_.level(l + 1).v, s.coarsening);
          else
            return cannot_run(pass.kind);
        case PassKind::ZeroCoarse: return be.fill(mg_.level(l + 1).v, 0.0);
        case PassKind::ZeroInFirstPass:
          // The coarse call's first pass starts from zero; the coarsest level's solve overwrites v.
          mg_.level(l + 1).v_is_zero = l + 1 < coarsest();
          return;
        case PassKind::Prolong: return be.prolong_add(mg_.level(l + 1).v, L.v, s.coarsening);
        case PassKind::FusedUp: return fused_up(L, l, pass);
        case PassKind::CoarseSolve: return be.coarse_solve(mg_.coarse_solver_, L.f, L.v);
        case PassKind::CoarseTail: return;  // issued by enter(), before the tail's first operation
      }
    }
    void sweep(Level& L, const Pass& pass) {
      Backend& be = mg_.backend_;
      const bool pipelined = pass.kind == PassKind::PipelinedSweep;
      switch (pass.smoother) {
        case Smoother::Jacobi:
          be.jacobi(L.A, mg_.settings_.omega, L.v, L.f, L.t);
          std::swap(L.v, L.t);
          break;
        case Smoother::GaussSeidel:
          if (pipelined) {
            if constexpr (kBackendFuses)
              return be.gauss_seidel_pipelined(L.A, L.v, L.f, pass.adjoint);
            else
              return cannot_run(pass.kind);
          }
          be.gauss_seidel(L.A, L.v, L.f, pass.adjoint);
          break;
        case Smoother::XZebra:
          if (pipelined) {
            if constexpr (kBackendFuses)
              return be.zebra_x_pipelined(L.A, L.x_line, L.v, L.f, !pass.adjoint);
            else
              return cannot_run(pass.kind);
          }
          be.zebra_x(L.A, L.x_line, L.v, L.f, !pass.adjoint);
          break;
        case Smoother::YZebra: be.zebra_y(L.A, L.y_line, L.v, L.f, !pass.adjoint); break;
        case Smoother::XYZebra: throw std::logic_error("the schedule resolves the alternating smoother's sweeps");
      }
    }
    // nu1 sweeps, the residual and its restriction in one pass, in place.
    void fused_down(Level& L, int l) {
      if constexpr (kBackendFuses) {
        const MultigridSettings& s = mg_.settings_;
        mg_.backend_.jacobi_restrict_residual(L.A, s.omega, s.nu1, L.v, L.f, L.v, mg_.level(l + 1).f, s.coarsening,
                                              L.v_is_zero);
        L.v_is_zero = false;
      } else {
        cannot_run(PassKind::FusedDown);
      }
    }
    // The prolongation and nu2 sweeps in one pass, in place; the pass that ends the cycle also
    // sums what the caller asked for (FinestSums).
    void fused_up(Level& L, int l, const Pass& pass) {
      if constexpr (kBackendFuses) {
        const MultigridSettings& s = mg_.settings_;
        const FinestSums sums = pass.yields_sums ? hooks_.sums : FinestSums{};
        mg_.backend_.prolong_add_jacobi(L.A, s.omega, s.nu2, mg_.level(l + 1).v, L.v, L.f, L.v, s.coarsening,
                                        sums.f_dot_v, sums.v_norm2, sums.residual2);
      } else {
        cannot_run(pass.kind);
      }
    }
    // The tail below (and including) level `first`, entered with `counter`, as one launch.
    void run_tail(int first, int counter) {
      if constexpr (kBackendRunsTails) {
        CoarseTail tail = mg_.coarse_tail(first, scheme_, counter);
        tail.zero_first = std::exchange(mg_.level(first).v_is_zero, false);
        mg_.backend_.coarse_tail(tail);
      } else {
        cannot_run(PassKind::CoarseTail);
      }
    }
    // A pass the backend cannot run: Multigrid's constructor refuses a schedule with one, so
    // reaching this is a bug, never a pass quietly left out.
    [[noreturn]] static void cannot_run(PassKind kind) {
      throw std::logic_error(std::string("the executor was given a '") + pass_kind_name(kind) +
                             "' pass, which this backend cannot run");
    }
    template <class Operation>
    void perform(OpKind kind, int l, Phase phase, Operation&& operation) {
      record(kind, l);
      if (mg_.level_timing_)
        timed(mg_.level(l).stats, phase, operation);
      else
        operation();
      notify(kind, l);
    }
    template <class Operation>
    void timed(LevelStats& stats, Phase phase, Operation&& operation) {
      using Clock = std::chrono::steady_clock;
      Backend& be = mg_.backend_;
      const std::uint64_t launches0 = be.launches();
      const auto t0 = Clock::now();
      operation();
      be.synchronize();
      stats.seconds[std::size_t(phase)] += std::chrono::duration<double>(Clock::now() - t0).count();
      stats.launches += be.launches() - launches0;
    }
    void record(OpKind kind, int l, int counter = 0) {
      if (hooks_.trace) hooks_.trace->push_back(TraceEvent{kind, std::int16_t(l), counter});
    }
    void notify(OpKind kind, int l, int counter = 0) {
      if (hooks_.observer && *hooks_.observer) (*hooks_.observer)(TraceEvent{kind, std::int16_t(l), counter});
    }
    Multigrid& mg_;
    const CycleHooks& hooks_;
    CycleType scheme_;
    const CycleSchedule& schedule_;
  };

  Backend& backend_;
  MultigridSettings settings_;
  std::vector<Level> levels_;
  typename Backend::CoarseSolver coarse_solver_;
  bool level_timing_ = false;
  std::uint64_t recordings_ = 0;            // who owns this hierarchy's recorded cycles, at the backend
  std::array<CycleSchedule, 3> schedules_;  // by CycleMode
};

}  // namespace kcycle
