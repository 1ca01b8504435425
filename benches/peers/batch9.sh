#!/bin/sh
# The 9x9 batch table of docs/performance.md: quadrille's default engine (auto: the bitboard
# search on 9x9) and --engine dlx against the `sudoku` crate 0.8 (JCZSolve's method), each
# counting every puzzle of a set up to 2 and printing its solution, one thread, whole process,
# the two commands taking turns (farm-bench, from the project's tool library). The peer is
# built from benches/peers/sudoku_crate into a target directory outside the repository.
#
#   benches/peers/batch9.sh [DATA_DIR]
set -eu
Q=${Q:-target/release/quadrille}
DATA=${1:-../shared/data}
PEER_TARGET=${PEER_TARGET:-/tmp/quadrille-sudoku-peer}
CARGO_TARGET_DIR=$PEER_TARGET cargo build --release --quiet \
    --manifest-path "$(dirname "$0")/sudoku_crate/Cargo.toml"
PEER=$PEER_TARGET/release/sudoku-crate-peer
for set in puzzles2_17_clue puzzles5_forum_hardest_1905_11+; do
    file=$DATA/$set
    "$Q" solve --limit 2 -j1 "$file" > /tmp/quadrille-batch9-ours.txt
    "$PEER" "$file" > /tmp/quadrille-batch9-peer.txt
    cmp /tmp/quadrille-batch9-ours.txt /tmp/quadrille-batch9-peer.txt
    for engine in auto dlx; do
        echo "== $set: quadrille --engine $engine (A) against the sudoku crate (B)"
        farm-bench -n 5 --timeout 600 --vs "$PEER $file" -- \
            "$Q" solve --limit 2 -j1 --engine "$engine" "$file" | grep -E '^(A|B) wall|^A/B wall'
    done
done
