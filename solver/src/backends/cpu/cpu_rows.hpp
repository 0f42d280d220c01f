#pragma once
// What the CPU backend's passes share (private): SIMD vectors of the point bodies' values, the
// row loops over them, the order-fixed row sums, and the backend's member templates that run
// rows and values on its team. cpu_backend.cpp, cpu_fused_passes.cpp and cpu_vector_ops.cpp
// include it.
#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include "kcycle/backends/cpu/available_cores.hpp"
#include "kcycle/backends/cpu/cpu_backend.hpp"
#include "kcycle/backends/cpu/row_blocks.hpp"
#include "kcycle/core/kernels.hpp"
#include "kcycle/cycle/byte_model.hpp"

namespace kcycle {

// One copy per file that includes it (the passes of one file inline them).
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

// fill(begin, end) over chunks of [0, n), the flat values of a field of `shape`.
template <class T>
template <class Fill>
void BasicCpuBackend<T>::for_values(const GridShape& shape, std::size_t n, Fill&& fill) {
  const int pieces = chunks(shape, shape.ny + 2);
  run_chunks(shape, pieces, [&](int c, int) {
    fill(n * std::size_t(c) / std::size_t(pieces), n * std::size_t(c + 1) / std::size_t(pieces));
  });
}

}  // namespace kcycle
