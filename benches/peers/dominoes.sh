#!/usr/bin/env bash
# Domino tilings of n x n boards counted by remembering subproblems (docs/memo.md's table):
# each board's count, the search's own seconds, nodes and the peak memory of the process.
# Usage: benches/peers/dominoes.sh [QUADRILLE] [SIZES...]   (default: target/release/quadrille, 8 to 18)
set -euo pipefail
bin="${1:-target/release/quadrille}"
shift || true
sizes=("${@:-8 10 12 14 16 18}")
dir="$(mktemp -d)"
for n in ${sizes[@]}; do
  # Items r_c, one option per pair of neighbouring cells.
  python3 - "$n" > "$dir/dominoes_$n.dlx" <<'PY'
import sys
n = int(sys.argv[1])
print(" ".join(f"{r}_{c}" for r in range(n) for c in range(n)))
for r in range(n):
    for c in range(n):
        if c + 1 < n:
            print(f"{r}_{c} {r}_{c + 1}")
        if r + 1 < n:
            print(f"{r}_{c} {r + 1}_{c}")
PY
  /usr/bin/time -f "%M" -o "$dir/peak" "$bin" xc "$dir/dominoes_$n.dlx" --count --json --quiet > "$dir/out"
  python3 - "$n" "$dir/out" "$(cat "$dir/peak")" <<'PY'
import json, sys
n, record, peak_kb = sys.argv[1], json.load(open(sys.argv[2])), int(sys.argv[3])
print(f"{n}x{n}: {record['solutions']} ({'exact' if record['complete'] else 'lower bound'}), "
      f"{record['seconds']:.3f} s, {record['nodes']} nodes, {peak_kb / 1024:.0f} MB peak")
PY
done
rm -rf "$dir"
