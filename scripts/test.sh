#!/usr/bin/env bash
# The whole test suite, as CI runs it: installs what is missing, builds the optimized tree and
# the AddressSanitizer+UBSan tree and runs every test in both (the visualizer's under Xvfb),
# then the solver worker's hand-off and the GPU bodies' thread teams under ThreadSanitizer. The
# release tree builds the CUDA backend where nvcc is found (its GPU tests skip, saying why,
# without a GPU); the sanitizer trees build without it, so the CPU-only build's messages are
# tested there.
#
# Time (a quiet 2-core machine, from scratch): 51 minutes. The release and ASan trees are
# unity builds (CMakePresets.json: 16 sources a unit, the ASan tree at -O1), which take 5 and 10
# minutes instead of 12 and 30; the TSan tree and the package build every source on its own, so
# each still compiles alone. The GPU pack (scripts/gpu-pack.sh, a second full build: 10 minutes)
# is built and checked only with KCYCLE_TEST_GPU_PACK=1; a session with a GPU builds it first
# (docs/cuda.md).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

bash scripts/setup.sh

echo "== format: clang-format --dry-run --Werror (.clang-format)"
find app solver tests petsc \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' -o -name '*.cu' \) -print0 | xargs -0 clang-format --dry-run --Werror

for preset in release asan tsan; do
  echo "== build: $preset"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j "$jobs"
  if [ "$preset" = release ] && [ "${KCYCLE_TEST_GPU_PACK:-0}" = 1 ] &&
    { command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; }; then
    # What a bare GPU machine runs (gpu-pack/, scripts/gpu-run.sh): built and self-checked here,
    # so that ctest's gpu_run_says_why finds it.
    echo "== build: the GPU pack"
    bash scripts/gpu-pack.sh
  fi
  echo "== test: $preset"
  # Serially: every test already runs its solver on all cores (its thread team), and two at once
  # oversubscribe them (4x slower on 2 cores).
  ctest --preset "$preset"
  if [ "$preset" = release ]; then
    # Whether the GPU tests above ran or skipped, and why.
    echo "== CUDA: $(build/bin/kcycle info --levels 2 | tail -n 1)"
  fi
done

# The Debian package as a user gets it (scripts/package.sh: its own portable build), unpacked
# into a scratch root and used from there; lintian's findings are printed.
echo "== package: build the .deb, then check it installed"
bash scripts/package.sh --build-dir build-package
bash tests/package/check_package.sh dist/kcycle_*.deb build-package/check
