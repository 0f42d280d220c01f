#include "kcycle/solve/solver_options.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "kcycle/core/drawn_error.hpp"
#include "kcycle/core/grid.hpp"
#include "kcycle/cycle/cycle_counts.hpp"
#include "kcycle/solve/memory_account.hpp"

namespace kcycle {

namespace {

[[noreturn]] void reject(const std::string& what) { throw InvalidOptions(what); }

}  // namespace

namespace {

// A number from the first line of a file ("max" and unreadable: nothing).
std::optional<std::size_t> number_in_file(const std::string& path) {
  std::ifstream in(path);
  std::string text;
  if (!(in >> text) || text == "max") return std::nullopt;
  std::size_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// "Key:   1234 kB" from a /proc file, in bytes.
std::optional<std::size_t> proc_kib(const std::string& path, const std::string& wanted) {
  std::ifstream in(path);
  std::string key, unit;
  std::size_t value = 0;
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    if (fields >> key >> value && key == wanted) return value * 1024;
  }
  return std::nullopt;
}

// memory.max less memory.current of this process's cgroup (v2), or v1's limit less usage.
std::optional<std::size_t> cgroup_room() {
  std::string group;
  std::ifstream self("/proc/self/cgroup");
  for (std::string line; std::getline(self, line);)
    if (line.rfind("0::", 0) == 0) group = line.substr(3);
  for (const std::string& dir : {"/sys/fs/cgroup" + group, std::string("/sys/fs/cgroup")}) {
    const auto limit = number_in_file(dir + "/memory.max"), used = number_in_file(dir + "/memory.current");
    if (limit) return *limit > used.value_or(0) ? *limit - used.value_or(0) : 0;
  }
  const auto limit = number_in_file("/sys/fs/cgroup/memory/memory.limit_in_bytes");
  const auto used = number_in_file("/sys/fs/cgroup/memory/memory.usage_in_bytes");
  if (limit && *limit < (std::size_t(1) << 60)) return *limit > used.value_or(0) ? *limit - used.value_or(0) : 0;
  return std::nullopt;
}

// The address space RLIMIT_AS leaves beside what this process maps now.
std::optional<std::size_t> address_space_room() {
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return std::nullopt;
  const std::size_t mapped = proc_kib("/proc/self/status", "VmSize:").value_or(0);
  return limit.rlim_cur > mapped ? std::size_t(limit.rlim_cur) - mapped : 0;
}

}  // namespace

std::optional<std::size_t> address_space_room_bytes() { return address_space_room(); }

std::optional<std::size_t> available_memory_bytes() {
  std::optional<std::size_t> room;
  for (const auto& bound : {proc_kib("/proc/meminfo", "MemAvailable:"), address_space_room(), cgroup_room()})
    if (bound) room = room ? std::min(*room, *bound) : *bound;
  return room;
}

int max_solver_threads() { return kThreadsPerHardwareThread * std::max(1, int(std::thread::hardware_concurrency())); }

CycleWorkEstimate cycle_work_estimate(const SolverOptions& o) {
  // Passes per call: the sweeps (an x and a y line sweep per alternating one), the residual
  // with the restriction, and the prolongation.
  const double sweeps = double(o.nu1 + o.nu2) * (o.smoother == Smoother::XYZebra ? 2 : 1);
  const double passes = sweeps + 2;
  CycleWorkEstimate w;
  for (int l = 1; l <= o.levels; ++l) {
    double calls = 0;
    // Made once, the coarsest level's calls are those of the level above.
    const int called_as = l == o.levels && o.coarsest_calls == CoarsestCalls::Once && l > 1 ? l - 1 : l;
    if (o.cycle.type == CycleType::Gamma)
      calls = std::pow(double(o.cycle.counter), called_as - 1);
    else  // the F-cycle of Algorithm 2 makes kappa = 2's calls
      calls = double(level_calls(o.cycle.type == CycleType::F ? 2 : std::min(o.cycle.counter, o.levels), called_as));
    w.calls += calls;
    if (l == o.levels) w.coarsest_calls = calls;
    w.point_updates += calls * passes * double(level_shape(o.levels, l, o.coarsening).unknowns());
  }
  w.seconds = w.calls * passes * kFastLaunchSeconds + w.point_updates * kFastUpdateSeconds;
  return w;
}

// Option values in messages: %g, so 1e-07 does not print as 0.000000.
std::string shown(double x) {
  std::ostringstream s;
  s << x;
  return s.str();
}

// Messages name options by their key (levels, eps, ...), as every front end spells them.
namespace {

void check_integer(const char* key, long long value, long long lo, long long hi) {
  if (value < lo || value > hi)
    reject(std::string(key) + " must be an integer from " + std::to_string(lo) + " to " + std::to_string(hi) +
           " (got " + std::to_string(value) + ")");
}

std::string cycle_words(const SolverOptions& o) {
  switch (o.cycle.type) {
    case CycleType::Gamma: return "gamma=" + std::to_string(o.cycle.counter);
    case CycleType::F: return "F";
    case CycleType::Kappa: return "kappa=" + kappa_to_string(o.cycle.counter);
  }
  return "?";
}

std::string sci(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1e", x);
  return text;
}

}  // namespace

CycleAsymmetry cycle_asymmetry(const SolverOptions& o) {
  CycleAsymmetry a;
  if (o.nu1 != o.nu2)
    a.unbalanced = "nu1 = " + std::to_string(o.nu1) + " and nu2 = " + std::to_string(o.nu2) +
                   " sweeps before and after the correction";
  if (o.smoother != Smoother::Jacobi && !o.symmetric_smoothing)
    a.ordered = std::string(to_string(o.smoother)) +
                " sweeps in the same order before and after the correction (symmetric smoothing reverses them)";
  return a;
}

void check_options(const SolverOptions& o) {
  check_integer("levels", o.levels, 1, kMaxLevels);
  if (!std::isfinite(o.eps) || o.eps <= 0.0 || o.eps > 1.0) reject("eps must be in (0, 1] (got " + shown(o.eps) + ")");
  if (!std::isfinite(o.angle_degrees)) reject("angle must be a finite number of degrees");
  if (o.cycle.counter < 1)
    reject(std::string(o.cycle.type == CycleType::Gamma ? "gamma" : "kappa") +
           " must be a positive integer or W (got " + std::to_string(o.cycle.counter) + ")");
  if (o.cycle.type == CycleType::Gamma) check_integer("gamma", o.cycle.counter, 1, kMaxGamma);
  check_integer("nu1", o.nu1, 0, kMaxSweeps);
  check_integer("nu2", o.nu2, 0, kMaxSweeps);
  if (o.problem == ProblemKind::FourierMode) {
    const GridShape fine = level_shape(o.levels, 1, o.coarsening);
    if (o.mode_k < 1 || o.mode_k > fine.nx || o.mode_l < 1 || o.mode_l > fine.ny)
      reject("mode K,L must have 1 <= K <= " + std::to_string(fine.nx) + " and 1 <= L <= " + std::to_string(fine.ny) +
             " at " + std::to_string(o.levels) + " levels (got " + std::to_string(o.mode_k) + "," +
             std::to_string(o.mode_l) + ")");
  }
  if (o.problem == ProblemKind::Drawn) {
    const ParsedShapes parsed = parse_error_shapes(o.drawn_error);
    if (!parsed.error.empty())
      reject("the drawn error (--error): " + parsed.error + " (got " + quoted_value(o.drawn_error) + ")");
    const GridShape fine = level_shape(o.levels, 1, o.coarsening);
    if (const std::string why = error_shapes_problem(parsed.shapes, fine.nx, fine.ny); !why.empty())
      reject("the drawn error (--error): " + why + " at " + std::to_string(o.levels) + " levels");
  }
  if (o.nu1 + o.nu2 == 0) reject("nu1 + nu2 must be at least 1: a cycle needs relaxation");
  if (o.coarse_krylov && o.cycle.type != CycleType::Kappa)
    reject("coarse-krylov accelerates the kappa-cycle's two coarse calls: use cycle kappa (kappa=W is the K-cycle)");
  // Its CG steps make the cycle a nonlinear preconditioner, which CG's short recurrence assumes away
  // (jacobi, 9 levels, kappa=2: 89 PCG iterations against the plain cycle's 45; FCG: 36).
  if (o.coarse_krylov && o.solver == SolverKind::PCG)
    reject(
        "coarse-krylov makes the cycle a nonlinear preconditioner, for which CG (solver pcg) is not made: use "
        "solver fcg (flexible CG) or mg");
  if (o.omega_mode == OmegaMode::Fixed && !(o.omega > 0.0 && o.omega < 2.0))
    reject("omega must be in (0, 2), auto or lfa (got " + shown(o.omega) + ")");
  if (!(o.tolerance > 0.0 && o.tolerance < 1.0))
    reject("tol must be a reduction factor in (0, 1), e.g. 1e-8 (got " + shown(o.tolerance) + ")");
  check_integer("max-iter", o.max_iterations, 1, kMaxIterations);
  if (!(o.divergence_factor > 1.0)) reject("the divergence factor must exceed 1");
  if (o.threads < 0 || o.threads > max_solver_threads())
    reject("threads must be auto (0: every core) or from 1 to " + std::to_string(max_solver_threads()) + " (" +
           std::to_string(kThreadsPerHardwareThread) + " per hardware thread of this machine; got " +
           std::to_string(o.threads) + ")");
  if (o.coarse_tail < kCoarseTailAuto) reject("coarse-tail must be auto, off or a positive number of unknowns");
  if (o.precision == Precision::Mixed && (o.backend == BackendKind::Cuda || o.backend == BackendKind::Mpi))
    reject("precision mixed runs on the CPU backend only (for now): use backend cpu or auto");
  if (o.agglomerate_below != 0 && (o.agglomerate_below < 2 || o.agglomerate_below > kMaxAgglomeration))
    reject("agglomerate-below must be auto or from 2 to " + std::to_string(kMaxAgglomeration) + " points (got " +
           std::to_string(o.agglomerate_below) + ")");
  if (o.ranks_x < 0 || o.ranks_y < 0 || o.ranks_x > kMaxRanksPerSide || o.ranks_y > kMaxRanksPerSide)
    reject("ranks-x and ranks-y must be from 1 to " + std::to_string(kMaxRanksPerSide) +
           ", or 0 (0: as many as the ranks need; both 0: MPI chooses)");
  if (const CycleWorkEstimate w = cycle_work_estimate(o); w.seconds > kMaxCycleSeconds)
    reject("one " + cycle_words(o) + " cycle at " + std::to_string(o.levels) + " levels with nu1=" +
           std::to_string(o.nu1) + ", nu2=" + std::to_string(o.nu2) + " makes " + sci(w.calls) + " calls (" +
           sci(w.coarsest_calls) + " of level " + std::to_string(o.levels) + ") and " + sci(w.point_updates) +
           " point updates: at least " + shown(std::round(w.seconds)) + " s even on a fast machine; refused (at most " +
           shown(kMaxCycleSeconds) + " s per cycle): use fewer levels, a smaller counter or fewer sweeps");
}

void validate(const SolverOptions& o) {
  check_options(o);
  // The CPU's account where the backend is auto (the larger on the host).
  check_host_memory(o, memory_account(o, resolve(o, o.backend == BackendKind::Auto ? BackendKind::Cpu : o.backend)));
}

std::optional<int> parse_kappa(std::string_view text) {
  if (text == "W" || text == "w" || text == "inf" || text == "infinity") return kKappaW;
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 1) return std::nullopt;
  return value;
}

std::string kappa_to_string(int kappa) { return kappa == kKappaW ? "W" : std::to_string(kappa); }

std::string kappas_to_string(const std::vector<int>& kappas) {
  std::string text;
  for (const int kappa : kappas) text += (text.empty() ? "" : ", ") + kappa_to_string(kappa);
  return text;
}

const std::vector<Preset>& presets() {
  using C = Coarsening;
  using O = CoarseOperator;
  static const std::vector<Preset> all = {
      {"jacobi", Smoother::Jacobi, C::Full, O::Rediscretized, SolverKind::Multigrid,
       "damped Jacobi, full coarsening, rediscretized operators, stand-alone"},
      {"jacobi+cg", Smoother::Jacobi, C::Full, O::Rediscretized, SolverKind::PCG, "the same cycle preconditioning CG"},
      {"xyzebra-galerkin", Smoother::XYZebra, C::Full, O::Galerkin, SolverKind::Multigrid,
       "alternating x/y zebra line relaxation, full coarsening, Galerkin operators"},
      {"xyzebra-galerkin+cg", Smoother::XYZebra, C::Full, O::Galerkin, SolverKind::PCG,
       "the same cycle preconditioning CG"},
      {"xzebra-semi-galerkin", Smoother::XZebra, C::SemiY, O::Galerkin, SolverKind::Multigrid,
       "x zebra line relaxation, semi-coarsening in y, Galerkin operators"},
      {"xzebra-semi-galerkin+cg", Smoother::XZebra, C::SemiY, O::Galerkin, SolverKind::PCG,
       "the same cycle preconditioning CG"},
  };
  return all;
}

std::optional<Preset> find_preset(std::string_view name) {
  for (const Preset& p : presets())
    if (p.name == name) return p;
  return std::nullopt;
}

void apply(const Preset& p, SolverOptions& o) {
  o.smoother = p.smoother;
  o.coarsening = p.coarsening;
  o.coarse_operator = p.coarse_operator;
  o.solver = p.solver;
}
}  // namespace kcycle
