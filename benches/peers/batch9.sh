#!/bin/sh
# The 9x9 batch table of docs/performance.md: every quadrille engine and the installed peers,
# each counting every puzzle of a set up to 2 and printing its solution, one thread, whole
# process. Every command's output is first checked byte for byte against quadrille's; then
# each is timed in turn with quadrille's default engine (farm-bench, from the project's tool
# library: the pairs keep the ratio fair on a shared machine). The peers are built outside
# the repository: the `sudoku` crate 0.8 (JCZSolve's method) from benches/peers/sudoku_crate,
# and tdoku (its DPLL triad SIMD solver) from its sources when their directory is given.
#
#   benches/peers/batch9.sh [DATA_DIR] [TDOKU_SOURCE_DIR]
#
# Prints per set and command: CPU seconds (median of the runs), µs per puzzle, puzzles per
# second, and the pairwise median ratio of quadrille's default engine's CPU time over the
# command's ("auto/X": under 1 means quadrille is faster); for quadrille's engines also the
# search's own figures from --stats: nodes per puzzle and the share solved without
# backtracking; for tdoku its own: guesses per puzzle and the share solved without guessing.
set -eu
Q=${Q:-target/release/quadrille}
DATA=${1:-../shared/data}
TDOKU_SRC=${2:-}
RUNS=${RUNS:-5}
PEER_TARGET=${PEER_TARGET:-/tmp/quadrille-sudoku-peer}
CARGO_TARGET_DIR=$PEER_TARGET cargo build --release --quiet \
    --manifest-path "$(dirname "$0")/sudoku_crate/Cargo.toml"
CRATE=$PEER_TARGET/release/sudoku-crate-peer
TDOKU=
if [ -n "$TDOKU_SRC" ]; then
    TDOKU=$(sh "$(dirname "$0")/tdoku/build.sh" "$TDOKU_SRC" /tmp/quadrille-tdoku-peer)
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# cpu_pair A_COMMAND B_COMMAND: "A's median cpu s, B's median cpu s, median A/B" of the pairs.
cpu_pair() {
    farm-bench -n "$RUNS" --timeout 3600 --vs "$2" -- $1 |
        awk '/^A cpu s/ {a=$5} /^B cpu s/ {b=$5} /^A\/B cpu/ {r=$3} END {print a, b, r}'
}

# The five sets of ../shared/data (tdoku's benchmark families), each with the times it is
# repeated so that a run lasts a tenth of a second or more, as the floors of issue 45 are
# measured (../shared/peers/README.md). SETS="name:times ..." runs fewer.
SETS=${SETS:-"puzzles2_17_clue:1 puzzles3_magictour_top1465:30 puzzles5_forum_hardest_1905_11+:1 puzzles6_forum_hardest_1106:100 puzzles7_serg_benchmark:5"}
for entry in $SETS; do
    set=${entry%%:*}
    times=${entry#*:}
    file=$scratch/$set
    : > "$file"
    i=0
    while [ "$i" -lt "$times" ]; do
        grep -v '^#' "$DATA/$set" >> "$file"
        i=$((i + 1))
    done
    grep -c . "$file" > "$scratch/count"
    puzzles=$(cat "$scratch/count")
    "$Q" solve --limit 2 -j1 "$file" > "$scratch/ours.txt"
    echo "== $set x $times ($puzzles puzzles), one thread, counting to 2 and printing the solution"
    printf '%-28s %10s %12s %12s %10s %16s %10s\n' command "cpu s" "µs/puzzle" "puzzles/s" \
        "auto/X" "nodes/puzzle" "no backtrack"
    default="$Q solve --limit 2 -j1 --engine auto $file"
    for engine in auto dlx csp; do
        command="$Q solve --limit 2 -j1 --engine $engine $file"
        "$Q" solve --limit 2 -j1 --engine "$engine" --stats "$file" > "$scratch/out.txt" \
            2> "$scratch/stats.txt"
        cmp "$scratch/ours.txt" "$scratch/out.txt"
        nodes=$(sed -n 's/.* \([0-9.]*\) nodes\/puzzle.*/\1/p' "$scratch/stats.txt")
        clean=$(sed -n 's/.*, \([0-9.]*%\) without backtracking.*/\1/p' "$scratch/stats.txt")
        set -- $(cpu_pair "$command" "$default")
        printf '%-28s %10s %12.2f %12.0f %10.2f %16s %10s\n' "quadrille --engine $engine" "$1" \
            "$(echo "$1 * 1000000 / $puzzles" | bc -l)" "$(echo "$puzzles / $1" | bc -l)" \
            "$(echo "1 / $3" | bc -l)" "$nodes" "$clean"
    done
    for peer in "sudoku crate 0.8:$CRATE" "tdoku:$TDOKU"; do
        name=${peer%%:*}
        binary=${peer#*:}
        [ -n "$binary" ] || continue
        "$binary" "$file" > "$scratch/out.txt"
        cmp "$scratch/ours.txt" "$scratch/out.txt"
        # tdoku counts its own guesses (its harness's --stats); the crate counts nothing.
        guesses=- clean=-
        if [ "$name" = tdoku ]; then
            "$binary" --stats "$file" 2> "$scratch/stats.txt"
            guesses="$(sed -n 's/^\([0-9.]*\) guesses.*/\1/p' "$scratch/stats.txt") guesses"
            clean=$(sed -n 's/.*, \([0-9.]*%\) without guessing.*/\1/p' "$scratch/stats.txt")
        fi
        set -- $(cpu_pair "$default" "$binary $file")
        printf '%-28s %10s %12.2f %12.0f %10.2f %16s %10s\n' "$name" "$2" \
            "$(echo "$2 * 1000000 / $puzzles" | bc -l)" "$(echo "$puzzles / $2" | bc -l)" "$3" \
            "$guesses" "$clean"
    done
done
