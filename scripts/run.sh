#!/usr/bin/env bash
# The main job: installs what is missing, builds, and starts the visualizer (a person starts
# paused on the initial error, with a hint to step or run). Without a display (no DISPLAY or WAYLAND_DISPLAY) it runs the same
# default session under Xvfb, writes a screenshot and prints the convergence summary.
# Extra arguments go to kcycle-gui (e.g. --config FILE).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

bash scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$jobs" --target kcycle kcycle-gui

if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  exec build/bin/kcycle-gui "$@"
fi
echo "No display found: running the default session under Xvfb; screenshot: kcycle-screenshot.png"
exec xvfb-run -a -s "-screen 0 1600x1000x24" build/bin/kcycle-gui --script assets/default-session.txt \
  --screenshot kcycle-screenshot.png "$@"
