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
#   tutorials    PETSc's tutorials ksp/ex45 (3D, a DM's initial guess), ksp/ex29 (2D, variable
#                coefficients) and snes/ex5 (Bratu, Newton), compiled as they ship: kappa = 1 and
#                w residual for residual against PETSc's v and w, kappa = 3 converging, on 1 and 2
#                ranks; ksp/ex2 (no DM) with -pc_mg_levels 3 refused by name (PCMG itself crashes).
#
#   bash tests/petsc/petsc_checks.sh GROUP BIN_DIR MPIEXEC
set -uo pipefail  # so output is matched by grep <<<"$out": an echo piped to grep -q dies of SIGPIPE
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

# PETSc's own tutorials, compiled as Debian ships them into $work (ex45 from ksp/ksp/tutorials/ex45),
# loading the kcycle through -dll_append $library.
tutorials_ready() {
  examples=$(ls -d /usr/share/petsc/*/share/petsc/examples/src 2> /dev/null | head -n 1)
  library=$(realpath "$bin/../petsc/libkcycle_petsc.so")
  if [ -z "$examples" ]; then
    echo "skipped: PETSc's examples are not installed (libpetsc3.18-dev-examples)"
    exit 77
  fi
  # A here-string, not ldd | grep -q: under pipefail ldd, still writing when grep -q has its match,
  # dies of SIGPIPE and the test went on to load a sanitized library (CI stop 64, 19 failures).
  if grep -q 'libasan\|libtsan' <<<"$(ldd "$library")"; then  # a sanitizer's runtime must load first, not from -dll_append
    echo "skipped: $library is built with a sanitizer, which PETSc's own (uninstrumented) tutorials cannot load"
    exit 77
  fi
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
}
build_tutorial() {
  mpicc -o "$work/$(basename "$1")" "$examples/$1.c" $(pkg-config --cflags --libs PETSc) -lm ||
    fail "PETSc's $1.c does not build"
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
    # A second call on the coarsest level continues from the first's solution: with Richardson
    # (a stationary iteration) there, two calls of 2 sweeps (kappa = w over 2 levels) are one call
    # of 4 (kappa = 1), to rounding; before, the KSP zeroed its guess and the second call repeated
    # the first (the history of one call of 2 sweeps).
    coarse=(-dim 2 -da_refine 5 -pc_mg_levels 2 -pc_type kcycle -mg_coarse_ksp_type richardson -mg_coarse_pc_type jacobi)
    first10() { history 1 laplacian "${coarse[@]}" "$@" | head -n 10 | awk '{print $NF}'; }
    twice=$(first10 -pc_kcycle_kappa w -mg_coarse_ksp_max_it 2)
    once4=$(first10 -pc_kcycle_kappa 1 -mg_coarse_ksp_max_it 4)
    once2=$(first10 -pc_kcycle_kappa 1 -mg_coarse_ksp_max_it 2)
    # largest relative difference between two columns of residuals
    apart() { paste <(echo "$1") <(echo "$2") | awk '{d = ($1 - $2) / $2; d = d < 0 ? -d : d; if (d > m) m = d}
      END {printf "%.1e", NR == 10 ? m : 1}'; }
    if awk -v a="$(apart "$twice" "$once4")" -v b="$(apart "$twice" "$once2")" 'BEGIN {exit !(a < 1e-8 && b > 1e-3)}'; then
      echo "ok: a repeated coarsest call continues: 2 x 2 Richardson sweeps = 1 x 4 (within $(apart "$twice" "$once4")), not 1 x 2 ($(apart "$twice" "$once2") apart)"
    else
      fail "a repeated coarsest call: 2 x 2 sweeps vs 1 x 4 $(apart "$twice" "$once4") apart, vs 1 x 2 $(apart "$twice" "$once2")"
    fi
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
      out=$(timeout 120 "$mpiexec" -n 1 "$laplacian" -dim 2 -da_refine 2 "$@" 2>&1)
      rc=$?
      if [ $rc = 124 ]; then fail "$*: still running after 120 s, not refused"
      elif [ $rc = 0 ]; then fail "$*: accepted"
      elif grep -q 'Caught signal' <<<"$out"; then fail "$*: crashed"
      elif ! grep -q -- "$why" <<<"$out"; then fail "$*: no '$why' in: $(echo "$out" | grep ERROR | head -3)"
      else echo "ok: $* -> $(echo "$out" | grep -m1 -- "$why" | sed 's/^\[0\]PETSC ERROR: //')"; fi
    }
    refused '-pc_kcycle_kappa must be a positive integer or w (got 0)' -pc_type kcycle -pc_kcycle_kappa 0
    refused '-pc_kcycle_kappa must be a positive integer or w (got x)' -pc_type kcycle -pc_kcycle_kappa x
    refused 'Unknown option foo for -pc_kcycle_type' -pc_type kcycle -pc_kcycle_type foo
    refused '-pc_mg_levels must be at least 1 (got 0)' -pc_type kcycle -pc_mg_levels 0
    refused '-pc_mg_type must be multiplicative' -pc_type kcycle -pc_mg_type additive
    refused '-pc_kcycle_gamma must be an integer from 1 to 64' -pc_type kcycle -pc_kcycle_scheme gamma -pc_kcycle_gamma 0
    refused '-pc_kcycle_gamma must be an integer from 1 to 64' -pc_type kcycle -pc_kcycle_scheme gamma -pc_kcycle_gamma 1000
    # the CLI's work check: gamma = 64 over 8 levels would run for days
    refused 'even on a fast machine; refused' -pc_type kcycle -pc_kcycle_scheme gamma -pc_kcycle_gamma 64 -da_refine 7
    # options that would change nothing
    refused '-pc_mg_cycle_type has no effect under -pc_type kcycle' -pc_type kcycle -pc_kcycle_kappa 1 -pc_mg_cycle_type w
    refused '-pc_kcycle_gamma has no effect with -pc_kcycle_scheme kappa' -pc_type kcycle -pc_kcycle_gamma 2
    refused '-pc_kcycle_kappa has no effect with -pc_kcycle_scheme gamma' -pc_type kcycle -pc_kcycle_scheme gamma -pc_kcycle_kappa 3
    refused '-pc_kcycle_coarse_krylov combines' -pc_type kcycle -pc_kcycle_scheme f -pc_kcycle_coarse_krylov
    if out=$("$mpiexec" -n 1 "$bin/kcycle_petsc_inner_not_mg" 2>&1); then echo "ok: an inner Jacobi: $out"
    else fail "an inner PC that is not PCMG-based: $out"; fi
    ;;
  dll-append)
    tutorials_ready
    build_tutorial ksp/ksp/tutorials/ex2
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
  tutorials)
    tutorials_ready
    for tutorial in ksp/ksp/tutorials/ex45 ksp/ksp/tutorials/ex29 snes/tutorials/ex5 ksp/ksp/tutorials/ex2; do
      build_tutorial $tutorial
    done
    # Every residual a run prints: the linear ones and, for snes/ex5, Newton's.
    residuals() {
      local ranks=$1
      shift
      "$mpiexec" -n "$ranks" --oversubscribe "$@" -ksp_monitor -snes_monitor 2>&1 | grep 'Residual norm'
    }
    for ranks in 1 2; do
      for problem in "ex45 -da_refine 3" "ex29 -da_refine 4" "ex5 -da_refine 4"; do
        set -- $problem
        program=$work/$1
        shift
        for cycle in v w; do
          kappa=$([ $cycle = v ] && echo 1 || echo w)
          theirs=$(residuals $ranks "$program" "$@" -pc_type mg -pc_mg_cycle_type $cycle)
          mine=$(residuals $ranks "$program" "$@" -dll_append "$library" -pc_type kcycle -pc_kcycle_kappa $kappa)
          if [ -z "$theirs" ] || [ "$(echo "$theirs" | wc -l)" -lt 3 ]; then
            fail "$ranks rank(s), $problem, $cycle: PETSc's run printed no history"
          elif [ "$theirs" != "$mine" ]; then
            fail "$ranks rank(s), $problem: kappa=$kappa differs from PETSc's $cycle-cycle"
            diff <(echo "$theirs") <(echo "$mine") | head -6
          else
            echo "ok: $ranks rank(s), $problem: kappa=$kappa = PETSc's $cycle-cycle, $(echo "$theirs" | wc -l) residuals alike"
          fi
        done
        out=$("$mpiexec" -n $ranks --oversubscribe "$program" "$@" -dll_append "$library" -pc_type kcycle \
          -pc_kcycle_kappa 3 -ksp_converged_reason -snes_converged_reason 2>&1)
        if [ $? != 0 ] || ! grep -q 'solve converged' <<<"$out" || grep -q 'DIVERGED\|ERROR' <<<"$out"; then
          fail "$ranks rank(s), $problem: kappa=3 did not converge: $(echo "$out" | grep -m3 'DIVERGED\|ERROR\|solve')"
        else
          echo "ok: $ranks rank(s), $problem: kappa=3: $(echo "$out" | grep 'solve converged' | tail -n 1 | sed 's/^ *//')"
        fi
      done
    done
    # No DM, no interpolation: PCMG itself crashes (SEGV) on -pc_mg_levels 3; the kcycle refuses by name.
    out=$("$mpiexec" -n 1 "$work/ex2" -m 32 -n 32 -dll_append "$library" -pc_type kcycle -pc_mg_levels 3 2>&1)
    if grep -q 'Caught signal' <<<"$out"; then fail "ex2 without a DM, 3 levels: crashed"
    elif ! grep -q 'no DM and no interpolation to level 1' <<<"$out"; then fail "ex2 without a DM, 3 levels: $(echo "$out" | grep -m2 ERROR)"
    else echo "ok: ex2 without a DM, 3 levels: $(echo "$out" | grep -m1 'no DM' | sed 's/^\[0\]PETSC ERROR: //')"; fi
    ;;
  *)
    echo "unknown group $group"
    exit 2
    ;;
esac
echo "$failures failure(s)"
[ $failures = 0 ]
