#!/bin/sh
# The 9x9 batch table of docs/performance.md: quadrille against the two yardsticks of the
# issues' floors, on the five sets of ../shared/data, one thread, each counting every puzzle
# up to 2 and printing its solution, CPU time (user + system) of the whole process.
#
#   benches/peers/batch9.sh [DATA_DIR] [PEERS_DIR]      (defaults ../shared/data ../shared/peers)
#
# The peers are built and run exactly as PEERS_DIR/README.md says, from a copy of PEERS_DIR
# (it may be read-only): tdoku (`sh build.sh`, -O3 -march=native; `peer_tdoku 2 < FILE`) and
# the `sudoku` crate 0.8 (`cargo build --release`; `peer_rs_sudoku 2 < FILE`). None of their
# code is in the repository. quadrille reads the same file by name (`solve --limit 2 -j1
# FILE`), as a user would: fed by standard input it costs the same within the noise.
#
# The small sets are repeated so that a run lasts a tenth of a second or more (SETS, below).
# Every peer's answers are first checked against quadrille's, line by line (see check). Then
# each pair (quadrille, peer) runs RUNS times in turn, A B A B ..., each run's CPU time read
# from the kernel's accounting (getrusage); a row gives both medians and the median of the
# pairs' ratios, quadrille / peer: under 1 means quadrille is faster. ENGINES="auto dlx csp" adds quadrille's other engines as rows of their
# own, each against the default engine.
set -eu
Q=${Q:-target/release/quadrille}
DATA=${1:-../shared/data}
PEERS=${2:-../shared/peers}
RUNS=${RUNS:-5}
ENGINES=${ENGINES:-auto}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

cp -r "$PEERS/tdoku" "$PEERS/rs_sudoku" "$scratch/"
sh "$scratch/tdoku/build.sh" > /dev/null
(cd "$scratch/rs_sudoku" && CARGO_TARGET_DIR="$scratch/rs_sudoku/target" \
    cargo build --release --quiet)
TDOKU=$scratch/tdoku/target/release/peer_tdoku
CRATE=$scratch/rs_sudoku/target/release/peer_rs_sudoku

# cpu COMMAND: runs the shell command once, its output thrown away; prints its CPU seconds
# (user + system, from the kernel's accounting of the finished process, in microseconds:
# /usr/bin/time's hundredths are too coarse for runs of a tenth of a second). The first child
# of a Python process pays for copying the parent's pages after the fork (about 6,500 page
# faults and 0.05 s here, whatever the command), so a child that does nothing goes first and
# only the command's own time is counted.
cpu() {
    python3 -c 'import resource, subprocess, sys
def used():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime
subprocess.run(["true"], check=True)
before = used()
subprocess.run(["sh", "-c", "exec " + sys.argv[1]], stdout=subprocess.DEVNULL,
               stderr=subprocess.DEVNULL, check=True)
print("%.4f" % (used() - before))' "$1"
}

# median: the median of the numbers on standard input, one a line.
median() {
    sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}

# cpu_pair A_COMMAND B_COMMAND: "A's median cpu s, B's median cpu s, median A/B" over RUNS
# pairs, after one warm-up run of each.
cpu_pair() {
    cpu "$1" > /dev/null
    cpu "$2" > /dev/null
    : > "$scratch/pairs"
    i=0
    while [ "$i" -lt "$RUNS" ]; do
        echo "$(cpu "$1") $(cpu "$2")" >> "$scratch/pairs"
        i=$((i + 1))
    done
    echo "$(cut -d' ' -f1 "$scratch/pairs" | median)" \
        "$(cut -d' ' -f2 "$scratch/pairs" | median)" \
        "$(awk '{print $1 / $2}' "$scratch/pairs" | median)"
}

# check: on lines "PUZZLE OURS THEIRS", fails unless every peer's line is quadrille's solution
# or, where puzzles have several (another search order finds another first), a grid that
# keeps the puzzle's givens and has each digit once in every row, column and box.
check='$2 != $3 {
    if (length($3) != 81) exit 1
    for (i = 1; i <= 81; i++) {
        d = substr($3, i, 1); g = substr($1, i, 1)
        if (d !~ /[1-9]/ || (g ~ /[1-9]/ && g != d)) exit 1
        r = int((i - 1) / 9); c = (i - 1) % 9; b = 3 * int(r / 3) + int(c / 3)
        if (seen["r" r d] == NR || seen["c" c d] == NR || seen["b" b d] == NR) exit 1
        seen["r" r d] = seen["c" c d] = seen["b" b d] = NR
    }
}'

# The five sets of ../shared/data (tdoku's benchmark families), each with the times it is
# repeated (../shared/peers/README.md), comments and blank lines left out (every program skips
# them; magictour's file ends with a blank line). SETS="name:times ..." runs fewer.
SETS=${SETS:-"puzzles2_17_clue:1 puzzles3_magictour_top1465:30 puzzles5_forum_hardest_1905_11+:1 puzzles6_forum_hardest_1106:100 puzzles7_serg_benchmark:5"}
for entry in $SETS; do
    set=${entry%%:*}
    times=${entry#*:}
    file=$scratch/$set
    : > "$file"
    i=0
    while [ "$i" -lt "$times" ]; do
        grep -v -e '^#' -e '^$' "$DATA/$set" >> "$file"
        i=$((i + 1))
    done
    puzzles=$(grep -c . "$file")
    "$Q" solve --limit 2 -j1 "$file" | cut -d' ' -f1 > "$scratch/ours.txt"
    for peer in "$TDOKU" "$CRATE"; do
        "$peer" 2 < "$file" > "$scratch/theirs.txt" 2> /dev/null
        paste -d' ' "$file" "$scratch/ours.txt" "$scratch/theirs.txt" | awk "$check" ||
            { echo "$peer disagrees on $set" >&2; exit 1; }
    done
    echo "== $set x $times ($puzzles puzzles), one thread, counting to 2, printing the solution"
    printf '%-26s %10s %10s %12s %10s\n' "quadrille against" "cpu s" "peer cpu s" "µs/puzzle" \
        "ratio"
    ours="$Q solve --limit 2 -j1 $file"
    for engine in $ENGINES; do
        [ "$engine" = auto ] && continue
        set -- $(cpu_pair "$Q solve --limit 2 -j1 --engine $engine $file" "$ours")
        printf '%-26s %10s %10s %12.2f %10.2f\n' "--engine $engine / auto" "$1" "$2" \
            "$(echo "$1 * 1000000 / $puzzles" | bc -l)" "$3"
    done
    for peer in "tdoku:$TDOKU" "sudoku crate 0.8:$CRATE"; do
        set -- $(cpu_pair "$ours" "${peer#*:} 2 < $file")
        printf '%-26s %10s %10s %12.2f %10.2f\n' "${peer%%:*}" "$1" "$2" \
            "$(echo "$1 * 1000000 / $puzzles" | bc -l)" "$3"
    done
done
