#include "kcycle/io/options_io.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

#include "kcycle/io/file_input.hpp"
#include "kcycle/io/nearest_name.hpp"
#include "kcycle/solve/enum_names.hpp"

namespace kcycle {

namespace {

// Whole-text numbers only: "12x", "", " 3" and overflow are refused.
template <class Int>
bool read_integer(std::string_view text, Int& out) {
  Int value{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return false;
  out = value;
  return true;
}

// An integer within [lo, hi]: the range is part of what the option expects.
template <class Int>
bool read_integer_in(std::string_view text, Int& out, long long lo, long long hi) {
  long long value = 0;
  if (!read_integer(text, value) || value < lo || value > hi) return false;
  out = Int(value);
  return true;
}

bool read_finite(std::string_view text, double& out) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);  // from_chars takes no '+'
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) return false;
  out = value;
  return true;
}

// A finite number in (lo, hi), or [lo, hi] on the sides that are closed.
bool read_number_in(std::string_view text, double& out, double lo, double hi, bool closed_lo, bool closed_hi) {
  double value = 0;
  if (!read_finite(text, value)) return false;
  if (value < lo || value > hi || (!closed_lo && value == lo) || (!closed_hi && value == hi)) return false;
  out = value;
  return true;
}

bool read_bool(std::string_view text, bool& out) {
  if (text == "true" || text == "on" || text == "1" || text == "yes") return out = true, true;
  if (text == "false" || text == "off" || text == "0" || text == "no") return out = false, true;
  return false;
}

template <class Enum>
bool read_enum(std::string_view text, Enum& out) {
  const auto value = parse_enum<Enum>(text);
  if (value) out = *value;
  return value.has_value();
}

std::string number_text(double x) {
  std::ostringstream s;
  s.precision(17);
  s << x;
  return s.str();
}

template <class Enum>
std::string choices_text() {
  static const std::string text = "one of " + enum_choices<Enum>();
  return text;
}

std::vector<OptionSpec> make_specs() {
  using O = SolverOptions;
  static const std::string preset_choices = [] {
    std::string s = "one of ";
    for (const Preset& p : presets()) s += (s.size() > 7 ? ", " : "") + std::string(p.name);
    return s;
  }();
  static const std::string smoother_choices = choices_text<Smoother>();
  static const std::string coarsening_choices = choices_text<Coarsening>();
  static const std::string operator_choices = choices_text<CoarseOperator>();
  static const std::string solver_choices = choices_text<SolverKind>();
  static const std::string precision_choices = choices_text<Precision>();
  static const std::string cycle_choices = choices_text<CycleType>();
  static const std::string backend_choices = choices_text<BackendKind>();
  auto integers = [](long long lo, long long hi) {
    return "an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
  };
  static const std::string levels_range = integers(1, kMaxLevels), sweeps_range = integers(0, kMaxSweeps),
                           gamma_range = integers(1, kMaxGamma), iterations_range = integers(1, kMaxIterations),
                           ranks_range = integers(0, kMaxRanksPerSide),
                           threads_range = "auto or " + integers(1, max_solver_threads()),
                           agglomeration_range = "auto or " + integers(2, kMaxAgglomeration),
                           tail_range = "auto, off or " + integers(1, std::numeric_limits<int>::max());
  return {
      {"preset", preset_choices,
       "One of the paper's six solvers (sets smoother, coarsening, coarse operator and solver; options given "
       "explicitly override it)",
       false, false,
       [](O& o, std::string_view t) {
         const auto p = find_preset(t);
         if (p) apply(*p, o);
         return p.has_value();
       },
       [](const O&) { return std::string(); }},
      {"levels", levels_range, "Levels n; the finest grid has (2^n-1)^2 unknowns", false, true,
       [](O& o, std::string_view t) { return read_integer_in(t, o.levels, 1, kMaxLevels); },
       [](const O& o) { return std::to_string(o.levels); }},
      {"eps", "a number in (0, 1]", "Anisotropy epsilon in (0,1]; 1 is Poisson", false, true,
       [](O& o, std::string_view t) { return read_number_in(t, o.eps, 0, 1, false, true); },
       [](const O& o) { return number_text(o.eps); }},
      {"angle", "a finite number of degrees", "Angle phi of the strong direction, degrees", false, true,
       [](O& o, std::string_view t) { return read_finite(t, o.angle_degrees); },
       [](const O& o) { return number_text(o.angle_degrees); }},
      {"cycle", cycle_choices, "Recursion: kappa (Algorithm 3), gamma (Algorithm 1), f (Algorithm 2)", false, true,
       [](O& o, std::string_view t) {
         CycleType type{};
         if (!read_enum(t, type)) return false;
         if (type != o.cycle.type) o.cycle = {type, type == CycleType::Gamma ? 1 : 2};  // gamma 1, kappa 2, F
         return true;
       },
       [](const O& o) { return std::string(enum_name(o.cycle.type)); }},
      {"kappa", "a positive integer or W", "Cycle counter: 1=V, 2=F, W (or >= levels) = W-cycle", false, true,
       [](O& o, std::string_view t) {
         const auto k = parse_kappa(t);
         if (k) o.cycle = {CycleType::Kappa, *k};
         return k.has_value();
       },
       [](const O& o) { return o.cycle.type == CycleType::Kappa ? kappa_to_string(o.cycle.counter) : std::string(); }},
      {"gamma", gamma_range, "Cycle index for --cycle gamma (1=V, 2=W)", false, true,
       [](O& o, std::string_view t) {
         int g = 0;
         if (!read_integer_in(t, g, 1, kMaxGamma)) return false;
         o.cycle = {CycleType::Gamma, g};
         return true;
       },
       [](const O& o) { return o.cycle.type == CycleType::Gamma ? std::to_string(o.cycle.counter) : std::string(); }},
      {"smoother", smoother_choices,
       "Relaxation: jacobi (damped), gs-rb (Gauss-Seidel, red-black), xzebra / yzebra (line Gauss-Seidel along x / "
       "y, zebra order), xyzebra (alternating; an x and a y sweep count as two)",
       false, true, [](O& o, std::string_view t) { return read_enum(t, o.smoother); },
       [](const O& o) { return std::string(enum_name(o.smoother)); }},
      {"coarsening", coarsening_choices, "full, or semi (y only; pair with xzebra)", false, true,
       [](O& o, std::string_view t) { return read_enum(t, o.coarsening); },
       [](const O& o) { return std::string(enum_name(o.coarsening)); }},
      {"coarse-operator", operator_choices, "rediscretized or galerkin (R A P)", false, true,
       [](O& o, std::string_view t) { return read_enum(t, o.coarse_operator); },
       [](const O& o) { return std::string(enum_name(o.coarse_operator)); }},
      {"nu1", sweeps_range, "Pre-relaxation sweeps", false, true,
       [](O& o, std::string_view t) { return read_integer_in(t, o.nu1, 0, kMaxSweeps); },
       [](const O& o) { return std::to_string(o.nu1); }},
      {"nu2", sweeps_range, "Post-relaxation sweeps", false, true,
       [](O& o, std::string_view t) { return read_integer_in(t, o.nu2, 0, kMaxSweeps); },
       [](const O& o) { return std::to_string(o.nu2); }},
      {"symmetric", "true or false",
       "Post-smoothing in the adjoint order (black before red, even lines first, y before x), so V- and W-cycles "
       "are symmetric preconditioners; default: the paper's same order before and after",
       true, true, [](O& o, std::string_view t) { return read_bool(t, o.symmetric_smoothing); },
       [](const O& o) { return std::string(o.symmetric_smoothing ? "true" : "false"); }},
      {"repeat-coarsest", "on or off",
       "on (the paper's count): a call whose recursive calls land on the coarsest level makes all of them; off (the "
       "authors' code): only the first, as the coarsest level is solved exactly (the same iterate, fewer calls)",
       false, true,
       [](O& o, std::string_view t) {
         bool on = true;
         if (!read_bool(t, on)) return false;
         o.coarsest_calls = on ? CoarsestCalls::Repeated : CoarsestCalls::Once;
         return true;
       },
       [](const O& o) { return std::string(o.coarsest_calls == CoarsestCalls::Repeated ? "on" : "off"); }},
      {"coarse-krylov", "on or off",
       "on: the Krylov-accelerated kappa-cycle (Notay and Vassilevski's K-cycle applied to Algorithm 3): where a "
       "call makes two coarse calls, the first call's correction is weighed by CG, the second runs on the residual "
       "left (skipped when the first removed three quarters of it) and both are combined by a flexible-CG step; "
       "kappa=W is the K-cycle, kappa=1 unchanged",
       false, true, [](O& o, std::string_view t) { return read_bool(t, o.coarse_krylov); },
       [](const O& o) { return std::string(o.coarse_krylov ? "on" : "off"); }},
      {"omega", "auto, lfa or a number in (0, 2)",
       "Jacobi damping: auto (paper's formula), lfa (Fourier-optimal) or a number", false, true,
       [](O& o, std::string_view t) {
         if (t == "auto" || t == "lfa") return read_enum(t, o.omega_mode);
         if (!read_number_in(t, o.omega, 0, 2, false, false)) return false;
         o.omega_mode = OmegaMode::Fixed;
         return true;
       },
       [](const O& o) {
         return o.omega_mode == OmegaMode::Fixed ? number_text(o.omega) : std::string(enum_name(o.omega_mode));
       },
       [](const O& o) {
         return o.smoother == Smoother::Jacobi ? std::string_view() : "applies to --smoother jacobi only";
       }},
      {"solver", solver_choices, "mg: stand-alone cycles; pcg: CG preconditioned by one cycle (MGCG); fcg: flexible CG",
       false, true, [](O& o, std::string_view t) { return read_enum(t, o.solver); },
       [](const O& o) { return std::string(enum_name(o.solver)); }},
      {"precision", precision_choices,
       "double, or mixed: the multigrid hierarchy in float (half the bytes) with CG, the finest residual and the "
       "norms in double; the stand-alone cycle then runs as iterative refinement (CPU backend)",
       false, true, [](O& o, std::string_view t) { return read_enum(t, o.precision); },
       [](const O& o) { return std::string(enum_name(o.precision)); }},
      {"problem", "0, 1, 2, 3 or 4",
       "0: zero rhs, random guess in [0,1), stop on error; 1: manufactured solution, stop on residual; "
       "2: as 0 with a zero-mean guess in [-1,1); 3: as 0 with one Fourier mode as the guess (--mode K,L); 4: as 0 "
       "with a drawn guess (--error)",
       false, true, [](O& o, std::string_view t) { return read_enum(t, o.problem); },
       [](const O& o) { return std::string(enum_name(o.problem)); }},
      {"tol", "a number in (0, 1)", "Stop when the monitored norm drops by this factor", false, true,
       [](O& o, std::string_view t) { return read_number_in(t, o.tolerance, 0, 1, false, false); },
       [](const O& o) { return number_text(o.tolerance); }},
      {"max-iter", iterations_range, "Iteration limit", false, true,
       [](O& o, std::string_view t) { return read_integer_in(t, o.max_iterations, 1, kMaxIterations); },
       [](const O& o) { return std::to_string(o.max_iterations); }},
      {"seed", "a non-negative integer", "Seed of the random initial guess", false, true,
       [](O& o, std::string_view t) { return read_integer(t, o.seed); },
       [](const O& o) { return std::to_string(o.seed); }},
      {"mode", "two integers K,L from 1 to the grid's points a side",
       "Problem 3's initial error sin(K pi x) sin(L pi y): K, L from 1 (smoothest) to the grid's points a side "
       "(roughest)",
       false, true,
       [](O& o, std::string_view t) {
         const std::size_t comma = t.find(',');
         return comma != std::string_view::npos && read_integer_in(t.substr(0, comma), o.mode_k, 1, 1 << 16) &&
                read_integer_in(t.substr(comma + 1), o.mode_l, 1, 1 << 16);
       },
       [](const O& o) { return std::to_string(o.mode_k) + "," + std::to_string(o.mode_l); },
       [](const O& o) {
         return o.problem == ProblemKind::FourierMode ? std::string_view() : "applies to --problem 3 only";
       }},
      {"error", "shapes 'bump X Y R A; rough X Y R A; mode K L A' separated by ';'",
       "Problem 4's initial error, a sum of shapes on the unit square: bump (smooth, exp(-r^2/R^2)), rough (a "
       "checkerboard under that envelope), mode (A sin(K pi x) sin(L pi y)); the visualizer draws them with the mouse",
       false, true,
       [](O& o, std::string_view t) {
         o.drawn_error = std::string(t);
         return !t.empty();
       },
       [](const O& o) { return o.drawn_error; },
       [](const O& o) { return o.problem == ProblemKind::Drawn ? std::string_view() : "applies to --problem 4 only"; }},
      {"threads", threads_range, "Solver threads (auto or 0: the cores this process may use)", false, false,
       [](O& o, std::string_view t) {
         if (t == "auto") return (o.threads = 0), true;
         return read_integer_in(t, o.threads, 0, max_solver_threads());
       },
       [](const O& o) { return o.threads == 0 ? std::string("auto") : std::to_string(o.threads); }},
      {"backend", backend_choices,
       "cpu (the thread team), cuda (fails without a usable GPU), or auto (CUDA if usable, else the CPU, saying why)",
       false, true, [](O& o, std::string_view t) { return read_enum(t, o.backend); },
       [](const O& o) { return std::string(enum_name(o.backend)); }},
      {"fused", "on or off",
       "CPU, Jacobi: run a level's pre-smoothing sweeps with the residual and restriction, and its prolongation "
       "with the post-smoothing sweeps, each as one pass over memory (bitwise the same iterate, faster at every "
       "size measured; stepping in the visualizer always runs every operation on its own); also MGCG's own "
       "passes (two per iteration on grids out of cache) and mixed refinement's (two per step)",
       false, true, [](O& o, std::string_view t) { return read_bool(t, o.fused); },
       [](const O& o) { return std::string(o.fused ? "on" : "off"); }},
      {"ranks-x", ranks_range,
       "MPI backend: ranks across x (0: ranks / ranks-y; both 0: strips for x- or y-zebra, else MPI_Dims_create's "
       "grid)",
       false, false, [](O& o, std::string_view t) { return read_integer_in(t, o.ranks_x, 0, kMaxRanksPerSide); },
       [](const O& o) { return std::to_string(o.ranks_x); },
       [](const O& o) { return o.backend == BackendKind::Mpi ? std::string_view() : "applies to --backend mpi only"; }},
      {"ranks-y", ranks_range,
       "MPI backend: ranks across y (0: ranks / ranks-x; ranks-x times ranks-y must be the ranks of mpirun)", false,
       false, [](O& o, std::string_view t) { return read_integer_in(t, o.ranks_y, 0, kMaxRanksPerSide); },
       [](const O& o) { return std::to_string(o.ranks_y); },
       [](const O& o) { return o.backend == BackendKind::Mpi ? std::string_view() : "applies to --backend mpi only"; }},
      {"agglomerate-below", agglomeration_range,
       "MPI backend: fold 2 x 2 ranks into one where a rank's block of a level would have fewer points a side; "
       "auto: the threshold the model in ./kcycle-calibration.json prefers (a `kcycle calibrate --backend mpi`), "
       "8 without one",
       false, true,
       [](O& o, std::string_view t) {
         if (t == "auto") return (o.agglomerate_below = 0) == 0;
         return read_integer_in(t, o.agglomerate_below, 2, kMaxAgglomeration);
       },
       [](const O& o) { return o.agglomerate_below == 0 ? std::string("auto") : std::to_string(o.agglomerate_below); },
       [](const O& o) { return o.backend == BackendKind::Mpi ? std::string_view() : "applies to --backend mpi only"; }},
      {"coarse-tail", tail_range,
       "Run the levels of at most this many unknowns, and every coarser one, as one launch (the coarse tail: "
       "CUDA runs it in one thread block); auto: the backend's default (off: measured slower than graphs' launches on "
       "an H100)",
       false, true,
       [](O& o, std::string_view t) {
         if (t == "auto") return (o.coarse_tail = kCoarseTailAuto) < 0;
         if (t == "off") return (o.coarse_tail = 0) == 0;
         return read_integer(t, o.coarse_tail) && o.coarse_tail >= 1;
       },
       [](const O& o) {
         return o.coarse_tail == kCoarseTailAuto ? std::string("auto")
                : o.coarse_tail == 0             ? std::string("off")
                                                 : std::to_string(o.coarse_tail);
       }},
      {"line-solver", "auto, thomas or pcr",
       "CUDA backend: x-lines solved by one thread each (Thomas), by one block each (parallel cyclic reduction), "
       "or auto (cyclic reduction from 31 points a line, where a line fits the block's shared memory)",
       false, true, [](O& o, std::string_view t) { return read_enum(t, o.line_solver); },
       [](const O& o) { return std::string(enum_name(o.line_solver)); },
       [](const O& o) {
         return o.backend == BackendKind::Cuda || o.backend == BackendKind::Auto
                    ? std::string_view()
                    : "applies to --backend cuda (or auto) only";
       }},
      {"graphs", "on or off", "CUDA backend: replay each cycle as a recorded CUDA Graph (on/off)", false, true,
       [](O& o, std::string_view t) { return read_bool(t, o.cuda_graphs); },
       [](const O& o) { return std::string(o.cuda_graphs ? "on" : "off"); },
       [](const O& o) {
         return o.backend == BackendKind::Cuda || o.backend == BackendKind::Auto
                    ? std::string_view()
                    : "applies to --backend cuda (or auto) only";
       }},
  };
}

[[noreturn]] void refuse(const std::string& message) { throw InvalidOptions(message); }

std::string_view trim(std::string_view s) {
  const auto a = s.find_first_not_of(" \t\r");
  if (a == std::string_view::npos) return {};
  const auto b = s.find_last_not_of(" \t\r");
  return s.substr(a, b - a + 1);
}

}  // namespace

const std::vector<OptionSpec>& option_specs() {
  static const std::vector<OptionSpec> specs = make_specs();
  return specs;
}

const OptionSpec* find_option(std::string_view key) {
  for (const OptionSpec& spec : option_specs())
    if (spec.key == key) return &spec;
  return nullptr;
}

std::vector<std::string> option_key_list() {
  std::vector<std::string> keys;
  for (const OptionSpec& spec : option_specs()) keys.emplace_back(spec.key);
  return keys;
}

std::vector<std::string> option_value_words(const OptionSpec& spec) {
  std::string text(spec.expects);
  if (text.rfind("one of ", 0) == 0) text.erase(0, 7);
  for (std::size_t at; (at = text.find(" or ")) != std::string::npos;) text.replace(at, 4, ", ");
  std::vector<std::string> words;
  for (std::size_t begin = 0; begin <= text.size();) {
    const std::size_t end = std::min(text.find(", ", begin), text.size());
    const std::string item = text.substr(begin, end - begin);
    // A literal is one word of letters, digits and - _ . +; "a number in (0" and "2)" are not.
    const bool literal =
        !item.empty() && std::isalnum(static_cast<unsigned char>(item[0])) &&
        std::all_of(item.begin(), item.end(), [](char c) {
          return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.' || c == '+';
        });
    if (literal) words.push_back(item);
    begin = end + 2;
  }
  return words;
}

std::string option_keys() {
  std::string keys;
  for (const OptionSpec& spec : option_specs()) keys += (keys.empty() ? "" : ", ") + std::string(spec.key);
  return keys;
}

namespace {

// Why a number's text did not fit a double: "" when it is not that.
std::string out_of_double_range(std::string_view text) {
  const std::string copy(text.substr(0, 400));
  if (copy.empty()) return "";
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(copy.c_str(), &end);
  if (errno != ERANGE || end != copy.c_str() + copy.size()) return "";
  return std::fabs(value) < 1 ? ": too small (the smallest positive number is about 2.2e-308)"
                              : ": too large (the largest number is about 1.8e308)";
}

}  // namespace

void set_option(SolverOptions& options, const OptionSetting& s) {
  const OptionSpec* spec = find_option(s.key);
  if (!spec)
    refuse(s.where + ": unknown option" + did_you_mean(s.key, option_key_list()) + " (known: " + option_keys() + ")");
  SolverOptions changed = options;  // a refused value leaves the options as they were
  if (!spec->set(changed, s.value))
    refuse(s.where + " must be " + std::string(spec->expects) + " (got " + quoted_value(s.value) + ")" +
           out_of_double_range(s.value));
  options = changed;
}

void apply_settings(SolverOptions& options, const std::vector<OptionSetting>& settings) {
  const OptionSetting* cycle = nullptr;
  const OptionSetting* counter = nullptr;  // kappa or gamma
  for (const OptionSetting& s : settings) {
    if (!find_option(s.key)) refuse(s.where + ": unknown option (known: " + option_keys() + ")");
    if (s.key == "cycle") cycle = &s;
    if (s.key == "kappa" || s.key == "gamma") {
      if (counter && counter->key != s.key) refuse(s.where + " and " + counter->where + " contradict each other");
      counter = &s;
    }
  }
  if (cycle && counter) {
    const auto type = parse_enum<CycleType>(cycle->value);
    const bool fits = type && ((counter->key == "kappa") == (*type == CycleType::Kappa)) &&
                      ((counter->key == "gamma") == (*type == CycleType::Gamma));
    if (type && !fits)
      refuse(counter->where + " does not apply to " + cycle->where + " " + cycle->value +
             (*type == CycleType::F ? " (the F-cycle has no counter)" : ""));
  }
  for (const OptionSpec& spec : option_specs())
    for (const OptionSetting& s : settings)
      if (s.key == spec.key) set_option(options, s);
  // A setting the run would ignore is refused, saying when it applies; one that asks for
  // the default changes nothing, and a parameters file may carry it.
  static const SolverOptions defaults;
  for (const OptionSetting& s : settings) {
    const OptionSpec* spec = find_option(s.key);
    if (!spec->applies || spec->applies(options).empty() || spec->get(options) == spec->get(defaults)) continue;
    refuse(s.where + " " + quoted_value(s.value) + " would be ignored: it " + std::string(spec->applies(options)));
  }
}

std::vector<OptionSetting> overlay(const std::vector<OptionSetting>& base, const std::vector<OptionSetting>& over) {
  auto cycle_key = [](const std::string& key) { return key == "cycle" || key == "kappa" || key == "gamma"; };
  bool over_sets_cycle = false;
  for (const OptionSetting& s : over) over_sets_cycle |= cycle_key(s.key);
  std::vector<OptionSetting> merged;
  for (const OptionSetting& b : base) {
    bool replaced = over_sets_cycle && cycle_key(b.key);
    for (const OptionSetting& s : over) replaced |= s.key == b.key;
    if (!replaced) merged.push_back(b);
  }
  merged.insert(merged.end(), over.begin(), over.end());
  return merged;
}

std::vector<OptionSetting> parse_parameters(std::string_view text, const std::string& source) {
  std::vector<OptionSetting> settings;
  std::map<std::string, int, std::less<>> first_line;
  std::size_t pos = 0;
  for (int number = 1; pos < text.size(); ++number) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    const std::string at = source + ":" + std::to_string(number);
    if (line.find('\0') != std::string_view::npos) refuse(at + ": not a text line (NUL byte)");
    // A comment runs from '#' outside quotes to the end of the line.
    bool quoted = false;
    for (std::size_t k = 0; k < line.size(); ++k) {
      if (line[k] == '"') quoted = !quoted;
      if (line[k] == '#' && !quoted) {
        line = line.substr(0, k);
        break;
      }
    }
    line = trim(line);
    if (line.empty()) continue;
    const auto eq = line.find('=');
    if (eq == std::string_view::npos) refuse(at + ": expected key = value (got " + quoted_value(line) + ")");
    const std::string key(trim(line.substr(0, eq)));
    std::string_view value = trim(line.substr(eq + 1));
    if (key.empty()) refuse(at + ": a key is missing before '='");
    if (!find_option(key))
      refuse(at + ": unknown key " + quoted_value(key) + did_you_mean(key, option_key_list()) +
             " (known: " + option_keys() + ")");
    if (!value.empty() && value.front() == '"') {
      const bool closed = value.size() >= 2 && value.back() == '"';
      if (!closed || value.substr(1, value.size() - 2).find('"') != std::string_view::npos)
        refuse(at + ": " + key + ": unterminated or malformed string " + quoted_value(value));
      value = value.substr(1, value.size() - 2);
    }
    if (value.empty()) refuse(at + ": " + key + " has no value");
    if (const auto seen = first_line.find(key); seen != first_line.end())
      refuse(at + ": " + key + " is given twice (first on line " + std::to_string(seen->second) + ")");
    first_line.emplace(key, number);
    settings.push_back({key, std::string(value), at + ": " + key});
  }
  return settings;
}

namespace {

std::string read_text_file(const std::string& path) {
  return read_input_file(path, "parameters file", /*allow_stdin=*/true);
}

}  // namespace

std::vector<OptionSetting> read_parameters_file(const std::string& path) {
  return parse_parameters(read_text_file(path), path);
}

SolverOptions parameters_from_text(std::string_view text, const std::string& source) {
  SolverOptions options;
  apply_settings(options, parse_parameters(text, source));
  try {
    validate(options);
  } catch (const InvalidOptions& e) {
    refuse(source + ": " + e.what());
  }
  return options;
}

SolverOptions load_parameters_file(const std::string& path) { return parameters_from_text(read_text_file(path), path); }

std::string to_parameters_file(const SolverOptions& options) {
  std::string out = "# kcycle parameters: kcycle solve --config FILE\n";
  for (const OptionSpec& spec : option_specs()) {
    if (!spec.in_parameters_file || (spec.applies && !spec.applies(options).empty())) continue;
    const std::string value = spec.get(options);
    if (value.empty()) continue;
    double number = 0;
    const bool bare = read_finite(value, number) || value == "true" || value == "false";
    out += std::string(spec.key) + " = " + (bare ? value : "\"" + value + "\"") + "\n";
  }
  return out;
}

}  // namespace kcycle
