#!/bin/sh
# callgrind instruction counts of the speed guards, BASE against NEW (two quadrille binaries):
#   sh benches/peers/guards.sh BASE NEW DATA   (DATA: ../shared/data)
set -eu
base=$1 new=$2 data=$3
head -1000 "$data/puzzles2_17_clue" > /tmp/guard_c17.txt
grep -v '^#' "$data/puzzles5_forum_hardest_1905_11+" | head -500 > /tmp/guard_fh500.txt
for cmd in "solve /tmp/guard_c17.txt --limit 2 -j1" "solve /tmp/guard_fh500.txt --limit 2 -j1" \
  "solve /tmp/guard_c17.txt --limit 2 -j1 --engine dlx" "solve /tmp/guard_fh500.txt --limit 2 -j1 --engine csp" \
  "xc --count -j1 fixtures/pentominoes_3x20.dlx -q" "xc --count -j1 fixtures/dominoes_12x12.dlx -q"; do
  a=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null $base $cmd 2>&1 >/dev/null | awk '/Collected/ {print $4}')
  b=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null $new $cmd 2>&1 >/dev/null | awk '/Collected/ {print $4}')
  echo "$cmd | $a | $b | $(awk "BEGIN {printf \"%+.2f%%\", ($b-$a)*100/$a}")"
done
