#!/usr/bin/env bash
# Local Fourier analysis beside measurement (issue 40's table): for each preset, eps and angle,
# `kcycle lfa` (the two-grid factor and each kappa-cycle's factor) and the asymptotic factor of
# a real solve (the geometric mean of its last five cycles' factors, from a random error, to a
# 1e-10 reduction), for kappa = 1 and W. MGCG rows compare iterations (CG has no asymptotic
# factor). Usage: scripts/lfa-table.sh [--levels N] [--quick] [--kcycle PATH]
set -euo pipefail
cd "$(dirname "$0")/.."
levels=7
quick=0
kcycle=build/bin/kcycle
while [ $# -gt 0 ]; do
  case "$1" in
    --levels) levels="$2"; shift 2 ;;
    --quick) quick=1; shift ;;
    --kcycle) kcycle="$2"; shift 2 ;;
    *) echo "lfa-table: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -x "$kcycle" ] || { echo "lfa-table: $kcycle not built (bash scripts/test.sh, or cmake --build build)" >&2; exit 2; }
presets="jacobi xyzebra-galerkin xzebra-semi-galerkin jacobi+cg xyzebra-galerkin+cg xzebra-semi-galerkin+cg"
epss="1 1e-2 1e-4"
angles="0 30 45"
if [ "$quick" = 1 ]; then presets="jacobi xzebra-semi-galerkin"; epss="1 1e-2"; angles="0 45"; fi
python3 - "$kcycle" "$levels" "$presets" "$epss" "$angles" <<'PY'
import json, subprocess, sys
kcycle, levels, presets, epss, angles = sys.argv[1], sys.argv[2], sys.argv[3].split(), sys.argv[4].split(), sys.argv[5].split()
def run(args):
    out = subprocess.run([kcycle] + args + ["--json"], capture_output=True, text=True)
    if out.returncode not in (0, 3):
        sys.exit(f"lfa-table: kcycle {' '.join(args)} failed: {out.stderr.strip()}")
    return json.loads(out.stdout)
print(f"| preset | eps | angle | mu | two-grid | kappa | LFA factor | measured | LFA iterations | measured iterations |")
print("|---|---|---|---|---|---|---|---|---|---|")
for p in presets:
    cg = p.endswith("+cg")
    for e in epss:
        for a in angles:
            common = ["--preset", p, "--levels", levels, "--eps", e, "--angle", a]
            lfa = run(["lfa"] + common)
            for k in ["1", "W"]:
                s = run(["solve"] + common + ["--kappa", k, "--tol", "1e-10", "--max-iter", "4000"])
                h = s["history"]
                measured = (h[-1]["error"] / h[-6]["error"]) ** 0.2 if len(h) >= 6 and not cg else float("nan")
                lfa8 = run(["lfa"] + common + ["--tol", "1e-10"])["predicted_iterations"][k]
                print(f"| {p} | {e} | {a} | {lfa['smoothing_factor']:.3f} | {lfa['two_grid_factor']:.3f} | {k} | "
                      f"{lfa['kappa_factors'][k]:.3f} | {'' if cg else f'{measured:.3f}'} | "
                      f"{'never' if lfa8 is None else round(lfa8)} | {s['iterations']}{'' if s['converged'] else ' (not converged)'} |")
PY
