#!/usr/bin/env bash
# Makes the Debian package dist/kcycle_VERSION_ARCH.deb: kcycle and kcycle-gui, their manual
# pages and bash completion, the desktop entry and icon, the C++ library (headers, static
# libraries, CMake and pkg-config files), the PETSc preconditioner libkcycle_petsc.so and the docs.
#   bash scripts/package.sh [--build-dir DIR]      (default build-package/)
#   sudo apt install ./dist/kcycle_*_amd64.deb     (then: kcycle-gui, man kcycle)
# The build is its own: portable (no -march=native), with Debian's hardening flags
# (dpkg-buildflags), without the tests, and without the CUDA backend (the CUDA runtime is not a
# Debian package a .deb could depend on; build from source for a GPU: docs/cuda.md).
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-package
while [ $# -gt 0 ]; do
  case "$1" in
    --build-dir) build=$2; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "package: unknown argument '$1' (--build-dir DIR)" >&2; exit 2 ;;
  esac
done
jobs=$(nproc 2>/dev/null || echo 2)
umask 022  # the package's folders and files: 0755 and 0644, whatever the caller's umask

bash scripts/setup.sh

# Without -g: the package has no debug-symbol companion, and the static library's debug
# information would make it 90 MiB. Given on every configure (a cached tree keeps old flags).
export DEB_CFLAGS_MAINT_STRIP=-g DEB_CXXFLAGS_MAINT_STRIP=-g
cflags="$(dpkg-buildflags --get CFLAGS) $(dpkg-buildflags --get CPPFLAGS)"
cxxflags="$(dpkg-buildflags --get CXXFLAGS) $(dpkg-buildflags --get CPPFLAGS)"
ldflags="$(dpkg-buildflags --get LDFLAGS)"
echo "== package: configure $build/ (Release, prefix /usr, portable, no CUDA, no tests; $cxxflags)"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr -DKCYCLE_NATIVE=OFF \
  -DKCYCLE_CUDA=OFF -DKCYCLE_BUILD_TESTS=OFF -DCMAKE_C_FLAGS="$cflags" -DCMAKE_CXX_FLAGS="$cxxflags" \
  -DCMAKE_EXE_LINKER_FLAGS="$ldflags" -DCMAKE_SHARED_LINKER_FLAGS="$ldflags" >/dev/null
echo "== package: build"
cmake --build "$build" -j "$jobs"
echo "== package: cpack -G DEB"
rm -rf "$build/cpack"
(cd "$build" && cpack -G DEB -B cpack >/dev/null)
mkdir -p dist
deb=$(ls "$build"/cpack/kcycle_*.deb)
rm -f dist/kcycle_*.deb
cp "$deb" dist/
echo "package: dist/$(basename "$deb")"
