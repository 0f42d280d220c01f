#!/usr/bin/env bash
# The whole test suite, as CI runs it: installs what is missing, builds the optimized tree and
# the AddressSanitizer+UBSan tree and runs every test in both (the visualizer's under Xvfb),
# then the solver worker's hand-off under ThreadSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

bash scripts/setup.sh

for preset in release asan tsan; do
  echo "== build: $preset"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j "$jobs"
  echo "== test: $preset"
  # Serially: every test already runs its solver on all cores (OpenMP), and two at once
  # oversubscribe them (4x slower on 2 cores).
  ctest --preset "$preset"
done
