#!/bin/sh
# The empty grid of every box shape R x C with 4 <= R*C <= 64, both ways round (1xN is a Latin
# square), counted up to 2 on one thread by each engine within a time budget: one line per
# shape and engine (box, engine, wall seconds, the count), then per engine the slowest shapes
# and those left undecided. Build first: `cargo build --release --locked`.
#
#   benches/peers/empty_shapes.sh [OUT_DIR]
set -eu
Q=${Q:-target/release/quadrille}
OUT=${1:-/tmp/quadrille-empty-shapes}
BUDGET=${BUDGET:-5}
ENGINES=${ENGINES:-auto dlx}
mkdir -p "$OUT"
: > "$OUT/all.txt"
for r in $(seq 1 64); do
    for c in $(seq 1 64); do
        n=$((r * c))
        [ "$n" -ge 4 ] && [ "$n" -le 64 ] || continue
        python3 -c "print(' '.join(['0'] * $n * $n))" > "$OUT/empty.txt"
        for engine in $ENGINES; do
            start=$(date +%s.%N)
            count=$("$Q" count --limit 2 --box "${r}x$c" -j1 --engine "$engine" \
                --time-budget "$BUDGET" "$OUT/empty.txt" | awk '{print $NF}')
            wall=$(echo "$(date +%s.%N) - $start" | bc -l)
            printf '%s %s %.2f %s\n' "${r}x$c" "$engine" "$wall" "$count" >> "$OUT/all.txt"
        done
    done
done
for engine in $ENGINES; do
    shapes=$(awk -v e="$engine" '$2 == e' "$OUT/all.txt" | wc -l)
    echo "== $engine: $shapes shapes; the five slowest (box, engine, wall s, count):"
    awk -v e="$engine" '$2 == e' "$OUT/all.txt" | sort -k3,3nr | head -5
    echo "undecided (a count other than 2+): $(awk -v e="$engine" '$2 == e && $4 != "2+" {printf "%s ", $1}' "$OUT/all.txt")"
done
