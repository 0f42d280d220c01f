#pragma once
// The CPU backend: thin loops over rows around the shared point bodies in kernels.hpp, run by a
// ThreadTeam (thread_team.hpp) in chunks of rows that any awake thread may take. Each public
// operation is one "launch" (the paper's unit of overhead) and is counted. Coarse levels, where
// waking threads costs more than it saves, run on the calling thread alone. Sums are added row
// by row in row order whatever thread computed each row: bitwise the same for any thread count.
// T is the type its vectors hold and its sweeps compute in: CpuBackend (double), or
// FloatCpuBackend for the hierarchy of a mixed-precision solve (half the bytes, twice the
// values per vector instruction); reductions return double in both.
#include <algorithm>
#include <concepts>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "kcycle/backends/backend.hpp"
#include "kcycle/backends/capabilities.hpp"
#include "kcycle/backends/cpu/chunk_preparation.hpp"
#include "kcycle/backends/cpu/row_blocks.hpp"
#include "kcycle/backends/cpu/thread_team.hpp"
#include "kcycle/core/banded_lu.hpp"
#include "kcycle/core/field.hpp"
#include "kcycle/core/field_view.hpp"
#include "kcycle/core/grid.hpp"
#include "kcycle/core/stencil.hpp"
#include "kcycle/core/tridiagonal.hpp"
#include "kcycle/cycle/coarse_tail.hpp"

namespace kcycle {

template <class T>
class BasicCpuBackend {
 public:
  using Vector = BasicField<T>;
  using LineFactor = TridiagonalFactor;  // host memory already: used as it is
  using CoarseSolver = BandedLU;
  static constexpr std::string_view name() { return "cpu"; }

  // threads <= 0: the cores this process may run on (available_cores()).
  explicit BasicCpuBackend(int threads = 0);
  explicit BasicCpuBackend(const ExecutionTarget& target) : BasicCpuBackend(target.threads) {}
  // On another backend's team (a mixed-precision solve's float hierarchy and its double CG):
  // one set of threads, awake for both.
  explicit BasicCpuBackend(std::shared_ptr<ThreadTeam> team);

  int threads() const { return team_->size(); }
  const std::shared_ptr<ThreadTeam>& team() const { return team_; }
  // Below this many unknowns an operation runs on the calling thread alone (measured: levels of
  // 63^2 and smaller are faster serial on 2 cores; 127^2 already gains from both).
  static constexpr std::size_t kParallelThreshold = 2048;
  // Chunks a pass is split into: up to this many per thread (a descheduled thread holds up a
  // pass by at most one), of at least kMinChunkRows rows (kMinHaloChunkRows for the passes
  // that recompute rows beyond a chunk's edges).
  static constexpr int kChunksPerThread = 2;
  static constexpr int kMinChunkRows = 8;
  static constexpr int kMinHaloChunkRows = 16;

  // The team's synchronisation points since reset_launches(): one per pass handed to the other
  // threads (a pass the caller runs alone has none), on the level of `ny` rows, and in all.
  std::uint64_t team_passes(int ny) const {
    for (const auto& [rows, passes] : team_passes_by_rows_)
      if (rows == ny) return passes;
    return 0;
  }
  std::uint64_t team_passes() const {
    std::uint64_t all = 0;
    for (const auto& level : team_passes_by_rows_) all += level.second;
    return all;
  }

  // A zero-filled field; also sizes the scratch space the fused restriction needs.
  Vector make_vector(GridShape shape);
  TridiagonalFactor make_line_factor(TridiagonalFactor factor) const { return factor; }
  BandedLU make_coarse_solver(BandedLU lu) const { return lu; }

  // --- multigrid operations ---------------------------------------------------------
  // out <- one damped Jacobi sweep applied to v (out's boundary must equal v's).
  void jacobi(const Stencil9& A, double omega, const Vector& v, const Vector& f, Vector& out);
  // One Gauss-Seidel sweep in place, in four colours: red points (i+j even) on odd rows, on
  // even rows, then black points likewise (reverse: the opposite order, the adjoint sweep).
  // Red-black alone would race: the 9-point stencil couples diagonal neighbours, which share
  // a red-black colour. On a 5-point stencil this is exactly red-black Gauss-Seidel.
  // Four launches.
  void gauss_seidel(const Stencil9& A, Vector& v, const Vector& f, bool reverse);
  // The same sweep as one pass over memory, each colour trailing the one before it by a row:
  // bitwise what gauss_seidel() gives. One launch.
  void gauss_seidel_pipelined(const Stencil9& A, Vector& v, const Vector& f, bool reverse);
  // One zebra sweep of exact x-line (grid row) solves: odd rows then even rows, or even then
  // odd. `line` factors the row matrix (a[1][0], a[1][1], a[1][2]). Two launches.
  void zebra_x(const Stencil9& A, const TridiagonalFactor& line, Vector& v, const Vector& f, bool odd_first);
  // The same sweep as one pass, the second parity's lines trailing the first's by a row:
  // bitwise what zebra_x() gives. One launch.
  void zebra_x_pipelined(const Stencil9& A, const TridiagonalFactor& line, Vector& v, const Vector& f, bool odd_first);
  // The same along y-lines (grid columns); `line` factors (a[0][1], a[1][1], a[2][1]). Not
  // pipelined: a y-line spans every row, so the second parity's columns cannot start before the
  // first's back substitutions have run down all of them. Two launches.
  void zebra_y(const Stencil9& A, const TridiagonalFactor& line, Vector& v, const Vector& f, bool odd_first);
  // The parts the sweeps above are made of, one launch each, for a backend that must refresh
  // ghost values between them (MpiBackend): Gauss-Seidel's colour k (0..3; the sweep runs 0, 1,
  // 2, 3, or 3, 2, 1, 0 in reverse), and the x-lines (rows) or y-lines (columns) first, first + 2, ...
  void gauss_seidel_colour(const Stencil9& A, Vector& v, const Vector& f, int colour);
  void zebra_x_lines(const Stencil9& A, const TridiagonalFactor& line, Vector& v, const Vector& f, int first_row);
  void zebra_y_lines(const Stencil9& A, const TridiagonalFactor& line, Vector& v, const Vector& f, int first_col);
  // fc <- Restrict(f - A v), full weighting (Full) or (1/4)[1 2 1] in y (SemiY). The
  // residual is formed row by row in scratch and never written to memory.
  void restrict_residual(const Stencil9& A, const Vector& v, const Vector& f, Vector& fc,
                         Coarsening coarsening = Coarsening::Full);
  // The same, and vc (the coarse level's correction) set to zero, ring included, in one launch:
  // each thread block zeroes the coarse rows it restricts into.
  void restrict_residual_and_zero(const Stencil9& A, const Vector& v, const Vector& f, Vector& fc, Vector& vc,
                                  Coarsening coarsening = Coarsening::Full);
  // out <- nu Jacobi sweeps applied to v, and fc <- Restrict(f - A out), in one pass over
  // memory (rows stream through per-thread rings): bitwise what nu jacobi() calls (ping-pong
  // between v and out) and restrict_residual() give. v itself is left as it was. One launch.
  // v_is_zero: v stands for zero and is not read (its zeroing was skipped; jacobi_from_zero).
  void jacobi_restrict_residual(const Stencil9& A, double omega, int nu, const Vector& v, const Vector& f, Vector& out,
                                Vector& fc, Coarsening coarsening = Coarsening::Full, bool v_is_zero = false);
  // v <- v + Prolong(vc): bilinear (Full) or linear in y (SemiY).
  // out <- nu Jacobi sweeps applied to v + Prolong(vc), in one pass over memory: bitwise what
  // prolong_add() and nu jacobi() calls give. v itself is left as it was. One launch.
  // f_dot_out: also (f, out), summed row by row as the pass writes them (MGCG's (r, z) when the
  // finest level's f is r), in a fixed order for a given thread count. out_norm2: (out, out)
  // likewise (the error norm when the exact solution is zero). out_residual2: |f - A out|^2,
  // each row's once the rows beside it are written (those beside another thread's block after
  // the pass): the stand-alone solve's residual norm without a pass of its own.
  void prolong_add_jacobi(const Stencil9& A, double omega, int nu, const Vector& vc, const Vector& v, const Vector& f,
                          Vector& out, Coarsening coarsening = Coarsening::Full, double* f_dot_out = nullptr,
                          double* out_norm2 = nullptr, double* out_residual2 = nullptr);
  void prolong_add(const Vector& vc, Vector& v, Coarsening coarsening = Coarsening::Full);
  void coarse_solve(const BandedLU& lu, const Vector& f, Vector& v);

  // --- the coarse tail (coarse_tail.hpp): double hierarchies only ----------------------
  // Off by default: measured 0.91-1.09x (--coarse-tail 300, one thread) and slower on two threads
  // (docs/cuda.md, "Coarse tail").
  static constexpr std::size_t kCoarseTailUnknowns = 0;
  // The whole tail on the calling thread (SerialTeam): one launch. Its bytes are not counted
  // (a tail's levels live in cache).
  void coarse_tail(CoarseTail& tail) requires std::same_as<T, double>;
  level::LineView line_view(const TridiagonalFactor& f) const { return {f.lower(), f.cprime(), f.inv_denom()}; }
  CoarseView coarse_view(const BandedLU& lu) const {
    return {lu.band().data(), lu.size(), lu.half_bandwidth(), lu.work()};
  }

  // --- vector operations on interiors (boundary rings untouched) -----------------------
  void fill(Vector& x, double value);  // whole field, ring included
  void copy(const Vector& x, Vector& y);
  void residual(const Stencil9& A, const Vector& v, const Vector& f, Vector& r);
  void apply(const Stencil9& A, const Vector& u, Vector& out);
  // dot, xpay, xpay_energy and dot_apply also take a vector in float (U = float, T = double):
  // a mixed-precision hierarchy's correction, which MGCG reads where it lies.
  template <class U>
  double dot(const Vector& x, const BasicField<U>& y);
  void axpy(double a, const Vector& x, Vector& y);  // y <- y + a x
  template <class U>
  void xpay(const BasicField<U>& x, double b, Vector& y);             // y <- x + b y
  void triad(double s, const Vector& b, const Vector& c, Vector& a);  // a <- b + s c

  // --- MGCG's own passes: two per iteration, A p recomputed where needed, never stored ----
  // Where the vectors leave the cache: from this many unknowns (measured, kcycle_microbench
  // BM_CgTwoPasses against BM_CgStoredAp on a 32 MiB L3: 0.8x as fast at 1023^2, 1.2x at
  // 2047^2 and 4095^2). Below it, MGCG runs xpay, apply_dot and two axpy_norm2 (CgStepPlan).
  static constexpr std::size_t kTwoPassCgUnknowns = 2'000'000;
  // p <- z + beta p (as xpay), returning (p, A p) (as apply_dot): one pass. Each thread
  // recomputes the new p of the row beyond each edge of its block from a copy of the old.
  template <class U>
  double xpay_energy(const Stencil9& A, const BasicField<U>& z, double beta, Vector& p);
  // x <- x + a p and r <- r - a A p (as two axpy_norm2 with q = A p), returning |x - exact|^2
  // (|x|^2 where exact is null) and |r|^2: one pass. With `rounded`, r's float rounding is
  // written there on the way (a mixed-precision hierarchy's right-hand side).
  struct UpdateNorms {
    double error2, residual2;
  };
  UpdateNorms update_x_and_r(double a, const Stencil9& A, const Vector& p, Vector& x, Vector& r, const Vector* exact,
                             FloatField* rounded = nullptr);
  // (w, A p) without storing A p: flexible CG's (z, q).
  template <class U>
  double dot_apply(const BasicField<U>& w, const Stencil9& A, const Vector& p);

  // Fused forms that return a reduction of what they compute anyway, so Krylov steps and
  // norms cost no extra pass over memory:
  double apply_dot(const Stencil9& A, const Vector& p, Vector& q);  // q <- A p; returns (p, q)
  // y <- y + a x; returns |y - minus|^2 of the updated y (|y|^2 when minus is null).
  // x may be in float (U = float, T = double): iterative refinement's x <- x + z, z read where
  // the float cycle left it.
  template <class U>
  double axpy_norm2(double a, const BasicField<U>& x, Vector& y, const Vector* minus);
  // |f - A v|^2; writes nothing, or the residual into *r (the mixed-precision refinement step).
  double residual_norm2(const Stencil9& A, const Vector& v, const Vector& f, Vector* r = nullptr);
  // |f - A v|^2, and the residual's float rounding written into `rounded` (iterative refinement's
  // residual handed straight to a float hierarchy: no double residual written and read back).
  double residual_norm2_rounded(const Stencil9& A, const Vector& v, const Vector& f,
                                FloatField& rounded) requires std::same_as<T, double>;
  // out (nx*ny floats, row-major): kernels::image_value at every interior point.
  void image(const Stencil9& A, FieldView view, const Vector& v, const Vector& f, const Vector* exact, float* out);

  // y <- x rounded to T, interiors (rings untouched): the hand-over between a mixed-precision
  // solve's double vectors and its float hierarchy. One launch.
  void assign(const Field& x, Vector& y);
  void assign(const FloatField& x, Vector& y);

  // Host transfers: the CPU backend's vectors are host fields already (not counted).
  void upload(const Field& host, Vector& vector);
  void download(const Vector& vector, Field& host);
  void synchronize() {}

  std::uint64_t launches() const { return launches_; }
  // Points processed by all launches: the measure of work (the paper's N_ops up to a constant
  // per operation kind).
  std::uint64_t points() const { return points_; }
  // Bytes the launches moved at least (byte_model.hpp's pass_bytes of each).
  std::uint64_t bytes() const { return bytes_; }
  void reset_launches() {
    launches_ = 0;
    points_ = 0;
    bytes_ = 0;
    team_passes_by_rows_.clear();
  }

 private:
  bool parallel(const GridShape& shape) const;
  // How many chunks a pass over `count` rows (or columns) of a level splits into.
  int chunks(const GridShape& shape, int count, int min_rows = kMinChunkRows) const;
  // body(rows, member) for `chunks` contiguous blocks of rows 1..count (detail::RowRange),
  // each on whichever thread of the team claims it.
  template <class Body>
  void for_row_blocks(const GridShape& shape, int chunks, int count, Body&& body) {
    run_chunks(shape, chunks, [&](int c, int member) { body(detail::block_of(count, c, chunks), member); });
  }
  // body(chunk, member) for chunks 0..chunks-1 of a pass over a level of `shape`, on the team.
  template <class Body>
  void run_chunks(const GridShape& shape, int chunks, Body&& body) {
    if (chunks > 1) count_team_pass(shape.ny);
    team_->run(chunks, body);
  }
  void count_team_pass(int ny);
  template <class Body>
  void for_rows(const GridShape& shape, Body&& body);
  // The sum over rows j = 1..ny of row_sum(j), added in row order.
  template <class RowSum>
  double sum_rows(const GridShape& shape, RowSum&& row_sum);
  // Per-row partial sums of a pass over rows 1..ny (slot 0 or 1; both grown at once, so a
  // pointer to one stays valid when the other is asked for), and their total in row order.
  static constexpr std::size_t kRowSumSlots = 3;  // the most sums one pass takes (prolong_add_jacobi)
  double* row_sums(int slot, int ny) {
    if (ny + 2 > row_sum_stride_) {
      row_sum_stride_ = ny + 2;
      row_sums_.assign(kRowSumSlots * std::size_t(row_sum_stride_), 0.0);
    }
    return row_sums_.data() + std::size_t(slot) * std::size_t(row_sum_stride_);
  }
  double row_total(int slot, int ny) const;
  template <class Fill>
  void for_values(const GridShape& shape, std::size_t n, Fill&& fill);  // fill(begin, end) over [0, n)
  T* stream_scratch(int nu, int chunks, int stride);  // the fused passes' rings and halo rows, grown once
  // restrict_residual's loop; zeroes *vc's rows as it goes where given.
  void restrict_rows(const Stencil9& A, const Vector& v, const Vector& f, Vector& fc, Vector* vc,
                     Coarsening coarsening);
  T* wavefront_scratch(std::size_t values);  // the pipelined sweeps' halo rows, grown once
  template <class U>
  void convert(const BasicField<U>& x, Vector& y);
  template <class Out>  // Out: Vector, or FloatField for the residual's rounding
  double residual_norm2_into(const Stencil9& A, const Vector& v, const Vector& f, Out* out);
  // `bytes` as pass_bytes counts them for doubles; T's arrays move sizeof(T) per value.
  void count(const GridShape& shape, std::uint64_t bytes) { count_bytes(shape, bytes * sizeof(T) / sizeof(double)); }
  void count_bytes(const GridShape& shape, std::uint64_t bytes) {
    ++launches_;
    points_ += shape.unknowns();
    bytes_ += bytes;
  }
  std::shared_ptr<ThreadTeam> team_;
  std::uint64_t launches_ = 0;
  std::uint64_t points_ = 0;
  std::uint64_t bytes_ = 0;
  std::vector<std::pair<int, std::uint64_t>> team_passes_by_rows_;  // (level's ny, passes)
  detail::ChunkPreparation preparation_;                            // the in-place passes' halo copies, chained to them
  std::vector<T> restrict_rows_;                                    // 3 residual rows per thread
  std::vector<T> fused_rows_;                                       // jacobi_restrict_residual's rings, grown once
  std::vector<T> wavefront_rows_;  // the pipelined sweeps' copies of their neighbours' rows
  int restrict_row_stride_ = 0;
  Field coarse_f_, coarse_v_;  // float backend: the coarsest level in double for the LU solve
  // Two slots of per-row sums (the fused passes return up to two), as long as the longest level.
  std::vector<double> row_sums_;
  int row_sum_stride_ = 0;
};
using CpuBackend = BasicCpuBackend<double>;
using FloatCpuBackend = BasicCpuBackend<float>;
extern template class BasicCpuBackend<double>;
extern template class BasicCpuBackend<float>;
static_assert(MultigridBackend<CpuBackend>);
static_assert(MultigridBackend<FloatCpuBackend>);
static_assert(RunsCoarseTails<CpuBackend> && !RunsCoarseTails<FloatCpuBackend>);
static_assert(FusesPasses<CpuBackend> && RunsTwoPassCg<CpuBackend, CpuBackend::Vector> && CountsTeamPasses<CpuBackend>);
static_assert(!RecordsCycles<CpuBackend> && !Distributes<CpuBackend>);

}  // namespace kcycle
