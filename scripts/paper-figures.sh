#!/usr/bin/env bash
# Redraws the paper's figures and tables (Avnat & Yavneh, "On the recursive structure of
# multigrid cycles") on this machine: Figure 2.1 (the cycle shapes), Figure 3.1 (time per cycle
# against levels, the model's fit and turning points), Figure 4.1 (solve time against eps) and
# Tables 4.1-4.6 (the six solvers over kappa and angles), each as CSV, JSON and SVG.
# Installed with the package (/usr/share/doc/kcycle/scripts/); runs the kcycle on PATH, or the
# checkout's build/bin/kcycle when run from a checkout.
#   paper-figures.sh [--out FOLDER] [--quick] [--kcycle PATH]
# --quick: small sizes (minutes, not hours): a check that everything runs, not the paper's numbers.
set -euo pipefail
out=kcycle-paper
quick=0
here=$(cd "$(dirname "$0")" && pwd)
if [ -x "$here/../build/bin/kcycle" ]; then kcycle="$here/../build/bin/kcycle"; else kcycle=kcycle; fi
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=$2; shift 2 ;;
    --quick) quick=1; shift ;;
    --kcycle) kcycle=$2; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "paper-figures: unknown argument '$1' (--out FOLDER, --quick, --kcycle PATH)" >&2; exit 2 ;;
  esac
done
command -v "$kcycle" >/dev/null 2>&1 || { echo "paper-figures: no kcycle at '$kcycle' (install the package, or --kcycle PATH)" >&2; exit 2; }
mkdir -p "$out"

if [ $quick = 1 ]; then
  figure=(--levels 4)
  fig31=(--min-levels 3 --max-levels 5 --min-seconds 0.01)
  fig41=(--levels 4 --max-levels 5)
  table=(--levels 5 --kappas 1,2,W --angles 45 --max-iter 2000)
else
  figure=(--levels 5)
  fig31=()
  fig41=()
  table=()
fi

echo "== Figure 2.1: $out/fig2.1.svg"
"$kcycle" figure cycles "${figure[@]}" --kappa 1,2,3,W --out "$out/fig2.1.svg"
echo "== Figure 3.1"
"$kcycle" experiment fig3.1 "${fig31[@]}" --out "$out/fig3.1"
echo "== Figure 4.1"
"$kcycle" experiment fig4.1 "${fig41[@]}" --out "$out/fig4.1"
for t in 4.1 4.2 4.3 4.4 4.5 4.6; do
  echo "== Table $t"
  "$kcycle" experiment "table$t" "${table[@]}" --out "$out/table$t"
done
echo "paper-figures: written under $out/"
