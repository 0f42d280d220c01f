// PCKCYCLE: Algorithm 3 of the paper over an inner PCMG-based hierarchy. The inner PC owns
// the levels (smoothers, operators, transfers, work vectors: PETSc's private PC_MG data, read
// as PETSc's own cycle reads it); this PC only decides the order of the visits.
#include "kcycle/petsc/pc_kcycle.h"

#include <petsc/private/pcimpl.h>
#include <petsc/private/pcmgimpl.h>
#include <petscdm.h>
#include <petscksp.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "kcycle/cycle/cycle_counts.hpp"
#include "kcycle/solve/coarse_krylov.hpp"
#include "kcycle/solve/solver_options.hpp"

namespace {

enum class InnerType { Mg, Gamg };
const char* const kInnerTypes[] = {"mg", "gamg"};
// The paper's three recursions: Algorithm 3 (kappa), Algorithm 1 (gamma), Algorithm 2 (F).
enum class Scheme { Kappa, Gamma, F };
const char* const kSchemes[] = {"kappa", "gamma", "f"};

// What a call on a level carries down: its scheme and counter (kappa, or gamma).
struct Counter {
  Scheme scheme;
  PetscInt value;
};

struct PCKCycle {
  PC inner = nullptr;
  PetscInt kappa = 2;
  PetscInt gamma = 1;
  Scheme scheme = Scheme::Kappa;
  InnerType inner_type = InnerType::Mg;
  PetscBool monitor = PETSC_FALSE;
  // PETSC_FALSE: a call whose coarse calls land on the coarsest level makes only the first (it
  // solves exactly; the authors' code), kcycle's --repeat-coarsest off.
  PetscBool repeat_coarsest = PETSC_TRUE;
  // The Krylov-accelerated kappa-cycle (kcycle's --coarse-krylov; solve/coarse_krylov.hpp): the
  // two coarse calls combined by the K-cycle's flexible-CG step, above the coarsest level.
  PetscBool coarse_krylov = PETSC_FALSE;
  std::vector<std::array<Vec, 3>> krylov_work;  // per PETSc level: c1, A c1, A c2 (made when first used)
  std::array<Vec, 2> coarsest_work{};           // a repeated coarsest call's residual and correction
  PetscBool inner_from_options = PETSC_FALSE;   // PCSetFromOptions was called on this PC
  std::vector<PetscInt64> calls;                // of the last application, finest first
};

PCKCycle& data(PC pc) { return *static_cast<PCKCycle*>(pc->data); }

std::string kappa_text(PetscInt kappa) {
  return kappa == PC_KCYCLE_KAPPA_W ? std::string("W") : std::to_string(static_cast<long long>(kappa));
}

// "kappa=3", "gamma=2", "F (Algorithm 2)".
std::string scheme_text(const PCKCycle& kc) {
  switch (kc.scheme) {
    case Scheme::Kappa: return "kappa=" + kappa_text(kc.kappa);
    case Scheme::Gamma: return "gamma=" + std::to_string(static_cast<long long>(kc.gamma));
    case Scheme::F: break;
  }
  return "F (Algorithm 2)";
}

// The inner hierarchy, with this PC's options prefix: -pc_mg_*, -mg_levels_* and -pc_gamg_*
// reach it as they would reach PETSc's own PCMG.
PetscErrorCode CreateInner(PC pc) {
  PCKCycle& kc = data(pc);
  PetscFunctionBegin;
  if (kc.inner) PetscFunctionReturn(0);
  const char* prefix = nullptr;
  PetscCall(PCCreate(PetscObjectComm((PetscObject)pc), &kc.inner));
  PetscCall(PetscObjectIncrementTabLevel((PetscObject)kc.inner, (PetscObject)pc, 1));
  PetscCall(PCGetOptionsPrefix(pc, &prefix));
  PetscCall(PCSetOptionsPrefix(kc.inner, prefix));
  PetscCall(PCSetType(kc.inner, kc.inner_type == InnerType::Gamg ? PCGAMG : PCMG));
  PetscFunctionReturn(0);
}

// The inner PC's own options, without -pc_type: with the outer prefix, -pc_type says kcycle.
PetscErrorCode SetInnerFromOptions(PC inner) {
  PetscFunctionBegin;
  PetscObjectOptionsBegin((PetscObject)inner);
  if (inner->ops->setfromoptions) PetscCall((*inner->ops->setfromoptions)(inner, PetscOptionsObject));
  PetscOptionsEnd();
  inner->setfromoptionscalled++;
  PetscFunctionReturn(0);
}

PetscErrorCode PCSetFromOptions_KCycle(PC pc, PetscOptionItems* PetscOptionsObject) {
  PCKCycle& kc = data(pc);
  char kappa[64] = "";
  PetscBool set = PETSC_FALSE;
  PetscInt type = static_cast<PetscInt>(kc.inner_type);
  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "kappa-cycle options (Avnat and Yavneh)");
  PetscCall(PetscOptionsString("-pc_kcycle_kappa", "Cycle counter: 1 (V), 2 (F), ..., w (W)", "PCKCycleSetKappa", kappa,
                               kappa, sizeof kappa, &set));
  if (set) {
    const std::string text = kappa;
    if (text == "w" || text == "W") {
      kc.kappa = PC_KCYCLE_KAPPA_W;
    } else {
      char* end = nullptr;
      const long value = std::strtol(text.c_str(), &end, 10);
      PetscCheck(!text.empty() && *end == '\0' && value >= 1 && value < PC_KCYCLE_KAPPA_W,
                 PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE,
                 "-pc_kcycle_kappa must be a positive integer or w (got %s)", kappa);
      kc.kappa = static_cast<PetscInt>(value);
    }
  }
  PetscBool type_set = PETSC_FALSE;
  PetscCall(PetscOptionsEList("-pc_kcycle_type", "The inner hierarchy", "PCKCycleGetInnerPC", kInnerTypes, 2,
                              kInnerTypes[type], &type, &type_set));
  PetscCheck(!type_set || !kc.inner || static_cast<InnerType>(type) == kc.inner_type, PetscObjectComm((PetscObject)pc),
             PETSC_ERR_ARG_WRONGSTATE, "-pc_kcycle_type must be set before the inner hierarchy is made");
  kc.inner_type = static_cast<InnerType>(type);
  PetscInt scheme = static_cast<PetscInt>(kc.scheme);
  PetscCall(PetscOptionsEList("-pc_kcycle_scheme", "kappa (Algorithm 3), gamma (Algorithm 1) or f (Algorithm 2)", "",
                              kSchemes, 3, kSchemes[scheme], &scheme, nullptr));
  kc.scheme = static_cast<Scheme>(scheme);
  PetscBool gamma_set = PETSC_FALSE;
  PetscCall(PetscOptionsInt("-pc_kcycle_gamma", "Cycle index of -pc_kcycle_scheme gamma (1: V, 2: W)", "", kc.gamma,
                            &kc.gamma, &gamma_set));
  PetscCheck(kc.gamma >= 1 && kc.gamma <= kcycle::kMaxGamma, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE,
             "-pc_kcycle_gamma must be an integer from 1 to %d, as kcycle's own gamma (got %" PetscInt_FMT ")",
             kcycle::kMaxGamma, kc.gamma);
  PetscCall(PetscOptionsBool("-pc_kcycle_repeat_coarsest",
                             "Make every coarse call that lands on the coarsest level (the paper's count); false: only "
                             "the first, as it solves exactly (the authors' code)",
                             "", kc.repeat_coarsest, &kc.repeat_coarsest, nullptr));
  PetscCall(PetscOptionsBool("-pc_kcycle_coarse_krylov",
                             "Combine the two coarse calls by the K-cycle's flexible-CG step (Notay and Vassilevski): "
                             "kappa w is the K-cycle; use a flexible outer Krylov method (fcg, fgmres)",
                             "", kc.coarse_krylov, &kc.coarse_krylov, nullptr));
  PetscCall(PetscOptionsBool("-pc_kcycle_monitor", "Print levelCalls per level after each application", "", kc.monitor,
                             &kc.monitor, nullptr));
  PetscOptionsHeadEnd();
  // An option that would change nothing is refused by name: whoever gave it meant something.
  const MPI_Comm comm = PetscObjectComm((PetscObject)pc);
  PetscCheck(!gamma_set || kc.scheme == Scheme::Gamma, comm, PETSC_ERR_ARG_INCOMP,
             "-pc_kcycle_gamma has no effect with -pc_kcycle_scheme %s: it is the index of -pc_kcycle_scheme gamma",
             kSchemes[scheme]);
  PetscCheck(!set || kc.scheme == Scheme::Kappa, comm, PETSC_ERR_ARG_INCOMP,
             "-pc_kcycle_kappa has no effect with -pc_kcycle_scheme %s: it is the counter of -pc_kcycle_scheme kappa",
             kSchemes[scheme]);
  PetscCheck(!kc.coarse_krylov || kc.scheme == Scheme::Kappa, comm, PETSC_ERR_ARG_INCOMP,
             "-pc_kcycle_coarse_krylov combines the kappa-cycle's two coarse calls: it has no effect with "
             "-pc_kcycle_scheme %s",
             kSchemes[scheme]);
  PetscBool cycle_type = PETSC_FALSE;
  PetscCall(
      PetscOptionsHasName(((PetscObject)pc)->options, ((PetscObject)pc)->prefix, "-pc_mg_cycle_type", &cycle_type));
  PetscCheck(
      !cycle_type, comm, PETSC_ERR_ARG_INCOMP,
      "-pc_mg_cycle_type has no effect under -pc_type kcycle, whose cycle is -pc_kcycle_kappa (1 is PETSc's v, w "
      "its w)");
  kc.inner_from_options = PETSC_TRUE;  // read at set-up, when the DM is known
  PetscFunctionReturn(0);
}

// A PCMG of several levels without a DM has transfers only where the program set them
// (PCMGSetInterpolation or PCMGSetRestriction); PCMG's set-up crashes on a level with neither.
PetscErrorCode CheckTransfersExist(PC pc) {
  PCKCycle& kc = data(pc);
  PetscBool is_mg = PETSC_FALSE;
  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)kc.inner, PCMG, &is_mg));
  if (pc->dm || !is_mg) PetscFunctionReturn(0);
  const PC_MG* mg = static_cast<const PC_MG*>(kc.inner->data);
  for (PetscInt l = 1; mg->levels && l < mg->nlevels; ++l)
    PetscCheck(mg->levels[l]->interpolate || mg->levels[l]->restrct, PetscObjectComm((PetscObject)pc),
               PETSC_ERR_ARG_WRONGSTATE,
               "the kcycle's hierarchy has %" PetscInt_FMT
               " levels but no DM and no interpolation to level %" PetscInt_FMT
               ": give the KSP a DM (KSPSetDM), set each level's PCMGSetInterpolation(), or use -pc_kcycle_type gamg "
               "(algebraic levels)",
               mg->nlevels, l);
  PetscFunctionReturn(0);
}

// The calls a cycle makes on PETSc level l (0 = coarsest) of n, under the paper's numbering
// (level n - l, 1 = finest), as a double: gamma^(level-1) overflows any integer.
double CallsOnLevel(const PCKCycle& kc, PetscInt l, PetscInt n) {
  const int levels = static_cast<int>(n), level = static_cast<int>(n - l);
  const kcycle::CoarsestCalls coarsest =
      kc.repeat_coarsest ? kcycle::CoarsestCalls::Repeated : kcycle::CoarsestCalls::Once;
  switch (kc.scheme) {
    case Scheme::Gamma: {
      const int called_as = level == levels && !kc.repeat_coarsest && level > 1 ? level - 1 : level;
      return std::pow(static_cast<double>(kc.gamma), called_as - 1);
    }
    case Scheme::F: return static_cast<double>(kcycle::level_calls(2, level, levels, coarsest));
    case Scheme::Kappa: break;
  }
  const int kappa = static_cast<int>(PetscMin(kc.kappa, n));
  return static_cast<double>(kcycle::level_calls(kappa, level, levels, coarsest));
}

// The CLI's work check (solve/solver_options.hpp): a cycle whose calls and row updates would take
// more than kMaxCycleSeconds even on a fast machine is refused before it runs (gamma = 64 on 8
// levels: 5e12 coarsest calls), not left to run for ever.
PetscErrorCode CheckCycleWork(PC pc, const PC_MG* mg) {
  const PCKCycle& kc = data(pc);
  const PetscInt n = mg->nlevels;
  double calls = 0, updates = 0;
  PetscFunctionBegin;
  for (PetscInt l = 0; l < n; ++l) {
    Mat A = nullptr;
    PetscInt rows = 0, down = 1, up = 1;
    PetscCall(KSPGetOperators(mg->levels[l]->smoothd, &A, nullptr));
    PetscCall(MatGetSize(A, &rows, nullptr));
    PetscCall(KSPGetTolerances(mg->levels[l]->smoothd, nullptr, nullptr, nullptr, &down));
    if (mg->levels[l]->smoothu != mg->levels[l]->smoothd)
      PetscCall(KSPGetTolerances(mg->levels[l]->smoothu, nullptr, nullptr, nullptr, &up));
    const double passes = l == 0 ? 1.0 : static_cast<double>(down + up + 2);  // sweeps, residual, transfers
    const double level_calls = CallsOnLevel(kc, l, n) * static_cast<double>(mg->cyclesperpcapply);
    calls += level_calls * passes;
    updates += level_calls * passes * static_cast<double>(PetscMax(rows, 0));
  }
  const double seconds = calls * kcycle::kFastLaunchSeconds + updates * kcycle::kFastUpdateSeconds;
  PetscCheck(seconds <= kcycle::kMaxCycleSeconds, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE,
             "one %s application over %" PetscInt_FMT
             " levels makes %.1e passes (%.1e on the coarsest level) and %.1e "
             "row updates: at least %.0f s even on a fast machine; refused (at most %.0f s): use a smaller counter or "
             "fewer levels",
             scheme_text(kc).c_str(), n, calls, CallsOnLevel(kc, 0, n) * static_cast<double>(mg->cyclesperpcapply),
             updates, seconds, kcycle::kMaxCycleSeconds);
  PetscFunctionReturn(0);
}

PetscErrorCode PCSetUp_KCycle(PC pc) {
  PCKCycle& kc = data(pc);
  PetscFunctionBegin;
  PetscCall(CreateInner(pc));
  if (pc->dm) PetscCall(PCSetDM(kc.inner, pc->dm));
  if (kc.inner_from_options && !kc.inner->setfromoptionscalled) {
    // PCMG itself fails on -pc_mg_levels 0 (a null hierarchy): refused here, by name.
    PetscInt asked = 1;
    PetscBool given = PETSC_FALSE;
    PetscCall(
        PetscOptionsGetInt(((PetscObject)pc)->options, ((PetscObject)pc)->prefix, "-pc_mg_levels", &asked, &given));
    PetscCheck(!given || asked >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE,
               "-pc_mg_levels must be at least 1 (got %" PetscInt_FMT "): the kcycle needs a hierarchy of levels",
               asked);
    PetscInt levels = 0;
    PetscCall(PCMGGetLevels(kc.inner, &levels));
    if (pc->dm && levels == 0 && kc.inner_type == InnerType::Mg) {
      // The DM's levels, set here: PCMG would otherwise take them at its set-up and then re-read
      // every option of the inner PC, -pc_type included (which names this PC).
      PetscInt refined = 0;
      PetscCall(DMGetRefineLevel(pc->dm, &refined));
      PetscCall(PCMGSetLevels(kc.inner, refined + 1, nullptr));
    }
    PetscCall(SetInnerFromOptions(kc.inner));
  }
  PetscCall(CheckTransfersExist(pc));
  PetscCall(PCSetUseAmat(kc.inner, pc->useAmat));
  PetscCall(PCSetOperators(kc.inner, pc->mat, pc->pmat));
  PetscCall(PCSetUp(kc.inner));
  PetscBool mg_based = PETSC_FALSE;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)kc.inner, &mg_based, PCMG, PCGAMG, ""));
  PetscCheck(mg_based, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_WRONG,
             "the kcycle's inner PC must be PCMG-based (mg or gamg), not %s", ((PetscObject)kc.inner)->type_name);
  const PC_MG* mg = static_cast<const PC_MG*>(kc.inner->data);
  PetscCheck(mg->levels && mg->nlevels >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_WRONGSTATE,
             "the kcycle's inner hierarchy has no levels (set -pc_mg_levels, a DM, or PCMGSetLevels())");
  PetscCheck(mg->am == PC_MG_MULTIPLICATIVE, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP,
             "the kappa-cycle is a multiplicative cycle: -pc_mg_type must be multiplicative");
  kc.calls.assign(static_cast<std::size_t>(mg->nlevels), 0);
  PetscCall(CheckCycleWork(pc, mg));
  PetscFunctionReturn(0);
}

PetscErrorCode Cycle(PC pc, PC_MG_Levels** levels, PetscInt l, Counter counter);

// A call on the coarsest level after the first of its parent's, which PETSc's own cycles never
// make; x holds the first call's solution. A KSP of preonly applies its PC to b and ignores x
// (PETSc refuses to start one from a nonzero guess, which a DM's initial guess asks for: ksp/ex45):
// it solves from zero again, giving the same x where the solve is direct: the call has nothing to
// add. Any other KSP continues from x as a correction, x += e with A e = b - A x from e = 0,
// whether it would have read its guess or zeroed it.
PetscErrorCode RepeatedCoarsestCall(PC pc, PC_MG_Levels* coarsest) {
  PCKCycle& kc = data(pc);
  PetscBool preonly = PETSC_FALSE;
  PetscFunctionBegin;
  ++kc.calls.back();
  PetscCall(PetscObjectTypeCompare((PetscObject)coarsest->smoothd, KSPPREONLY, &preonly));
  if (preonly) {
    PetscCall(VecZeroEntries(coarsest->x));
    PetscCall(KSPSolve(coarsest->smoothd, coarsest->b, coarsest->x));
  } else {
    for (Vec& w : kc.coarsest_work)
      if (!w) PetscCall(VecDuplicate(coarsest->b, &w));
    const Vec r = kc.coarsest_work[0], e = kc.coarsest_work[1];
    if (coarsest->residual)
      PetscCall((*coarsest->residual)(coarsest->A, coarsest->b, coarsest->x, r));
    else
      PetscCall(MatResidual(coarsest->A, coarsest->b, coarsest->x, r));
    PetscCall(VecZeroEntries(e));
    PetscCall(KSPSolve(coarsest->smoothd, r, e));
    PetscCall(VecAXPY(coarsest->x, 1.0, e));
  }
  PetscCall(KSPCheckSolve(coarsest->smoothd, pc, coarsest->x));
  PetscFunctionReturn(0);
}

// A call after the first of its parent's: on the coarsest level it starts from the first's solution.
PetscErrorCode NextCall(PC pc, PC_MG_Levels** levels, PetscInt l, Counter counter) {
  PetscFunctionBegin;
  if (l == 0)
    PetscCall(RepeatedCoarsestCall(pc, levels[0]));
  else
    PetscCall(Cycle(pc, levels, l, counter));
  PetscFunctionReturn(0);
}

// The second coarse call of a kappa-cycle on PETSc level l, Krylov-accelerated: the same two
// steps as kcycle's library (solve/coarse_krylov.hpp) on the coarse level's b (the restricted
// residual r) and x (the first call's correction c1). The second call is skipped where the
// first left at most a quarter of r; the combination is the energy-norm projection onto c1, c2.
PetscErrorCode KrylovSecondCall(PC pc, PC_MG_Levels** levels, PetscInt l, PetscInt next_kappa) {
  PCKCycle& kc = data(pc);
  PC_MG_Levels* coarse = levels[l - 1];
  PetscFunctionBegin;
  if (kc.krylov_work.size() <= static_cast<std::size_t>(l)) kc.krylov_work.resize(static_cast<std::size_t>(l) + 1);
  std::array<Vec, 3>& work = kc.krylov_work[static_cast<std::size_t>(l - 1)];
  for (Vec& w : work)
    if (!w) PetscCall(VecDuplicate(coarse->b, &w));
  Vec c1 = work[0], w1 = work[1], w2 = work[2];
  PetscScalar rho1, alpha1;
  PetscCall(MatMult(coarse->A, coarse->x, w1));
  PetscCall(VecDot(coarse->x, w1, &rho1));
  PetscCall(VecDot(coarse->x, coarse->b, &alpha1));
  if (!(PetscRealPart(rho1) > 0)) PetscFunctionReturn(0);
  PetscReal r_norm, r2_norm;
  PetscCall(VecNorm(coarse->b, NORM_2, &r_norm));
  PetscCall(VecAXPY(coarse->b, -alpha1 / rho1, w1));  // b <- r2
  PetscCall(VecNorm(coarse->b, NORM_2, &r2_norm));
  if (r2_norm <= kcycle::kKrylovSkipRatio * r_norm) {
    PetscCall(VecScale(coarse->x, alpha1 / rho1));
    PetscFunctionReturn(0);
  }
  PetscCall(VecCopy(coarse->x, c1));
  PetscCall(VecZeroEntries(coarse->x));
  PetscCall(Cycle(pc, levels, l - 1, {Scheme::Kappa, next_kappa}));
  PetscScalar gamma, beta, alpha2;
  PetscCall(MatMult(coarse->A, coarse->x, w2));
  PetscCall(VecDot(coarse->x, w1, &gamma));
  PetscCall(VecDot(coarse->x, w2, &beta));
  PetscCall(VecDot(coarse->x, coarse->b, &alpha2));
  const PetscScalar rho2 = beta - gamma * gamma / rho1;
  if (!(PetscRealPart(rho2) > 0)) {  // no new direction: the plain cycle's sum
    PetscCall(VecAXPY(coarse->x, alpha1 / rho1, c1));
    PetscFunctionReturn(0);
  }
  PetscCall(VecScale(coarse->x, alpha2 / rho2));
  PetscCall(VecAXPY(coarse->x, alpha1 / rho1 - gamma * alpha2 / (rho1 * rho2), c1));
  PetscFunctionReturn(0);
}

// One call on PETSc level l (0 = coarsest): the coarse solve there; above it, pre-smoothing,
// the residual restricted as the coarse right-hand side, the coarse calls of the scheme, the
// interpolated correction, and post-smoothing. Each step is the one PETSc's PCMGMCycle_Private
// takes, on the same objects. The coarse calls:
//   kappa (Algorithm 3): one with the same counter and, while it stays positive, one with kappa - 1;
//   gamma (Algorithm 1): gamma with the same index;
//   F (Algorithm 2): an F-cycle, then a V-cycle (kappa = 1).
PetscErrorCode Cycle(PC pc, PC_MG_Levels** levels, PetscInt l, Counter counter) {
  PCKCycle& kc = data(pc);
  PC_MG_Levels* level = levels[l];
  PetscFunctionBegin;
  ++kc.calls[kc.calls.size() - 1 - static_cast<std::size_t>(l)];
  PetscCall(KSPSolve(level->smoothd, level->b, level->x));  // pre-smoothing, or the coarse solve
  PetscCall(KSPCheckSolve(level->smoothd, pc, level->x));
  if (l == 0) PetscFunctionReturn(0);
  PC_MG_Levels* coarse = levels[l - 1];
  if (level->residual)
    PetscCall((*level->residual)(level->A, level->b, level->x, level->r));
  else
    PetscCall(MatResidual(level->A, level->b, level->x, level->r));
  PetscCall(MatRestrict(level->restrct, level->r, coarse->b));
  PetscCall(VecZeroEntries(coarse->x));
  // The calls after the first, unless they would solve the coarsest level again and it is solved once.
  const bool repeats = kc.repeat_coarsest || l - 1 > 0;
  switch (counter.scheme) {
    case Scheme::Kappa: {
      const PetscInt kappa = counter.value;
      const PetscInt next = kappa == PC_KCYCLE_KAPPA_W ? kappa : kappa - 1;
      PetscCall(Cycle(pc, levels, l - 1, counter));
      if (kappa > 1 && repeats) {
        if (kc.coarse_krylov && l - 1 > 0)  // above the coarsest level, whose solve is exact
          PetscCall(KrylovSecondCall(pc, levels, l, next));
        else
          PetscCall(NextCall(pc, levels, l - 1, {Scheme::Kappa, next}));
      }
      break;
    }
    case Scheme::Gamma:
      PetscCall(Cycle(pc, levels, l - 1, counter));
      for (PetscInt g = 1; g < counter.value && repeats; ++g) PetscCall(NextCall(pc, levels, l - 1, counter));
      break;
    case Scheme::F:
      PetscCall(Cycle(pc, levels, l - 1, counter));
      if (repeats) PetscCall(NextCall(pc, levels, l - 1, {Scheme::Kappa, 1}));
      break;
  }
  PetscCall(MatInterpolateAdd(level->interpolate, coarse->x, level->x, level->x));
  PetscCall(KSPSolve(level->smoothu, level->b, level->x));  // post-smoothing
  PetscCall(KSPCheckSolve(level->smoothu, pc, level->x));
  PetscFunctionReturn(0);
}

PetscErrorCode PCApply_KCycle(PC pc, Vec b, Vec x) {
  PCKCycle& kc = data(pc);
  PC_MG* mg = static_cast<PC_MG*>(kc.inner->data);
  PC_MG_Levels** levels = mg->levels;
  const PetscInt n = mg->nlevels;
  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; ++i)  // where a DM supplies the operators, they exist only now (as in PCApply_MG)
    if (!levels[i]->A) {
      PetscCall(KSPGetOperators(levels[i]->smoothu, &levels[i]->A, nullptr));
      PetscCall(PetscObjectReference((PetscObject)levels[i]->A));
    }
  Vec finest_b = levels[n - 1]->b, finest_x = levels[n - 1]->x;
  levels[n - 1]->b = b;
  levels[n - 1]->x = x;
  std::fill(kc.calls.begin(), kc.calls.end(), 0);
  PetscCall(VecZeroEntries(x));
  const Counter top = kc.scheme == Scheme::Kappa   ? Counter{Scheme::Kappa, kc.kappa}
                      : kc.scheme == Scheme::Gamma ? Counter{Scheme::Gamma, kc.gamma}
                                                   : Counter{Scheme::F, 0};
  PetscCall(Cycle(pc, levels, n - 1, top));
  for (PetscInt c = 1; c < mg->cyclesperpcapply; ++c) PetscCall(NextCall(pc, levels, n - 1, top));
  levels[n - 1]->b = finest_b;
  levels[n - 1]->x = finest_x;
  if (kc.monitor) {
    std::string line = "  kcycle: " + scheme_text(kc) + " levelCalls (finest first):";
    for (PetscInt64 c : kc.calls) line += " " + std::to_string(static_cast<long long>(c));
    PetscCall(PetscPrintf(PetscObjectComm((PetscObject)pc), "%s\n", line.c_str()));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode PCView_KCycle(PC pc, PetscViewer viewer) {
  PCKCycle& kc = data(pc);
  PetscBool ascii = PETSC_FALSE;
  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(0);
  PetscCall(PetscViewerASCIIPrintf(viewer, "  cycle (Avnat and Yavneh): %s (kappa 1: V, 2: F, W)\n",
                                   scheme_text(kc).c_str()));
  if (!kc.calls.empty() && kc.scheme == Scheme::Kappa) {
    const int n = static_cast<int>(kc.calls.size());
    const int k = kc.kappa == PC_KCYCLE_KAPPA_W ? n : static_cast<int>(PetscMin(kc.kappa, n));
    const kcycle::CoarsestCalls coarsest =
        kc.repeat_coarsest ? kcycle::CoarsestCalls::Repeated : kcycle::CoarsestCalls::Once;
    std::string line;
    for (int l = 1; l <= n; ++l)
      line += " " + std::to_string(static_cast<unsigned long long>(kcycle::level_calls(k, l, n, coarsest)));
    PetscCall(PetscViewerASCIIPrintf(viewer,
                                     "  %d levels; levelCalls per cycle, finest first:%s; totalCalls = %llu%s\n", n,
                                     line.c_str(), static_cast<unsigned long long>(kcycle::total_calls(k, n, coarsest)),
                                     kc.repeat_coarsest ? "" : " (the coarsest level called once a call)"));
  }
  if (kc.inner) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "  the hierarchy (inner PC):\n"));
    PetscCall(PetscViewerASCIIPushTab(viewer));
    PetscCall(PCView(kc.inner, viewer));
    PetscCall(PetscViewerASCIIPopTab(viewer));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode DestroyKrylovWork(PCKCycle& kc) {
  PetscFunctionBegin;
  for (std::array<Vec, 3>& work : kc.krylov_work)
    for (Vec& w : work) PetscCall(VecDestroy(&w));
  kc.krylov_work.clear();
  for (Vec& w : kc.coarsest_work) PetscCall(VecDestroy(&w));
  PetscFunctionReturn(0);
}

PetscErrorCode PCReset_KCycle(PC pc) {
  PetscFunctionBegin;
  PetscCall(DestroyKrylovWork(data(pc)));
  if (data(pc).inner) PetscCall(PCReset(data(pc).inner));
  PetscFunctionReturn(0);
}

PetscErrorCode PCDestroy_KCycle(PC pc) {
  PetscFunctionBegin;
  PCKCycle* kc = static_cast<PCKCycle*>(pc->data);
  PetscCall(DestroyKrylovWork(*kc));
  PetscCall(PCDestroy(&kc->inner));
  delete kc;
  pc->data = nullptr;
  PetscFunctionReturn(0);
}

PetscErrorCode CheckKCycle(PC pc) {
  PetscBool is_kcycle = PETSC_FALSE;
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCKCYCLE, &is_kcycle));
  PetscCheck(is_kcycle, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_WRONG, "the PC is of type %s, not kcycle",
             ((PetscObject)pc)->type_name);
  PetscFunctionReturn(0);
}

}  // namespace

PETSC_EXTERN PetscErrorCode PCCreate_KCycle(PC pc) {
  PetscFunctionBegin;
  pc->data = new PCKCycle;
  pc->ops->setup = PCSetUp_KCycle;
  pc->ops->apply = PCApply_KCycle;
  pc->ops->setfromoptions = PCSetFromOptions_KCycle;
  pc->ops->view = PCView_KCycle;
  pc->ops->reset = PCReset_KCycle;
  pc->ops->destroy = PCDestroy_KCycle;
  PetscFunctionReturn(0);
}

PetscErrorCode KCycleInitializePackage(void) {
  static PetscBool registered = PETSC_FALSE;  // PETSc's own packages keep the same flag
  PetscFunctionBegin;
  if (registered) PetscFunctionReturn(0);
  registered = PETSC_TRUE;
  PetscCall(PCRegister(PCKCYCLE, PCCreate_KCycle));
  PetscFunctionReturn(0);
}

// The entry PETSc looks up when -dll_append loads this library (libkcycle_petsc.so).
PETSC_EXTERN PetscErrorCode PetscDLLibraryRegister_kcycle_petsc(void) { return KCycleInitializePackage(); }

PetscErrorCode PCKCycleSetKappa(PC pc, PetscInt kappa) {
  PetscFunctionBegin;
  PetscCall(CheckKCycle(pc));
  PetscCheck(kappa >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE,
             "kappa must be positive (or PC_KCYCLE_KAPPA_W), got %" PetscInt_FMT, kappa);
  data(pc).kappa = kappa;
  PetscFunctionReturn(0);
}

PetscErrorCode PCKCycleGetKappa(PC pc, PetscInt* kappa) {
  PetscFunctionBegin;
  PetscCall(CheckKCycle(pc));
  *kappa = data(pc).kappa;
  PetscFunctionReturn(0);
}

PetscErrorCode PCKCycleGetInnerPC(PC pc, PC* inner) {
  PetscFunctionBegin;
  PetscCall(CheckKCycle(pc));
  PetscCall(CreateInner(pc));
  *inner = data(pc).inner;
  PetscFunctionReturn(0);
}

PetscErrorCode PCKCycleGetLevelCalls(PC pc, PetscInt* levels, const PetscInt64** calls) {
  PetscFunctionBegin;
  PetscCall(CheckKCycle(pc));
  *levels = static_cast<PetscInt>(data(pc).calls.size());
  *calls = data(pc).calls.data();
  PetscFunctionReturn(0);
}
