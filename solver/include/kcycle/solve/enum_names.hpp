#pragma once
// One name table per option enum: the spelling the CLI, the parameters files, the GUI's
// script and every message use, and the label the GUI's combos show. Nothing else spells
// these names.
#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "kcycle/backends/backend_selection.hpp"
#include "kcycle/cycle/multigrid_settings.hpp"

namespace kcycle {

enum class SolverKind { Multigrid, PCG, FCG };
// Double: every vector double. Mixed: the multigrid hierarchy stores and computes in float
// (half the bytes); CG's vectors, the finest residual and every norm stay double.
enum class Precision { Double, Mixed };
enum class OmegaMode { Paper, Fourier, Fixed };
enum class ProblemKind { RandomError = 0, Manufactured = 1, ZeroMeanRandomError = 2, FourierMode = 3, Drawn = 4 };

template <class Enum>
struct EnumName {
  Enum value;
  std::string_view name;   // as typed: --smoother gs-rb
  std::string_view label;  // as shown in the GUI
};

template <class Enum>
struct EnumNames;  // static constexpr std::array<EnumName<Enum>, N> table

template <>
struct EnumNames<Smoother> {
  static constexpr std::array<EnumName<Smoother>, 5> table{{
      {Smoother::Jacobi, "jacobi", "damped Jacobi"},
      {Smoother::GaussSeidel, "gs-rb", "Gauss-Seidel red-black"},
      {Smoother::XZebra, "xzebra", "x-line zebra"},
      {Smoother::YZebra, "yzebra", "y-line zebra"},
      {Smoother::XYZebra, "xyzebra", "alternating x/y zebra"},
  }};
};
template <>
struct EnumNames<Coarsening> {
  static constexpr std::array<EnumName<Coarsening>, 2> table{{
      {Coarsening::Full, "full", "full"},
      {Coarsening::SemiY, "semi", "semi (y only)"},
  }};
};
template <>
struct EnumNames<CoarseOperator> {
  static constexpr std::array<EnumName<CoarseOperator>, 2> table{{
      {CoarseOperator::Rediscretized, "rediscretized", "rediscretized"},
      {CoarseOperator::Galerkin, "galerkin", "Galerkin (RAP)"},
  }};
};
template <>
struct EnumNames<CycleType> {
  static constexpr std::array<EnumName<CycleType>, 3> table{{
      {CycleType::Kappa, "kappa", "kappa-cycle (Algorithm 3)"},
      {CycleType::Gamma, "gamma", "gamma-cycle (Algorithm 1)"},
      {CycleType::F, "f", "F-cycle (Algorithm 2)"},
  }};
};
template <>
struct EnumNames<SolverKind> {
  static constexpr std::array<EnumName<SolverKind>, 3> table{{
      {SolverKind::Multigrid, "mg", "stand-alone cycle"},
      {SolverKind::PCG, "pcg", "CG + cycle (MGCG)"},
      {SolverKind::FCG, "fcg", "flexible CG + cycle"},
  }};
};
template <>
struct EnumNames<Precision> {
  static constexpr std::array<EnumName<Precision>, 2> table{{
      {Precision::Double, "double", "double"},
      {Precision::Mixed, "mixed", "mixed (float hierarchy)"},
  }};
};
template <>
struct EnumNames<OmegaMode> {
  static constexpr std::array<EnumName<OmegaMode>, 3> table{{
      {OmegaMode::Paper, "auto", "paper's formula"},
      {OmegaMode::Fourier, "lfa", "Fourier-optimal (LFA)"},
      {OmegaMode::Fixed, "fixed", "fixed"},
  }};
};
template <>
struct EnumNames<ProblemKind> {
  static constexpr std::array<EnumName<ProblemKind>, 5> table{{
      {ProblemKind::RandomError, "0", "0: random error, zero rhs"},
      {ProblemKind::Manufactured, "1", "1: manufactured solution"},
      {ProblemKind::ZeroMeanRandomError, "2", "2: zero-mean random error"},
      {ProblemKind::FourierMode, "3", "3: one Fourier mode"},
      {ProblemKind::Drawn, "4", "4: a drawn error"},
  }};
};
template <>
struct EnumNames<LineSolver> {
  static constexpr std::array<EnumName<LineSolver>, 3> table{{
      {LineSolver::Auto, "auto", "auto"},
      {LineSolver::Thomas, "thomas", "Thomas (a thread per line)"},
      {LineSolver::Pcr, "pcr", "cyclic reduction (a block per line)"},
  }};
};

template <>
struct EnumNames<BackendKind> {
  static constexpr std::array<EnumName<BackendKind>, 4> table{{
      {BackendKind::Cpu, "cpu", "cpu (threads)"},
      {BackendKind::Cuda, "cuda", "cuda"},
      {BackendKind::Auto, "auto", "auto (CUDA if usable)"},
      {BackendKind::Mpi, "mpi", "mpi (ranks of mpirun)"},
  }};
};

// How text names the backend that runs: "CPU", "CUDA", "MPI" (the one place the titles are).
constexpr std::string_view backend_title(BackendKind kind) {
  switch (kind) {
    case BackendKind::Cpu: return "CPU";
    case BackendKind::Cuda: return "CUDA";
    case BackendKind::Mpi: return "MPI";
    case BackendKind::Auto: break;
  }
  return "auto";
}

template <class Enum>
constexpr const auto& name_table() {
  return EnumNames<Enum>::table;
}

template <class Enum>
constexpr std::string_view enum_name(Enum value) {
  for (const auto& entry : name_table<Enum>())
    if (entry.value == value) return entry.name;
  return "?";
}

template <class Enum>
constexpr std::string_view enum_label(Enum value) {
  for (const auto& entry : name_table<Enum>())
    if (entry.value == value) return entry.label;
  return "?";
}

template <class Enum>
std::optional<Enum> parse_enum(std::string_view text) {
  for (const auto& entry : name_table<Enum>())
    if (entry.name == text) return entry.value;
  return std::nullopt;
}

// to_string(Smoother::Jacobi) == "jacobi", for every enum with a name table.
template <class Enum>
requires requires { EnumNames<Enum>::table; }
constexpr std::string_view to_string(Enum value) { return enum_name(value); }

// "a, b or c": the accepted names, for messages.
template <class Enum>
std::string enum_choices() {
  std::string out;
  const auto& table = name_table<Enum>();
  for (std::size_t k = 0; k < table.size(); ++k) {
    if (k > 0) out += k + 1 == table.size() ? " or " : ", ";
    out += table[k].name;
  }
  return out;
}

}  // namespace kcycle
