#!/usr/bin/env bash
# The main job: installs what is missing, builds, and runs a default solve that prints the
# convergence history and summary. Extra arguments go to `kcycle solve`.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

bash scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$jobs" --target kcycle
if [ $# -eq 0 ]; then
  set -- --levels 9 --eps 1e-4 --angle 45 --kappa 3
fi
exec build/bin/kcycle solve "$@"
