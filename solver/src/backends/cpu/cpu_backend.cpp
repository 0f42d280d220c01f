#include "kcycle/backends/cpu/cpu_backend.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "kcycle/backends/cpu/available_cores.hpp"
#include "kcycle/backends/cpu/row_blocks.hpp"
#include "kcycle/core/kernels.hpp"
#include "kcycle/cycle/byte_model.hpp"

namespace kcycle {

namespace {

using detail::block_of;
using detail::RowRange;

// SIMD vectors of T as GCC vector extensions, as wide as the registers the build targets
// (-march=native): the point bodies of kernels.hpp compute on them as on single values.
#if defined(__AVX512F__)
constexpr int kSimdBytes = 64;
#elif defined(__AVX__)
constexpr int kSimdBytes = 32;
#else
constexpr int kSimdBytes = 16;
#endif
template <class T>
struct Simd {
  typedef T type __attribute__((vector_size(kSimdBytes)));
  static constexpr int width = kSimdBytes / int(sizeof(T));
};

// A vector (or value) of doubles rounded to float, stored at p.
template <class V>
void store_rounded(float* p, const V& v) {
  if constexpr (std::is_arithmetic_v<V>) {
    *p = float(v);
  } else {
    typedef float Rounded __attribute__((vector_size(sizeof(V) / 2)));
    const Rounded r = __builtin_convertvector(v, Rounded);
    std::memcpy(p, &r, sizeof r);
  }
}

template <class V, class T>
V load(const T* p) {
  if constexpr (std::is_same_v<V, T>) {
    return *p;
  } else {
    V v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
}
template <class V, class T>
void store(T* p, const V& v) {
  if constexpr (std::is_same_v<V, T>) {
    *p = v;
  } else {
    std::memcpy(p, &v, sizeof v);
  }
}
// The values one point to the left of `cur` ([prev's last, cur but its last]) and one to the
// right ([cur but its first, next's first]).
template <class V, std::size_t... K>
V left_of(V prev, V cur, std::index_sequence<K...>) {
  return __builtin_shufflevector(prev, cur, (K + sizeof...(K) - 1)...);
}
template <class V, std::size_t... K>
V right_of(V cur, V next, std::index_sequence<K...>) {
  return __builtin_shufflevector(cur, next, (K + 1)...);
}

// point(i, u) for the points i = 1..nx of a row, u the neighbourhood of i: for blocks of
// consecutive points as SIMD vectors built from one load per row and shuffles (the sweeps were
// bound by their ten unaligned loads a point), then point by point for the rest of the row.
// The same point body either way, so the same arithmetic.
template <class T, class Point>
void for_row_points(int nx, const T* um, const T* u0, const T* up, Point&& point) {
  using V = typename Simd<T>::type;
  constexpr int W = Simd<T>::width;
  constexpr auto lanes = std::make_index_sequence<std::size_t(W)>{};
  int i = 1;
  if (nx + 1 >= 2 * W) {
    // The first block's left neighbours by an unaligned load (index 0 is the ring).
    V lm = load<V>(um), l0 = load<V>(u0), lp = load<V>(up);
    V cm = load<V>(um + 1), c0 = load<V>(u0 + 1), cp = load<V>(up + 1);
    for (; i + 2 * W - 1 <= nx + 1; i += W) {  // the next block's load stays in the row
      const V nm = load<V>(um + i + W), n0 = load<V>(u0 + i + W), np = load<V>(up + i + W);
      point(i, kernels::Neighbourhood<V>{lm, cm, right_of(cm, nm, lanes), l0, c0, right_of(c0, n0, lanes), lp, cp,
                                         right_of(cp, np, lanes)});
      lm = left_of(cm, nm, lanes), l0 = left_of(c0, n0, lanes), lp = left_of(cp, np, lanes);
      cm = nm, c0 = n0, cp = np;
    }
  }
  for (; i <= nx; ++i) point(i, kernels::neighbourhood(um, u0, up, i));
}

// The sum of squares of values a row loop hands over as SIMD vectors or single values: per lane
// in T for double (a double run sums the same squares as one point at a time would), each
// square in double for float.
template <class T>
class SquareSum {
 public:
  template <class U>
  void add(const U& r) {
    if constexpr (std::is_same_v<U, T>)
      row_ += double(r) * double(r);
    else if constexpr (std::is_same_v<T, double>)
      lanes_ += r * r;
    else
      for (int k = 0; k < Simd<T>::width; ++k) row_ += double(r[k]) * double(r[k]);
  }
  double total() const {
    double sum = row_;
    for (int k = 0; k < Simd<T>::width; ++k) sum += double(lanes_[k]);
    return sum;
  }

 private:
  typename Simd<T>::type lanes_{};
  double row_ = 0.0;
};

// The sum of a row's products a[i] b[i] (i = 1..nx) in one order, however a pass cuts the row
// or computes b: the product of point i goes to lane (i - 1) mod W of a vector of doubles, the
// lanes are added last. Passes that must agree bitwise (CG's (z, A p) from a stored A p and
// from one computed on the way) sum through it; `#pragma omp simd reduction` leaves the order
// to the vectorizer, which picks another one for each loop.
class RowDot {
 public:
  using V = Simd<double>::type;
  static constexpr int kWidth = Simd<double>::width;

  // Points i0 .. i0 + n - 1, a and b pointing at point i0; i0 - 1 a multiple of kWidth unless
  // this is the row's last piece.
  template <class A, class B>
  void add(int i0, int n, const A* a, const B* b) {
    int k = 0;
    if ((i0 - 1) % kWidth == 0)
      for (; k + kWidth <= n; k += kWidth) lanes_ += widened(a + k) * widened(b + k);
    for (; k < n; ++k) lanes_[(i0 - 1 + k) % kWidth] += double(a[k]) * double(b[k]);
  }
  double total() const {
    double sum = 0.0;
    for (int k = 0; k < kWidth; ++k) sum += lanes_[k];
    return sum;
  }

 private:
  template <class T>
  static V widened(const T* p) {
    if constexpr (std::is_same_v<T, double>) {
      return load<V>(p);
    } else {
      typedef T Narrow __attribute__((vector_size(sizeof(T) * kWidth)));
      return __builtin_convertvector(load<Narrow>(p), V);
    }
  }
  V lanes_{};
};

// Points of a row computed a tile at a time into a buffer on the stack, for RowDot.
constexpr int kRowTile = 256;  // a multiple of every SIMD width; 2 KiB of doubles

// (w, A p) over row j (pm, p0, pp: rows j - 1, j, j + 1 of p): A p computed as apply() computes
// it, so the sum is bitwise (w, q) of q = A p stored by apply or apply_dot.
template <class U, class T>
double dot_of_row_and_stencil(int nx, const U* w0, const Stencil9& A, const T* pm, const T* p0, const T* pp) {
  const BasicStencil9<T> S = stencil_as<T>(A);  // in registers: the tile cannot alias a local copy
  RowDot row;
  T tile[kRowTile];
  for (int i0 = 1; i0 <= nx; i0 += kRowTile) {
    const int n = std::min(kRowTile, nx - i0 + 1);
#pragma omp simd
    for (int k = 0; k < n; ++k) tile[k] = kernels::apply_stencil(S, pm, p0, pp, i0 + k);
    row.add(i0, n, w0 + i0, tile);
  }
  return row.total();
}

}  // namespace

template <class T>
int BasicCpuBackend<T>::chunks(const GridShape& shape, int count, int min_rows) const {
  if (!parallel(shape) || team_->alone_for_now()) return 1;
  // A multiple of the team's size, so that the shares are equal; never a chunk of fewer than
  // min_rows rows (the in-place passes copy rows of the adjacent chunks only).
  const int per_thread = count / (min_rows * threads());
  if (per_thread == 0) return std::max(1, count / min_rows);
  return threads() * std::min(per_thread, kChunksPerThread);
}

// Runs body(j) for the rows j = 1..ny of a level, on the team when the level is large enough
// to gain from it.
template <class T>
template <class Body>
void BasicCpuBackend<T>::for_rows(const GridShape& shape, Body&& body) {
  for_row_blocks(shape, chunks(shape, shape.ny), shape.ny, [&](RowRange rows, int) {
    for (int j = rows.begin; j < rows.end; ++j) body(j);
  });
}

// Each row's sum is kept apart and the total added in row order, so it does not depend on
// which thread ran which row (nor how many there were).
template <class T>
template <class RowSum>
double BasicCpuBackend<T>::sum_rows(const GridShape& shape, RowSum&& row_sum) {
  double* sums = row_sums(0, shape.ny);
  for_rows(shape, [&](int j) { sums[j] = row_sum(j); });
  return row_total(0, shape.ny);
}

template <class T>
double BasicCpuBackend<T>::row_total(int slot, int ny) const {
  const double* sums = row_sums_.data() + std::size_t(slot) * std::size_t(row_sum_stride_);
  double total = 0.0;
  for (int j = 1; j <= ny; ++j) total += sums[j];
  return total;
}

// fill(begin, end) over chunks of [0, n), the flat values of a field of `shape`.
template <class T>
template <class Fill>
void BasicCpuBackend<T>::for_values(const GridShape& shape, std::size_t n, Fill&& fill) {
  const int pieces = chunks(shape, shape.ny + 2);
  run_chunks(shape, pieces, [&](int c, int) {
    fill(n * std::size_t(c) / std::size_t(pieces), n * std::size_t(c + 1) / std::size_t(pieces));
  });
}

template <class T>
BasicCpuBackend<T>::BasicCpuBackend(int threads)
    : BasicCpuBackend(std::make_shared<ThreadTeam>(threads > 0 ? threads : available_cores())) {}

template <class T>
BasicCpuBackend<T>::BasicCpuBackend(std::shared_ptr<ThreadTeam> team) : team_(std::move(team)) {
  if (!team_) throw std::logic_error("BasicCpuBackend: no thread team");
}

template <class T>
void BasicCpuBackend<T>::count_team_pass(int ny) {
  for (auto& [rows, passes] : team_passes_by_rows_)
    if (rows == ny) {
      ++passes;
      return;
    }
  team_passes_by_rows_.push_back({ny, 1});
}

template <class T>
bool BasicCpuBackend<T>::parallel(const GridShape& shape) const {
  return threads() > 1 && shape.unknowns() >= kParallelThreshold;
}

template <class T>
BasicField<T> BasicCpuBackend<T>::make_vector(GridShape shape) {
  // Scratch for restrict_residual on this size: three residual rows per thread; and the
  // per-row sums.
  if (shape.stride() > restrict_row_stride_) {
    restrict_row_stride_ = shape.stride();
    restrict_rows_.assign(std::size_t(3 * threads()) * std::size_t(restrict_row_stride_), T(0));
  }
  row_sums(0, shape.ny);  // grown here, not in a pass
  // Zero, and a large one not resident until the first pass writes it: its pages are first
  // touched by the threads that sweep them, in that pass, and a hierarchy's set-up does not
  // spend its time clearing pages the kernel clears anyway.
  return BasicField<T>(shape);
}

template <class T>
void BasicCpuBackend<T>::jacobi(const Stencil9& A, double omega, const BasicField<T>& v, const BasicField<T>& f,
                                BasicField<T>& out) {
  count(v.shape(), pass_bytes::jacobi(v.shape()));
  const int nx = v.shape().nx;
  const T w = T(omega / A.center());
  for_rows(v.shape(), [&](int j) {
    const BasicStencil9<T> S =
        stencil_as<T>(A);  // a local copy: the coefficients stay in registers (o cannot alias it)
    const T *vm = v.row(j - 1), *v0 = v.row(j), *vp = v.row(j + 1), *f0 = f.row(j);
    T* o = out.row(j);
    for_row_points(nx, vm, v0, vp, [&](int i, const auto& u) {
      using V = std::decay_t<decltype(u.c)>;
      store(o + i, kernels::jacobi_at(S, w, u, load<V>(f0 + i)));
    });
  });
}

template <class T>
void BasicCpuBackend<T>::restrict_residual(const Stencil9& A, const BasicField<T>& v, const BasicField<T>& f,
                                           BasicField<T>& fc, Coarsening coarsening) {
  count(v.shape(), pass_bytes::restrict_residual(v.shape(), fc.shape()));
  restrict_rows(A, v, f, fc, nullptr, coarsening);
}

template <class T>
void BasicCpuBackend<T>::restrict_residual_and_zero(const Stencil9& A, const BasicField<T>& v, const BasicField<T>& f,
                                                    BasicField<T>& fc, BasicField<T>& vc, Coarsening coarsening) {
  count(v.shape(), pass_bytes::restrict_residual_and_zero(v.shape(), fc.shape()));
  restrict_rows(A, v, f, fc, &vc, coarsening);
}

template <class T>
void BasicCpuBackend<T>::restrict_rows(const Stencil9& A, const BasicField<T>& v, const BasicField<T>& f,
                                       BasicField<T>& fc, BasicField<T>* vc, Coarsening coarsening) {
  if (v.stride() > restrict_row_stride_)
    throw std::logic_error("restrict_residual: field not made by this backend's make_vector");
  const int nxf = v.shape().nx, nyc = fc.shape().ny, nxc = fc.shape().nx;
  const std::size_t stride = std::size_t(restrict_row_stride_);
  for_row_blocks(v.shape(), chunks(v.shape(), nyc), nyc, [&](RowRange rows, int member) {
    T* ring[3];
    for (int k = 0; k < 3; ++k) ring[k] = restrict_rows_.data() + (std::size_t(3 * member + k)) * stride;
    auto residual_row = [&](int j, T* r) {
      const BasicStencil9<T> S = stencil_as<T>(A);  // in registers: r cannot alias a local copy
      const T *vm = v.row(j - 1), *v0 = v.row(j), *vp = v.row(j + 1), *f0 = f.row(j);
      for_row_points(nxf, vm, v0, vp, [&](int i, const auto& u) {
        using V = std::decay_t<decltype(u.c)>;
        store(r + i, kernels::residual_at(S, u, load<V>(f0 + i)));
      });
    };
    if (rows.begin < rows.end) residual_row(2 * rows.begin - 1, ring[0]);
    for (int J = rows.begin; J < rows.end; ++J) {
      // ring[0] holds fine row 2J-1 (the previous coarse row's 2J+1).
      residual_row(2 * J, ring[1]);
      residual_row(2 * J + 1, ring[2]);
      T* c = fc.row(J);
      if (coarsening == Coarsening::Full) {
#pragma omp simd
        for (int I = 1; I <= nxc; ++I) c[I] = kernels::full_weighting(ring[0], ring[1], ring[2], 2 * I);
      } else {
#pragma omp simd
        for (int i = 1; i <= nxc; ++i) c[i] = kernels::full_weighting_y(ring[0], ring[1], ring[2], i);
      }
      std::swap(ring[0], ring[2]);
    }
    if (vc) {  // the block's coarse rows, and the ring rows beside the first and last block
      const int first = rows.begin == 1 ? 0 : rows.begin, last = rows.end == nyc + 1 ? nyc + 1 : rows.end - 1;
      if (rows.begin < rows.end) std::fill(vc->row(first), vc->row(last) + vc->stride(), T(0));
    }
  });
}

namespace {

// nu Jacobi sweeps streamed through small rings of rows, for one chunk's block of fine rows
// [a, b]: at step i, sweep k (1..nu) computes its row i - k + 1 from sweep k-1's rows
// i - k .. i - k + 2, so each row of v and f is read from memory once and only the last
// sweep's own rows [own_first, own_last] are written to `out`. Rows of the block's neighbours
// (a halo of nu rows) are recomputed, so chunks never wait on each other's results. Every value comes
// from the same point body as a separate sweep: bitwise the same result.
//
// `out` may be v itself (in place): a row of v is then overwritten only after its last read,
// no second array is written (nor, on a cache miss, read for ownership first), and the rows
// of v beyond the block, which the neighbouring chunks overwrite, are read from copies taken
// before the neighbours write (copy_halo, chained to the pass by ChunkPreparation).
template <class T>
class JacobiStream {
 public:
  // `rings`: ring_rows(nu) rows of the running thread's own; `halo`: halo_rows(nu) rows of
  // the chunk's own (its copies of its neighbours' rows, in place).
  JacobiStream(const Stencil9& A, T w, int nu, const BasicField<T>& v, const BasicField<T>& f, BasicField<T>& out,
               int own_first, int own_last, T* rings, T* halo)
      : A_(stencil_as<T>(A)),
        w_(w),
        nu_(nu),
        nx_(v.shape().nx),
        ny_(v.shape().ny),
        v_(v),
        f_(f),
        out_(out),
        own_first_(own_first),
        own_last_(own_last),
        rings_(rings),
        halo_(halo),
        stride_(std::size_t(v.stride())),
        in_place_(out.data() == v.data()) {}

  // Rows per thread: a ring of 3 for sweeps 0..nu and one more ring of 3 (residuals); per
  // chunk, the copies of up to nu + 2 rows of v beyond each edge of its block (in place).
  static std::size_t ring_rows(int nu) { return std::size_t(3 * (nu + 2)); }
  static std::size_t halo_rows(int nu) { return std::size_t(2 * (nu + 2)); }
  bool in_place() const { return in_place_; }

  // In place: copies the rows of v beyond the block that a pass over fine rows [a, b] reads.
  void copy_halo(int a, int b) {
    for (int r = std::max(1, a - nu_); r < own_first_; ++r) std::copy_n(v_.row(r), stride_, halo_row(r));
    for (int r = own_last_ + 1; r <= std::min(ny_, b + nu_); ++r) std::copy_n(v_.row(r), stride_, halo_row(r));
  }
  // From here on, the rows beyond the block are read from the copies copy_halo made.
  void read_copied_halo() { halo_copied_ = true; }
  // Row r of v as the pass started with it.
  const T* source_row(int r) const {
    const bool neighbours = r >= 1 && r <= ny_ && (r < own_first_ || r > own_last_);
    return halo_copied_ && neighbours ? halo_row(r) : v_.row(r);
  }
  T* ring(int k, int r) const { return rings_ + (std::size_t(3 * k + r % 3)) * stride_; }
  T* extra_ring(int r) const { return ring(nu_ + 1, r); }
  // Where sweep 0 (the values the first sweep reads) comes from: v, ring 0 (made by
  // prepare), or zero (v stands for a zeroed correction and is not read).
  enum class Source { Field, Ring, Zero };

  // Row r after sweep k; sweep 0 is v's row or ring 0's; boundary rows are v's.
  const T* row(int k, int r) const {
    if (r < 1 || r > ny_) return v_.row(r);
    if (k == 0 && source_ != Source::Ring) return source_row(r);
    return target(k, r);
  }

  // prepare(r): makes sweep 0's row r (called in order, once per row); after(i): runs at the
  // end of step i, when the last sweep's rows up to i - nu + 1 exist.
  template <class Prepare, class After>
  void run(int a, int b, Source source, Prepare&& prepare, After&& after) {
    source_ = source;
    for (int i = a - nu_ - 1; i <= b + nu_; ++i) {  // step a - nu - 1 prepares sweep 0's first row
      if (i + 1 >= std::max(1, a - nu_) && i + 1 <= std::min(ny_, b + nu_)) prepare(i + 1);
      for (int k = 1; k <= nu_; ++k) {
        const int r = i - k + 1;
        if (r < std::max(1, a - (nu_ - k)) || r > std::min(ny_, b + (nu_ - k))) continue;
        const T *vm = row(k - 1, r - 1), *v0 = row(k - 1, r), *vp = row(k - 1, r + 1), *f0 = f_.row(r);
        T* o = target(k, r);
        if (o != v_.row(r)) {  // the boundary columns stay as they are (in place: untouched)
          o[0] = source_row(r)[0];
          o[nx_ + 1] = source_row(r)[nx_ + 1];
        }
        const BasicStencil9<T> S = A_;  // in registers: o cannot alias a local copy
        if (k == 1 && source_ == Source::Zero) {
#pragma omp simd
          for (int x = 1; x <= nx_; ++x) o[x] = kernels::jacobi_from_zero(w_, f0, x);
          continue;
        }
        const T w = w_;
        for_row_points(nx_, vm, v0, vp, [&](int x, const auto& u) {
          using V = std::decay_t<decltype(u.c)>;
          store(o + x, kernels::jacobi_at(S, w, u, load<V>(f0 + x)));
        });
      }
      after(i);
    }
  }

 private:
  T* target(int k, int r) const { return k == nu_ && r >= own_first_ && r <= own_last_ ? out_.row(r) : ring(k, r); }
  T* halo_row(int r) const {
    const int slot = r < own_first_ ? r - (own_first_ - (nu_ + 2)) : (nu_ + 2) + (r - own_last_ - 1);
    return halo_ + std::size_t(slot) * stride_;
  }
  BasicStencil9<T> A_;
  T w_;
  int nu_, nx_, ny_;
  const BasicField<T>& v_;
  const BasicField<T>& f_;
  BasicField<T>& out_;
  int own_first_, own_last_;
  T *rings_, *halo_;
  std::size_t stride_;
  bool in_place_, halo_copied_ = false;
  Source source_ = Source::Field;
};

}  // namespace

// Rings for each thread, then halo rows for each of `chunks` chunks (JacobiStream's).
template <class T>
T* BasicCpuBackend<T>::stream_scratch(int nu, int chunks, int stride) {
  const std::size_t rows =
      JacobiStream<T>::ring_rows(nu) * std::size_t(threads()) + JacobiStream<T>::halo_rows(nu) * std::size_t(chunks);
  const std::size_t size = rows * std::size_t(stride);
  if (fused_rows_.size() < size) fused_rows_.assign(size, T(0));  // grows once, not per cycle
  return fused_rows_.data();
}

namespace {

// Where thread `member`'s rings and chunk c's halo rows lie in stream_scratch()'s rows.
template <class T>
struct StreamScratch {
  T* base;
  int nu, threads;
  std::size_t stride;
  T* rings(int member) const { return base + JacobiStream<T>::ring_rows(nu) * std::size_t(member) * stride; }
  T* halo(int chunk) const {
    return base + (JacobiStream<T>::ring_rows(nu) * std::size_t(threads) +
                   JacobiStream<T>::halo_rows(nu) * std::size_t(chunk)) *
                      stride;
  }
};

}  // namespace

template <class T>
void BasicCpuBackend<T>::jacobi_restrict_residual(const Stencil9& A, double omega, int nu, const BasicField<T>& v,
                                                  const BasicField<T>& f, BasicField<T>& out, BasicField<T>& fc,
                                                  Coarsening coarsening, bool v_is_zero) {
  if (nu < 1) throw std::logic_error("jacobi_restrict_residual: needs at least one sweep");
  count(v.shape(), v_is_zero ? pass_bytes::jacobi_restrict_residual_from_zero(v.shape(), fc.shape())
                             : pass_bytes::jacobi_restrict_residual(v.shape(), fc.shape()));
  const int nx = v.shape().nx, ny = v.shape().ny, nyc = fc.shape().ny, nxc = fc.shape().nx;
  const int pieces = chunks(v.shape(), nyc, kMinHaloChunkRows / 2);  // chunks of coarse rows
  const StreamScratch<T> scratch{stream_scratch(nu, pieces, v.stride()), nu, threads(), std::size_t(v.stride())};
  const T w = T(omega / A.center());
  // Chunk c: its coarse rows, the fine rows whose last sweep their residuals need [a, b], and
  // the fine rows it owns (the last chunk's run to ny).
  auto stream_of = [&](int c, int member, RowRange& coarse, int& a, int& b) {
    coarse = block_of(nyc, c, pieces);
    a = std::max(1, 2 * coarse.begin - 2), b = std::min(ny, 2 * coarse.end);
    const int own_last = coarse.end == nyc + 1 ? ny : 2 * coarse.end - 2;
    return JacobiStream<T>(A, w, nu, v, f, out, 2 * coarse.begin - 1, own_last, scratch.rings(member), scratch.halo(c));
  };
  // In place, every chunk copies the rows beyond its block before its neighbours write them.
  const bool copies = out.data() == v.data() && !v_is_zero;
  if (copies) preparation_.start_pass(pieces);
  run_chunks(v.shape(), pieces, [&](int chunk, int member) {
    if (copies)
      preparation_.around(chunk, [&](int c) {
        RowRange coarse;
        int a, b;
        JacobiStream<T> stream = stream_of(c, member, coarse, a, b);
        if (coarse.begin < coarse.end) stream.copy_halo(a, b);
      });
    RowRange coarse_rows;
    int a, b;
    JacobiStream<T> stream = stream_of(chunk, member, coarse_rows, a, b);
    if (coarse_rows.begin >= coarse_rows.end) return;
    if (copies) stream.read_copied_halo();
    using Source = typename JacobiStream<T>::Source;
    // In place, one sweep would overwrite a row of v before the next row's sweep reads it:
    // v's rows then pass through ring 0 first.
    const bool through_ring = stream.in_place() && nu == 1 && !v_is_zero;
    const Source source = v_is_zero ? Source::Zero : through_ring ? Source::Ring : Source::Field;
    auto copy_row = [&](int j) {
      if (through_ring) std::copy_n(stream.source_row(j), v.stride(), stream.ring(0, j));
    };
    int next_coarse = coarse_rows.begin;
    stream.run(a, b, source, copy_row, [&](int i) {
      const int r = i - nu;  // the last sweep's rows r - 1 .. r + 1 exist now
      if (r < 2 * coarse_rows.begin - 1 || r > 2 * coarse_rows.end - 1) return;
      const T *vm = stream.row(nu, r - 1), *v0 = stream.row(nu, r), *vp = stream.row(nu, r + 1), *f0 = f.row(r);
      T* res = stream.extra_ring(r);
      const BasicStencil9<T> S = stencil_as<T>(A);
      for_row_points(nx, vm, v0, vp, [&](int x, const auto& u) {
        using V = std::decay_t<decltype(u.c)>;
        store(res + x, kernels::residual_at(S, u, load<V>(f0 + x)));
      });
      if (r != 2 * next_coarse + 1) return;
      const T *r0 = stream.extra_ring(r - 2), *r1 = stream.extra_ring(r - 1), *r2 = res;
      T* c = fc.row(next_coarse++);
      if (coarsening == Coarsening::Full) {
#pragma omp simd
        for (int I = 1; I <= nxc; ++I) c[I] = kernels::full_weighting(r0, r1, r2, 2 * I);
      } else {
#pragma omp simd
        for (int x = 1; x <= nxc; ++x) c[x] = kernels::full_weighting_y(r0, r1, r2, x);
      }
    });
  });
}

template <class T>
void BasicCpuBackend<T>::prolong_add_jacobi(const Stencil9& A, double omega, int nu, const BasicField<T>& vc,
                                            const BasicField<T>& v, const BasicField<T>& f, BasicField<T>& out,
                                            Coarsening coarsening, double* f_dot_out, double* out_norm2,
                                            double* out_residual2) {
  if (nu < 1) throw std::logic_error("prolong_add_jacobi: needs at least one sweep");
  count(v.shape(), pass_bytes::prolong_add_jacobi(v.shape(), vc.shape()));
  const int nx = v.shape().nx, ny = v.shape().ny, nxc = vc.shape().nx;
  const int pieces = chunks(v.shape(), ny, kMinHaloChunkRows);
  const StreamScratch<T> scratch{stream_scratch(nu, pieces, v.stride()), nu, threads(), std::size_t(v.stride())};
  const T w = T(omega / A.center());
  auto stream_of = [&](int c, int member, RowRange& rows) {
    rows = block_of(ny, c, pieces);
    return JacobiStream<T>(A, w, nu, v, f, out, rows.begin, rows.end - 1, scratch.rings(member), scratch.halo(c));
  };
  const bool copies = out.data() == v.data();
  if (copies) preparation_.start_pass(pieces);
  double *f_dot_rows = row_sums(0, ny), *norm_rows = row_sums(1, ny), *residual_rows = row_sums(2, ny);
  // |f - A out|^2 of row q, from the rows of out that `row` gives.
  auto residual2_of_row = [&](int q, auto&& row) {
    const T *vm = row(q - 1), *v0 = row(q), *vp = row(q + 1), *f0 = f.row(q);
    const BasicStencil9<T> S = stencil_as<T>(A);  // in registers
    SquareSum<T> squares;
    for_row_points(nx, vm, v0, vp, [&](int x, const auto& u) {
      using V = std::decay_t<decltype(u.c)>;
      squares.add(kernels::residual_at(S, u, load<V>(f0 + x)));
    });
    return squares.total();
  };
  run_chunks(v.shape(), pieces, [&](int c, int member) {
    if (copies)
      preparation_.around(c, [&](int d) {
        RowRange block;
        JacobiStream<T> stream = stream_of(d, member, block);
        if (block.begin < block.end) stream.copy_halo(block.begin, block.end - 1);
      });
    RowRange rows;
    JacobiStream<T> stream = stream_of(c, member, rows);
    if (rows.begin >= rows.end) return;
    if (copies) stream.read_copied_halo();
    // The residual of row q once the last sweep has written the rows beside it, if they are
    // this block's or the boundary's (the rows beside another block's come after the pass).
    const auto in_block = [&](int q) { return q >= rows.begin && q <= rows.end - 1; };
    const auto written_here = [&](int q) { return in_block(q) || q == 0 || q == ny + 1; };
    auto residual_row = [&](int r) {
      const int q = r - 1;
      if (in_block(q) && written_here(q - 1) && written_here(q + 1))
        residual_rows[q] = residual2_of_row(q, [&](int p) { return stream.row(nu, p); });
    };
    // (f, out) and (out, out) of each row, as soon as its last sweep is written (in cache).
    auto dot_row = [&](int i) {
      const int r = i - nu + 1;
      if (out_residual2) residual_row(r);
      if (r < rows.begin || r > rows.end - 1) return;
      const T *fr = f.row(r), *o = out.row(r);
      if (f_dot_out) {  // dot()'s order
        RowDot row;
        row.add(1, nx, fr + 1, o + 1);
        f_dot_rows[r] = row.total();
      }
      if (out_norm2) {
        RowDot row;
        row.add(1, nx, o + 1, o + 1);
        norm_rows[r] = row.total();
      }
    };
    // Sweep 0: v + Prolong(vc), as prolong_add computes it, into ring 0.
    auto prolonged_row = [&](int j) {
      const T *cJ = vc.row(j >> 1), *cJ1 = vc.row((j >> 1) + 1), *vj = stream.source_row(j);
      T* o = stream.ring(0, j);
      o[0] = vj[0];
      o[nx + 1] = vj[nx + 1];
      if (coarsening == Coarsening::SemiY) {
#pragma omp simd
        for (int i = 1; i <= nx; ++i) o[i] = vj[i] + kernels::linear_y(cJ, cJ1, i, j);
        return;
      }
      o[1] = vj[1] + kernels::bilinear(cJ, cJ1, 1, j);
#pragma omp simd
      for (int I = 1; I <= nxc; ++I) {
        o[2 * I] = vj[2 * I] + kernels::bilinear_at(cJ, cJ1, I, 0, j);
        o[2 * I + 1] = vj[2 * I + 1] + kernels::bilinear_at(cJ, cJ1, I, 1, j);
      }
    };
    stream.run(rows.begin, rows.end - 1, JacobiStream<T>::Source::Ring, prolonged_row, dot_row);
  });
  if (f_dot_out) *f_dot_out = row_total(0, ny);
  if (out_norm2) *out_norm2 = row_total(1, ny);
  if (out_residual2) {
    // The rows beside another block: two per block edge, from out as the pass left it.
    for (int c = 0; c + 1 < pieces; ++c) {
      const int edge = block_of(ny, c, pieces).end;  // the first row of the next block
      for (int q : {edge - 1, edge})
        if (q >= 1 && q <= ny) residual_rows[q] = residual2_of_row(q, [&](int p) { return out.row(p); });
    }
    *out_residual2 = row_total(2, ny);
  }
}

template <class T>
void BasicCpuBackend<T>::prolong_add(const BasicField<T>& vc, BasicField<T>& v, Coarsening coarsening) {
  count(v.shape(), pass_bytes::prolong_add(v.shape(), vc.shape()));
  const int nxc = vc.shape().nx, nx = v.shape().nx;
  for_rows(v.shape(), [&](int j) {
    const T *cJ = vc.row(j >> 1), *cJ1 = vc.row((j >> 1) + 1);
    T* o = v.row(j);
    if (coarsening == Coarsening::SemiY) {
#pragma omp simd
      for (int i = 1; i <= nx; ++i) o[i] += kernels::linear_y(cJ, cJ1, i, j);
      return;
    }
    // Fine points 2I and 2I+1 together, so each call's x parity is a compile-time constant
    // and the loop vectorizes; fine point 1 (I = 0) has no even partner.
    o[1] += kernels::bilinear(cJ, cJ1, 1, j);
#pragma omp simd
    for (int I = 1; I <= nxc; ++I) {
      o[2 * I] += kernels::bilinear_at(cJ, cJ1, I, 0, j);
      o[2 * I + 1] += kernels::bilinear_at(cJ, cJ1, I, 1, j);
    }
  });
}

template <class T>
void BasicCpuBackend<T>::coarse_solve(const BandedLU& lu, const BasicField<T>& f, BasicField<T>& v) {
  count(v.shape(), pass_bytes::coarse_solve(v.shape()));
  if constexpr (std::is_same_v<T, double>) {
    lu.solve(f, v);
  } else {  // the factor is double: solve in double through the level's host copies
    download(f, coarse_f_);
    if (!coarse_v_.data() || !(coarse_v_.shape() == v.shape())) coarse_v_ = Field(v.shape());
    lu.solve(coarse_f_, coarse_v_);
    upload(coarse_v_, v);
  }
}

template <class T>
void BasicCpuBackend<T>::fill(BasicField<T>& x, double value) {
  count(x.shape(), pass_bytes::fill(x.shape()));
  std::span<T> all = x.values();
  const std::size_t n = all.size();
  T* p = all.data();
  for_values(x.shape(), n, [&](std::size_t begin, std::size_t end) { std::fill(p + begin, p + end, T(value)); });
}

template <class T>
void BasicCpuBackend<T>::copy(const BasicField<T>& x, BasicField<T>& y) {
  count(x.shape(), pass_bytes::copy(x.shape()));
  const std::size_t n = x.values().size();
  const T* src = x.data();
  T* dst = y.data();
  for_values(x.shape(), n, [&](std::size_t begin, std::size_t end) { std::copy(src + begin, src + end, dst + begin); });
}

template <class T>
void BasicCpuBackend<T>::residual(const Stencil9& A, const BasicField<T>& v, const BasicField<T>& f, BasicField<T>& r) {
  count(v.shape(), pass_bytes::residual(v.shape()));
  const int nx = v.shape().nx;
  for_rows(v.shape(), [&](int j) {
    const T *vm = v.row(j - 1), *v0 = v.row(j), *vp = v.row(j + 1), *f0 = f.row(j);
    T* o = r.row(j);
    const BasicStencil9<T> S = stencil_as<T>(A);  // in registers: o cannot alias a local copy
    for_row_points(nx, vm, v0, vp, [&](int i, const auto& u) {
      using V = std::decay_t<decltype(u.c)>;
      store(o + i, kernels::residual_at(S, u, load<V>(f0 + i)));
    });
  });
}

template <class T>
void BasicCpuBackend<T>::apply(const Stencil9& A, const BasicField<T>& u, BasicField<T>& out) {
  count(u.shape(), pass_bytes::two_arrays(u.shape()));
  const int nx = u.shape().nx;
  for_rows(u.shape(), [&](int j) {
    const T *um = u.row(j - 1), *u0 = u.row(j), *up = u.row(j + 1);
    T* o = out.row(j);
    const BasicStencil9<T> S = stencil_as<T>(A);  // in registers: o cannot alias a local copy
#pragma omp simd
    for (int i = 1; i <= nx; ++i) o[i] = kernels::apply_stencil(S, um, u0, up, i);
  });
}

template <class T>
template <class U>
double BasicCpuBackend<T>::dot(const BasicField<T>& x, const BasicField<U>& y) {
  count_bytes(x.shape(), (sizeof(T) + sizeof(U)) * std::uint64_t(x.shape().unknowns()));
  const int nx = x.shape().nx;
  return sum_rows(x.shape(), [&](int j) {
    const T* a = x.row(j);
    const U* b = y.row(j);
    RowDot row;
    row.add(1, nx, a + 1, b + 1);
    return row.total();
  });
}

template <class T>
double BasicCpuBackend<T>::apply_dot(const Stencil9& A, const BasicField<T>& p, BasicField<T>& q) {
  count(p.shape(), pass_bytes::apply_dot(p.shape()));
  const int nx = p.shape().nx;
  return sum_rows(p.shape(), [&](int j) {
    const T *pm = p.row(j - 1), *p0 = p.row(j), *pp = p.row(j + 1);
    T* o = q.row(j);
    const BasicStencil9<T> S = stencil_as<T>(A);  // in registers: o cannot alias a local copy
#pragma omp simd
    for (int i = 1; i <= nx; ++i) o[i] = kernels::apply_stencil(S, pm, p0, pp, i);
    RowDot row;  // (p, A p) of the row while it is in cache
    row.add(1, nx, p0 + 1, o + 1);
    return row.total();
  });
}

template <class T>
template <class U>
double BasicCpuBackend<T>::xpay_energy(const Stencil9& A, const BasicField<U>& z, double beta, BasicField<T>& p) {
  count_bytes(p.shape(), (sizeof(U) + 2 * sizeof(T)) * std::uint64_t(p.shape().unknowns()));
  const int nx = p.shape().nx, ny = p.shape().ny;
  const int pieces = chunks(p.shape(), ny, kMinHaloChunkRows);
  const std::size_t stride = std::size_t(p.stride());
  T* scratch = wavefront_scratch(2 * std::size_t(pieces) * stride);
  // Chunk c's copies of the rows beyond its block: row a - 1 of p, then of the new p; row b + 1.
  auto below = [&](int c) { return scratch + std::size_t(2 * c) * stride; };
  auto above = [&](int c) { return below(c) + stride; };
  preparation_.start_pass(pieces);
  double* sums = row_sums(0, ny);
  run_chunks(p.shape(), pieces, [&](int c, int) {
    preparation_.around(c, [&](int d) {
      const RowRange rows = block_of(ny, d, pieces);
      if (rows.begin >= rows.end) return;
      if (rows.begin > 1) std::copy_n(p.row(rows.begin - 1), stride, below(d));
      if (rows.end <= ny) std::copy_n(p.row(rows.end), stride, above(d));
    });
    const RowRange rows = block_of(ny, c, pieces);
    const int a = rows.begin, b = rows.end - 1;
    if (a > b) return;
    auto new_p = [&](int j) { return j < 1 || j > ny ? p.row(j) : j < a ? below(c) : j > b ? above(c) : p.row(j); };
    auto update = [&](int j) {  // xpay's expression
      const U* s = z.row(j);
      T* d = new_p(j);
      const T scale = T(beta);  // a local the stores cannot alias: kept in a register
#pragma omp simd
      for (int i = 1; i <= nx; ++i) d[i] = s[i] + scale * d[i];
    };
    if (a > 1) update(a - 1);
    update(a);
    for (int j = a; j <= b; ++j) {
      if (j < ny) update(j + 1);
      const T *pm = new_p(j - 1), *p0 = new_p(j), *pp = new_p(j + 1);
      sums[j] = dot_of_row_and_stencil(nx, p0, A, pm, p0, pp);  // apply_dot's (p, A p)
    }
  });
  return row_total(0, ny);
}

template <class T>
template <class U>
double BasicCpuBackend<T>::axpy_norm2(double a, const BasicField<U>& x, BasicField<T>& y, const BasicField<T>* minus) {
  count_bytes(x.shape(), ((minus ? 3 : 2) * sizeof(T) + sizeof(U)) * std::uint64_t(x.shape().unknowns()));
  const int nx = x.shape().nx;
  return sum_rows(x.shape(), [&](int j) {
    const U* s = x.row(j);
    T* d = y.row(j);
    const T scale = T(a);  // a local the stores cannot alias: kept in a register
    double row = 0.0;
    if (minus) {
      const T* m = minus->row(j);
#pragma omp simd reduction(+ : row)
      for (int i = 1; i <= nx; ++i) {
        d[i] += scale * s[i];
        const double e = double(d[i]) - double(m[i]);
        row += e * e;
      }
    } else {
#pragma omp simd reduction(+ : row)
      for (int i = 1; i <= nx; ++i) {
        d[i] += scale * s[i];
        row += double(d[i]) * double(d[i]);
      }
    }
    return row;
  });
}

template <class T>
auto BasicCpuBackend<T>::update_x_and_r(double a, const Stencil9& A, const BasicField<T>& p, BasicField<T>& x,
                                        BasicField<T>& r, const BasicField<T>* exact, FloatField* rounded)
    -> UpdateNorms {
  const std::uint64_t n = p.shape().unknowns();
  count_bytes(p.shape(), (exact ? 6 : 5) * sizeof(T) * n + (rounded ? sizeof(float) * n : 0));
  const int nx = p.shape().nx, ny = p.shape().ny;
  // One row, the branches on exact and rounded taken outside its loops.
  double *error2 = row_sums(0, ny), *residual2 = row_sums(1, ny);
  auto row = [&]<bool kExact, bool kRounded>(int j) {
    const T *pm = p.row(j - 1), *p0 = p.row(j), *pp = p.row(j + 1);
    T* xr = x.row(j);
    T* rr = r.row(j);
    const T* m = kExact ? exact->row(j) : nullptr;
    float* fr = kRounded ? rounded->row(j) : nullptr;
    // Locals the stores cannot alias, so they stay in registers.
    const BasicStencil9<T> S = stencil_as<T>(A);
    const T to_x = T(a), to_r = T(-a);
    double e2 = 0.0, r2 = 0.0;
#pragma omp simd reduction(+ : e2, r2)
    for (int i = 1; i <= nx; ++i) {
      xr[i] += to_x * p0[i];  // axpy_norm2's expressions
      const double e = kExact ? double(xr[i]) - double(m[i]) : double(xr[i]);
      e2 += e * e;
      rr[i] += to_r * kernels::apply_stencil(S, pm, p0, pp, i);
      if constexpr (kRounded) fr[i] = float(rr[i]);
      r2 += double(rr[i]) * double(rr[i]);
    }
    error2[j] = e2;
    residual2[j] = r2;
  };
  for_rows(p.shape(), [&](int j) {
    if (exact && rounded)
      row.template operator()<true, true>(j);
    else if (exact)
      row.template operator()<true, false>(j);
    else if (rounded)
      row.template operator()<false, true>(j);
    else
      row.template operator()<false, false>(j);
  });
  return {row_total(0, ny), row_total(1, ny)};
}

template <class T>
template <class U>
double BasicCpuBackend<T>::dot_apply(const BasicField<U>& w, const Stencil9& A, const BasicField<T>& p) {
  count_bytes(p.shape(), (sizeof(U) + sizeof(T)) * std::uint64_t(p.shape().unknowns()));
  const int nx = p.shape().nx;
  return sum_rows(p.shape(), [&](int j) {
    const T *pm = p.row(j - 1), *p0 = p.row(j), *pp = p.row(j + 1);
    const U* w0 = w.row(j);
    return dot_of_row_and_stencil(nx, w0, A, pm, p0, pp);
  });
}

template <class T>
double BasicCpuBackend<T>::residual_norm2(const Stencil9& A, const BasicField<T>& v, const BasicField<T>& f,
                                          BasicField<T>* r) {
  count(v.shape(), r ? pass_bytes::residual(v.shape()) : pass_bytes::residual_norm2(v.shape()));
  return residual_norm2_into(A, v, f, r);
}

template <class T>
double BasicCpuBackend<T>::residual_norm2_rounded(const Stencil9& A, const BasicField<T>& v, const BasicField<T>& f,
                                                  FloatField& rounded) requires std::same_as<T, double> {
  count_bytes(v.shape(), (2 * sizeof(T) + sizeof(float)) * std::uint64_t(v.shape().unknowns()));
  return residual_norm2_into(A, v, f, &rounded);
}

template <class T>
template <class Out>
double BasicCpuBackend<T>::residual_norm2_into(const Stencil9& A, const BasicField<T>& v, const BasicField<T>& f,
                                               Out* r) {
  const int nx = v.shape().nx;
  return sum_rows(v.shape(), [&](int j) {
    const T *vm = v.row(j - 1), *v0 = v.row(j), *vp = v.row(j + 1), *f0 = f.row(j);
    auto* out = r ? r->row(j) : nullptr;
    const BasicStencil9<T> S = stencil_as<T>(A);
    SquareSum<T> squares;
    for_row_points(nx, vm, v0, vp, [&](int i, const auto& u) {
      using U = std::decay_t<decltype(u.c)>;
      const U res = kernels::residual_at(S, u, load<U>(f0 + i));
      squares.add(res);
      if constexpr (std::is_same_v<Out, BasicField<T>>) {
        if (out) store(out + i, res);
      } else {
        if (out) store_rounded(out + i, res);
      }
    });
    return squares.total();
  });
}

template <class T>
void BasicCpuBackend<T>::axpy(double a, const BasicField<T>& x, BasicField<T>& y) {
  count(x.shape(), pass_bytes::three_arrays(x.shape()));
  const int nx = x.shape().nx;
  for_rows(x.shape(), [&](int j) {
    const T* s = x.row(j);
    T* d = y.row(j);
    const T scale = T(a);
#pragma omp simd
    for (int i = 1; i <= nx; ++i) d[i] += scale * s[i];
  });
}

template <class T>
template <class U>
void BasicCpuBackend<T>::xpay(const BasicField<U>& x, double b, BasicField<T>& y) {
  count_bytes(x.shape(), (sizeof(U) + 2 * sizeof(T)) * std::uint64_t(x.shape().unknowns()));
  const int nx = x.shape().nx;
  for_rows(x.shape(), [&](int j) {
    const U* s = x.row(j);
    T* d = y.row(j);
    const T scale = T(b);
#pragma omp simd
    for (int i = 1; i <= nx; ++i) d[i] = s[i] + scale * d[i];
  });
}

template <class T>
void BasicCpuBackend<T>::triad(double s, const BasicField<T>& b, const BasicField<T>& c, BasicField<T>& a) {
  count(a.shape(), pass_bytes::three_arrays(a.shape()));
  const int nx = a.shape().nx;
  for_rows(a.shape(), [&](int j) {
    const T *pb = b.row(j), *pc = c.row(j);
    T* pa = a.row(j);
#pragma omp simd
    for (int i = 1; i <= nx; ++i) pa[i] = kernels::triad(pb[i], pc[i], T(s));
  });
}

template <class T>
void BasicCpuBackend<T>::image(const Stencil9& A, FieldView view, const BasicField<T>& v, const BasicField<T>& f,
                               const BasicField<T>* exact, float* out) {
  const int nx = v.shape().nx;
  for_rows(v.shape(), [&](int j) {
    const T *vm = v.row(j - 1), *v0 = v.row(j), *vp = v.row(j + 1), *f0 = f.row(j);
    const T* e0 = exact ? exact->row(j) : nullptr;
    float* o = out + std::size_t(j - 1) * std::size_t(nx) - 1;
    const BasicStencil9<T> S = stencil_as<T>(A);
    for (int i = 1; i <= nx; ++i) o[i] = kernels::image_value(S, view, vm, v0, vp, f0, e0, i);
  });
}

template <class T>
void BasicCpuBackend<T>::upload(const Field& host, BasicField<T>& vector) {
  if constexpr (std::is_same_v<T, double>) {
    vector = host;
  } else {  // rounded to T, ring included
    if (!vector.data() || !(vector.shape() == host.shape())) vector = BasicField<T>(host.shape());
    std::transform(host.values().begin(), host.values().end(), vector.values().begin(), [](double x) { return T(x); });
  }
}

template <class T>
void BasicCpuBackend<T>::download(const BasicField<T>& vector, Field& host) {
  if constexpr (std::is_same_v<T, double>) {
    host = vector;
  } else {
    if (!host.data() || !(host.shape() == vector.shape())) host = Field(vector.shape());
    std::copy(vector.values().begin(), vector.values().end(), host.values().begin());
  }
}

template <class T>
template <class U>
void BasicCpuBackend<T>::convert(const BasicField<U>& x, BasicField<T>& y) {
  count_bytes(x.shape(), (sizeof(U) + sizeof(T)) * std::uint64_t(x.shape().unknowns()));
  const int nx = x.shape().nx;
  for_rows(x.shape(), [&](int j) {
    const U* s = x.row(j);
    T* d = y.row(j);
#pragma omp simd
    for (int i = 1; i <= nx; ++i) d[i] = T(s[i]);
  });
}

template <class T>
void BasicCpuBackend<T>::assign(const Field& x, BasicField<T>& y) {
  convert(x, y);
}
template <class T>
void BasicCpuBackend<T>::assign(const FloatField& x, BasicField<T>& y) {
  convert(x, y);
}

template <class T>
void BasicCpuBackend<T>::coarse_tail(CoarseTail& tail) requires std::same_as<T, double> {
  count_bytes(GridShape{tail.levels[0].nx, tail.levels[0].ny}, 0);
  run_coarse_tail(SerialTeam{}, tail);
}

template class BasicCpuBackend<double>;
template class BasicCpuBackend<float>;
// Each backend's own vectors, and a double backend's reading a float hierarchy's correction.
#define KCYCLE_SECOND_VECTOR_AS(T, U)                                                                             \
  template double BasicCpuBackend<T>::dot(const BasicField<T>&, const BasicField<U>&);                            \
  template void BasicCpuBackend<T>::xpay(const BasicField<U>&, double, BasicField<T>&);                           \
  template double BasicCpuBackend<T>::xpay_energy(const Stencil9&, const BasicField<U>&, double, BasicField<T>&); \
  template double BasicCpuBackend<T>::dot_apply(const BasicField<U>&, const Stencil9&, const BasicField<T>&);     \
  template double BasicCpuBackend<T>::axpy_norm2(double, const BasicField<U>&, BasicField<T>&, const BasicField<T>*);
KCYCLE_SECOND_VECTOR_AS(double, double)
KCYCLE_SECOND_VECTOR_AS(float, float)
KCYCLE_SECOND_VECTOR_AS(double, float)
#undef KCYCLE_SECOND_VECTOR_AS

}  // namespace kcycle
