#pragma once
// The CUDA backend: the whole hierarchy in device memory, every operation a kernel launch
// on one stream, each kernel a thin loop around the same point bodies (kernels.hpp) that the
// CPU backend runs. Operations issue as many launches as on the CPU, so the launch counter
// and the cost model mean the same on both.
//
// CUDA Graphs: with graphs on, a whole cycle is captured once per cycle signature (the
// buffers it touches and its counter) and replayed with one cudaGraphLaunch. While the
// device replays, the host still walks the recursion with launches suppressed, so the
// trace, the launch counter and Jacobi's buffer swaps stay exactly as without graphs.
//
// This header needs no CUDA headers. The implementation: cuda_backend.cu (device state, set-up,
// multigrid operations, host copies), cuda_kernels.cu (the multigrid kernels), cuda_vector_ops.cu,
// cuda_graphs.cu and cuda_line_solver_timing.cu.
#include <array>
#include <cstdint>
#include <memory>
#include <string_view>

#include "kcycle/backends/backend.hpp"
#include "kcycle/backends/capabilities.hpp"
#include "kcycle/backends/cuda/device_buffer.hpp"
#include "kcycle/backends/cuda/device_field.hpp"
#include "kcycle/core/banded_lu.hpp"
#include "kcycle/core/cyclic_reduction.hpp"
#include "kcycle/core/field.hpp"
#include "kcycle/core/field_view.hpp"
#include "kcycle/core/grid.hpp"
#include "kcycle/core/stencil.hpp"
#include "kcycle/core/tridiagonal.hpp"

namespace kcycle {

class CudaBackend {
 public:
  using Vector = DeviceField;
  // A tridiagonal factor (tridiagonal.hpp) copied to the device, and where x-lines are solved
  // by cyclic reduction, its PCR multipliers (cyclic_reduction.hpp).
  struct LineFactor {
    cuda::DeviceBuffer<double> lower, cprime, inv_denom;
    bool pcr = false;
    int pcr_steps = 0;
    cuda::DeviceBuffer<double> pcr_alpha, pcr_gamma, pcr_inv_diag;
  };
  // x-lines of at least this many points run as cyclic reduction with LineSolver::Auto.
  // Measured on an H100 (scripts/gpu-run.sh 5, 2026-11-27): cyclic reduction took 0.56x
  // Thomas' time on lines of 31 points (the shortest timed) and 0.06-0.15x from 255 points on.
  static constexpr int kPcrFromPoints = 31;

  // One x-line half-sweep (odd rows) of a level, timed three ways on the same data: Thomas,
  // cyclic reduction, and cuSPARSE's gtsv2StridedBatch (the library baseline: right-hand
  // sides gathered into a batch, solved, scattered back). Seconds are medians; a solver that
  // cannot run the size reports a negative time. The differences are max |x - x_Thomas| /
  // max |x_Thomas|. `kcycle bench --line-solvers` prints them.
  struct LineSolverTimes {
    double thomas_seconds = -1, pcr_seconds = -1, cusparse_seconds = -1;
    double pcr_difference = 0, cusparse_difference = 0;
  };
  LineSolverTimes time_x_line_solvers(const Stencil9& A, GridShape shape, int repetitions);
  // The coarsest level's banded LU factor on the device; solved by one thread.
  struct CoarseSolver {
    GridShape shape;
    int n = 0, bw = 0;
    cuda::DeviceBuffer<double> band;
    mutable cuda::DeviceBuffer<double> work;  // the right-hand side, solved in place
  };

  static constexpr std::string_view name() { return "cuda"; }

  // Throws std::runtime_error when no usable device answers (see cuda_device_status()).
  explicit CudaBackend(bool graphs = true, LineSolver line_solver = LineSolver::Auto);
  explicit CudaBackend(const ExecutionTarget& target) : CudaBackend(target.graphs, target.line_solver) {}
  ~CudaBackend();
  CudaBackend(const CudaBackend&) = delete;
  CudaBackend& operator=(const CudaBackend&) = delete;

  DeviceField make_vector(GridShape shape);
  LineFactor make_line_factor(const TridiagonalFactor& factor);
  CoarseSolver make_coarse_solver(const BandedLU& lu);

  // --- multigrid operations (see CpuBackend for what each does) -------------------------
  void jacobi(const Stencil9& A, double omega, const DeviceField& v, const DeviceField& f, DeviceField& out);
  void gauss_seidel(const Stencil9& A, DeviceField& v, const DeviceField& f, bool reverse);
  // x-lines: one thread per line runs the Thomas recurrences (kernels::thomas_forward/backward),
  // or one block per line cyclic reduction (line.pcr). y-lines: Thomas, coalesced.
  void zebra_x(const Stencil9& A, const LineFactor& line, DeviceField& v, const DeviceField& f, bool odd_first);
  void zebra_y(const Stencil9& A, const LineFactor& line, DeviceField& v, const DeviceField& f, bool odd_first);
  // One thread per coarse point forms the fine residuals it weights: no residual array.
  void restrict_residual(const Stencil9& A, const DeviceField& v, const DeviceField& f, DeviceField& fc,
                         Coarsening coarsening = Coarsening::Full);
  void prolong_add(const DeviceField& vc, DeviceField& v, Coarsening coarsening = Coarsening::Full);
  void coarse_solve(const CoarseSolver& solver, const DeviceField& f, DeviceField& v);

  // --- the coarse tail (coarse_tail.hpp) ------------------------------------------------
  // The whole tail in one kernel on one thread block: one launch. Off by default: measured on
  // an H100 (scripts/gpu-run.sh 2 and 5, 2026-11-27), with CUDA graphs (the default) the tail
  // made every cycle slower (1.24x at 256 unknowns to 1.77x at 16384, 8-12 levels, every
  // kappa): a graph's launches cost about 2 us each, while one block runs the tail's levels
  // on one multiprocessor. Without graphs it helps kappa >= 3 (12 levels, W: 41.9 against
  // 49.9 ms), but graphs without the tail are faster still (32.4 ms).
  static constexpr std::size_t kCoarseTailUnknowns = 0;
  void coarse_tail(CoarseTail& tail);
  static level::LineView line_view(const LineFactor& line) {
    return {line.lower.data(), line.cprime.data(), line.inv_denom.data()};
  }
  static CoarseView coarse_view(const CoarseSolver& c) { return {c.band.data(), c.n, c.bw, c.work.data()}; }
  static level::PcrView pcr_view(const LineFactor& line) {
    return {line.pcr_alpha.data(), line.pcr_gamma.data(), line.pcr_inv_diag.data(), line.pcr_steps};
  }

  // --- vector operations on interiors --------------------------------------------------
  void fill(DeviceField& x, double value);  // whole field, ring included
  void copy(const DeviceField& x, DeviceField& y);
  void residual(const Stencil9& A, const DeviceField& v, const DeviceField& f, DeviceField& r);
  void apply(const Stencil9& A, const DeviceField& u, DeviceField& out);
  // Deterministic: a fixed reduction tree, the same sum on every call.
  double dot(const DeviceField& x, const DeviceField& y);
  // Fused forms, as CpuBackend's: q <- A p returning (p, q); y <- y + a x returning
  // |y - minus|^2 (|y|^2 when minus is null); |f - A v|^2 writing nothing.
  double apply_dot(const Stencil9& A, const DeviceField& p, DeviceField& q);
  double axpy_norm2(double a, const DeviceField& x, DeviceField& y, const DeviceField* minus);
  double residual_norm2(const Stencil9& A, const DeviceField& v, const DeviceField& f);
  void axpy(double a, const DeviceField& x, DeviceField& y);
  void xpay(const DeviceField& x, double b, DeviceField& y);
  void triad(double s, const DeviceField& b, const DeviceField& c, DeviceField& a);
  // out (device, nx*ny floats): kernels::image_value at every interior point.
  void image(const Stencil9& A, FieldView view, const DeviceField& v, const DeviceField& f, const DeviceField* exact,
             float* out);

  // The smallest and largest of `count` floats in device memory: one reduction, two values
  // back (the visualizer's colour range without copying the picture).
  std::array<float, 2> value_range(const float* values, std::size_t count);

  // --- host transfers (not counted as launches) ----------------------------------------
  void upload(const Field& host, DeviceField& device);
  void download(const DeviceField& device, Field& host);
  void download(const float* device, std::size_t count, float* host);
  void synchronize();  // waits for everything issued so far

  // --- CUDA Graphs ---------------------------------------------------------------------
  bool graphs() const { return graphs_; }
  void set_graphs(bool on) { graphs_ = on; }
  // A number for a hierarchy's recordings (the first element of its signatures), and the end
  // of them: its graphs are destroyed (Multigrid's constructor and destructor).
  std::uint64_t new_recording_owner() { return ++recording_owners_; }
  void forget_recordings(std::uint64_t owner);
  // Runs one cycle's `body` as a graph: replays the graph recorded for `signature`, or
  // records it first. Called by Multigrid::cycle when graphs are on.
  template <class Body>
  void run_as_graph(const CycleSignature& signature, Body&& body) {
    if (launch_recorded(signature)) {
      const SuppressLaunches quiet(*this);  // the device replays; the host keeps its books
      body();
      return;
    }
    begin_capture();
    try {
      body();
    } catch (...) {
      abandon_capture();
      throw;
    }
    end_capture_and_launch(signature);
  }
  std::uint64_t graph_captures() const { return captures_; }
  std::uint64_t graph_replays() const { return replays_; }

  std::uint64_t launches() const { return launches_; }
  std::uint64_t points() const { return points_; }
  std::uint64_t bytes() const { return bytes_; }  // as CpuBackend::bytes()
  void reset_launches() {
    launches_ = 0;
    points_ = 0;
    bytes_ = 0;
  }

 private:
  struct SuppressLaunches {
    explicit SuppressLaunches(CudaBackend& b) : backend(b) { backend.suppressed_ = true; }
    ~SuppressLaunches() { backend.suppressed_ = false; }
    CudaBackend& backend;
  };
  // Counts the launch; false when it must not be issued (a graph is replaying it).
  bool issue(const GridShape& shape, std::uint64_t bytes) {
    ++launches_;
    points_ += shape.unknowns();
    bytes_ += bytes;
    return !suppressed_;
  }
  // The sum of term(i, j) over the interior (one launch, a fixed order), copied to the host.
  template <class Term>
  double sum_over(const GridShape& shape, const Term& term, const char* what);
  bool launch_recorded(const CycleSignature& signature);
  void begin_capture();
  void abandon_capture() noexcept;
  void end_capture_and_launch(const CycleSignature& signature);

  struct Device;  // stream, recorded graphs, reduction scratch (cuda_device.hpp)
  std::unique_ptr<Device> device_;
  bool graphs_;
  LineSolver line_solver_;
  std::uint64_t recording_owners_ = 0;  // owner numbers given so far
  bool suppressed_ = false;
  std::uint64_t launches_ = 0, points_ = 0, bytes_ = 0, captures_ = 0, replays_ = 0;
};
static_assert(RecordsCycles<CudaBackend> && RunsCoarseTails<CudaBackend> && DrawsOnDevice<CudaBackend>);

}  // namespace kcycle
