// The Laplacian on the unit square or cube, -div(c grad u) = 1 with u = 0 on the boundary,
// discretized on a DMDA (5 or 7 points), solved by any KSP and PC from the options: PETSc's
// own cycles (-pc_type mg -pc_mg_cycle_type v|w, -pc_type gamg) or the paper's (-pc_type kcycle
// -pc_kcycle_kappa 3). c is 1, or with -jump J, J inside the middle square or cube [1/4, 3/4]^d:
// a variable coefficient for GAMG's algebraic coarsening. Written for kcycle in the manner of
// PETSc's KSP tutorials.
//
//   mpirun -n 2 kcycle_petsc_laplacian -dim 2 -da_refine 6 -pc_type kcycle -pc_kcycle_kappa 2 -ksp_monitor
#include <petscdmda.h>
#include <petscksp.h>

#include "kcycle/petsc/pc_kcycle.h"
#include "solve_on_dmda.hpp"

static const char help[] = "The Laplacian on a DMDA, for PETSc's cycles and the kappa-cycle (-pc_type kcycle).\n";

namespace {

// Rows of boundary points are the identity scaled like the interior diagonal, so that every
// level's operator (rediscretized on the coarser DMDA) is well scaled.
PetscErrorCode ComputeMatrix(KSP ksp, Mat, Mat A, void* context) {
  const PetscReal jump = *static_cast<const PetscReal*>(context);
  DM da;
  PetscInt dim, mx, my, mz, xs, ys, zs, xm, ym, zm;
  PetscFunctionBeginUser;
  PetscCall(KSPGetDM(ksp, &da));
  PetscCall(DMDAGetInfo(da, &dim, &mx, &my, &mz, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                        nullptr));
  PetscCall(DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm));
  const PetscReal hx = 1.0 / (mx - 1), hy = 1.0 / (my - 1), hz = dim == 3 ? 1.0 / (mz - 1) : 1.0;
  // -Δ times the cell volume: couplings volume / h^2 per direction.
  const PetscReal volume = hx * hy * (dim == 3 ? hz : 1.0);
  const PetscReal cx = volume / (hx * hx), cy = volume / (hy * hy), cz = dim == 3 ? volume / (hz * hz) : 0.0;
  const PetscReal diagonal = 2 * (cx + cy + cz);
  for (PetscInt k = zs; k < zs + zm; ++k)
    for (PetscInt j = ys; j < ys + ym; ++j)
      for (PetscInt i = xs; i < xs + xm; ++i) {
        MatStencil row{}, cols[7]{};
        PetscScalar values[7];
        row.i = i, row.j = j, row.k = k;
        const bool boundary = i == 0 || j == 0 || i == mx - 1 || j == my - 1 || (dim == 3 && (k == 0 || k == mz - 1));
        if (boundary) {
          values[0] = diagonal;
          PetscCall(MatSetValuesStencil(A, 1, &row, 1, &row, values, INSERT_VALUES));
          continue;
        }
        PetscInt n = 0;
        auto couple = [&](PetscInt di, PetscInt dj, PetscInt dk, PetscScalar v) {
          cols[n].i = i + di, cols[n].j = j + dj, cols[n].k = k + dk;
          values[n++] = v;
        };
        // c at the midpoint of each coupling: J inside the middle square or cube, else 1.
        auto c = [&](PetscReal di, PetscReal dj, PetscReal dk) {
          const PetscReal x = (i + di) * hx, y = (j + dj) * hy, z = (k + dk) * hz;
          const bool inside = x > 0.25 && x < 0.75 && y > 0.25 && y < 0.75 && (dim == 2 || (z > 0.25 && z < 0.75));
          return inside ? jump : 1.0;
        };
        couple(0, 0, 0, 0);
        couple(-1, 0, 0, -cx * c(-0.5, 0, 0)), couple(1, 0, 0, -cx * c(0.5, 0, 0));
        couple(0, -1, 0, -cy * c(0, -0.5, 0)), couple(0, 1, 0, -cy * c(0, 0.5, 0));
        if (dim == 3) couple(0, 0, -1, -cz * c(0, 0, -0.5)), couple(0, 0, 1, -cz * c(0, 0, 0.5));
        for (PetscInt m = 1; m < n; ++m) values[0] -= values[m];  // the diagonal: the sum of the couplings
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
  PetscInt dim = 2;
  PetscReal jump = 1;
  PetscCall(PetscOptionsGetInt(nullptr, nullptr, "-dim", &dim, nullptr));
  PetscCall(PetscOptionsGetReal(nullptr, nullptr, "-jump", &jump, nullptr));
  PetscCheck(jump > 0 && jump < 1e12, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-jump must be in (0, 1e12) (got %g)",
             (double)jump);
  PetscCheck(dim == 2 || dim == 3, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE,
             "-dim must be 2 or 3 (got %" PetscInt_FMT ")", dim);
  DM da;
  if (dim == 2)
    PetscCall(DMDACreate2d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, 5, 5, PETSC_DECIDE,
                           PETSC_DECIDE, 1, 1, nullptr, nullptr, &da));
  else
    PetscCall(DMDACreate3d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, 5,
                           5, 5, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 1, 1, nullptr, nullptr, nullptr, &da));
  PetscCall(DMSetFromOptions(da));
  PetscCall(DMSetUp(da));
  PetscCall(SolveOnDmda(da, ComputeCellVolumeRHS, ComputeMatrix, &jump));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFinalize());
  return 0;
}
