// The CPU backend's vector operations (Krylov, norms, timing): each one pass over its fields
// on the team, sums in a fixed order (bitwise the same whatever the threads), CG's two-pass
// iteration (A p recomputed, never stored).
#include <algorithm>
#include <cstring>
#include <type_traits>

#include "cpu_rows.hpp"

namespace kcycle {

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

#define KCYCLE_VECTOR_OPS(T)                                                                                      \
  template void BasicCpuBackend<T>::fill(BasicField<T>&, double);                                                 \
  template void BasicCpuBackend<T>::copy(const BasicField<T>&, BasicField<T>&);                                   \
  template void BasicCpuBackend<T>::residual(const Stencil9&, const BasicField<T>&, const BasicField<T>&,         \
                                             BasicField<T>&);                                                     \
  template void BasicCpuBackend<T>::apply(const Stencil9&, const BasicField<T>&, BasicField<T>&);                 \
  template double BasicCpuBackend<T>::apply_dot(const Stencil9&, const BasicField<T>&, BasicField<T>&);           \
  template auto BasicCpuBackend<T>::update_x_and_r(double, const Stencil9&, const BasicField<T>&, BasicField<T>&, \
                                                   BasicField<T>&, const BasicField<T>*, FloatField*)             \
      ->UpdateNorms;                                                                                              \
  template double BasicCpuBackend<T>::residual_norm2(const Stencil9&, const BasicField<T>&, const BasicField<T>&, \
                                                     BasicField<T>*);                                             \
  template void BasicCpuBackend<T>::axpy(double, const BasicField<T>&, BasicField<T>&);                           \
  template void BasicCpuBackend<T>::triad(double, const BasicField<T>&, const BasicField<T>&, BasicField<T>&);
KCYCLE_VECTOR_OPS(double)
KCYCLE_VECTOR_OPS(float)
#undef KCYCLE_VECTOR_OPS
template double BasicCpuBackend<double>::residual_norm2_rounded(const Stencil9&, const Field&, const Field&,
                                                                FloatField&);

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
