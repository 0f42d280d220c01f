#!/usr/bin/env bash
# Checks the Debian package as a user gets it: unpacks it into a scratch root (dpkg -x) and from
# there runs kcycle solve, a scripted visualizer session under Xvfb, man -l on both manual pages,
# the bash completion, a find_package(kcycle) consumer, a pkg-config consumer and PETSc's own
# ksp/ex2.c with -dll_append of the installed preconditioner; then lintian on the package (an
# error fails, its findings are printed). A part whose tool is missing says SKIP and why.
#   check_package.sh DEB SCRATCH_DIR [SCREENSHOT_OUT]
set -uo pipefail
deb=$(realpath "$1") scratch=$2 shot_out=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
source_root=$(cd "$here/../.." && pwd)
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }
skip() { echo "SKIP: $*"; }

rm -rf "$scratch"
mkdir -p "$scratch"
scratch=$(cd "$scratch" && pwd)  # absolute: the parts below run from other folders
root=$scratch/root
dpkg -x "$deb" "$root" || { echo "FAIL: dpkg -x $deb"; exit 1; }
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
version=$(dpkg-deb -f "$deb" Version)
echo "== $(basename "$deb"): Version $version, Depends: $(dpkg-deb -f "$deb" Depends)"

# The files a user's system gets.
for f in usr/bin/kcycle usr/bin/kcycle-gui usr/share/man/man1/kcycle.1.gz usr/share/man/man1/kcycle-gui.1.gz \
  usr/share/bash-completion/completions/kcycle usr/share/bash-completion/completions/kcycle-gui \
  usr/share/applications/kcycle-gui.desktop usr/share/icons/hicolor/scalable/apps/kcycle.svg \
  usr/include/kcycle/solve/solve.hpp usr/include/kcycle/petsc/pc_kcycle.h \
  "usr/lib/$multiarch/libkcycle.a" "usr/lib/$multiarch/libkcycle_core.a" \
  "usr/lib/$multiarch/cmake/kcycle/kcycleConfig.cmake" "usr/lib/$multiarch/pkgconfig/kcycle.pc" \
  "usr/lib/$multiarch/libkcycle_petsc.so" usr/share/doc/kcycle/copyright usr/share/doc/kcycle/changelog.gz \
  usr/share/doc/kcycle/README.md usr/share/doc/kcycle/docs/petsc.md usr/share/doc/kcycle/scripts/paper-figures.sh; do
  [ -e "$root/$f" ] || fail "the package has no /$f"
done
grep -q 'libc6' <<<"$(dpkg-deb -f "$deb" Depends)" || fail "Depends was not computed from the shared libraries"

export PATH="$root/usr/bin:$PATH"
# kcycle --version is the package's version.
[ "$(kcycle --version)" = "kcycle $version" ] || fail "kcycle --version says '$(kcycle --version)', the package $version"
[ "$(kcycle-gui --version)" = "kcycle-gui $version" ] || fail "kcycle-gui --version says '$(kcycle-gui --version)'"

# A solve.
if out=$(kcycle solve --levels 6 --eps 1e-3 --angle 30 --kappa 3 2>&1) && grep -q converged <<<"$out"; then
  ok "installed kcycle solve: $(grep -m1 converged <<<"$out")"
else
  fail "installed kcycle solve: $out"
fi

# The visualizer, scripted, under Xvfb.
if command -v xvfb-run >/dev/null 2>&1; then
  printf 'set levels 5\nstep\nwait-cycles 1\nprint-summary\n' >"$scratch/session.txt"
  shot=$scratch/installed-gui.png
  if out=$(cd "$scratch" && HOME="$scratch/home" xvfb-run -a -s '-screen 0 1280x720x24' kcycle-gui --width 1280 \
      --height 720 --script session.txt --screenshot "$shot" 2>&1) && [ "$(stat -c %s "$shot" 2>/dev/null || echo 0)" -gt 20000 ]; then
    ok "installed kcycle-gui ran a scripted session under Xvfb ($(stat -c %s "$shot") bytes of screenshot)"
    [ -n "$shot_out" ] && cp "$shot" "$shot_out"
  else
    fail "installed kcycle-gui under Xvfb: $out"
  fi
else
  skip "the visualizer: no xvfb-run (bash scripts/setup.sh installs xvfb)"
fi

# The manual pages render, and name every option --help names.
if command -v man >/dev/null 2>&1; then
  for program in kcycle kcycle-gui; do
    page=$(MANWIDTH=100 man -l "$root/usr/share/man/man1/$program.1.gz" 2>"$scratch/man.err")
    if [ -z "$page" ] || [ -s "$scratch/man.err" ]; then
      fail "man -l $program.1.gz: $(head -3 "$scratch/man.err")"
      continue
    fi
    [ -n "$shot_out" ] && [ $program = kcycle ] && printf '%s\n' "$page" >"${shot_out%.png}-man-kcycle.txt"
    missing=""
    commands=""
    [ $program = kcycle ] && commands="solve info bench calibrate advise experiment lfa"
    for command in "" $commands; do
      for option in $($program $command --help | grep -o -- '--[a-z][a-z0-9-]*' | sort -u); do
        grep -q -- "$option" <<<"$page" || missing+=" $command $option"
      done
    done
    if [ -n "$missing" ]; then fail "man $program lacks what --help lists:$missing"; else ok "man -l $program.1.gz: $(wc -l <<<"$page") lines, every option of --help"; fi
  done
else
  skip "the manual pages: no man (man-db)"
fi

# The bash completion: commands, options, values.
completion=$(bash -c '
  source "$1"
  complete_line() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _kcycle_complete; echo "${COMPREPLY[*]}"; }
  complete_line kcycle so; complete_line kcycle solve --smooth; complete_line kcycle solve --smoother x
  complete_line kcycle experiment table4.' _ "$root/usr/share/bash-completion/completions/kcycle")
expected=$'solve\n--smoother\nxzebra xyzebra\ntable4.1 table4.2 table4.3 table4.4 table4.5 table4.6'
if [ "$completion" = "$expected" ]; then ok "bash completion: commands, options and their values"; else fail "bash completion gave: $completion"; fi

# The desktop entry starts the installed program with the installed icon.
desktop=$root/usr/share/applications/kcycle-gui.desktop
grep -q '^Exec=kcycle-gui' "$desktop" && grep -q '^Icon=kcycle$' "$desktop" && grep -q '^Categories=Education;Science;Math;' "$desktop" ||
  fail "the desktop entry: $(cat "$desktop")"
if command -v desktop-file-validate >/dev/null 2>&1; then
  desktop-file-validate "$desktop" && ok "desktop-file-validate" || fail "desktop-file-validate"
fi

# A CMake project and a pkg-config build against the installed library.
if cmake -S "$source_root/tests/install" -B "$scratch/consumer" -DCMAKE_PREFIX_PATH="$root/usr" >"$scratch/cmake.log" 2>&1 &&
  cmake --build "$scratch/consumer" -j 2 >>"$scratch/cmake.log" 2>&1 && out=$("$scratch/consumer/consumer"); then
  ok "find_package(kcycle) consumer: $out"
else
  fail "find_package(kcycle) consumer: $(tail -5 "$scratch/cmake.log")"
fi
export PKG_CONFIG_PATH="$root/usr/lib/$multiarch/pkgconfig"
if c++ -o "$scratch/pc_consumer" "$source_root/tests/install/consumer.cpp" $(pkg-config --cflags --libs kcycle) \
  >"$scratch/pc.log" 2>&1 && out=$("$scratch/pc_consumer"); then
  ok "pkg-config consumer (c++ \$(pkg-config --cflags --libs kcycle)): $out"
else
  fail "pkg-config consumer: $(tail -5 "$scratch/pc.log")"
fi

# PETSc's own tutorial loads the installed preconditioner.
example=$(ls /usr/share/petsc/*/share/petsc/examples/src/ksp/ksp/tutorials/ex2.c 2>/dev/null | head -n 1)
if [ -z "$example" ] || ! command -v mpicc >/dev/null 2>&1; then
  skip "PETSc's ex2: not installed (libpetsc3.18-dev-examples, mpicc)"
elif ! mpicc -o "$scratch/ex2" "$example" $(PKG_CONFIG_PATH= pkg-config --cflags --libs PETSc) 2>"$scratch/ex2.log"; then
  fail "PETSc's ex2.c does not build: $(tail -3 "$scratch/ex2.log")"
else
  library=$root/usr/lib/$multiarch/libkcycle_petsc.so
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  out=$("$scratch/ex2" -m 32 -n 32 -dll_append "$library" -pc_type kcycle -pc_kcycle_type gamg -pc_kcycle_kappa 3 \
    -ksp_view -ksp_converged_reason 2>&1)
  if grep -q 'CONVERGED' <<<"$out" && grep -q 'kcycle' <<<"$out"; then
    ok "PETSc's ex2 -dll_append $library -pc_type kcycle: $(grep -m1 -o 'Linear solve converged.*' <<<"$out")"
  else
    fail "PETSc's ex2 with the installed preconditioner: $(tail -5 <<<"$out")"
  fi
  # docs/petsc.md's way for every run: the option in ~/.petscrc.
  mkdir -p "$scratch/petsc-home"
  echo "-dll_append $library" >"$scratch/petsc-home/.petscrc"
  out=$(cd "$scratch" && HOME="$scratch/petsc-home" "$scratch/ex2" -m 32 -n 32 -pc_type kcycle -pc_kcycle_type gamg -pc_kcycle_kappa 2 \
    -ksp_converged_reason 2>&1)
  if grep -q 'CONVERGED' <<<"$out"; then ok "PETSc's ex2 -pc_type kcycle with -dll_append in ~/.petscrc"; else fail "~/.petscrc: $(tail -3 <<<"$out")"; fi
fi

# Debian's policy.
if command -v lintian >/dev/null 2>&1; then
  lintian --tag-display-limit 0 --info "$deb" >"$scratch/lintian.txt" 2>&1
  echo "== lintian $(basename "$deb"): $(grep -c '^E:' "$scratch/lintian.txt") errors, $(grep -c '^W:' "$scratch/lintian.txt") warnings, $(grep -c '^I:' "$scratch/lintian.txt") notes"
  grep -v '^N:' "$scratch/lintian.txt" | sed 's/^/  /'
  grep -q '^E:' "$scratch/lintian.txt" && fail "lintian reports errors"
else
  skip "lintian: not installed (bash scripts/setup.sh installs it)"
fi

if [ $failures -gt 0 ]; then
  echo "check_package: $failures failure(s)"
  exit 1
fi
echo "check_package: the installed package works"
