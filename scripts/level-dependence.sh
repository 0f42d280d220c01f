#!/usr/bin/env bash
# How each kappa's iteration count grows with the number of levels, and how well a fit on
# coarser hierarchies foresees it (issue 40, part 2): every kappa solved to the tolerance at
# levels MIN..MAX for each configuration, then, for every level n with solves at n-FROM..n-TO
# levels (default n-5..n-3), the count at n extrapolated from them (log-linear least squares)
# beside the solved one. Prints a markdown table and the share of forecasts within 15%.
#
#   bash scripts/level-dependence.sh [--min 3] [--max 9] [--from 5] [--to 3] [--quick] [--kcycle PATH]
#
# --quick: jacobi and jacobi+cg only. About 4 minutes on 2 cores at --max 9 (the V-cycle of
# jacobi dominates: 1209 cycles at 9 levels, 2242 at 10).
set -euo pipefail
cd "$(dirname "$0")/.."
min=3
max=9
quick=0
from=5
to=3
kcycle=build/bin/kcycle
while [ $# -gt 0 ]; do
  case "$1" in
    --min) min="$2"; shift 2 ;;
    --max) max="$2"; shift 2 ;;
    --from) from="$2"; shift 2 ;;
    --to) to="$2"; shift 2 ;;
    --quick) quick=1; shift ;;
    --kcycle) kcycle="$2"; shift 2 ;;
    *) echo "level-dependence: unknown argument $1 (--min N, --max N, --from K, --to K, --quick, --kcycle PATH)" >&2; exit 2 ;;
  esac
done
[ "$from" -gt "$to" ] && [ "$to" -ge 1 ] || { echo "level-dependence: --from must exceed --to, both 1 or more" >&2; exit 2; }
[ -x "$kcycle" ] || { echo "level-dependence: $kcycle not built (bash scripts/test.sh, or cmake --build build)" >&2; exit 2; }
python3 - "$kcycle" "$min" "$max" "$quick" "$from" "$to" <<'PY'
import json, math, subprocess, sys
kcycle, lo, hi, quick = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"
back_from, back_to = int(sys.argv[5]), int(sys.argv[6])
configs = [("jacobi", ["--preset", "jacobi"]), ("jacobi+cg", ["--preset", "jacobi+cg"])]
if not quick:
    configs += [("xyzebra-galerkin", ["--preset", "xyzebra-galerkin"]),
                ("xzebra-semi-galerkin", ["--preset", "xzebra-semi-galerkin"]),
                ("xzebra-semi-galerkin eps 1e-5 30", ["--preset", "xzebra-semi-galerkin", "--eps", "1e-5", "--angle", "30"])]
kappas = ["1", "2", "3", "4", "W"]
def iterations(args):
    out = subprocess.run([kcycle, "solve"] + args + ["--json", "--max-iter", "100000"], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"level-dependence: kcycle solve {' '.join(args)} failed ({out.returncode}): {out.stderr.strip()}")
    return json.loads(out.stdout)["iterations"]
def forecast(counts, n):  # log-linear least squares over the coarser levels, evaluated at n
    ms = sorted(counts)
    ys = [math.log(counts[m]) for m in ms]
    mx, my = sum(ms) / len(ms), sum(ys) / len(ys)
    slope = sum((m - mx) * (y - my) for m, y in zip(ms, ys)) / sum((m - mx) ** 2 for m in ms)
    return math.exp(my + slope * (n - mx))
cells = within = 0
print("| configuration | levels | iterations, kappa = 1 / 2 / 3 / 4 / W | forecast from n-%d..n-%d (error) |" % (back_from, back_to))
print("|---|---|---|---|")
for name, options in configs:
    table = {}
    for n in range(lo, hi + 1):
        table[n] = {k: iterations(options + ["--levels", str(n), "--kappa", k]) for k in kappas}
        coarse = [m for m in range(n - back_from, n - back_to + 1) if m in table and m >= 2]
        cell = "-"
        if len(coarse) == back_from - back_to + 1:
            parts = []
            for k in kappas:
                f = forecast({m: table[m][k] for m in coarse}, n)
                error = f / table[n][k] - 1
                cells += 1
                within += abs(error) <= 0.15
                parts.append("%.0f (%+.0f%%)" % (f, 100 * error))
            cell = " / ".join(parts)
        print("| %s | %d | %s | %s |" % (name, n, " / ".join(str(table[n][k]) for k in kappas), cell), flush=True)
print()
print("forecasts within 15%% of the solved count: %d of %d" % (within, cells))
PY
