#include "kcycle/cycle/cycle_schedule.hpp"

#include <algorithm>
#include <numeric>

#include "kcycle/cycle/byte_model.hpp"
#include "kcycle/cycle/coarse_tail.hpp"
#include "kcycle/cycle/cycle_counts.hpp"

namespace kcycle {

const Pass* CycleSchedule::first_pass_beyond(Capabilities can) const {
  const auto runs = [&](const Pass& p) {
    switch (pass_kind_traits(p.kind).needs) {
      case PassNeeds::Core: return true;
      case PassNeeds::FusedPasses: return can.fused_passes;
      case PassNeeds::CoarseTail: return can.coarse_tails;
    }
    return false;
  };
  for (const LevelSchedule& level : levels_)
    for (const std::vector<Pass>* passes : {&level.down, &level.up})
      for (const Pass& p : *passes)
        if (!runs(p)) return &p;
  return nullptr;
}

int LevelSchedule::launches() const {
  auto sum = [](const std::vector<Pass>& passes) {
    return std::accumulate(passes.begin(), passes.end(), 0, [](int n, const Pass& p) { return n + p.launches; });
  };
  return sum(down) + sum(up);
}

void LevelSchedule::index_passes() {
  at_pre_sweep.clear();
  at_post_sweep.clear();
  at_other.fill(-1);
  int k = 0;
  for (const std::vector<Pass>* passes : {&down, &up})
    for (const Pass& p : *passes) {
      if (p.at == OpKind::PreRelax || p.at == OpKind::PostRelax) {
        std::vector<int>& sweeps = p.at == OpKind::PreRelax ? at_pre_sweep : at_post_sweep;
        if (sweeps.size() <= std::size_t(p.at_sweep)) sweeps.resize(std::size_t(p.at_sweep) + 1, -1);
        sweeps[std::size_t(p.at_sweep)] = k;
      } else {
        at_other.at(std::size_t(p.at)) = k;
      }
      ++k;
    }
}

namespace {

// The rules of what runs fused, pipelined or in the coarse tail: here and nowhere else.

// A Gauss-Seidel or x-zebra sweep runs as one pass, its colours or line parities trailing each
// other by a row (not y-zebra: a y-line spans all rows).
bool pipelinable(Smoother kind) { return kind == Smoother::GaussSeidel || kind == Smoother::XZebra; }
// Jacobi's pre-smoothing runs with the residual and its restriction as one pass, and its
// post-smoothing with the prolongation.
bool fusable_down(const MultigridSettings& s) { return s.smoother == Smoother::Jacobi && s.nu1 > 0; }
bool fusable_up(const MultigridSettings& s) { return s.smoother == Smoother::Jacobi && s.nu2 > 0; }
// The top of the coarse tail of a resolved threshold: the first level small enough, if a coarser
// one follows it and the tail's levels fit; else 0.
int coarse_tail_top(const MultigridSettings& s) {
  const std::size_t below = s.coarse_tail_unknowns.value_or(0);
  for (int l = std::max(1, s.levels - kMaxTailLevels + 1); l < s.levels && below > 0; ++l)
    if (level_shape(s.levels, l, s.coarsening).unknowns() <= below) return l;
  return 0;
}

// The passes of a relaxation phase (PreRelax or PostRelax) of `sweeps` sweeps, one per sweep:
// forward, or in the adjoint order; the alternating smoother's x and y sweeps start with x
// going forward, with y in the adjoint order.
void add_sweeps(std::vector<Pass>& passes, const MultigridSettings& s, GridShape shape, OpKind phase, int sweeps,
                bool adjoint, const CycleSchedule& schedule) {
  for (int k = 0; k < sweeps; ++k) {
    const Smoother kind = sweep_smoother(s.smoother, k, adjoint);
    const bool pipelined = schedule.pipelines(kind);
    passes.push_back({pipelined ? PassKind::PipelinedSweep : PassKind::Sweep, phase, k, kind, adjoint, 1,
                      launches_per_relaxation(kind, pipelined), relaxation_bytes(kind, shape, pipelined)});
  }
}

}  // namespace

CycleSchedule CycleSchedule::plan(const MultigridSettings& s, Capabilities can, CycleMode mode) {
  CycleSchedule out;
  out.mode_ = mode;
  out.coarsest_calls_ = s.coarsest_calls;
  // Fused and pipelined passes where the backend has them, unless each operation is watched.
  const bool fuses = can.fused_passes && s.fused && mode != CycleMode::Watched;
  out.pipelined_gauss_seidel_ = fuses && pipelinable(Smoother::GaussSeidel);
  out.pipelined_x_zebra_ = fuses && pipelinable(Smoother::XZebra);
  const bool down = fuses && fusable_down(s), up = fuses && fusable_up(s);
  out.zero_start_in_first_pass_ = down && s.levels > 1;
  // The coarse tail unless its levels' operations are watched one by one (timed, it is timed
  // as the one launch it is).
  if (can.coarse_tails && mode != CycleMode::Watched) out.tail_top_ = coarse_tail_top(s);
  out.levels_.resize(std::size_t(s.levels));
  for (int l = 1; l <= s.levels; ++l) {
    LevelSchedule& L = out.levels_[std::size_t(l - 1)];
    L.level = l;
    L.in_tail = out.tail_top_ > 0 && l >= out.tail_top_;
    if (L.in_tail) {
      if (l == out.tail_top_) L.down.push_back({PassKind::CoarseTail, OpKind::Call, 0, s.smoother, false, 0, 1});
      continue;
    }
    const GridShape fine = level_shape(s.levels, l, s.coarsening);
    if (l == s.levels) {
      L.down.push_back(
          {PassKind::CoarseSolve, OpKind::CoarseSolve, 0, s.smoother, false, 0, 1, pass_bytes::coarse_solve(fine)});
      continue;
    }
    const GridShape coarse = level_shape(s.levels, l + 1, s.coarsening);
    L.fused_down = down;
    L.fused_up = up;
    if (down) {
      L.down.push_back({PassKind::FusedDown, OpKind::Restrict, 0, s.smoother, false, s.nu1, 1,
                        pass_bytes::jacobi_restrict_residual(fine, coarse),
                        pass_bytes::jacobi_restrict_residual_from_zero(fine, coarse)});
      L.down.push_back({PassKind::ZeroInFirstPass, OpKind::ZeroCoarse, 0, s.smoother, false, 0, 0});
    } else if (fuses) {  // the coarse correction zeroed in the restriction's launch
      add_sweeps(L.down, s, fine, OpKind::PreRelax, s.nu1, false, out);
      L.down.push_back({PassKind::RestrictAndZero, OpKind::Restrict, 0, s.smoother, false, 0, 1,
                        pass_bytes::restrict_residual_and_zero(fine, coarse)});
    } else {
      add_sweeps(L.down, s, fine, OpKind::PreRelax, s.nu1, false, out);
      L.down.push_back({PassKind::ResidualRestrict, OpKind::Restrict, 0, s.smoother, false, 0, 1,
                        pass_bytes::restrict_residual(fine, coarse)});
      L.down.push_back(
          {PassKind::ZeroCoarse, OpKind::ZeroCoarse, 0, s.smoother, false, 0, 1, pass_bytes::fill(coarse)});
    }
    // The post-smoothing runs in the adjoint order with symmetric smoothing.
    const bool adjoint = s.symmetric_smoothing;
    if (up) {
      // The finest level's up pass ends the cycle: it also sums the iterate it writes.
      L.up.push_back({PassKind::FusedUp, OpKind::PostRelax, s.nu2 - 1, s.smoother, adjoint, s.nu2, 1,
                      pass_bytes::prolong_add_jacobi(fine, coarse), 0, l == 1});
    } else {
      L.up.push_back(
          {PassKind::Prolong, OpKind::Prolong, 0, s.smoother, false, 0, 1, pass_bytes::prolong_add(fine, coarse)});
      add_sweeps(L.up, s, fine, OpKind::PostRelax, s.nu2, adjoint, out);
    }
  }
  for (LevelSchedule& L : out.levels_) L.index_passes();
  return out;
}

int coarse_tail_depth(std::size_t unknowns, Coarsening coarsening) {
  MultigridSettings s;
  s.levels = 16;
  s.coarsening = coarsening;
  s.coarse_tail_unknowns = unknowns;
  const int top = CycleSchedule::plan(s, kAsResolved, CycleMode::Normal).tail_top();
  return top > 0 ? s.levels - top : 0;
}

CycleSchedule CycleSchedule::per_call(MultigridSettings settings, Capabilities can) {
  settings.levels = 16;  // a coarse tail spans at most kMaxTailLevels below the top
  return plan(settings, can, CycleMode::Normal);
}

std::uint64_t CycleSchedule::launches_per_cycle(int kappa) const {
  const int k = std::min(kappa, levels());
  std::uint64_t launches = 0;
  for (int l = 1; l <= levels(); ++l)
    launches += level_calls(k, l, levels(), coarsest_calls_) * std::uint64_t(launches_per_call(l));
  return launches;
}

const Pass* CycleSchedule::sums_pass() const {
  if (levels_.empty()) return nullptr;
  for (const Pass& p : levels_.front().up)
    if (p.yields_sums) return &p;
  return nullptr;
}

int CycleSchedule::sweep_launches(int l) const {
  int launches = 0;
  for (const std::vector<Pass>* passes : {&level(l).down, &level(l).up})
    for (const Pass& p : *passes)
      if (p.kind == PassKind::Sweep || p.kind == PassKind::PipelinedSweep) launches += p.launches;
  return launches;
}

bool CycleSchedule::fuses_any() const {
  for (const LevelSchedule& L : levels_)
    for (const std::vector<Pass>* passes : {&L.down, &L.up})
      for (const Pass& p : *passes)
        if (p.kind == PassKind::FusedDown || p.kind == PassKind::FusedUp || p.kind == PassKind::PipelinedSweep ||
            p.kind == PassKind::RestrictAndZero)
          return true;
  return false;
}

namespace {

// "one pass: 2 sweeps + residual + restriction, ..." for a list of passes; runs of the same
// sweep read as one entry ("2 sweeps"), passes without a launch (bookkeeping) are left out.
std::string describe_passes(const std::vector<Pass>& list) {
  std::string text;
  for (std::size_t k = 0; k < list.size(); ++k) {
    const Pass& p = list[k];
    if (p.launches == 0) continue;
    std::size_t run = 1;
    while ((p.kind == PassKind::Sweep || p.kind == PassKind::PipelinedSweep) && k + run < list.size() &&
           list[k + run].kind == p.kind && list[k + run].smoother == p.smoother)
      ++run;
    if (!text.empty()) text += ", ";
    if (p.kind == PassKind::FusedDown)
      text += "one pass: " + std::to_string(p.sweeps) + " sweeps + residual + restriction";
    else if (p.kind == PassKind::FusedUp)
      text += "one pass: prolongation + " + std::to_string(p.sweeps) + " sweeps" + (p.yields_sums ? " + norms" : "");
    else if (run > 1)
      text += std::to_string(run) + " " + pass_kind_name(p.kind) + "s";
    else
      text += pass_kind_name(p.kind);
    k += run - 1;
  }
  return text.empty() ? std::string("-") : text;
}

}  // namespace

std::string CycleSchedule::describe_level(int l) const {
  const LevelSchedule& L = level(l);
  if (L.in_tail && L.down.empty()) return "in the coarse tail (launched from level " + std::to_string(tail_top_) + ")";
  std::string out = "down [" + describe_passes(L.down) + "]";
  if (!L.up.empty()) out += "  up [" + describe_passes(L.up) + "]";
  return out;
}

std::string CycleSchedule::describe() const {
  std::string out;
  for (const LevelSchedule& L : levels_) {
    out += "level " + std::to_string(L.level) + ": " + describe_level(L.level);
    if (!(L.in_tail && L.down.empty()))
      out += "  " + std::to_string(L.launches()) + (L.launches() == 1 ? " launch" : " launches") + " a call";
    out += "\n";
  }
  return out;
}

}  // namespace kcycle
