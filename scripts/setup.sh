#!/usr/bin/env bash
# Installs the Debian packages kcycle builds and tests with. Idempotent: does nothing
# when everything is present. As root it runs apt-get; otherwise it prints the line to run.
set -euo pipefail

packages=(
  build-essential cmake pkg-config   # compiler and build system
  libcli11-dev                       # command line parsing for `kcycle`
  nlohmann-json3-dev                 # JSON output and configuration files
  libeigen3-dev                      # eigenvalues of the local Fourier analysis's small matrices (kcycle lfa)
  libgtest-dev                       # unit tests (GoogleTest)
  libbenchmark-dev                   # micro-benchmarks (Google Benchmark)
  libtbb-dev                         # oneTBB, for kcycle_team_bench's comparison with the thread team
  libimgui-dev libstb-dev            # the visualizer's UI (Dear ImGui, its GLFW/OpenGL3 backends) and PNG output
  libglfw3-dev libepoxy-dev          # window, OpenGL context and loader
  libgl1-mesa-dri                    # OpenGL in software (llvmpipe) where there is no GPU driver
  libfftw3-dev                       # the Fourier inset of the error field
  librsvg2-dev                       # PNG figures (kcycle figure cycles): the SVG drawn by librsvg and cairo
  fonts-dejavu-core                  # the UI font
  xvfb xauth                         # a virtual display: GUI tests, and the main job on a server
  xdotool                            # real key presses into the visualizer in its tests (a clicker's keys)
  ffmpeg                             # a recorded stretch of stepping as MP4 and GIF for slides (frames are PNG without it)
  clang-format                       # the layout check (.clang-format) the test suite runs first
  python3                            # summaries of measured tables (scripts/advisor-table.sh, scripts/gpu-run.sh)
  openmpi-bin libopenmpi-dev         # the MPI backend (domain decomposition) and its mpirun tests
  petsc-dev                          # the PETSc preconditioner -pc_type kcycle (petsc/), checked against PCMG's cycles
  libpetsc3.18-dev-examples          # PETSc's own ksp/ex2.c, which a test runs with -dll_append libkcycle_petsc.so
  dpkg-dev fakeroot                  # the Debian package (scripts/package.sh): dpkg-shlibdeps computes its Depends
  lintian                            # the package's check against Debian's policy (tests/package/check_package.sh)
  man-db                             # man -l on the installed manual pages in that check
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all build dependencies are installed."
  exit 0
fi

echo "setup: installing ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  sudo DEBIAN_FRONTEND=noninteractive apt-get update -qq
  sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "setup: not root. Run this, then try again:" >&2
  echo "  sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
