#!/usr/bin/env bash
# The GPU check, one command on a machine with an NVIDIA GPU: builds the CUDA backend for the
# GPU that is present (build-gpu/), runs every GPU test, times `kcycle bench` with CUDA Graphs
# on and off (levels 8 to as many as fit, up to 14), each with and without the coarse tail,
# fits the model with and without graphs and tail (`experiment fig3.1`: alpha, beta, turning
# points), times the x-line solvers (Thomas, cyclic reduction, cuSPARSE), builds again with
# FMA contraction (build-gpu-fmad/) to measure what it changes, runs Tables 4.1 and 4.2 at 12
# levels on the GPU, and writes results/gpu-check/summary.md beside the raw JSON and logs.
#
#   bash scripts/gpu-check.sh [--no-build] [--probe]
#
# --no-build: use build-gpu/ as it is. --probe: only say whether a usable GPU is here.
# Without a usable GPU it says why in one line and exits 1: it never reports success for
# checks it did not run. Exit 2 when a check ran and failed.
set -uo pipefail
cd "$(dirname "$0")/.."

build=1 probe=0
for arg in "$@"; do
  case "$arg" in
    --no-build) build=0 ;;
    --probe) probe=1 ;;
    -h | --help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "gpu-check: unknown option $arg (see --help)" >&2; exit 2 ;;
  esac
done

# A usable GPU: the driver sees one, and (once built) the CUDA backend can use it.
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "gpu-check: no usable NVIDIA GPU here (nvidia-smi finds no device); nothing was checked"
  exit 1
fi
gpu=$(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | head -n 1)
[ "$probe" = 1 ] && { echo "gpu-check: usable GPU: $gpu"; exit 0; }

out=results/gpu-check
mkdir -p "$out"
if [ "$build" = 1 ]; then
  bash scripts/setup.sh >"$out/setup.log" 2>&1 || { echo "gpu-check: set-up failed (see $out/setup.log)"; exit 2; }
  # "native": the architecture of the GPU present, nothing else to compile.
  cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DKCYCLE_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=native \
    >"$out/build.log" 2>&1 &&
    cmake --build build-gpu -j "$(nproc)" >>"$out/build.log" 2>&1 ||
    { echo "gpu-check: the CUDA build failed (see $out/build.log)"; exit 2; }
  cmake -S . -B build-gpu-fmad -DCMAKE_BUILD_TYPE=Release -DKCYCLE_CUDA=ON -DKCYCLE_CUDA_FMAD=ON \
    -DCMAKE_CUDA_ARCHITECTURES=native -DKCYCLE_BUILD_TESTS=ON >"$out/build-fmad.log" 2>&1 &&
    cmake --build build-gpu-fmad -j "$(nproc)" --target kcycle kcycle_tests >>"$out/build-fmad.log" 2>&1 ||
    echo "gpu-check: the FMA build failed (see $out/build-fmad.log); its comparison is skipped"
fi
bin=build-gpu/bin
[ -x "$bin/kcycle" ] || { echo "gpu-check: no $bin/kcycle (run without --no-build)"; exit 2; }
backend_line=$("$bin/kcycle" info --levels 2 | tail -n 1)
case "$backend_line" in
  *"not usable"* | *"without CUDA"*) echo "gpu-check: $backend_line"; exit 1 ;;
esac

failed=()
step() {  # step NAME COMMAND...: runs it, logs it, remembers a failure
  local name=$1
  shift
  echo "== $name"
  if ! "$@" >"$out/$name.log" 2>&1; then
    failed+=("$name")
    echo "   FAILED (see $out/$name.log)"
  fi
}

step tests ctest --test-dir build-gpu --output-on-failure \
  -R 'Cuda|DeviceField|Interop|SolverCounts|CycleEquivalence|ByteModel|FusedVectorOps|CoarseTail|CyclicReduction|LevelPicture|HostCopy'
# As many levels as the GPU's memory holds, up to 14 (the solver refuses what does not fit).
max=14
while [ "$max" -gt 8 ] && ! "$bin/kcycle" solve --backend cuda --levels "$max" --max-iter 1 >/dev/null 2>&1; do
  max=$((max - 1))
done
# Per-cycle times with graphs on and off, each with the coarse tail and without (--compare-tail
# times both in one run), and the model fitted to every level launched and to the tail.
for graphs in on off; do
  step "bench-graphs-$graphs" sh -c "'$bin/kcycle' bench --backend cuda --graphs $graphs --coarse-tail 4096 --compare-tail --min-levels 8 --max-levels $max --json > '$out/bench-graphs-$graphs.json'"
  for tail in off auto; do
    step "fig3.1-graphs-$graphs-tail-$tail" "$bin/kcycle" experiment fig3.1 --backend cuda --graphs "$graphs" \
      --coarse-tail "$tail" --min-levels 6 --max-levels "$max" --out "$out/fig3.1-graphs-$graphs-tail-$tail"
  done
done
# The coarse tail's threshold: from which level size one block beats the per-level launches.
for t in 256 1024 4096 16384; do
  step "bench-tail-$t" sh -c "'$bin/kcycle' bench --backend cuda --coarse-tail $t --compare-tail --min-levels 8 --max-levels 12 --json > '$out/bench-tail-$t.json'"
done
step line-solvers sh -c "'$bin/kcycle' bench --backend cuda --line-solvers --min-levels 5 --max-levels $max --json > '$out/line-solvers.json'"
for solver in thomas pcr; do
  step "table4.1-lines-$solver" "$bin/kcycle" experiment table4.1 --backend cuda --levels 12 \
    --out "$out/table4.1-lines-$solver" --line-solver "$solver"
done
for table in table4.1 table4.2; do
  step "$table" "$bin/kcycle" experiment "$table" --backend cuda --levels 12 --out "$out/$table"
done
# FMA contraction: do the iterates still match the CPU's (the GPU tests), and what does it buy?
if [ -x build-gpu-fmad/bin/kcycle ]; then
  step fmad-tests build-gpu-fmad/bin/kcycle_tests --gtest_filter='CudaBackendTest.*:*/cuda.*'
  step bench-fmad sh -c "build-gpu-fmad/bin/kcycle bench --backend cuda --min-levels 8 --max-levels $max --json > '$out/bench-fmad.json'"
fi

{
  echo "# kcycle GPU check"
  echo
  echo "- GPU: $gpu"
  echo "- $backend_line"
  echo "- commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown); levels timed: 8..$max"
  echo "- failed steps: ${failed[*]:-none}"
  echo
  for graphs in on off; do
    for tail in off auto; do
      f="$out/fig3.1-graphs-$graphs-tail-$tail/fig3.1.json"
      [ -f "$f" ] && echo "- fig3.1, graphs $graphs, coarse tail $tail: $(python3 -c "import json;j=json.load(open('$f'));print('alpha %.3g s/launch, beta %.3g s/unknown, turning points %s%s'%(j['alpha_seconds'],j['beta_seconds'],{k:round(v,1) for k,v in j['turning_points_levels'].items()},'; with the tail %s'%{k:round(v,1) for k,v in j['turning_points_levels_with_tail'].items()} if 'turning_points_levels_with_tail' in j else ''))" 2>/dev/null)"
    done
  done
  echo
  echo "## ms per cycle: per-level launches / coarse tail (4096), graphs on and off"
  echo
  for graphs in on off; do
    f="$out/bench-graphs-$graphs.json"
    [ -f "$f" ] && python3 - "$f" "$graphs" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
print(f"graphs {sys.argv[2]}:\n```")
for c in j["cycles"]:
    print(f"levels {c['levels']:2d} kappa {c['kappa']:>2}: {c['median_seconds_no_tail']*1e3:9.4f} / {c['median_seconds']*1e3:9.4f} ms")
print("```")
PY
  done
  f="$out/bench-fmad.json"
  [ -f "$f" ] && [ -f "$out/bench-graphs-on.json" ] && python3 - "$out/bench-graphs-on.json" "$f" <<'PY'
import json, sys
a, b = (json.load(open(p))["cycles"] for p in sys.argv[1:3])
print("\n## --fmad=false / --fmad=true, ms per cycle (graphs on, coarse tail)\n```")
for x, y in zip(a, b):
    print(f"levels {x['levels']:2d} kappa {x['kappa']:>2}: {x['median_seconds']*1e3:9.4f} / {y['median_seconds']*1e3:9.4f}")
print("```")
PY
  echo
  f="$out/line-solvers.json"
  [ -f "$f" ] && python3 - "$f" <<'PY'
import json, sys
print("## x-line half-sweep, ms: Thomas / cyclic reduction / cuSPARSE gtsv2StridedBatch\n```")
for r in json.load(open(sys.argv[1]))["x_line_solvers"]:
    print(f"levels {r['levels']:2d} nx {r['nx']:5d}: {r['thomas_seconds']*1e3:8.4f} / {r['pcr_seconds']*1e3:8.4f} / {r['cusparse_seconds']*1e3:8.4f}  (differences {r['pcr_difference']:.1e}, {r['cusparse_difference']:.1e})")
print("```")
PY
  echo
  for table in table4.1 table4.2; do
    [ -f "$out/$table/$table.csv" ] && { echo "## $table (12 levels)"; echo; echo '```'; cat "$out/$table/$table.csv"; echo '```'; echo; }
  done
  echo "Raw: bench-*.json, line-solvers.json, fig3.1-graphs-*/, table4.*/, *.log"
} >"$out/summary.md"
echo "wrote $out/summary.md"
[ "${#failed[@]}" -eq 0 ] || exit 2
