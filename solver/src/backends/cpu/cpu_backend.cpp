#include "kcycle/backends/cpu/cpu_backend.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "cpu_rows.hpp"
#include "kcycle/backends/cpu/available_cores.hpp"
#include "kcycle/backends/cpu/row_blocks.hpp"
#include "kcycle/core/kernels.hpp"
#include "kcycle/cycle/byte_model.hpp"

namespace kcycle {

template <class T>
int BasicCpuBackend<T>::chunks(const GridShape& shape, int count, int min_rows) const {
  if (!parallel(shape) || team_->alone_for_now()) return 1;
  // A multiple of the team's size, so that the shares are equal; never a chunk of fewer than
  // min_rows rows (the in-place passes copy rows of the adjacent chunks only).
  const int per_thread = count / (min_rows * threads());
  if (per_thread == 0) return std::max(1, count / min_rows);
  return threads() * std::min(per_thread, kChunksPerThread);
}

template <class T>
double BasicCpuBackend<T>::row_total(int slot, int ny) const {
  const double* sums = row_sums_.data() + std::size_t(slot) * std::size_t(row_sum_stride_);
  double total = 0.0;
  for (int j = 1; j <= ny; ++j) total += sums[j];
  return total;
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

}  // namespace kcycle
