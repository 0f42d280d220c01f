// The CPU backend's fused Jacobi passes: nu sweeps streamed through rings of rows with the
// residual and the restriction (the way down), and the prolongation with the sweeps (the way up),
// each one pass over memory, bitwise the same iterate as the separate passes.
#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "cpu_rows.hpp"

namespace kcycle {

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

#define KCYCLE_FUSED_PASSES(T)                                                                                     \
  template T* BasicCpuBackend<T>::stream_scratch(int, int, int);                                                   \
  template void BasicCpuBackend<T>::jacobi_restrict_residual(const Stencil9&, double, int, const BasicField<T>&,   \
                                                             const BasicField<T>&, BasicField<T>&, BasicField<T>&, \
                                                             Coarsening, bool);                                    \
  template void BasicCpuBackend<T>::prolong_add_jacobi(const Stencil9&, double, int, const BasicField<T>&,         \
                                                       const BasicField<T>&, const BasicField<T>&, BasicField<T>&, \
                                                       Coarsening, double*, double*, double*);
KCYCLE_FUSED_PASSES(double)
KCYCLE_FUSED_PASSES(float)
#undef KCYCLE_FUSED_PASSES

}  // namespace kcycle
