#include "kcycle/io/solver_options.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "kcycle/core/grid.hpp"

namespace kcycle {

namespace {

[[noreturn]] void reject(const std::string& what) { throw InvalidOptions(what); }

std::string gib(std::size_t bytes) {
  std::ostringstream s;
  s.precision(3);
  s << double(bytes) / double(1ull << 30) << " GiB";
  return s.str();
}

}  // namespace

std::size_t estimated_memory_bytes(const SolverOptions& o) {
  std::size_t doubles = 0;
  for (int l = 1; l <= o.levels; ++l) doubles += 3 * level_shape(o.levels, l, o.coarsening).storage();
  // Finest level: problem data (rhs, guess, exact) and solver vectors (x, r, z, p, q, work).
  doubles += 9 * full_coarsening_shape(o.levels, 1).storage();
  return doubles * sizeof(double);
}

std::optional<std::size_t> available_memory_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::size_t value = 0;
  std::string unit;
  while (meminfo >> key >> value >> unit)
    if (key == "MemAvailable:") return value * 1024;
  return std::nullopt;
}

// Option values in messages: %g, so 1e-07 does not print as 0.000000.
std::string shown(double x) {
  std::ostringstream s;
  s << x;
  return s.str();
}

// Messages name options by their key (levels, eps, ...), as every front end spells them.
void validate(const SolverOptions& o) {
  if (o.levels < 1 || o.levels > kMaxLevels)
    reject("levels must be between 1 and " + std::to_string(kMaxLevels) + " (got " + std::to_string(o.levels) + ")");
  if (!std::isfinite(o.eps) || o.eps <= 0.0 || o.eps > 1.0) reject("eps must be in (0, 1] (got " + shown(o.eps) + ")");
  if (!std::isfinite(o.angle_degrees)) reject("angle must be a finite number of degrees");
  if (o.cycle.counter < 1)
    reject(std::string(o.cycle.type == CycleType::Gamma ? "gamma" : "kappa") +
           " must be a positive integer or W (got " + std::to_string(o.cycle.counter) + ")");
  if (o.nu1 < 0 || o.nu2 < 0) reject("nu1 and nu2 must be non-negative");
  if (o.problem == ProblemKind::FourierMode) {
    const GridShape fine = level_shape(o.levels, 1, o.coarsening);
    if (o.mode_k < 1 || o.mode_k > fine.nx || o.mode_l < 1 || o.mode_l > fine.ny)
      reject("mode K,L must have 1 <= K <= " + std::to_string(fine.nx) + " and 1 <= L <= " + std::to_string(fine.ny) +
             " at " + std::to_string(o.levels) + " levels (got " + std::to_string(o.mode_k) + "," +
             std::to_string(o.mode_l) + ")");
  }
  if (o.nu1 + o.nu2 == 0) reject("nu1 + nu2 must be at least 1: a cycle needs relaxation");
  if (o.omega_mode == OmegaMode::Fixed && !(o.omega > 0.0 && o.omega < 2.0))
    reject("omega must be in (0, 2), auto or lfa (got " + shown(o.omega) + ")");
  if (!(o.tolerance > 0.0 && o.tolerance < 1.0))
    reject("tol must be a reduction factor in (0, 1), e.g. 1e-8 (got " + shown(o.tolerance) + ")");
  if (o.max_iterations < 1) reject("max-iter must be at least 1");
  if (!(o.divergence_factor > 1.0)) reject("the divergence factor must exceed 1");
  if (o.threads < 0) reject("threads must be 0 (all cores) or positive");
  if (o.coarse_tail < kCoarseTailAuto) reject("coarse-tail must be auto, off or a positive number of unknowns");
  if (o.precision == Precision::Mixed && (o.backend == BackendKind::Cuda || o.backend == BackendKind::Mpi))
    reject("precision mixed runs on the CPU backend only (for now): use backend cpu or auto");
  if (o.agglomerate_below != 0 && (o.agglomerate_below < 2 || o.agglomerate_below > 1 << 20))
    reject("agglomerate-below must be auto or at least 2 points (got " + std::to_string(o.agglomerate_below) + ")");
  if (o.ranks_x < 0 || o.ranks_y < 0)
    reject("ranks-x and ranks-y must be positive, or 0 (0: as many as the ranks need; both 0: MPI chooses)");
  const std::size_t need = estimated_memory_bytes(o);
  if (const auto have = available_memory_bytes(); have && need > *have / 10 * 9)
    reject("levels " + std::to_string(o.levels) + " need about " + gib(need) + " of memory; this machine has " +
           gib(*have) + " available");
}

std::optional<int> parse_kappa(std::string_view text) {
  if (text == "W" || text == "w" || text == "inf" || text == "infinity") return kKappaW;
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 1) return std::nullopt;
  return value;
}

std::string kappa_to_string(int kappa) { return kappa == kKappaW ? "W" : std::to_string(kappa); }

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
