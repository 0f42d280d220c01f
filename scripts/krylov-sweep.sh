#!/bin/bash
# Cycles of each kappa plain and Krylov-accelerated (--coarse-krylov) at 7 levels over the three
# smoother/coarsening pairs, stand-alone and FCG, eps 1, 1e-2, 1e-4 and 0, 30, 45 degrees:
# "plain/accelerated", a ! where the accelerated cycle needs more (docs/model.md).
#   bash scripts/krylov-sweep.sh [path/to/kcycle]
bin=${1:-build/bin/kcycle}
for p in jacobi xyzebra-galerkin xzebra-semi-galerkin; do
 for s in mg fcg; do
  for e in 1 1e-2 1e-4; do
   for a in 0 30 45; do
    line="$p $s eps=$e ang=$a:"
    for k in 1 2 3 4 W; do
      off=$($bin solve --preset $p --solver $s --levels 7 --eps $e --angle $a --kappa $k --json | python3 -c "import json,sys; print(json.load(sys.stdin)['iterations'])")
      on=$($bin solve --preset $p --solver $s --levels 7 --eps $e --angle $a --kappa $k --coarse-krylov on --json | python3 -c "import json,sys; print(json.load(sys.stdin)['iterations'])")
      flag=""; [ "$on" -gt "$off" ] && flag="!"
      line="$line k$k $off/$on$flag"
    done
    echo "$line"
   done
  done
 done
done
