#!/usr/bin/env bash
# Builds, here, what a bare GPU machine runs (scripts/gpu-run.sh): the CUDA backend for the
# lent GPUs (sm_90: H100/H200; sm_80: A100 and other 8.x cards), the CLI, its tests, the
# visualizer and its GUI tests, into gpu-pack/ (ignored by git), with every shared library they
# need beside them (the ldd closure) except glibc's and GCC's runtime, the GPU driver's and
# the CUDA toolkit's
# large libraries (cuSPARSE, nvJitLink), which the GPU machine's toolkit has. The binaries find
# the pack's libraries through their RPATH ($ORIGIN/../lib), so nothing else on that machine
# changes. Then it checks the pack here:
#   - every binary resolves every library inside the pack, or from glibc, the CUDA toolkit or
#     the GPU/GL driver;
#   - the pack is under 60 MiB;
#   - the pack's CPU tests pass from the pack (its own kcycle, not the build tree's).
#
#   bash scripts/gpu-pack.sh [--no-build] [--no-tests]
#
# Needs nvcc (CUDA 13: /usr/local/cuda) and the project's Debian packages (scripts/setup.sh).
# Exit 0: the pack is ready; 1: it could not be built here (no nvcc); 2: a check failed.
set -euo pipefail
cd "$(dirname "$0")/.."

build=1 tests=1
for arg in "$@"; do
  case "$arg" in
    --no-build) build=0 ;;
    --no-tests) tests=0 ;;
    -h | --help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "gpu-pack: unknown option $arg (see --help)" >&2; exit 2 ;;
  esac
done

nvcc=$(command -v nvcc || true)
[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
[ -n "$nvcc" ] || { echo "gpu-pack: no nvcc here (CUDA toolkit): the GPU pack cannot be built"; exit 1; }
cuda_lib=$(cd "$(dirname "$nvcc")/.." && pwd)/lib64

tree=build-gpu-pack
pack=gpu-pack
limit_mib=60
# The pack's binaries run on another machine: no -march=native, but x86-64-v3 (AVX2 and FMA,
# every server CPU since 2013; gpu-run.sh checks the GPU machine's CPU has them). No MPI. GCC's
# runtime (libstdc++, libgcc_s) is the GPU machine's: ours needs glibc 2.36, linked in it
# would too (arc4random), and the binaries alone need 2.34 (Ubuntu 22.04 has 2.35).
if [ "$build" = 1 ]; then
  echo "== gpu-pack: building $tree/ (CUDA for sm_80 and sm_90)"
  cmake -S . -B "$tree" -DCMAKE_BUILD_TYPE=Release -DKCYCLE_CUDA=ON -DCMAKE_CUDA_COMPILER="$nvcc" \
    -DCMAKE_CUDA_ARCHITECTURES="80-real;90-real" -DKCYCLE_NATIVE=OFF -DKCYCLE_MPI=OFF -DKCYCLE_PNG_FIGURES=OFF \
    -DCMAKE_CXX_FLAGS="-march=x86-64-v3" -DCMAKE_BUILD_WITH_INSTALL_RPATH=ON -DCMAKE_INSTALL_RPATH='$ORIGIN/../lib' \
    -DCMAKE_EXE_LINKER_FLAGS="-Wl,--disable-new-dtags" >/dev/null
  cmake --build "$tree" -j "$(nproc 2>/dev/null || echo 2)" \
    --target kcycle kcycle_tests kcycle_team_tests kcycle-gui kcycle_gui_tests
fi

binaries=(kcycle kcycle_tests kcycle_team_tests kcycle-gui kcycle_gui_tests)
rm -rf "$pack"
mkdir -p "$pack/bin" "$pack/lib"
for b in "${binaries[@]}"; do
  [ -x "$tree/bin/$b" ] || { echo "gpu-pack: $tree/bin/$b was not built"; exit 2; }
  cp "$tree/bin/$b" "$pack/bin/"
  strip --strip-unneeded "$pack/bin/$b"
done

# What the GPU machine provides: glibc and GCC's runtime, the driver (CUDA, OpenGL vendor
# libraries) and the CUDA toolkit. Everything else a binary loads is copied.
provided() {
  case "$(basename "$1")" in
    linux-vdso.so.* | ld-linux-*.so.* | libc.so.* | libm.so.* | libpthread.so.* | libdl.so.* | librt.so.* | \
      libresolv.so.* | libutil.so.*) return 0 ;;
    libstdc++.so.* | libgcc_s.so.*) return 0 ;;  # GCC 12's or newer (GLIBCXX_3.4.30): Ubuntu 22.04 on
    libcuda.so.* | libnvidia-*.so.* | libGLX_nvidia.so.* | libEGL_nvidia.so.*) return 0 ;;
    libcusparse.so.* | libnvJitLink.so.* | libcublas*.so.*) return 0 ;;
  esac
  return 1
}
# The libraries the visualizer opens at run time (GLFW: OpenGL through libglvnd, X11
# extensions; libepoxy: OpenGL/EGL), which ldd does not see.
multiarch=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
dlopened=()
for l in libGL.so.1 libGLX.so.0 libGLdispatch.so.0 libEGL.so.1 libXrandr.so.2 libXcursor.so.1 libXinerama.so.1 \
  libXi.so.6 libX11-xcb.so.1 libXrender.so.1 libXext.so.6 libXfixes.so.3; do
  for d in "/usr/lib/$multiarch" "/lib/$multiarch"; do
    [ -f "$d/$l" ] && { cp -L -n "$d/$l" "$pack/lib/$l"; dlopened+=("$d/$l"); break; }
  done
done
for b in "${binaries[@]/#/$tree/bin/}" "${dlopened[@]}"; do
  while read -r name arrow path _; do
    [ "$arrow" = "=>" ] || continue
    [ -f "$path" ] || { echo "gpu-pack: $b needs $name, not found here"; exit 2; }
    provided "$name" || cp -L -n "$path" "$pack/lib/$name"
  done < <(ldd "$b")
done
chmod -R a+rX "$pack"

# What the GPU machine must have, written down for gpu-run.sh's checks.
glibc=$(for b in "$pack"/bin/* "$pack"/lib/*; do objdump -T "$b" 2>/dev/null; done |
  grep -o 'GLIBC_2\.[0-9]*' | sort -t. -k2 -n | uniq | tail -n 1)
{
  echo "commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "built=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "nvcc=$("$nvcc" --version | tail -n 1)"
  echo "architectures=sm_80 sm_90"
  echo "glibc_needed=${glibc#GLIBC_}"
  echo "libstdcxx_needed=$(for b in "$pack"/bin/*; do objdump -T "$b"; done | grep -o 'GLIBCXX_3\.[0-9.]*' | sort -V | tail -n 1)"
  echo "cpu_needed=avx2 fma (x86-64-v3)"
  echo "toolkit_libraries=$(cd "$cuda_lib" && ls libcusparse.so.* libnvJitLink.so.* 2>/dev/null | grep -E '\.so\.[0-9]+$' | tr '\n' ' ')"
} >"$pack/MANIFEST"

# Check 1: every library resolves inside the pack, or is one the GPU machine provides. A
# binary through its own RPATH; a library as the binaries load it (the executable's RPATH
# applies to everything it loads, so: with the pack's lib/ in the path).
fail=0
for b in "$pack"/bin/* "$pack"/lib/*; do
  while read -r line; do
    name=$(echo "$line" | awk '{print $1}')
    path=$(echo "$line" | awk '$2 == "=>" {print $3}')
    case "$line" in *"not found"*)
      provided "$name" && continue
      echo "gpu-pack: $(basename "$b"): $name is not in the pack"; fail=1; continue ;;
    esac
    [ -n "$path" ] || continue
    case "$(readlink -f "$path")" in
      "$(readlink -f "$pack")"/lib/*) ;;
      "$(readlink -f "$cuda_lib")"/* | /usr/local/cuda*) provided "$name" || { echo "gpu-pack: $(basename "$b"): $name resolves outside the pack ($path)"; fail=1; } ;;
      *) provided "$name" || { echo "gpu-pack: $(basename "$b"): $name resolves outside the pack ($path)"; fail=1; } ;;
    esac
  done < <(case "$b" in */lib/*) LD_LIBRARY_PATH="$pack/lib" ldd "$b" ;; *) ldd "$b" ;; esac)
done
[ "$fail" = 0 ] || { echo "gpu-pack: the pack is incomplete"; exit 2; }

# Check 2: the size the device tool carries (64 MiB) with room to spare.
bytes=$(du -sb "$pack" | cut -f1)
mib=$(( (bytes + 1048575) / 1048576 ))
echo "== gpu-pack: $pack/ is $mib MiB ($(ls "$pack/bin" | wc -l) binaries, $(ls "$pack/lib" | wc -l) libraries; limit $limit_mib MiB)"
echo "size_mib=$mib" >>"$pack/MANIFEST"
[ "$mib" -lt "$limit_mib" ] || { echo "gpu-pack: $pack/ is $mib MiB, over $limit_mib MiB"; exit 2; }

# Check 3: the CPU tests, run from the pack (its kcycle for the CLI tests). The GPU tests skip
# here, saying why; gpu-run.sh runs them there.
if [ "$tests" = 1 ]; then
  echo "== gpu-pack: the pack's CPU tests, from the pack"
  KCYCLE_CLI="$PWD/$pack/bin/kcycle" "$pack/bin/kcycle_tests" --gtest_brief=1 \
    --gtest_filter='-*/cuda.*:CudaBackendTest.*:Convergence/*.MGCGNeedsFarFewerIterations:SixSolvers/*' ||
    { echo "gpu-pack: the pack's kcycle_tests failed"; exit 2; }
  "$pack/bin/kcycle_team_tests" --gtest_brief=1 || { echo "gpu-pack: the pack's kcycle_team_tests failed"; exit 2; }
  bash scripts/gpu-run.sh --pack "$pack" --loads-only || { echo "gpu-pack: gpu-run.sh cannot load the pack"; exit 2; }
fi
echo "gpu-pack: ready: $pack/ ($mib MiB). On the GPU machine: bash scripts/gpu-run.sh STEP (see docs/cuda.md, "The GPU pack")"
