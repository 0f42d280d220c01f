#!/usr/bin/env bash
# The advisor's table (issue 28; docs/model.md): for the issue's three configurations and the six
# presets at 7-10 levels, calibrate (levels 5..n), then `advise --verify --json` in the same run,
# and print each pick against the measured best and each predicted total against its measurement,
# with the machine's drift between advising and verifying and how much the verifying solves varied.
#
#   bash scripts/advisor-table.sh [--out FOLDER] [--quick | --deep [--only REGEX] [--counts FILE]]
#                                 [--iterations probe|forecast] [--settle] [-- EXTRA KCYCLE OPTIONS...]
#
# --quick: the issue's three configurations only. --deep: issue 40's rows instead, jacobi, jacobi+cg,
# xyzebra-galerkin and xzebra-semi-galerkin at 11 and 12 levels, each kappa verified by one solve
# (they take seconds to minutes: hours in all on 2 cores); --only keeps the rows whose name matches; --counts
# (scripts/data/solved-counts.json) judges the rows that file holds by their solved counts times the
# calibration's price of an iteration at the target, with no verifying solve (minutes in all, not
# hours: the counts are deterministic, the prices measured in the same run). --iterations: where advise gets each kappa's
# iterations (its --iterations; default forecast, as advise's). --settle: advise --settle (a near-tie
# probed at the target size: costs more than the forecast's fraction of a solve). Extra options go to every calibrate and advise
# (e.g. -- --threads 1). About 9 minutes on 2 cores (12 with --threads 1). Needs a built tree
# (build/bin/kcycle) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
kcycle=${KCYCLE:-build/bin/kcycle}
out=results/advisor-table
quick=0
deep=0
only=.
iterations=forecast
counts=
settle=()
extra=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --out) out=$2; shift 2 ;;
    --quick) quick=1; shift ;;
    --deep) deep=1; shift ;;
    --only) only=$2; shift 2 ;;
    --counts) counts=$2; shift 2 ;;
    --iterations) iterations=$2; shift 2 ;;
    --settle) settle=(--settle); shift ;;
    --) shift; extra=("$@"); break ;;
    *) echo "advisor-table: unknown argument '$1' (--out FOLDER, --quick, --deep, --only REGEX, --counts FILE, --iterations MODE, --settle, -- KCYCLE OPTIONS)" >&2; exit 2 ;;
  esac
done
[[ -x $kcycle ]] || { echo "advisor-table: no $kcycle: build first (README)" >&2; exit 2; }
if [[ -n $counts ]]; then
  [[ $deep == 1 ]] || { echo "advisor-table: --counts judges the --deep rows" >&2; exit 2; }
  python3 -c 'import json, sys; json.load(open(sys.argv[1]))["counts"]' "$counts" 2>/dev/null ||
    { echo "advisor-table: $counts is not a counts file (a JSON object with \"counts\")" >&2; exit 2; }
fi
mkdir -p "$out"
rows=$out/rows.jsonl
: >"$rows"

verify=()
[[ $deep == 1 ]] && verify=(--verify-repeats 1)

one() {  # name, then the configuration's options (with --levels N)
  local name=$1; shift
  [[ $name =~ $only ]] || return 0
  local levels
  levels=$(printf '%s\n' "$@" | grep -A1 -x -- --levels | tail -1)
  local cal=$out/calibration-$(echo "$name" | tr -c 'a-z0-9' '-').json
  echo "advisor-table: $name" >&2
  "$kcycle" calibrate "$@" "${extra[@]}" --min-levels 5 --max-levels "$levels" --min-seconds 0.1 --out "$cal" \
    --force >"$out/calibrate.log" 2>&1 || { cat "$out/calibrate.log" >&2; exit 1; }
  local solved=
  [[ -n $counts ]] && solved=$(python3 -c 'import json, sys; print(json.dumps(json.load(open(sys.argv[1]))["counts"].get(sys.argv[2], "")))' "$counts" "$name")
  local judge=(--verify "${verify[@]}")
  [[ -n $solved && $solved != '""' ]] && judge=()
  # Into a file, then read: piped, python3 would start beside the advice (100 ms and more of a
  # core on a 2-core machine) and the advice would plan and pay its stages with one core less.
  "$kcycle" advise "$@" "${extra[@]}" --iterations "$iterations" "${settle[@]}" --calibration "$cal" "${judge[@]}" --json \
    >"$out/advice.json"
  python3 -c 'import json, sys
d = json.load(open(sys.argv[3]))
d["name"] = sys.argv[1]
if not d["candidates"][0].get("measured_iterations"):  # judged by the solved counts, times the prices at the target
    counts = json.loads(sys.argv[2])
    for x in d["candidates"]:
        x["measured_iterations"] = counts[x["kappa"]]
        x["measured_seconds"] = counts[x["kappa"]] * x["seconds_per_iteration"]
        x["measured_converged"] = True
    d["time_source"] += ", judged by solved counts"
print(json.dumps(d))' "$name" "$solved" "$out/advice.json" >>"$rows"
}

if [[ $deep == 1 ]]; then
  for n in 11 12; do
    for preset in jacobi+cg jacobi xyzebra-galerkin xzebra-semi-galerkin; do one "$preset $n" --preset "$preset" --levels "$n"; done
  done
else
  one "jacobi 9 eps1e-4 45" --preset jacobi --levels 9 --eps 1e-4 --angle 45
  one "jacobi+cg 9" --preset jacobi+cg --levels 9 --eps 1e-4 --angle 45
  one "xzebra-semi-galerkin 8 eps1e-5 30" --preset xzebra-semi-galerkin --levels 8 --eps 1e-5 --angle 30
fi
if [[ $quick == 0 && $deep == 0 ]]; then
  for preset in jacobi jacobi+cg xyzebra-galerkin xyzebra-galerkin+cg xzebra-semi-galerkin xzebra-semi-galerkin+cg; do
    for n in 7 8 9 10; do one "$preset $n" --preset "$preset" --levels "$n"; done
  done
fi

python3 - "$rows" <<'PY' | tee "$out/table.md"
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
settling = any(x.get("settled") for d in rows for x in d["candidates"])
print("| configuration | time from | pick | measured best | pick vs best | advice ÷ pick's solve | machine drift "
      "| predicted vs measured total, κ = 1 / 2 / 3 / 4 / W (iterations predicted/solved) | solves' spread |"
      + (" settled at the target |" if settling else ""))
print("|---|---|---|---|---|---|---|---|---|" + ("---|" if settling else ""))
picks = over15 = iterations_within15 = 0
noisy = []
for d in rows:
    c = d["candidates"]
    measured = {x["kappa"]: x["measured_seconds"] for x in c if x.get("measured_converged")}
    best = min(measured, key=measured.get)
    pick = d["recommended_kappa"]
    excess = 100 * (measured[pick] / measured[best] - 1) if pick in measured else float("nan")
    picks += excess <= 5
    cells = []
    for x in c:
        error = 100 * (x["predicted_seconds"] / x["measured_seconds"] - 1)
        over15 += abs(error) > 15
        iterations_within15 += abs(x["predicted_iterations"] / x["measured_iterations"] - 1) <= 0.15
        cells.append("%+.0f%% (%d/%d)" % (error, round(x["predicted_iterations"]), x["measured_iterations"]))
    drift = d.get("machine_drift")
    cost = d["advice_seconds"] / measured[pick] if pick in measured else float("nan")
    # The most any kappa's verifying solves varied (slowest tenth over fastest): from 2 the
    # machine's noise is as large as the gaps between kappas, and so is the measured best's.
    spread = max(x.get("measured_spread", 1.0) for x in c)
    if spread >= 2.0:
        noisy.append(d["name"])
    settled = ", ".join(x["kappa"] for x in c if x.get("settled")) or "-"
    print("| %s | %s | %s | %s | %+.1f%% | %.2f | %s | %s | %.2f |" % (d["name"], d["time_source"], pick, best, excess,
          cost, "%.2fx" % drift if drift else "-", " / ".join(cells), spread) + (" %s |" % settled if settling else ""))
print()
cells = sum(len(d["candidates"]) for d in rows)
print("picks within 5%% of the measured best: %d of %d; predicted totals off by more than 15%%: %d of %d; "
      "predicted iterations within 15%% of the solved: %d of %d" % (picks, len(rows), over15, cells,
      iterations_within15, cells))
if noisy:
    print("rows whose verifying solves varied 2x or more (a kappa's slowest tenth over its fastest: the machine's noise, "
          "as large as the gaps between kappas there): %s" % ", ".join(noisy))
PY
