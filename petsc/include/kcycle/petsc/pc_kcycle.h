#pragma once
// The paper's kappa-cycle (Avnat & Yavneh, Algorithm 3) as a PETSc preconditioner, over any
// PCMG hierarchy: `-pc_type kcycle -pc_kcycle_kappa 3`. The hierarchy is an inner PC of type
// PCMG (DMDA levels, or levels set with PCMGSetInterpolation) or PCGAMG (algebraic levels),
// built with the outer PC's options prefix, so every -pc_mg_*, -pc_gamg_*, -mg_levels_* and
// -mg_coarse_* option applies to it as it would to PETSc's own cycles. The kappa-cycle then
// runs the inner hierarchy's own smoothers, residual, restriction, interpolation and coarse
// solve: kappa = 1 is PETSc's V-cycle and kappa >= levels its W-cycle, operation for operation.
//
// Options:
//   -pc_kcycle_kappa <k|w>    the cycle counter (1: V, 2: F, w or >= levels: W; default 2)
//   -pc_kcycle_type <mg|gamg> the inner hierarchy (default mg)
//   -pc_kcycle_scheme <kappa|gamma|f>  the recursion: Algorithm 3 (kappa, the default), the
//                             classical cycle index (Algorithm 1, -pc_kcycle_gamma G) or the
//                             F-cycle of Algorithm 2 (an F-call, then a V-call); G from 1 to 64
//   -pc_kcycle_repeat_coarsest <bool>  every coarse call on the coarsest level (default), or
//                             only the first (the authors' code)
//   -pc_kcycle_coarse_krylov  the K-cycle's flexible-CG step combining the two coarse calls
//   -pc_kcycle_monitor        print the calls per level after each application
// An option that would have no effect (-pc_mg_cycle_type; -pc_kcycle_gamma outside the gamma
// scheme, ...) is refused by name, as is a cycle over 60 s of work (the CLI's check).
#include <petscpc.h>

#define PCKCYCLE "kcycle"

// kappa = W: any counter of at least the level count gives the W-cycle.
#define PC_KCYCLE_KAPPA_W PETSC_MAX_INT

// Registers PCKCYCLE with PCRegister(); call once after PetscInitialize(). Also the entry point
// PETSc calls when it loads this library as a dynamic package (-dll_append).
PETSC_EXTERN PetscErrorCode KCycleInitializePackage(void);

PETSC_EXTERN PetscErrorCode PCKCycleSetKappa(PC pc, PetscInt kappa);
PETSC_EXTERN PetscErrorCode PCKCycleGetKappa(PC pc, PetscInt* kappa);
// The inner PCMG-based PC (created on first use; set up by PCSetUp of the outer PC).
PETSC_EXTERN PetscErrorCode PCKCycleGetInnerPC(PC pc, PC* inner);
// Calls to the cycle on each level during the last application, finest first (level 1 = the
// finest, as in the paper): `levels` entries, owned by the PC.
PETSC_EXTERN PetscErrorCode PCKCycleGetLevelCalls(PC pc, PetscInt* levels, const PetscInt64** calls);
