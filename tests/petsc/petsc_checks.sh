#!/usr/bin/env bash
# The PETSc preconditioner `kcycle` checked against PETSc's own cycles and the paper:
#   equivalence  kappa = 1 gives -pc_mg_cycle_type v and kappa = w gives w, residual for residual
#                (every digit -ksp_monitor prints), on 1 and 2 ranks: the 2D and 3D Laplacian and
#                the paper's rotated anisotropic problem on a DMDA, and GAMG hierarchies (2D, and
#                3D with a coefficient jump of 1000);
#                Inside the PC, the paper's equivalences: scheme f = kappa 2, gamma 1 = kappa 1,
#                gamma 2 = kappa w;
#   level-calls  the calls per level of one application (-pc_kcycle_monitor) equal levelCalls as
#                `kcycle info` counts them, for kappa = 1 .. W at 4-7 levels; gamma^(l-1) for gamma;
#   coarse-krylov  -pc_kcycle_coarse_krylov on the paper's problem (eps 1e-4, 45 degrees, 7
#                levels, damped Jacobi (2,2) as the library's preset, stand-alone): kappa = 1
#                untouched residual for residual; kappa = 2, 3, w in far fewer cycles, as the
#                library's own `kcycle solve --coarse-krylov on` (cut by 40 % or more in both), on 1 and 2 ranks;
#   bad-input    wrong -pc_kcycle_* values and a hierarchy without levels end with PETSc's error
#                naming the option, never a crash;
#   dll-append   PETSc's own tutorial ksp/ex2.c, compiled as it ships, runs -pc_type kcycle from
#                -dll_append libkcycle_petsc.so (no code of ours in it): W over GAMG = PETSc's W.
#
#   bash tests/petsc/petsc_checks.sh GROUP BIN_DIR MPIEXEC
set -uo pipefail
group=$1 bin=$(realpath "$2") mpiexec=$3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader OMPI_MCA_mpi_yield_when_idle=1
laplacian=$bin/kcycle_petsc_laplacian
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# The residual history a run of an example prints (-ksp_monitor).
history() {
  local ranks=$1 example=$2
  shift 2
  "$mpiexec" -n "$ranks" --oversubscribe "$bin/kcycle_petsc_$example" -ksp_monitor -ksp_rtol 1e-10 "$@" 2>&1 |
    grep 'KSP Residual norm'
}

case $group in
  equivalence)
    for ranks in 1 2; do
      for problem in "laplacian -dim 2 -da_refine 5" "laplacian -dim 3 -da_refine 3" \
        "anisotropic -da_refine 5 -eps 1e-4 -angle 45" "laplacian -dim 2 -da_refine 5 gamg" \
        "laplacian -dim 3 -da_refine 3 -jump 1000 gamg"; do
        set -- ${problem% gamg}
        example=$1
        shift
        if [[ $problem == *gamg ]]; then petsc=(-pc_type gamg) ours=(-pc_type kcycle -pc_kcycle_type gamg)
        else petsc=(-pc_type mg) ours=(-pc_type kcycle); fi
        for cycle in v w; do
          theirs=$(history $ranks "$example" "$@" "${petsc[@]}" -pc_mg_cycle_type $cycle)
          kappa=$([ $cycle = v ] && echo 1 || echo w)
          mine=$(history $ranks "$example" "$@" "${ours[@]}" -pc_kcycle_kappa $kappa)
          lines=$(echo "$theirs" | wc -l)
          if [ -z "$theirs" ] || [ "$lines" -lt 3 ]; then
            fail "$ranks rank(s), $problem, $cycle: PETSc's run printed no history"
          elif [ "$theirs" != "$mine" ]; then
            fail "$ranks rank(s), $problem: kappa=$kappa differs from PETSc's $cycle-cycle"
            diff <(echo "$theirs") <(echo "$mine") | head -6
          else
            echo "ok: $ranks rank(s), $problem: kappa=$kappa = PETSc's $cycle-cycle, $lines residuals alike"
          fi
        done
      done
    done
    # The paper's equivalences inside the PC: Algorithm 2's F = kappa 2, gamma 1 = kappa 1 (V),
    # gamma 2 = kappa w (W): the same residuals; and the coarsest level called once a call (the
    # authors' convention) changes the calls, not the iterate.
    for pair in "-pc_kcycle_scheme f|-pc_kcycle_kappa 2" "-pc_kcycle_scheme gamma -pc_kcycle_gamma 1|-pc_kcycle_kappa 1" \
      "-pc_kcycle_scheme gamma -pc_kcycle_gamma 2|-pc_kcycle_kappa w" \
      "-pc_kcycle_kappa 3|-pc_kcycle_kappa 3 -pc_kcycle_repeat_coarsest false" \
      "-pc_kcycle_kappa w|-pc_kcycle_kappa w -pc_kcycle_repeat_coarsest false"; do
      one=$(history 1 anisotropic -da_refine 5 -eps 1e-4 -angle 45 -pc_type kcycle ${pair%|*})
      two=$(history 1 anisotropic -da_refine 5 -eps 1e-4 -angle 45 -pc_type kcycle ${pair#*|})
      if [ -z "$one" ] || [ "$one" != "$two" ]; then fail "${pair%|*} differs from ${pair#*|}"
      else echo "ok: ${pair%|*} = ${pair#*|}, $(echo "$one" | wc -l) residuals alike"; fi
    done
    ;;
  level-calls)
    # kcycle info's table: level, levelCalls, levelCalls with the coarsest level called once, unknowns.
    for levels in 4 5 6 7; do
      for kappa in $(seq 1 "$levels") w; do
        for repeat in true false; do
          line=$("$mpiexec" -n 1 "$laplacian" -dim 2 -da_refine $((levels - 1)) -pc_type kcycle -pc_kcycle_kappa "$kappa" \
            -pc_kcycle_repeat_coarsest "$repeat" -pc_kcycle_monitor -ksp_max_it 1 2>&1 | grep -m1 'levelCalls (finest first)')
          got=${line##*: }
          column=$([ "$repeat" = true ] && echo 2 || echo 3)
          want=$("$bin/kcycle" info --levels "$levels" --kappa "$kappa" |
            awk -v c="$column" '$1 ~ /^[0-9]+$/ && NF == 4 {printf "%s ", $c}')
          if [ "$got" != "${want% }" ]; then
            fail "$levels levels, kappa=$kappa, repeat_coarsest $repeat: the PC made '$got' calls, kcycle info says '${want% }'"
          else
            echo "ok: $levels levels, kappa=$kappa, repeat_coarsest $repeat: $got"
          fi
        done
      done
    done
    # Algorithm 1's gamma^(l-1) calls, and Algorithm 2's, which are kappa = 2's.
    calls() {
      "$mpiexec" -n 1 "$laplacian" -dim 2 -da_refine 4 -pc_type kcycle -pc_kcycle_monitor -ksp_max_it 1 "$@" 2>&1 |
        grep -m1 'levelCalls (finest first)' | sed 's/.*: //'
    }
    [ "$(calls -pc_kcycle_scheme gamma -pc_kcycle_gamma 3)" = "1 3 9 27 81" ] && echo "ok: gamma=3: 1 3 9 27 81" ||
      fail "gamma=3 at 5 levels: $(calls -pc_kcycle_scheme gamma -pc_kcycle_gamma 3)"
    [ "$(calls -pc_kcycle_scheme f)" = "$(calls -pc_kcycle_kappa 2)" ] && echo "ok: F = kappa 2: $(calls -pc_kcycle_scheme f)" ||
      fail "F at 5 levels: $(calls -pc_kcycle_scheme f)"
    ;;
  coarse-krylov)
    # The library's preset as PETSc options: stand-alone cycles, damped Jacobi (2,2) at the paper's omega.
    omega=$("$bin/kcycle" solve --levels 3 --json | sed -n 's/.*"omega": *\([0-9.]*\).*/\1/p')
    jacobi=(-ksp_type richardson -ksp_norm_type unpreconditioned -ksp_max_it 3000 -mg_levels_ksp_type richardson
      -mg_levels_pc_type jacobi -mg_levels_ksp_richardson_scale "$omega" -mg_levels_ksp_max_it 2)
    cycles() {  # the PC's stand-alone cycles to 1e-8 on RANKS ranks with KAPPA and KRYLOV
      "$mpiexec" -n "$1" --oversubscribe "$bin/kcycle_petsc_anisotropic" -da_refine 6 -eps 1e-4 -angle 45 \
        -pc_type kcycle -pc_kcycle_kappa "$2" -pc_kcycle_coarse_krylov "$3" "${jacobi[@]}" -ksp_rtol 1e-8 2>&1 |
        sed -n 's/^iterations \([0-9]*\), CONVERGED.*/\1/p'
    }
    library() {  # the library's cycles to 1e-8 with KAPPA and KRYLOV (on/off)
      "$bin/kcycle" solve --levels 7 --eps 1e-4 --angle 45 --kappa "$1" --coarse-krylov "$2" --problem 1 --json |
        sed -n 's/.*"iterations": *\([0-9]*\).*/\1/p'
    }
    for ranks in 1 2; do
      one=$(history $ranks anisotropic -da_refine 5 -eps 1e-4 -angle 45 -pc_type kcycle -pc_kcycle_kappa 1 "${jacobi[@]}")
      two=$(history $ranks anisotropic -da_refine 5 -eps 1e-4 -angle 45 -pc_type kcycle -pc_kcycle_kappa 1 \
        -pc_kcycle_coarse_krylov true "${jacobi[@]}")
      if [ -z "$one" ] || [ "$one" != "$two" ]; then fail "$ranks rank(s): kappa=1 changed by -pc_kcycle_coarse_krylov"
      else echo "ok: $ranks rank(s): kappa=1 untouched, $(echo "$one" | wc -l) residuals alike"; fi
      for kappa in 2 3 w; do
        plain=$(cycles $ranks $kappa false) krylov=$(cycles $ranks $kappa true)
        mine=$(library "${kappa^^}" off) mine_krylov=$(library "${kappa^^}" on)
        if [ -z "$plain" ] || [ -z "$krylov" ] || [ -z "$mine" ] || [ -z "$mine_krylov" ]; then
          fail "$ranks rank(s), kappa=$kappa: a solve did not converge ($plain/$krylov PETSc, $mine/$mine_krylov kcycle)"
        elif [ $((5 * krylov)) -gt $((3 * plain)) ] || [ $((5 * mine_krylov)) -gt $((3 * mine)) ]; then
          fail "$ranks rank(s), kappa=$kappa: not cut by 40 %: PETSc $plain -> $krylov cycles, kcycle $mine -> $mine_krylov"
        else
          echo "ok: $ranks rank(s), kappa=$kappa: PETSc PC $plain -> $krylov cycles, kcycle's library $mine -> $mine_krylov"
        fi
      done
    done
    ;;
  bad-input)
    refused() {
      local why=$1
      shift
      local out rc
      out=$("$mpiexec" -n 1 "$laplacian" -dim 2 -da_refine 2 "$@" 2>&1)
      rc=$?
      if [ $rc = 0 ]; then fail "$*: accepted"
      elif echo "$out" | grep -q 'Caught signal'; then fail "$*: crashed"
      elif ! echo "$out" | grep -q -- "$why"; then fail "$*: no '$why' in: $(echo "$out" | grep ERROR | head -3)"
      else echo "ok: $* -> $(echo "$out" | grep -m1 -- "$why" | sed 's/^\[0\]PETSC ERROR: //')"; fi
    }
    refused '-pc_kcycle_kappa must be a positive integer or w (got 0)' -pc_type kcycle -pc_kcycle_kappa 0
    refused '-pc_kcycle_kappa must be a positive integer or w (got x)' -pc_type kcycle -pc_kcycle_kappa x
    refused 'Unknown option foo for -pc_kcycle_type' -pc_type kcycle -pc_kcycle_type foo
    refused '-pc_mg_levels must be at least 1 (got 0)' -pc_type kcycle -pc_mg_levels 0
    refused '-pc_mg_type must be multiplicative' -pc_type kcycle -pc_mg_type additive
    refused '-pc_kcycle_gamma' -pc_type kcycle -pc_kcycle_scheme gamma -pc_kcycle_gamma 0
    if out=$("$mpiexec" -n 1 "$bin/kcycle_petsc_inner_not_mg" 2>&1); then echo "ok: an inner Jacobi: $out"
    else fail "an inner PC that is not PCMG-based: $out"; fi
    ;;
  dll-append)
    example=$(ls /usr/share/petsc/*/share/petsc/examples/src/ksp/ksp/tutorials/ex2.c 2> /dev/null | head -n 1)
    library=$(realpath "$bin/../petsc/libkcycle_petsc.so")
    if [ -z "$example" ]; then
      echo "skipped: PETSc's examples are not installed (libpetsc3.18-dev-examples)"
      exit 77
    fi
    if ldd "$library" | grep -q 'libasan\|libtsan'; then  # a sanitizer's runtime must load first, not from -dll_append
      echo "skipped: $library is built with a sanitizer, which PETSc's own (uninstrumented) ex2 cannot load"
      exit 77
    fi
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    mpicc -o "$work/ex2" "$example" $(pkg-config --cflags --libs PETSc) || fail "PETSc's ex2.c does not build"
    for ranks in 1 2; do
      theirs=$("$mpiexec" -n $ranks --oversubscribe "$work/ex2" -m 48 -n 48 -pc_type gamg -pc_mg_cycle_type w \
        -ksp_monitor 2>&1 | grep 'KSP Residual norm')
      mine=$("$mpiexec" -n $ranks --oversubscribe "$work/ex2" -m 48 -n 48 -dll_append "$library" -pc_type kcycle \
        -pc_kcycle_type gamg -pc_kcycle_kappa w -ksp_monitor 2>&1 | grep 'KSP Residual norm')
      if [ -z "$theirs" ] || [ "$theirs" != "$mine" ]; then
        fail "$ranks rank(s): ex2 with -dll_append kcycle (W) differs from PETSc's W"
        diff <(echo "$theirs") <(echo "$mine") | head -6
      else
        echo "ok: $ranks rank(s): ex2 + -dll_append: kappa=w = PETSc's w-cycle, $(echo "$theirs" | wc -l) residuals"
      fi
    done
    ;;
  *)
    echo "unknown group $group"
    exit 2
    ;;
esac
echo "$failures failure(s)"
[ $failures = 0 ]
