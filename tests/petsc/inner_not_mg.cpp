// A kcycle PC whose inner PC is made a Jacobi (through PCKCycleGetInnerPC) is refused at set-up
// with PETSc's error PETSC_ERR_ARG_WRONG and a message naming what it needs, not a crash.
// Exit 0 when so; 1 otherwise. Run by tests/petsc/petsc_checks.sh bad-input.
#include <petscksp.h>

#include <cstdio>
#include <cstring>

#include "kcycle/petsc/pc_kcycle.h"

int main(int argc, char** argv) {
  PetscCall(PetscInitialize(&argc, &argv, nullptr, nullptr));
  PetscCall(KCycleInitializePackage());
  const PetscInt n = 16;
  Mat A;
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, n, n, 3, nullptr, 2, nullptr, &A));
  PetscInt first, last;
  PetscCall(MatGetOwnershipRange(A, &first, &last));
  for (PetscInt i = first; i < last; ++i) {
    PetscCall(MatSetValue(A, i, i, 2.0, INSERT_VALUES));
    if (i > 0) PetscCall(MatSetValue(A, i, i - 1, -1.0, INSERT_VALUES));
    if (i < n - 1) PetscCall(MatSetValue(A, i, i + 1, -1.0, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  KSP ksp;
  PC pc, inner;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCKCYCLE));
  PetscCall(PCKCycleGetInnerPC(pc, &inner));
  PetscCall(PCSetType(inner, PCJACOBI));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, nullptr));
  const PetscErrorCode code = KSPSetUp(ksp);
  PetscCall(PetscPopErrorHandler());
  const char* text = nullptr;
  char* specific = nullptr;
  PetscCall(PetscErrorMessage(code, &text, &specific));
  const bool refused = code == PETSC_ERR_ARG_WRONG && specific && std::strstr(specific, "must be PCMG-based");
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: error %d: %s\n", refused ? "refused" : "NOT REFUSED", (int)code,
                        specific ? specific : "(no message)"));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return refused ? 0 : 1;
}
