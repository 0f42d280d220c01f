#pragma once
// The CPU backend: thin OpenMP loops over rows around the shared point bodies in
// kernels.hpp. Each public operation is one "launch" (the paper's unit of overhead) and is
// counted. Coarse levels, where forking threads costs more than it saves, run on one thread.
#include <cstdint>
#include <string_view>
#include <vector>

#include "kcycle/banded_lu.hpp"
#include "kcycle/field.hpp"
#include "kcycle/stencil.hpp"

namespace kcycle {

class CpuBackend {
 public:
  using Vector = Field;
  static constexpr std::string_view name() { return "cpu"; }
  // Fused operations issue 3 + nu launches per cycle-routine call above the coarsest level.
  static constexpr int kLaunchesPerCallBeyondRelax = 3;

  // threads <= 0: OpenMP's default (all cores).
  explicit CpuBackend(int threads = 0);

  int threads() const { return threads_; }
  // Below this many unknowns an operation runs on one thread (measured: levels of 63^2 and
  // smaller are faster serial on 2 cores; 127^2 already gains from both).
  static constexpr std::size_t kParallelThreshold = 4096;

  // A zero-filled field; also sizes the scratch space the fused restriction needs.
  Field make_vector(GridShape shape);

  // --- multigrid operations ---------------------------------------------------------
  // out <- one damped Jacobi sweep applied to v (out's boundary must equal v's).
  void jacobi(const Stencil9& A, double omega, const Field& v, const Field& f, Field& out);
  // fc <- FullWeighting(f - A v): the residual is formed row by row in scratch and never
  // written to memory.
  void restrict_residual(const Stencil9& A, const Field& v, const Field& f, Field& fc);
  // v <- v + Bilinear(vc).
  void prolong_add(const Field& vc, Field& v);
  void coarse_solve(const BandedLU& lu, const Field& f, Field& v);

  // --- vector operations on interiors (boundary rings untouched) -----------------------
  void fill(Field& x, double value);  // whole field, ring included
  void copy(const Field& x, Field& y);
  void residual(const Stencil9& A, const Field& v, const Field& f, Field& r);
  void apply(const Stencil9& A, const Field& u, Field& out);
  double dot(const Field& x, const Field& y);
  void axpy(double a, const Field& x, Field& y);  // y <- y + a x
  void xpay(const Field& x, double b, Field& y);  // y <- x + b y
  void triad(double s, const Field& b, const Field& c, Field& a);  // a <- b + s c

  std::uint64_t launches() const { return launches_; }
  void reset_launches() { launches_ = 0; }

 private:
  bool parallel(const GridShape& shape) const;
  int threads_;
  std::uint64_t launches_ = 0;
  std::vector<double> restrict_rows_;  // 3 residual rows per thread
  int restrict_row_stride_ = 0;
};

}  // namespace kcycle
