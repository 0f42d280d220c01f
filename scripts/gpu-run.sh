#!/usr/bin/env bash
# Runs one step of the GPU check on a GPU machine, from the pack scripts/gpu-pack.sh built
# (gpu-pack/, carried there): nothing is built or installed there. Each step ends in under 8
# minutes and writes, as it goes, its log and a Markdown summary of its figures into the output
# folder, so a step cut off still returns what it measured.
#
#   bash scripts/gpu-run.sh STEP [--out DIR] [--pack DIR]
#
# STEP  1  probe, every GPU test (the typed */cuda cases too), compute-sanitizer memcheck,
#          racecheck and synccheck on the coarse tail, cyclic reduction and graph tests
#       2  kcycle bench at 8-12 levels: graphs on and off, each with the coarse tail on and off
#       3  fig3.1: alpha, beta and turning points, graphs on and off (no coarse tail)
#       4  Tables 4.1 and 4.2 at 12 levels
#       5  the x-line solvers (Thomas, cyclic reduction, cuSPARSE) and the coarse tail's
#          threshold (256 .. 16384 unknowns): the thresholds the measurements pick
#       6  CUDA-OpenGL interop in the visualizer, on an X display the machine has
#       probe  only whether the pack loads and a GPU is here
# --out  the output folder (default: $OUT when set, else gpu-results/)
# --pack the pack (default gpu-pack/)
# --loads-only  prove the pack loads and stop (gpu-pack.sh's self-check)
#
# Without a usable GPU: one line saying so, after proving the pack loads; exit 1. Exit 2: the
# pack does not load, or a check ran and failed; 0: the step ran and every check passed.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

step="" out="${OUT:-gpu-results}" pack=gpu-pack loads_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=$2; shift ;;
    --pack) pack=$2; shift ;;
    --loads-only) loads_only=1 ;;
    -h | --help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    1 | 2 | 3 | 4 | 5 | 6 | probe) step=$1 ;;
    *) echo "gpu-run: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
[ -n "$step" ] || [ "$loads_only" = 1 ] || { echo "gpu-run: which step? (see --help)" >&2; exit 2; }
pack=$(cd "$pack" 2>/dev/null && pwd) || { echo "gpu-run: no pack at $pack (build it with scripts/gpu-pack.sh)"; exit 2; }
bin=$pack/bin
# The tests that run the CLI or the visualizer run the pack's, not a build tree's.
export KCYCLE_CLI=$bin/kcycle KCYCLE_GUI=$bin/kcycle-gui

# The CUDA toolkit's libraries the pack leaves to this machine (cuSPARSE, nvJitLink).
toolkit=$(dirname "$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)")/..
for d in ${CUDA_HOME:+$CUDA_HOME/lib64 $CUDA_HOME/lib} "$toolkit/lib64" "$toolkit/lib" /usr/local/cuda/lib64 /usr/local/cuda/lib; do
  [ -d "$d" ] && export LD_LIBRARY_PATH="$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" && break
done

# The pack loads: every library resolves, and kcycle runs.
missing=$(for b in "$bin"/*; do ldd "$b" 2>/dev/null | grep "not found" | awk '{print $1}'; done | sort -u | tr '\n' ' ')
if [ -n "$missing" ]; then
  echo "gpu-run: the pack does not load here: missing ${missing}(the CUDA toolkit's lib64 in LD_LIBRARY_PATH or CUDA_HOME?)"
  exit 2
fi
need=$(sed -n 's/^glibc_needed=//p' "$pack/MANIFEST" 2>/dev/null)
have=$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}')
if [ -n "$need" ] && [ -n "$have" ] && [ "$(printf '%s\n%s\n' "$need" "$have" | sort -V | head -n 1)" != "$need" ]; then
  echo "gpu-run: the pack needs glibc $need, this machine has $have"
  exit 2
fi
if ! grep -qw avx2 /proc/cpuinfo || ! grep -qw fma /proc/cpuinfo; then
  echo "gpu-run: the pack is built for x86-64-v3 (AVX2, FMA); this CPU lacks them"
  exit 2
fi
info=$("$bin/kcycle" info --levels 2 2>&1) || { echo "gpu-run: the pack's kcycle does not run: $(echo "$info" | tail -n 1)"; exit 2; }
"$bin/kcycle_tests" --gtest_list_tests >/dev/null 2>&1 || { echo "gpu-run: the pack's kcycle_tests does not run"; exit 2; }
[ "$loads_only" = 1 ] && { echo "gpu-run: the pack loads ($(ls "$bin" | wc -l) binaries, glibc ${have:-?})"; exit 0; }

backend_line=$(echo "$info" | tail -n 1)
gpu=""
command -v nvidia-smi >/dev/null 2>&1 && gpu=$(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null | head -n 1)
case "$backend_line" in
  *"not usable"* | *"without CUDA"* | "")
    echo "gpu-run: no usable NVIDIA GPU here (${gpu:-nvidia-smi finds none}; ${backend_line#*(}; the pack loads, nothing was run"
    exit 1 ;;
esac
[ "$step" = probe ] && { echo "gpu-run: usable GPU: $gpu; the pack loads"; exit 0; }

mkdir -p "$out"
log=$out/step$step.log
summary=$out/step$step-summary.md
start=$(date +%s)
budget=${GPU_RUN_BUDGET_S:-450}  # under 8 minutes, with room to write the summary
failed=()
: >"$log"
{
  echo "# kcycle GPU check, step $step"
  echo
  echo "- GPU: $gpu"
  echo "- $backend_line"
  echo "- pack: $(tr '\n' ' ' <"$pack/MANIFEST")"
  echo
} >"$summary"
note() { echo "$*" >>"$summary"; }

# run NAME SECONDS COMMAND...: runs it within the step's remaining time (at most SECONDS),
# logs it, notes the outcome in the summary at once.
run() {
  local name=$1 limit=$2
  shift 2
  local left=$((budget - ($(date +%s) - start)))
  [ "$limit" -gt "$left" ] && limit=$left
  if [ "$limit" -le 5 ]; then
    note "- $name: not run (the step's time is spent)"
    failed+=("$name")
    return 1
  fi
  echo "== $name ($limit s at most)" | tee -a "$log"
  local t0 rc
  t0=$(date +%s)
  timeout --kill-after=10 "$limit" "$@" >>"$log" 2>&1
  rc=$?
  local took=$(($(date +%s) - t0))
  case $rc in
    0) note "- $name: ok (${took} s)" ;;
    124 | 137) note "- $name: **cut off** at $limit s"; failed+=("$name") ;;
    *) note "- $name: **failed** (exit $rc, ${took} s; see step$step.log)"; failed+=("$name") ;;
  esac
  return $rc
}

# The GPU tests: every name with cuda/Cuda/CUDA in it (typed */cuda cases, CudaBackendTest,
# options refused on CUDA), the device fields, the pictures and the interop buffers.
gpu_tests='*cuda*:*Cuda*:*CUDA*:DeviceField*:LevelPicture*:HostCopy*:ImagePool*:FieldSizes*'
# Small tests under the sanitizers (on an H100 memcheck and racecheck did not finish the 9-level
# coarse-tail and line-solver tests in 110 s): every kernel once on a 63^2 grid, and 6-level
# cycles with and without the coarse tail and graphs (the tail and cyclic reduction share memory).
sanitized='CudaBackendTest.EveryOperationMatchesTheCpu:CudaBackendTest.GraphsOnAndOffGiveIdenticalResults'

json_table() {  # json_table FILE: bench JSON as ms per cycle, per-level launches / coarse tail
  python3 - "$1" <<'PY' >>"$summary" 2>/dev/null || note "(no figures in $1)"
import json, sys
j = json.load(open(sys.argv[1]))
print("```")
for c in j["cycles"]:
    no_tail = c.get("median_seconds_no_tail")
    print(f"levels {c['levels']:2d} kappa {str(c['kappa']):>2}: {c['median_seconds']*1e3:9.4f} ms"
          + (f"   without the tail {no_tail*1e3:9.4f} ms" if no_tail is not None else ""))
print("```")
PY
}

case "$step" in
  1)
    run "gpu tests" 240 "$bin/kcycle_tests" --gtest_filter="$gpu_tests" --gtest_brief=1
    grep -E '^\[  (PASSED|FAILED|SKIPPED) |tests? ran|FAILED TEST' "$log" | sed 's/^/    /' >>"$summary"
    run "team tests (the GPU bodies on CPU threads)" 60 "$bin/kcycle_team_tests" --gtest_brief=1
    if command -v compute-sanitizer >/dev/null 2>&1; then
      for tool in memcheck racecheck synccheck; do
        run "compute-sanitizer $tool" 120 compute-sanitizer --tool "$tool" --error-exitcode 3 \
          "$bin/kcycle_tests" --gtest_filter="$sanitized" --gtest_brief=1
        grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -n 1 | sed 's/^/    /' >>"$summary"
      done
    else
      note "- compute-sanitizer: not on this machine's PATH"
    fi
    ;;
  2)
    for graphs in on off; do
      run "bench, graphs $graphs, tail 4096 and off" 200 sh -c "'$bin/kcycle' bench --backend cuda --graphs $graphs \
        --coarse-tail 4096 --compare-tail --min-levels 8 --max-levels 12 --json > '$out/bench-graphs-$graphs.json'"
      note ""
      note "ms per cycle, graphs $graphs (with the coarse tail of 4096 unknowns / every level launched):"
      json_table "$out/bench-graphs-$graphs.json"
    done
    ;;
  3)
    for graphs in on off; do
      for tail in off; do  # the tail is off by default on CUDA: measured slower (cuda_backend.hpp)
        d=$out/fig3.1-graphs-$graphs-tail-$tail
        run "fig3.1, graphs $graphs, tail $tail" 110 "$bin/kcycle" experiment fig3.1 --backend cuda --graphs "$graphs" \
          --coarse-tail "$tail" --min-levels 6 --max-levels 12 --min-seconds 0.1 --out "$d"
        python3 - "$d/fig3.1.json" >>"$summary" 2>/dev/null <<'PY' || note "    (no fig3.1.json)"
import json, sys
j = json.load(open(sys.argv[1]))
# A turning point the fit cannot place (beta = 0: one launch did a whole cycle's work) is null.
tp = {k: None if v is None else round(v, 1) for k, v in j["turning_points_levels"].items()}
extra = ""
if "turning_points_levels_with_tail" in j:
    extra = "; with the tail " + str({k: None if v is None else round(v, 1)
                                      for k, v in j["turning_points_levels_with_tail"].items()})
print(f"    alpha {j['alpha_seconds']:.3g} s/launch, beta {j['beta_seconds']:.3g} s/unknown, turning points {tp}{extra}")
PY
      done
    done
    ;;
  4)
    for table in table4.1 table4.2; do
      run "$table, 12 levels" 220 "$bin/kcycle" experiment "$table" --backend cuda --levels 12 --out "$out/$table"
      [ -f "$out/$table/$table.csv" ] && { note ""; note '```'; cat "$out/$table/$table.csv" >>"$summary"; note '```'; }
    done
    ;;
  5)
    run "x-line solvers" 120 sh -c "'$bin/kcycle' bench --backend cuda --line-solvers --min-levels 5 --max-levels 12 \
      --json > '$out/line-solvers.json'"
    python3 - "$out/line-solvers.json" >>"$summary" 2>/dev/null <<'PY' || note "    (no line-solver figures)"
import json, sys
rows = json.load(open(sys.argv[1]))["x_line_solvers"]
print("\nx-line half-sweep, ms: Thomas / cyclic reduction / cuSPARSE (differences from Thomas)\n```")
for r in rows:
    print(f"nx {r['nx']:5d}: {r['thomas_seconds']*1e3:8.4f} / {r['pcr_seconds']*1e3:8.4f} / {r['cusparse_seconds']*1e3:8.4f}"
          f"  ({r['pcr_difference']:.1e}, {r['cusparse_difference']:.1e})")
print("```")
faster = [r["nx"] for r in rows if r["pcr_seconds"] < r["thomas_seconds"]]
print(f"- PCR threshold the measurements pick: lines of {min(faster)} points and longer (the default is 128)"
      if faster else "- PCR was never faster than Thomas here (the default threshold is 128)")
PY
    for t in 256 1024 4096 16384; do
      run "coarse tail below $t unknowns" 75 sh -c "'$bin/kcycle' bench --backend cuda --coarse-tail $t --compare-tail \
        --min-levels 8 --max-levels 12 --json > '$out/bench-tail-$t.json'"
    done
    python3 - "$out" >>"$summary" 2>/dev/null <<'PY' || note "    (no coarse-tail figures)"
import json, os, sys
totals = {}
for t in (256, 1024, 4096, 16384):
    p = os.path.join(sys.argv[1], f"bench-tail-{t}.json")
    if os.path.exists(p):
        cycles = json.load(open(p))["cycles"]
        totals[t] = sum(c["median_seconds"] / c["median_seconds_no_tail"] for c in cycles) / len(cycles)
print("\ncoarse tail: mean time per cycle with the tail / without, over levels 8-12 and every kappa")
for t, r in totals.items():
    print(f"- below {t:5d} unknowns: {r:.3f}")
if totals:
    best = min(totals, key=totals.get)
    print(f"- threshold the measurements pick: {best} unknowns (the default is 4096)")
PY
    ;;
  6)
    # CUDA-OpenGL interop needs an OpenGL context on the NVIDIA driver: an X server with the
    # NVIDIA GLX vendor library. Xvfb's GLX is Mesa's (software), whose contexts CUDA cannot
    # register, so interop is checked only where the machine has such a display.
    vendors=$(ls /usr/lib/x86_64-linux-gnu/libGLX_nvidia.so.* /usr/lib64/libGLX_nvidia.so.* \
      /usr/lib/x86_64-linux-gnu/libEGL_nvidia.so.* /usr/lib64/libEGL_nvidia.so.* 2>/dev/null | xargs -r -n1 basename | tr '\n' ' ')
    note "- NVIDIA OpenGL vendor libraries: ${vendors:-none}"
    note "- DISPLAY: ${DISPLAY:-none}; X servers on PATH: $(command -v Xorg Xvfb 2>/dev/null | tr '\n' ' ')"
    if [ -z "${DISPLAY:-}" ] && command -v Xvfb >/dev/null 2>&1; then
      Xvfb :77 -screen 0 1900x1000x24 >>"$log" 2>&1 &
      xvfb=$!
      sleep 2
      export DISPLAY=:77
    fi
    if [ -z "${DISPLAY:-}" ]; then
      note "- interop: not run: no X display here and no X server to start one (the pack takes none: see docs/cuda.md)"
      failed+=(interop)
    else
      KCYCLE_GUI_ON_DISPLAY=1 run "interop against the host upload" 240 \
        "$bin/kcycle_gui_tests" --gtest_filter='Gui.InteropDrawsTheSameImageAsTheHostUpload' --gtest_brief=1
      grep -E 'SKIPPED|unavailable|field:' "$log" | head -n 5 | sed 's/^/    /' >>"$summary"
    fi
    [ -n "${xvfb:-}" ] && kill "$xvfb" 2>/dev/null
    ;;
esac

note ""
note "- step $step took $(($(date +%s) - start)) s; failed: ${failed[*]:-none}"
echo "gpu-run: step $step: wrote $summary"
[ "${#failed[@]}" -eq 0 ] || exit 2
