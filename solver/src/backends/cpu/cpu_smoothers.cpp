// The CPU backend's Gauss-Seidel and zebra line smoothers: pass by pass as the paper's launch
// model counts them, and (Gauss-Seidel, x-zebra) pipelined into one pass over memory.
#include <algorithm>

#include "kcycle/backends/cpu/cpu_backend.hpp"
#include "kcycle/backends/cpu/row_blocks.hpp"
#include "kcycle/core/kernels.hpp"
#include "kcycle/cycle/byte_model.hpp"
#include "row_wavefront.hpp"

namespace kcycle {

namespace {

// Gauss-Seidel's colour k (0..3): points with (i + j) % 2 == k / 2 on odd rows (k even) or
// even rows (k odd). The sweep runs k = 0, 1, 2, 3, or 3, 2, 1, 0 in reverse.
constexpr int colour_of_pass(int q, bool reverse) { return reverse ? 3 - q : q; }
constexpr int first_row_of_colour(int k) { return k % 2 == 0 ? 1 : 2; }

// Colour k's points of row j, in place. S by value: v0 cannot alias a local copy.
template <class T>
void gauss_seidel_row(BasicStencil9<T> S, T inv_diag, int k, int nx, const T* vm, T* v0, const T* vp, const T* f0,
                      int j) {
  const int first_i = ((j + k / 2) % 2 == 0) ? 2 : 1;  // (i + j) % 2 == k / 2
  for (int i = first_i; i <= nx; i += 2) v0[i] = kernels::gauss_seidel(S, inv_diag, vm, v0, vp, f0, i);
}

// Rows whose x-lines are solved together: their independent recurrences overlap in the core.
constexpr int kLineBlock = 8;

// The x-line solves of `count` <= kLineBlock rows: x[r] is the row, below[r] and above[r] its
// neighbour rows, f[r] its right-hand side. x[r][0] and x[r][nx+1] are the zero boundary, where
// the recurrences start and end.
template <class T>
void solve_x_lines(BasicStencil9<T> S, const TridiagonalFactor& line, int nx, int count, T* const* x,
                   const T* const* below, const T* const* above, const T* const* f) {
  const double *lower = line.lower(), *cprime = line.cprime(), *inv = line.inv_denom();
  for (int r = 0; r < count; ++r) {
    T* xr = x[r];
    const T *vm = below[r], *vp = above[r], *f0 = f[r];
#pragma omp simd
    for (int i = 1; i <= nx; ++i) xr[i] = kernels::x_line_rhs(S, vm, vp, f0, i);
  }
  for (int i = 1; i <= nx; ++i)
    for (int r = 0; r < count; ++r)
      x[r][i] = kernels::thomas_forward(x[r][i], T(lower[i - 1]), x[r][i - 1], T(inv[i - 1]));
  for (int i = nx; i >= 1; --i)
    for (int r = 0; r < count; ++r) x[r][i] = kernels::thomas_backward(x[r][i], T(cprime[i - 1]), x[r][i + 1]);
}

// The x-lines of rows first, first + 2, ..., last (at most kLineBlock of them), rows(j) giving row j.
template <class T, class Rows>
void solve_x_lines_of(BasicStencil9<T> S, const TridiagonalFactor& line, const BasicField<T>& f, const Rows& rows,
                      int first, int last) {
  T* x[kLineBlock];
  const T *below[kLineBlock], *above[kLineBlock], *rhs[kLineBlock];
  int count = 0;
  for (int j = first; j <= last; j += 2, ++count) {
    x[count] = rows(j);
    below[count] = rows(j - 1);
    above[count] = rows(j + 1);
    rhs[count] = f.row(j);
  }
  solve_x_lines(S, line, f.shape().nx, count, x, below, above, rhs);
}

}  // namespace

template <class T>
void BasicCpuBackend<T>::gauss_seidel(const Stencil9& A, BasicField<T>& v, const BasicField<T>& f, bool reverse) {
  for (int q = 0; q < 4; ++q) gauss_seidel_colour(A, v, f, colour_of_pass(q, reverse));
}

template <class T>
void BasicCpuBackend<T>::gauss_seidel_colour(const Stencil9& A, BasicField<T>& v, const BasicField<T>& f, int k) {
  const int nx = v.shape().nx, ny = v.shape().ny;
  const T inv_diag = T(1.0 / A.center());
  const BasicStencil9<T> S = stencil_as<T>(A);
  count(v.shape(), pass_bytes::gauss_seidel_colour(v.shape()));
  const int first_row = first_row_of_colour(k);
  const int rows = first_row <= ny ? (ny - first_row) / 2 + 1 : 0;
  for_row_blocks(v.shape(), chunks(v.shape(), rows), rows, [&](detail::RowRange block, int) {
    for (int r = block.begin - 1; r < block.end - 1; ++r) {  // the colour's rows 0..rows-1
      const int j = first_row + 2 * r;
      gauss_seidel_row(S, inv_diag, k, nx, v.row(j - 1), v.row(j), v.row(j + 1), f.row(j), j);
    }
  });
}

template <class T>
void BasicCpuBackend<T>::gauss_seidel_pipelined(const Stencil9& A, BasicField<T>& v, const BasicField<T>& f,
                                                bool reverse) {
  count(v.shape(), pass_bytes::pipelined_sweep(v.shape()));
  const int nx = v.shape().nx;
  const T inv_diag = T(1.0 / A.center());
  const BasicStencil9<T> S = stencil_as<T>(A);
  const detail::RowWavefront w{4, first_row_of_colour(colour_of_pass(0, reverse)), 2};
  const int pieces = chunks(v.shape(), v.shape().ny, kMinHaloChunkRows);
  run_row_wavefront(
      w, v, [&](int n, auto&& body) { run_chunks(v.shape(), n, body); }, pieces, preparation_,
      wavefront_scratch(detail::row_wavefront_scratch(w, pieces, v.stride())),
      [&](int q, const auto& rows, int first, int last) {
        const int k = colour_of_pass(q, reverse);
        for (int j = first; j <= last; j += 2)
          gauss_seidel_row(S, inv_diag, k, nx, rows(j - 1), rows(j), rows(j + 1), f.row(j), j);
      });
}

template <class T>
void BasicCpuBackend<T>::zebra_x(const Stencil9& A, const TridiagonalFactor& line, BasicField<T>& v,
                                 const BasicField<T>& f, bool odd_first) {
  zebra_x_lines(A, line, v, f, odd_first ? 1 : 2);
  zebra_x_lines(A, line, v, f, odd_first ? 2 : 1);
}

template <class T>
void BasicCpuBackend<T>::zebra_x_lines(const Stencil9& A, const TridiagonalFactor& line, BasicField<T>& v,
                                       const BasicField<T>& f, int first_row) {
  const int ny = v.shape().ny;
  const BasicStencil9<T> S = stencil_as<T>(A);
  const auto in_place = [&](int j) { return v.row(j); };
  count(v.shape(), pass_bytes::zebra_x_pass(v.shape()));
  const int rows = first_row <= ny ? (ny - first_row) / 2 + 1 : 0;
  const int blocks = (rows + kLineBlock - 1) / kLineBlock;
  for_row_blocks(v.shape(), chunks(v.shape(), blocks, 1), blocks, [&](detail::RowRange block, int) {
    for (int b = block.begin - 1; b < block.end - 1; ++b) {  // the line blocks 0..blocks-1
      const int first = first_row + 2 * kLineBlock * b;
      solve_x_lines_of(S, line, f, in_place, first, std::min(ny, first + 2 * (kLineBlock - 1)));
    }
  });
}

template <class T>
void BasicCpuBackend<T>::zebra_x_pipelined(const Stencil9& A, const TridiagonalFactor& line, BasicField<T>& v,
                                           const BasicField<T>& f, bool odd_first) {
  count(v.shape(), pass_bytes::pipelined_sweep(v.shape()));
  const BasicStencil9<T> S = stencil_as<T>(A);
  const detail::RowWavefront w{2, odd_first ? 1 : 2, 2 * kLineBlock};
  const int pieces = chunks(v.shape(), v.shape().ny, kMinHaloChunkRows);
  run_row_wavefront(
      w, v, [&](int n, auto&& body) { run_chunks(v.shape(), n, body); }, pieces, preparation_,
      wavefront_scratch(detail::row_wavefront_scratch(w, pieces, v.stride())),
      [&](int, const auto& rows, int first, int last) { solve_x_lines_of(S, line, f, rows, first, last); });
}

template <class T>
void BasicCpuBackend<T>::zebra_y(const Stencil9& A, const TridiagonalFactor& line, BasicField<T>& v,
                                 const BasicField<T>& f, bool odd_first) {
  zebra_y_lines(A, line, v, f, odd_first ? 1 : 2);
  zebra_y_lines(A, line, v, f, odd_first ? 2 : 1);
}

template <class T>
void BasicCpuBackend<T>::zebra_y_lines(const Stencil9& A, const TridiagonalFactor& line, BasicField<T>& v,
                                       const BasicField<T>& f, int first_col) {
  const int nx = v.shape().nx, ny = v.shape().ny;
  const double *lower = line.lower(), *cprime = line.cprime(), *inv = line.inv_denom();
  count(v.shape(), pass_bytes::zebra_y_pass(v.shape()));
  const int cols = first_col <= nx ? (nx - first_col) / 2 + 1 : 0;
  // Each chunk sweeps all rows for its own block of columns: the recurrence runs down the rows,
  // and a whole row of columns advances at once.
  // At least 64 columns a chunk: narrower strips share cache lines at their edges.
  for_row_blocks(v.shape(), chunks(v.shape(), cols, 64), cols,
                 [&](detail::RowRange mine, int) {  // column indices 1..cols
                   const int i0 = first_col + 2 * (mine.begin - 1), i1 = first_col + 2 * (mine.end - 1);
                   for (int j = 1; j <= ny; ++j) {
                     const T *vm = v.row(j - 1), *vp = v.row(j + 1), *f0 = f.row(j);
                     T* v0 = v.row(j);
                     const BasicStencil9<T> S = stencil_as<T>(A);  // in registers: v0 cannot alias a local copy
                     for (int i = i0; i < i1; i += 2)
                       v0[i] = kernels::thomas_forward(kernels::y_line_rhs(S, vm, v0, vp, f0, i), T(lower[j - 1]),
                                                       vm[i], T(inv[j - 1]));
                   }
                   for (int j = ny; j >= 1; --j) {
                     const T* vp = v.row(j + 1);
                     T* v0 = v.row(j);
                     for (int i = i0; i < i1; i += 2) v0[i] = kernels::thomas_backward(v0[i], T(cprime[j - 1]), vp[i]);
                   }
                 });
}

template <class T>
T* BasicCpuBackend<T>::wavefront_scratch(std::size_t values) {
  if (wavefront_rows_.size() < values) wavefront_rows_.assign(values, T(0));  // grows once, not per sweep
  return wavefront_rows_.data();
}

#define KCYCLE_CPU_SMOOTHERS(T)                                                                                      \
  template void BasicCpuBackend<T>::gauss_seidel(const Stencil9&, BasicField<T>&, const BasicField<T>&, bool);       \
  template void BasicCpuBackend<T>::gauss_seidel_pipelined(const Stencil9&, BasicField<T>&, const BasicField<T>&,    \
                                                           bool);                                                    \
  template void BasicCpuBackend<T>::zebra_x(const Stencil9&, const TridiagonalFactor&, BasicField<T>&,               \
                                            const BasicField<T>&, bool);                                             \
  template void BasicCpuBackend<T>::zebra_x_pipelined(const Stencil9&, const TridiagonalFactor&, BasicField<T>&,     \
                                                      const BasicField<T>&, bool);                                   \
  template void BasicCpuBackend<T>::zebra_y(const Stencil9&, const TridiagonalFactor&, BasicField<T>&,               \
                                            const BasicField<T>&, bool);                                             \
  template void BasicCpuBackend<T>::gauss_seidel_colour(const Stencil9&, BasicField<T>&, const BasicField<T>&, int); \
  template void BasicCpuBackend<T>::zebra_x_lines(const Stencil9&, const TridiagonalFactor&, BasicField<T>&,         \
                                                  const BasicField<T>&, int);                                        \
  template void BasicCpuBackend<T>::zebra_y_lines(const Stencil9&, const TridiagonalFactor&, BasicField<T>&,         \
                                                  const BasicField<T>&, int);                                        \
  template T* BasicCpuBackend<T>::wavefront_scratch(std::size_t);
KCYCLE_CPU_SMOOTHERS(double)
KCYCLE_CPU_SMOOTHERS(float)
#undef KCYCLE_CPU_SMOOTHERS

}  // namespace kcycle
