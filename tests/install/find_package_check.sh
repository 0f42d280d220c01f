#!/usr/bin/env bash
# Installs the build tree into a scratch prefix, then configures, builds and runs
# tests/install/ against it with find_package(kcycle): the installed headers, targets and
# package files are what a user gets.
#   find_package_check.sh BUILD_DIR SCRATCH_DIR
set -euo pipefail
build=$1 scratch=$2
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$scratch"
mkdir -p "$scratch"
cmake --install "$build" --prefix "$scratch/prefix" >/dev/null
cmake -S "$here" -B "$scratch/consumer" -DCMAKE_PREFIX_PATH="$scratch/prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$scratch/consumer" -j 2 >/dev/null
"$scratch/consumer/consumer"
"$scratch/consumer/core_only"
