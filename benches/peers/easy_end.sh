#!/bin/sh
# The easy-end table of docs/performance.md: empty grids and random near-empty grids (95% and
# 99% blanks, 3 puzzles each) at 36x36, 49x49 and 64x64, solved on one thread by every engine,
# each within a time budget per puzzle: wall time of the set, nodes per puzzle, puzzles left
# undecided, and peak memory. Build first: `cargo build --release --locked`.
#
#   benches/peers/easy_end.sh [OUT_DIR]
set -eu
Q=${Q:-target/release/quadrille}
OUT=${1:-/tmp/quadrille-easy-end}
BUDGET=${BUDGET:-10}
ENGINES=${ENGINES:-auto dlx csp}
mkdir -p "$OUT"
empty() { # box side: one empty grid in the numeric line layout
    python3 -c "print(' '.join(['0'] * $2 * $2))" > "$OUT/empty_$1.txt"
}
row() { # label box file engine [solve options]
    label=$1 box=$2 file=$3 engine=$4
    shift 4
    stats=$( { /usr/bin/time -f 'peak %M KB' "$Q" solve --box "$box" -j1 --stats \
        --engine "$engine" --time-budget "$BUDGET" "$@" "$file" > /dev/null; } 2>&1 )
    wall=$(echo "$stats" | sed -n 's/^wall \([0-9.]*\) s.*/\1/p')
    nodes=$(echo "$stats" | sed -n 's/.* \([0-9.]*\) nodes\/puzzle.*/\1/p')
    undecided=$(echo "$stats" | sed -n 's/.*undecided \([0-9]*\).*/\1/p')
    peak=$(echo "$stats" | sed -n 's/^peak \([0-9]*\) KB/\1/p')
    echo "| $label | $engine $* | $wall s | $nodes | $undecided | $((peak / 1024)) MB |"
}
echo "| grid | engine | wall | nodes/puzzle | undecided | peak memory |"
echo "|---|---|---|---|---|---|"
for spec in 6x6:36 7x7:49 8x8:64; do
    box=${spec%:*} side=${spec#*:}
    cells=$((side * side))
    empty "$box" "$side"
    for pct in 95 99; do
        "$Q" generate --box "$box" --kind random --blanks $((cells * pct / 100)) -n 3 --seed 1 \
            > "$OUT/near_${box}_$pct.txt"
    done
    for engine in $ENGINES; do
        row "empty ${side}x$side" "$box" "$OUT/empty_$box.txt" "$engine"
        for pct in 95 99; do
            row "${side}x$side, $pct% blanks (3)" "$box" "$OUT/near_${box}_$pct.txt" "$engine"
        done
    done
    row "empty ${side}x$side" "$box" "$OUT/empty_$box.txt" dlx --no-restarts
done
