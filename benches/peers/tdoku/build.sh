#!/bin/sh
# Builds the tdoku peer (t-dillon/tdoku, its DPLL triad SIMD solver) from a checkout of its
# sources, outside the repository, with tdoku's own flags (-O3 -march=native):
#
#   benches/peers/tdoku/build.sh TDOKU_SOURCE_DIR [OUTPUT]    (default /tmp/quadrille-tdoku-peer)
set -eu
SRC=$1
OUT=${2:-/tmp/quadrille-tdoku-peer}
HERE=$(dirname "$0")
g++ -O3 -march=native -std=c++17 -DNDEBUG -I "$SRC/include" -I "$SRC/src" \
    "$HERE/harness.cc" "$SRC/src/solver_dpll_triad_simd.cc" "$SRC/src/util.cc" -o "$OUT"
echo "$OUT"
