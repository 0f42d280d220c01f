// The paper's model problem on a DMDA: -div(K grad u) = 1 on the unit square, u = 0 on the
// boundary, K with 1 along the angle phi and eps across it,
//   -(a u_xx + 2 b u_xy + c u_yy),  a = cos^2 + eps sin^2,  b = (1 - eps) cos sin,  c = sin^2 + eps cos^2,
// by the 9-point stencil (the mixed derivative on the corners), rediscretized on every level of
// the DMDA hierarchy. Strong anisotropy (eps = 1e-4) at 45 degrees is where point smoothers
// leave V-cycles slow and kappa = 2 or 3 pays. Written for kcycle in the manner of PETSc's KSP
// tutorials.
//
//   kcycle_petsc_anisotropic -da_refine 7 -eps 1e-4 -angle 45 -pc_type kcycle -pc_kcycle_kappa 3
#include <petscdmda.h>
#include <petscksp.h>

#include <cmath>

#include "kcycle/petsc/pc_kcycle.h"
#include "solve_on_dmda.hpp"

static const char help[] = "Rotated anisotropic diffusion on a DMDA (the paper's problem) for -pc_type kcycle.\n";

namespace {

struct Anisotropy {
  PetscReal eps = 1e-4, angle_degrees = 45;
};

PetscErrorCode ComputeMatrix(KSP ksp, Mat, Mat A, void* context) {
  const Anisotropy& k = *static_cast<const Anisotropy*>(context);
  DM da;
  PetscInt mx, my, xs, ys, xm, ym;
  PetscFunctionBeginUser;
  PetscCall(KSPGetDM(ksp, &da));
  PetscCall(DMDAGetInfo(da, nullptr, &mx, &my, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                        nullptr, nullptr));
  PetscCall(DMDAGetCorners(da, &xs, &ys, nullptr, &xm, &ym, nullptr));
  const PetscReal phi = k.angle_degrees * PETSC_PI / 180, c = std::cos(phi), s = std::sin(phi);
  const PetscReal a = c * c + k.eps * s * s, b = (1 - k.eps) * c * s, d = s * s + k.eps * c * c;
  const PetscReal hx = 1.0 / (mx - 1), hy = 1.0 / (my - 1);
  // The equation times hx hy: couplings a hy/hx, d hx/hy, and b/2 on the corners.
  const PetscReal ax = a * hy / hx, ay = d * hx / hy, corner = b / 2;
  for (PetscInt j = ys; j < ys + ym; ++j)
    for (PetscInt i = xs; i < xs + xm; ++i) {
      MatStencil row{}, cols[9]{};
      PetscScalar values[9];
      row.i = i, row.j = j;
      if (i == 0 || j == 0 || i == mx - 1 || j == my - 1) {
        values[0] = 2 * (ax + ay);
        PetscCall(MatSetValuesStencil(A, 1, &row, 1, &row, values, INSERT_VALUES));
        continue;
      }
      PetscInt n = 0;
      auto couple = [&](PetscInt di, PetscInt dj, PetscScalar v) {
        cols[n].i = i + di, cols[n].j = j + dj;
        values[n++] = v;
      };
      couple(0, 0, 2 * (ax + ay));
      couple(-1, 0, -ax), couple(1, 0, -ax), couple(0, -1, -ay), couple(0, 1, -ay);
      couple(1, 1, -corner), couple(-1, -1, -corner), couple(1, -1, corner), couple(-1, 1, corner);
      PetscCall(MatSetValuesStencil(A, 1, &row, n, cols, values, INSERT_VALUES));
    }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

}  // namespace

int main(int argc, char** argv) {
  PetscCall(PetscInitialize(&argc, &argv, nullptr, help));
  PetscCall(KCycleInitializePackage());
  Anisotropy k;
  PetscCall(PetscOptionsGetReal(nullptr, nullptr, "-eps", &k.eps, nullptr));
  PetscCall(PetscOptionsGetReal(nullptr, nullptr, "-angle", &k.angle_degrees, nullptr));
  PetscCheck(k.eps > 0 && k.eps <= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-eps must be in (0, 1] (got %g)",
             (double)k.eps);
  PetscCheck(std::isfinite(k.angle_degrees), PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-angle must be finite");
  DM da;
  PetscCall(DMDACreate2d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_BOX, 5, 5, PETSC_DECIDE,
                         PETSC_DECIDE, 1, 1, nullptr, nullptr, &da));
  PetscCall(DMSetFromOptions(da));
  PetscCall(DMSetUp(da));
  PetscCall(SolveOnDmda(da, ComputeCellVolumeRHS, ComputeMatrix, &k));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFinalize());
  return 0;
}
