#!/bin/sh
# The generated-puzzle table of docs/performance.md: unique puzzles from `generate` (box 6x6
# and 7x7, seeds 1-5; made once into the puzzle directory, kept, and reused: a 49x49 takes
# about 90 s to make) solved one at a time by the CSP engine on one thread within a time
# budget: wall time and nodes per puzzle. Build first: `cargo build --release --locked`.
#
#   benches/peers/csp_generated.sh [PUZZLE_DIR]
#
# ENGINE (default csp), LIMIT (default 1; 2 also proves uniqueness), BUDGET (seconds,
# default 30), BOXES (default "6x6 7x7") and SEEDS (default "1 2 3 4 5") choose the rows.
set -eu
Q=${Q:-target/release/quadrille}
DIR=${1:-/tmp/quadrille-csp-generated}
ENGINE=${ENGINE:-csp}
LIMIT=${LIMIT:-1}
BUDGET=${BUDGET:-30}
BOXES=${BOXES:-6x6 7x7}
SEEDS=${SEEDS:-1 2 3 4 5}
mkdir -p "$DIR"
echo "| puzzle | engine | limit | wall | nodes | undecided |"
echo "|---|---|---|---|---|---|"
for box in $BOXES; do
    for seed in $SEEDS; do
        file="$DIR/p${box}_s$seed.txt"
        if [ ! -s "$file" ]; then
            "$Q" generate --box "$box" -n 1 --seed "$seed" > "$file.tmp"
            mv "$file.tmp" "$file"
        fi
        stats=$("$Q" solve --box "$box" -j1 --stats --engine "$ENGINE" --limit "$LIMIT" \
            --time-budget "$BUDGET" "$file" 2>&1 > /dev/null)
        wall=$(echo "$stats" | sed -n 's/^wall \([0-9.]*\) s.*/\1/p')
        nodes=$(echo "$stats" | sed -n 's/.* \([0-9.]*\) nodes\/puzzle.*/\1/p')
        undecided=$(echo "$stats" | sed -n 's/.*undecided \([0-9]*\).*/\1/p')
        echo "| ${box} seed $seed | $ENGINE | $LIMIT | $wall s | $nodes | $undecided |"
    done
done
