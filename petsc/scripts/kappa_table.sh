#!/usr/bin/env bash
# Iterations and time to solution of one PETSc example for PETSc's V- and W-cycles and the
# kappa-cycle with kappa = 1, 2, 3, 4, W: the median of REPEATS runs each (the example's own
# timing of KSPSolve), as a Markdown table.
#
#   bash petsc/scripts/kappa_table.sh RANKS REPEATS EXAMPLE [OPTIONS...]
#   bash petsc/scripts/kappa_table.sh 2 3 build/bin/kcycle_petsc_laplacian -dim 2 -da_refine 7
# Add -pc_kcycle_type gamg to the options for the GAMG hierarchy (PETSc's side runs -pc_type gamg).
set -euo pipefail
ranks=$1 repeats=$2 example=$3
shift 3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
inner=mg
options=()
for o in "$@"; do
  if [ "$o" = gamg ] && [ "${options[-1]:-}" = -pc_kcycle_type ]; then inner=gamg; unset 'options[-1]'; continue; fi
  options+=("$o")
done
run() {  # prints "iterations seconds" of one solve
  mpirun -n "$ranks" --oversubscribe "$example" "${options[@]}" "$@" -ksp_rtol 1e-10 |
    sed -n 's/^iterations \([0-9]*\), [A-Z_]*, \([0-9.]*\) s$/\1 \2/p'
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
echo "| cycle | iterations | seconds (median of $repeats) |"
echo "|---|---|---|"
for cycle in "PETSc V:-pc_type $inner -pc_mg_cycle_type v" "PETSc W:-pc_type $inner -pc_mg_cycle_type w" \
  "kappa=1:-pc_kappa 1" "kappa=2:-pc_kappa 2" "kappa=3:-pc_kappa 3" "kappa=4:-pc_kappa 4" "kappa=W:-pc_kappa w"; do
  name=${cycle%%:*} args=${cycle#*:}
  args=${args/-pc_kappa/-pc_type kcycle -pc_kcycle_type $inner -pc_kcycle_kappa}
  iterations= times=()
  for _ in $(seq "$repeats"); do
    read -r iterations seconds < <(run $args)
    times+=("$seconds")
  done
  printf '| %s | %s | %.4f |\n' "$name" "$iterations" "$(printf '%s\n' "${times[@]}" | median)"
done
