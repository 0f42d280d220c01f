#!/usr/bin/env bash
# An adversarial pass where processes, files and programs meet (issue 45): MPI launch variants,
# PETSc's tutorials and options under -pc_type kcycle, result files in and out. Each case is run
# as a user would (timeout 60 s) and judged: "held" (the outcome a careful user expects: a clear
# refusal, a converged solve, a file whole with its permissions) or "broke" (a hang, a crash, a
# silent wrong result, a misleading message). Prints a Markdown table and the counts; exits 1 if
# any case broke. Not part of ctest (it takes minutes and needs PETSc's examples); run by hand:
#
#   bash tests/edges/meeting_points.sh BUILD_DIR
set -uo pipefail
build=$(realpath "${1:-build}")
kcycle=$build/bin/kcycle
library=$build/petsc/libkcycle_petsc.so
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader OMPI_MCA_mpi_yield_when_idle=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
held=0 broke=0
echo "| case | expected | got | held |"
echo "|---|---|---|---|"

# case ID WHAT-IS-EXPECTED COMMAND...: the command (a shell snippet) prints what it found and
# exits 0 when the expectation holds.
case_() {
  local id=$1 expected=$2 snippet=$3 out rc
  out=$(timeout -k 5 60 bash -c "$snippet" 2>&1)
  rc=$?
  local got
  got=$(echo "$out" | grep -v -E '^-+$|^\s*$' | tail -n 1 | cut -c1-120 | tr '|' '/')
  [ $rc = 124 ] && got="still running after 60 s"
  if [ $rc = 0 ]; then
    held=$((held + 1))
    printf '| %s | %s | %s | yes |\n' "$id" "$expected" "$got"
  else
    broke=$((broke + 1))
    printf '| %s | %s | %s (rc %s) | **no** |\n' "$id" "$expected" "$got" "$rc"
  fi
}
export kcycle library
printf 'levels = 5\neps = 1e-3\n' > p.toml
printf 'levels = 6\n' > q.toml

# --- MPI launch variants: ranks that agree, or all stop saying why --------------------------
m="mpiexec --oversubscribe"
case_ mpi-config-stdin "exit 2 naming the ranks" "$m -np 2 \$kcycle solve --backend mpi --config - < p.toml; rc=\$?; echo rc \$rc; [ \$rc = 2 ]"
case_ mpi-mpmd-levels "exit 2, levels differ" "$m -np 1 \$kcycle solve --backend mpi --levels 5 : -np 1 \$kcycle solve --backend mpi --levels 6 2>&1 | grep -m1 differs; [ \${PIPESTATUS[0]} = 2 ]"
case_ mpi-mpmd-file-missing "exit 2, rank 1 says why" "$m -np 1 \$kcycle solve --backend mpi --config p.toml : -np 1 \$kcycle solve --backend mpi --config missing.toml 2>&1 | grep -m1 'rank 1'; [ \${PIPESTATUS[0]} = 2 ]"
case_ mpi-mpmd-bad-eps "exit 2" "$m -np 1 \$kcycle solve --backend mpi --eps 0.1 : -np 1 \$kcycle solve --backend mpi --eps 7 2>&1 | grep -m1 eps; [ \${PIPESTATUS[0]} = 2 ]"
case_ mpi-mpmd-experiment-out "exit 2, --out differs" "$m -np 1 \$kcycle experiment fig4.1 --out a : -np 1 \$kcycle experiment fig4.1 --out b 2>&1 | grep -m1 differ; [ \${PIPESTATUS[0]} = 2 ]"
case_ mpi-same-config "converged on 2 ranks" "$m -np 2 \$kcycle solve --backend mpi --config p.toml | grep -m1 converged"
case_ mpi-three-ranks "converged on 3 ranks" "$m -np 3 \$kcycle solve --backend mpi --levels 6 | grep -m1 converged"
case_ mpi-ranks-x-too-many "exit 2" "$m -np 2 \$kcycle solve --backend mpi --ranks-x 3 --ranks-y 1; [ \$? = 2 ]"
case_ mpi-calibrate-dev-full "exit 1, no space" "$m -np 2 \$kcycle calibrate --backend mpi --min-levels 4 --max-levels 5 --min-seconds 0.01 --out /dev/full 2>&1 | grep -m1 'No space'; [ \${PIPESTATUS[0]} = 1 ]"
case_ mpi-config-nan "exit 2" "printf 'eps = nan\n' > n.toml; $m -np 2 \$kcycle solve --backend mpi --config n.toml 2>&1 | grep -m1 eps; [ \${PIPESTATUS[0]} = 2 ]"

# --- PETSc: the tutorials as shipped, options that change nothing, bounds ----------------------
examples=$(ls -d /usr/share/petsc/*/share/petsc/examples/src 2> /dev/null | head -n 1)
if [ -n "$examples" ] && [ -e "$library" ]; then
  for t in ksp/ksp/tutorials/ex45 ksp/ksp/tutorials/ex29 ksp/ksp/tutorials/ex2 snes/tutorials/ex5 snes/tutorials/ex19; do
    mpicc -o "$(basename $t)" "$examples/$t.c" $(pkg-config --cflags --libs PETSc) -lm
  done
  k="-dll_append \$library -pc_type kcycle"
  conv="grep -m1 -E 'solve converged' | grep -v DIVERGED"
  case_ petsc-ex45-kappa2 "converged" "./ex45 -da_refine 3 $k -ksp_converged_reason | $conv"
  case_ petsc-ex45-kappa3-2ranks "converged" "$m -np 2 ./ex45 -da_refine 3 $k -pc_kcycle_kappa 3 -ksp_converged_reason | $conv"
  case_ petsc-ex45-coarse-cg "converged (coarse CG continues)" "./ex45 -da_refine 3 $k -pc_kcycle_kappa 3 -mg_coarse_ksp_type cg -mg_coarse_pc_type jacobi -mg_coarse_ksp_max_it 5 -ksp_converged_reason | $conv"
  case_ petsc-ex45-two-cycles "converged" "./ex45 -da_refine 3 $k -pc_kcycle_kappa 3 -pc_mg_multiplicative_cycles 2 -ksp_converged_reason | $conv"
  case_ petsc-ex45-krylov-fcg "converged" "./ex45 -da_refine 3 $k -pc_kcycle_kappa w -pc_kcycle_coarse_krylov -ksp_type fcg -ksp_converged_reason | $conv"
  case_ petsc-ex45-galerkin "converged" "./ex45 -da_refine 3 $k -pc_kcycle_kappa 3 -pc_mg_galerkin pmat -ksp_converged_reason | $conv"
  case_ petsc-ex29-gamg "converged" "./ex29 -da_refine 4 $k -pc_kcycle_type gamg -pc_kcycle_kappa 3 -ksp_converged_reason | $conv"
  case_ petsc-ex5-kappa3-2ranks "Newton converged" "$m -np 2 ./ex5 -da_refine 4 $k -pc_kcycle_kappa 3 -snes_converged_reason | grep -m1 'Nonlinear solve converged'"
  case_ petsc-ex19-kappa2 "Newton converged" "./ex19 -da_refine 3 $k -snes_converged_reason | grep -m1 'Nonlinear solve converged'"
  case_ petsc-ex2-no-dm "refused by name" "./ex2 -m 32 -n 32 $k -pc_mg_levels 3 2>&1 | grep -m1 'no DM and no interpolation'"
  case_ petsc-ex2-gamg "converged" "./ex2 -m 64 -n 64 $k -pc_kcycle_type gamg -ksp_converged_reason | $conv"
  case_ petsc-cycle-type "refused by name" "./ex45 $k -pc_mg_cycle_type w 2>&1 | grep -m1 'has no effect'"
  case_ petsc-gamma-1000 "refused by name" "./ex45 $k -pc_kcycle_scheme gamma -pc_kcycle_gamma 1000 2>&1 | grep -m1 'from 1 to 64'"
  case_ petsc-gamma-work "refused, not run for ever" "./ex29 -da_refine 6 $k -pc_kcycle_scheme gamma -pc_kcycle_gamma 40 2>&1 | grep -m1 'fast machine'"
  case_ petsc-kappa-with-gamma "refused by name" "./ex45 $k -pc_kcycle_scheme gamma -pc_kcycle_kappa 2 2>&1 | grep -m1 'has no effect'"
  case_ petsc-kappa-zero "refused by name" "./ex45 $k -pc_kcycle_kappa 0 2>&1 | grep -m1 'positive integer or w'"
  case_ petsc-mg-levels-0 "refused by name" "./ex45 $k -pc_mg_levels 0 2>&1 | grep -m1 'at least 1'"
fi

# --- files in and out ---------------------------------------------------------------------------
cal="\$kcycle calibrate --min-levels 3 --max-levels 4 --min-seconds 0.01"
case_ file-mode-0600-kept "0600 after replace" "echo old > c.json; chmod 600 c.json; $cal --out c.json > /dev/null && stat -c %a c.json | grep -x 600"
case_ file-read-only-kept "0444 after replace" "echo old > r.json; chmod 444 r.json; $cal --out r.json > /dev/null && stat -c %a r.json | grep -x 444"
case_ file-dangling-link "written through, link kept" "mkdir -p d; ln -sf d/cal.json l.json; $cal --out l.json > /dev/null && [ -L l.json ] && grep -c alpha d/cal.json"
case_ file-link-into-proc "exit 2 before the work" "ln -sf /proc/none/c.json p.json; $cal --out p.json; [ \$? = 2 ]"
case_ file-name-too-long "exit 2 before the work" "$cal --out \$(printf 'x%.0s' {1..250}) 2>&1 | grep -m1 'too long'; [ \${PIPESTATUS[0]} = 2 ]"
case_ file-out-is-config "exit 2" "$cal --config p.toml --out p.toml 2>&1 | grep -m1 'also the --config'; [ \${PIPESTATUS[0]} = 2 ]"
case_ file-stale-temporary "removed by the next write" "sh -c 'exit 0' & wait \$!; t=.s.json.\$!.AbCdEf; echo partial > \$t; touch -d '2 minutes ago' \$t; $cal --out s.json > /dev/null; [ ! -e \$t ] && echo gone"
case_ file-two-writers "one whole JSON" "$cal --out w.json > /dev/null & $cal --out w.json > /dev/null; wait; python3 -c 'import json; json.load(open(\"w.json\")); print(\"whole\")'"
case_ file-experiment-interrupted "earlier set kept, rows in .partial.csv" "mkdir -p e; for f in csv json svg; do echo earlier > e/table4.3.\$f; done; timeout -s INT 3 \$kcycle experiment table4.3 --levels 10 --out e; for f in csv json svg; do grep -qx earlier e/table4.3.\$f || exit 1; done; head -c 40 e/table4.3.partial.csv"
case_ file-experiment-complete "a whole set, no partial file" "\$kcycle experiment table4.1 --levels 4 --kappas 1,2 --out f > /dev/null && ls f | tr '\n' ' ' && [ ! -e f/table4.1.partial.csv ] && [ -s f/table4.1.svg ]"
case_ file-fifo-no-reader "exit 2 before the work" "mkfifo ff; $cal --out ff 2>&1 | grep -m1 'no reader'; [ \${PIPESTATUS[0]} = 2 ]"
case_ file-fifo-with-reader "the reader gets the whole calibration" "mkfifo fr; (cat fr > got.json &); $cal --out fr > /dev/null; sleep 0.5; python3 -c 'import json; json.load(open(\"got.json\")); print(\"whole\")'"
case_ file-config-control-chars "escaped, not raw" "printf 'levels = 5\nsmoother = \"\\033[2J\"\n' > ctl.toml; \$kcycle solve --config ctl.toml 2>&1 | grep -m1 -F 'x1b[2J' && ! \$kcycle solve --config ctl.toml 2>&1 | grep -q \$'\\033'"
case_ file-config-stdin-pipe "converged" "cat p.toml | \$kcycle solve --config - | grep -m1 converged"
case_ file-figure-dev-full "exit 1, no space" "ln -sf /dev/full full.svg; \$kcycle figure cycles --levels 4 --out full.svg 2>&1 | grep -m1 'No space'; [ \${PIPESTATUS[0]} = 1 ]"

echo
echo "held: $held, broke: $broke (of $((held + broke)) cases)"
[ $broke = 0 ]
