#pragma once
// What every example does once its DMDA and callbacks exist: a KSP on the DMDA, configured
// from the options (-ksp_*, -pc_type mg|gamg|kcycle, ...), one solve, and one line that
// petsc/scripts/kappa_table.sh reads: "iterations N, REASON, T s" (T: KSPSolve, set-up included).
#include <petscdmda.h>
#include <petscksp.h>

// The right-hand side 1, times the cell volume (as the examples' operators are scaled), on the
// KSP's DMDA of 2 or 3 dimensions.
inline PetscErrorCode ComputeCellVolumeRHS(KSP ksp, Vec b, void*) {
  DM da;
  PetscInt dim, mx, my, mz;
  PetscFunctionBeginUser;
  PetscCall(KSPGetDM(ksp, &da));
  PetscCall(DMDAGetInfo(da, &dim, &mx, &my, &mz, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                        nullptr));
  PetscCall(VecSet(b, 1.0 / ((mx - 1) * (my - 1) * (dim == 3 ? mz - 1 : 1))));
  PetscFunctionReturn(0);
}

inline PetscErrorCode SolveOnDmda(DM da, PetscErrorCode (*rhs)(KSP, Vec, void*),
                                  PetscErrorCode (*matrix)(KSP, Mat, Mat, void*), void* context) {
  KSP ksp;
  PetscLogDouble start, end;
  PetscInt iterations;
  KSPConvergedReason reason;
  PetscFunctionBeginUser;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetDM(ksp, da));
  PetscCall(KSPSetComputeRHS(ksp, rhs, context));
  PetscCall(KSPSetComputeOperators(ksp, matrix, context));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(PetscTime(&start));
  PetscCall(KSPSolve(ksp, nullptr, nullptr));
  PetscCall(PetscTime(&end));
  PetscCall(KSPGetIterationNumber(ksp, &iterations));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "iterations %" PetscInt_FMT ", %s, %.6f s\n", iterations,
                        KSPConvergedReasons[reason], end - start));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(0);
}
