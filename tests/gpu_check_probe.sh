#!/usr/bin/env bash
# scripts/gpu-check.sh --probe says in one line whether a usable GPU is here, and never
# reports success without one: exit 0 with "usable GPU", or exit 1 with one line saying why.
out=$(bash "$(dirname "$0")/../scripts/gpu-check.sh" --probe 2>&1)
rc=$?
lines=$(printf '%s\n' "$out" | wc -l)
echo "$out (exit $rc)"
case $rc in
  0) [[ $out == "gpu-check: usable GPU: "* ]] ;;
  1) [ "$lines" -eq 1 ] && [[ $out == "gpu-check: "* ]] && [[ $out != *"usable GPU:"* ]] ;;
  *) false ;;
esac
