#pragma once
// The Krylov-accelerated kappa-cycle's two steps on a coarse level (MultigridSettings::
// coarse_krylov): Notay & Vassilevski's K-cycle ("Recursive Krylov-based multigrid cycles",
// 2008, Algorithm 2.1) with the kappa recursion's two calls as the two preconditioner
// applications. With r the coarse right-hand side (the restricted residual), B1 the first
// call (counter kappa) and B2 the second (kappa - 1), each run from zero:
//   c1 = B1 r;  rho1 = (c1, A c1);  alpha1 = (c1, r);  r2 = r - (alpha1 / rho1) A c1
//   if |r2| <= t |r|:  x = (alpha1 / rho1) c1                          (one step is enough)
//   else:  c2 = B2 r2;  gamma = (c2, A c1);  beta = (c2, A c2);  alpha2 = (c2, r2)
//          rho2 = beta - gamma^2 / rho1
//          x = (alpha1 / rho1 - gamma alpha2 / (rho1 rho2)) c1 + (alpha2 / rho2) c2
// x is the coarse correction the call then interpolates. Written with the backend's core
// vector operations only, so every backend runs it (the MPI backend's dot products reduce
// over the ranks).
#include <cmath>

#include "kcycle/core/stencil.hpp"

namespace kcycle {

// t: the second call is skipped where the first left at most this fraction of the residual
// (Notay & Vassilevski's choice).
inline constexpr double kKrylovSkipRatio = 0.25;

// What a coarse level keeps between the two steps: the first correction, A times each
// correction, and the first step's coefficients.
template <class Vector>
struct CoarseKrylovState {
  Vector c1, w1, w2;  // c1, A c1, A c2
  double rho1 = 0, alpha1 = 0;
};

// After the first call: v holds c1 and f the coarse right-hand side r. Leaves the weighed
// correction in v and returns false where one step is enough (or c1 is zero); else keeps c1,
// leaves r2 in f and v at zero for the second call, and returns true.
template <class Backend, class Vector>
bool krylov_weigh(Backend& be, const Stencil9& A, Vector& v, Vector& f, CoarseKrylovState<Vector>& k) {
  k.rho1 = be.apply_dot(A, v, k.w1);  // (c1, A c1)
  k.alpha1 = be.dot(v, f);
  if (!(k.rho1 > 0) || !std::isfinite(k.alpha1)) return false;  // no correction to weigh
  const double r_norm2 = be.dot(f, f);
  const double r2_norm2 = be.axpy_norm2(-k.alpha1 / k.rho1, k.w1, f, nullptr);  // f <- r2
  if (r2_norm2 <= kKrylovSkipRatio * kKrylovSkipRatio * r_norm2) {
    be.axpy(k.alpha1 / k.rho1 - 1.0, v, v);  // v <- (alpha1 / rho1) c1
    return false;
  }
  be.copy(v, k.c1);
  be.fill(v, 0.0);
  return true;
}

// After the second call: v holds c2 and f r2. Leaves the flexible-CG combination in v.
template <class Backend, class Vector>
void krylov_combine(Backend& be, const Stencil9& A, Vector& v, const Vector& f, CoarseKrylovState<Vector>& k) {
  const double gamma = be.dot(v, k.w1);
  const double beta = be.apply_dot(A, v, k.w2);
  const double alpha2 = be.dot(v, f);
  const double rho2 = beta - gamma * gamma / k.rho1;
  if (!(rho2 > 0)) {  // c2 adds no new direction (breakdown): the plain cycle's sum
    be.axpy(k.alpha1 / k.rho1, k.c1, v);
    return;
  }
  be.axpy(alpha2 / rho2 - 1.0, v, v);  // v <- (alpha2 / rho2) c2
  be.axpy(k.alpha1 / k.rho1 - gamma * alpha2 / (k.rho1 * rho2), k.c1, v);
}

}  // namespace kcycle
