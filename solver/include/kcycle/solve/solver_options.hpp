#pragma once
// Everything a solve is set up from, with validation that names the offending parameter.
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "kcycle/backends/backend_selection.hpp"
#include "kcycle/core/invalid_options.hpp"
#include "kcycle/cycle/multigrid_settings.hpp"
#include "kcycle/solve/enum_names.hpp"

namespace kcycle {

// The bounds of every option, the one table the CLI, parameters files, the GUI and its
// script check (options_io.cpp spells them in its messages; validate() enforces them).
inline constexpr int kMaxLevels = 16;
inline constexpr int kMaxSweeps = 1000;  // nu1, nu2: the paper uses 1 to 3
inline constexpr int kMaxGamma = 64;     // gamma >= levels is already a W-like cycle
inline constexpr int kMaxIterations = 10'000'000;
inline constexpr int kMaxRanksPerSide = 1 << 16;
inline constexpr int kMaxAgglomeration = 1 << 20;
inline constexpr int kThreadsPerHardwareThread = 4;  // --threads is bounded by this multiple
// One cycle may take at most this long on a fast machine (validate()'s work estimate).
inline constexpr double kMaxCycleSeconds = 60;
// The most threads a solve may ask for: kThreadsPerHardwareThread per hardware thread.
int max_solver_threads();

inline constexpr int kDefaultAgglomeration = 8;
inline constexpr int kCoarseTailAuto =
    -1;  // --coarse-tail auto  // points a side (--agglomerate-below without a model)

struct SolverOptions {
  int levels = 7;
  double eps = 1e-4;
  double angle_degrees = 45.0;
  CycleChoice cycle{CycleType::Kappa, 2};
  Smoother smoother = Smoother::Jacobi;
  Coarsening coarsening = Coarsening::Full;
  CoarseOperator coarse_operator = CoarseOperator::Rediscretized;
  int nu1 = 2;
  int nu2 = 2;
  bool symmetric_smoothing = false;                        // see MultigridSettings
  CoarsestCalls coarsest_calls = CoarsestCalls::Repeated;  // see MultigridSettings (--repeat-coarsest)
  bool coarse_krylov = false;  // see MultigridSettings (--coarse-krylov): kappa scheme, double precision
  OmegaMode omega_mode = OmegaMode::Paper;
  double omega = 0.0;  // used when omega_mode == Fixed
  SolverKind solver = SolverKind::Multigrid;
  ProblemKind problem = ProblemKind::RandomError;
  double tolerance = 1e-8;  // stop when the monitored norm drops by this factor
  int max_iterations = 10000;
  double divergence_factor = 1e6;  // stop when the monitored norm grows by this factor
  std::uint64_t seed = 1;
  int mode_k = 1, mode_l = 1;  // problem 3: the initial error sin(k pi x) sin(l pi y)
  // Problem 4: the initial error's shapes as text (kcycle/core/drawn_error.hpp), "bump 0.3 0.4
  // 0.1 1; rough 0.7 0.6 0.08 0.5; mode 3 5 0.2"; validate() parses it and says what is wrong.
  std::string drawn_error = "bump 0.35 0.4 0.12 1; rough 0.7 0.65 0.08 0.5";
  int threads = 0;  // 0 (auto): every core this process may use (available_cores())
  BackendKind backend = BackendKind::Cpu;
  bool cuda_graphs = true;                    // CUDA backend: replay each cycle as a recorded graph
  LineSolver line_solver = LineSolver::Auto;  // CUDA backend: how x-lines are solved
  int ranks_x = 0, ranks_y = 0;               // MPI backend: process grid (0, 0: MPI_Dims_create's)
  // MPI backend: fold ranks where a block would have fewer points a side; 0 (auto): what the
  // calibrated model prefers (the command line resolves it), else kDefaultAgglomeration
  // (agglomeration_threshold()).
  int agglomerate_below = 0;
  bool fused = true;  // see MultigridSettings::fused (faster at every size measured)
  // Levels of at most this many unknowns, and all coarser ones, run as one coarse tail
  // (MultigridSettings::coarse_tail_unknowns); 0: off; kCoarseTailAuto: the backend's default.
  int coarse_tail = kCoarseTailAuto;
  Precision precision = Precision::Double;  // Mixed: CPU only; the stand-alone cycle becomes iterative refinement

  friend bool operator==(const SolverOptions&, const SolverOptions&) = default;
};

// Throws InvalidOptions with a message a user can act on. Also refuses a level count whose
// memory would exceed what the machine has available (check_host_memory, memory_account.hpp).
void validate(const SolverOptions& options);
// validate() without the memory check: what a caller that resolves the run itself checks first
// (IterativeSolver checks the memory of the run it resolved, once).
void check_options(const SolverOptions& options);

// Why the cycle's smoothing makes it a non-symmetric preconditioner, which CG's short recurrence
// assumes away ("" where its V- and W-cycles are symmetric): pre- and post-smoothing of different
// counts (nu1 != nu2: "unbalanced"), or an ordered smoother (Gauss-Seidel, zebra) that sweeps in
// the same order before and after the correction (without symmetric smoothing: "ordered"). The
// kappa-cycle's two unequal coarse calls (kappa > 1) are another, milder asymmetry every preset has.
struct CycleAsymmetry {
  std::string unbalanced, ordered;
  bool any() const { return !unbalanced.empty() || !ordered.empty(); }
  std::string text() const {
    return unbalanced.empty() ? ordered : ordered.empty() ? unbalanced : unbalanced + "; " + ordered;
  }
};
CycleAsymmetry cycle_asymmetry(const SolverOptions& options);

// The most host memory the solve takes at once: memory_account()'s peak (memory_account.cpp);
// every_array_written: with the arrays a normal solve never writes counted too (the visualizer's
// stepping writes them).
std::size_t estimated_memory_bytes(const SolverOptions& options, bool every_array_written = false);
// The host address space its arrays map, written or not (memory_account.cpp).
std::size_t estimated_address_space_bytes(const SolverOptions& options);
// The address space RLIMIT_AS leaves beside what this process maps now; nothing without a limit.
std::optional<std::size_t> address_space_room_bytes();
// What this process may still allocate: the least of MemAvailable (/proc/meminfo), the
// address space RLIMIT_AS leaves beside what the process maps now, and the cgroup's
// memory.max less its memory.current; nothing when none of them is known.
std::optional<std::size_t> available_memory_bytes();

// One cycle's work in closed form, and a lower bound on its time on a fast machine: every
// call of a level is a launch, every unknown a level visits costs its sweeps plus the
// residual and the transfers. validate() refuses a cycle whose bound exceeds kMaxCycleSeconds.
struct CycleWorkEstimate {
  double calls = 0;           // calls to the cycle routine, all levels
  double coarsest_calls = 0;  // of them, on the coarsest level
  double point_updates = 0;   // unknowns visited, times the passes over them
  double seconds = 0;         // at kFastLaunchSeconds per pass launch and kFastUpdateSeconds per update
};
inline constexpr double kFastLaunchSeconds = 5e-8;   // a fast machine's cost of one pass over a tiny level
inline constexpr double kFastUpdateSeconds = 1e-10;  // and of one unknown in one pass, all its cores together
CycleWorkEstimate cycle_work_estimate(const SolverOptions& options);

// "W", "w", "inf" -> kKappaW; a positive integer -> itself; otherwise nothing.
std::optional<int> parse_kappa(std::string_view text);
std::string kappa_to_string(int kappa);
// Several, as text says them: "2, 3, W".
std::string kappas_to_string(const std::vector<int>& kappas);

// The MPI backend's fold threshold the options ask for: agglomerate_below, or by default
// kDefaultAgglomeration points a side.
inline int agglomeration_threshold(const SolverOptions& o) {
  return o.agglomerate_below > 0 ? o.agglomerate_below : kDefaultAgglomeration;
}

// The paper's six solvers (section 4). Applying a preset sets smoother, coarsening, coarse
// operator and solver; everything else is left as it is.
struct Preset {
  std::string_view name;
  Smoother smoother;
  Coarsening coarsening;
  CoarseOperator coarse_operator;
  SolverKind solver;
  std::string_view description;
};
const std::vector<Preset>& presets();
std::optional<Preset> find_preset(std::string_view name);
void apply(const Preset& preset, SolverOptions& options);

}  // namespace kcycle
