#!/usr/bin/env bash
# Remembered counts of colour problems and of problems in independent parts (docs/memo.md,
# issue 42): the proper colourings of the cycles C100 and C60 (fixtures) and six disjoint
# 10x10 domino boards with their options interleaved, each counted five times with the
# default flags; the median wall seconds of the process, and the count.
# Usage: benches/peers/memo_parts.sh [QUADRILLE]   (default: target/release/quadrille)
set -euo pipefail
bin="${1:-target/release/quadrille}"
dir="$(mktemp -d)"
python3 - > "$dir/six_boards.dlx" <<'PY'
# Items b<k>_<r>_<c>; for each pair of neighbouring cells, its option on every board in turn.
boards, n = 6, 10
print(" ".join(f"b{k}_{r}_{c}" for k in range(boards) for r in range(n) for c in range(n)))
for r in range(n):
    for c in range(n):
        for (rr, cc) in [(r, c + 1), (r + 1, c)]:
            if rr < n and cc < n:
                for k in range(boards):
                    print(f"b{k}_{r}_{c} b{k}_{rr}_{cc}")
PY
for file in fixtures/cycle100_3colourings.dlx fixtures/cycle60_4colourings.dlx "$dir/six_boards.dlx"; do
  for run in 1 2 3 4 5; do
    /usr/bin/time -f "%e" -o "$dir/time.$run" "$bin" xc "$file" --count --quiet > "$dir/count"
  done
  median=$(cat "$dir"/time.* | sort -n | sed -n 3p)
  echo "$(basename "$file"): $(cat "$dir/count"), median $median s"
done
