#pragma once
// The MPI backend: a hierarchy split over a 2D Cartesian process grid (mpi_decomposition.hpp).
// Each rank holds an ordinary field block with a one-point ghost ring and runs the CPU
// backend's loops on it, so the shared point bodies (kernels.hpp) compute every point exactly
// as the serial solve does: Jacobi iterates equal the serial ones bitwise, and only sums (dot
// products, norms) are added in another order. Ghosts are refreshed just before an operation
// reads its neighbours, through per-level plans of persistent non-blocking requests (HPGMG's
// design), corners included for the 9-point stencil. Levels below the decomposition's
// distributed_levels() live on rank 0: the restriction into the first of them is one gather,
// the prolongation out of it one broadcast; the other ranks skip those levels' operations but
// count them, so every rank's trace and launch count equal the serial ones.
//
// Every smoother runs: Jacobi and Gauss-Seidel after refreshing the ghosts, the zebra line
// solves on the block where a line lies within it and transposed where it crosses ranks
// (mpi_smoothers.cpp), so iterates equal the serial ones bitwise for all of them.
#include <mpi.h>

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "kcycle/backends/backend.hpp"
#include "kcycle/backends/capabilities.hpp"
#include "kcycle/backends/cpu/cpu_backend.hpp"
#include "kcycle/backends/mpi/mpi_decomposition.hpp"
#include "kcycle/core/field_view.hpp"

namespace kcycle {

class MpiBackend {
 public:
  struct Vector {
    // The owned block; its ring holds the neighbours' values after an exchange (a cache the
    // const operations refresh, hence mutable) and zero on the physical boundary.
    mutable Field local;
    GridShape global{};  // the level's whole grid: what Multigrid sees
    int level = 0;
    GridShape shape() const { return global; }
    double* data() { return local.data(); }
    const double* data() const { return local.data(); }
  };
  using LineFactor = TridiagonalFactor;
  using CoarseSolver = BandedLU;
  static constexpr std::string_view name() { return "mpi"; }

  // MPI_COMM_WORLD on a px x py process grid: one of them 0, as many as the ranks need; both
  // 0, the grid MPI_Dims_create picks;
  // target.threads solver threads per rank. Starts MPI if nothing has (mpi_runtime.hpp).
  explicit MpiBackend(const ExecutionTarget& target)
      : MpiBackend(target, MPI_COMM_WORLD, target.ranks_x, target.ranks_y) {}
  MpiBackend(const ExecutionTarget& target, MPI_Comm comm, int px = 0, int py = 0);
  ~MpiBackend();
  MpiBackend(const MpiBackend&) = delete;
  MpiBackend& operator=(const MpiBackend&) = delete;

  // The hierarchy to split: call before making vectors. min_points: see Decomposition (0: the
  // target's).
  void distribute(int levels, Coarsening coarsening, int min_points = 0);
  const Decomposition& decomposition() const { return *decomposition_; }
  int rank() const { return rank_; }
  int ranks() const { return px_ * py_; }
  int px() const { return px_; }
  int py() const { return py_; }
  int rx() const { return rx_; }  // this rank's place in the grid
  int ry() const { return ry_; }
  // Per level (index 0 unused): this rank's communication so far.
  const std::vector<CommStats>& comm_stats() const { return comm_stats_; }
  // The same over all ranks (a collective: every rank calls it): messages and bytes summed,
  // exchange rounds and collectives as the busiest rank counts them.
  std::vector<CommStats> comm_stats_all_ranks();
  void reset_comm_stats();

  Vector make_vector(GridShape global);
  TridiagonalFactor make_line_factor(TridiagonalFactor factor) const { return factor; }
  BandedLU make_coarse_solver(BandedLU lu) const { return lu; }

  // --- multigrid operations (as CpuBackend's) -----------------------------------------
  void jacobi(const Stencil9& A, double omega, const Vector& v, const Vector& f, Vector& out);
  void gauss_seidel(const Stencil9& A, Vector& v, const Vector& f, bool reverse);
  void zebra_x(const Stencil9& A, const TridiagonalFactor& line, Vector& v, const Vector& f, bool odd_first);
  void zebra_y(const Stencil9& A, const TridiagonalFactor& line, Vector& v, const Vector& f, bool odd_first);
  void restrict_residual(const Stencil9& A, const Vector& v, const Vector& f, Vector& fc,
                         Coarsening coarsening = Coarsening::Full);
  void prolong_add(const Vector& vc, Vector& v, Coarsening coarsening = Coarsening::Full);
  void coarse_solve(const BandedLU& lu, const Vector& f, Vector& v);

  // --- vector operations --------------------------------------------------------------
  void fill(Vector& x, double value);
  void copy(const Vector& x, Vector& y);
  void residual(const Stencil9& A, const Vector& v, const Vector& f, Vector& r);
  void apply(const Stencil9& A, const Vector& u, Vector& out);
  double dot(const Vector& x, const Vector& y);
  void axpy(double a, const Vector& x, Vector& y);
  void xpay(const Vector& x, double b, Vector& y);
  void triad(double s, const Vector& b, const Vector& c, Vector& a);
  double apply_dot(const Stencil9& A, const Vector& p, Vector& q);
  double axpy_norm2(double a, const Vector& x, Vector& y, const Vector* minus);
  double residual_norm2(const Stencil9& A, const Vector& v, const Vector& f, Vector* r = nullptr);
  // The whole level's picture on every rank (gathered first).
  void image(const Stencil9& A, FieldView view, const Vector& v, const Vector& f, const Vector* exact, float* out);

  // Host transfers (not counted as launches): every rank holds the whole host field.
  void upload(const Field& host, Vector& vector);
  void download(const Vector& vector, Field& host);  // gathers onto every rank
  // Returns when every rank has come here (a barrier): a timed cycle ends when all ranks end it.
  void synchronize();
  // Whether `mine` holds on any rank (a collective): lets ranks agree to repeat a timed cycle.
  bool any_rank(bool mine);
  // Each value replaced by its largest over the ranks (a collective): the slowest rank's times.
  void max_on_ranks(std::span<double> values);

  // The model's lambda: seconds per message, measured as the median time of `rounds` halo
  // exchange rounds on the smallest split level (small messages: latency, not bandwidth)
  // divided by the messages the busiest rank sends in one; the same on every rank (the
  // slowest's). 0 on one rank. A collective: every rank calls it, after distribute().
  double message_latency(int rounds = 200);

  std::uint64_t launches() const { return launches_; }
  std::uint64_t points() const { return cpu_.points(); }
  std::uint64_t bytes() const { return cpu_.bytes(); }
  void reset_launches() {
    launches_ = 0;
    cpu_.reset_launches();
  }

 private:
  struct HaloPlan;
  struct Transition;
  // Whether this rank holds (part of) the level: those of the level's agglomeration stage.
  bool holds(int level) const { return decomposition_->holds(level, rx_, ry_); }
  bool distributed(int level) const { return decomposition_->distributed(level); }
  // Whether the level below `fine` is held by fewer ranks (an agglomeration step).
  bool folds_after(int fine) const {
    return fine < decomposition_->levels() && decomposition_->stage_of(fine + 1) > decomposition_->stage_of(fine);
  }
  // Fills x's ghost ring from the neighbouring blocks (a no-op below the distributed levels).
  void exchange(const Vector& x);
  void exchange(Field& block, int level);
  HaloPlan& plan(int level);
  // The ranks that fold into one after level `fine`: this rank's group, its parent first (one
  // communicator per group, made by distribute()), and the cart ranks of the group in order.
  Transition& transition(int fine);
  void gather_to_parent(const Field& part, Vector& coarse);
  // This rank's part of a coarse level that fewer ranks hold (ring included), made once.
  Field& fold_part(int coarse);
  void make_stage_comms();
  void free_stage_comms();
  // The global index ranges of rank q's block on `level` (empty where it holds none), and of
  // what its block on the level above coarsens to (what it restricts into).
  std::pair<IndexRange, IndexRange> block_of(int level, int q) const;
  std::pair<IndexRange, IndexRange> derived_block(int level, int q) const;
  // This rank's row (x_lines) or column of the ranks holding `level` (one per stage, made by
  // distribute()).
  MPI_Comm line_comm(int level, bool x_lines);
  double all_sum(double local, int level);
  // Solves `lines` lines that cross the ranks of comm (this rank's row of the process grid for
  // x-lines, its column for y-lines): segments holds this rank's segment of each line's
  // right-hand side, line after line, and gets the solution's (mpi_smoothers.cpp).
  void solve_lines_across(MPI_Comm comm, int level, bool x_lines, const TridiagonalFactor& factor, int lines,
                          std::vector<double>& segments);
  void need_decomposition() const;

  CpuBackend cpu_;
  MPI_Comm cart_ = MPI_COMM_NULL;                         // the Cartesian communicator
  std::vector<MPI_Comm> row_comms_, col_comms_;           // by stage: rows and columns of its ranks
  std::vector<std::unique_ptr<Transition>> transitions_;  // by fine level
  int px_ = 1, py_ = 1, rank_ = 0, rx_ = 0, ry_ = 0;
  std::unique_ptr<Decomposition> decomposition_;
  std::vector<std::unique_ptr<HaloPlan>> plans_;  // by level
  std::vector<Field> residuals_;                  // by level: restrict_residual's r
  std::vector<Field> fold_parts_;  // by coarse level: this rank's part of a fold (restriction, prolongation)
  std::vector<CommStats> comm_stats_;
  std::vector<double> line_segments_, line_outgoing_, line_incoming_, line_whole_;  // grown once
  std::uint64_t launches_ = 0;
  int min_points_ = 8;  // the target's agglomeration threshold
};
static_assert(MultigridBackend<MpiBackend> && Distributes<MpiBackend>);

}  // namespace kcycle
