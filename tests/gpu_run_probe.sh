#!/usr/bin/env bash
# scripts/gpu-run.sh proves the GPU pack loads, then says in one line whether a usable GPU is
# here: without one, step 1 exits 1 with that line and runs nothing; with one, the probe says
# "usable GPU". Skipped (77) where no pack was built (no nvcc: scripts/gpu-pack.sh).
root=$(cd "$(dirname "$0")/.." && pwd)
[ -d "$root/gpu-pack/bin" ] || { echo "no gpu-pack/ (bash scripts/gpu-pack.sh builds it where nvcc is)"; exit 77; }
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  out=$(bash "$root/scripts/gpu-run.sh" probe --out "$(mktemp -d)" 2>&1)
else
  out=$(bash "$root/scripts/gpu-run.sh" 1 --out "$(mktemp -d)" 2>&1)
fi
rc=$?
lines=$(printf '%s\n' "$out" | wc -l)
echo "$out (exit $rc)"
case $rc in
  0) [[ $out == "gpu-run: usable GPU: "*"the pack loads" ]] ;;
  1) [ "$lines" -eq 1 ] && [[ $out == "gpu-run: no usable NVIDIA GPU here"*"the pack loads, nothing was run" ]] ;;
  *) false ;;
esac
