#!/bin/sh
# The generate table of the README: rot180-symmetric unique 9x9 puzzles on one thread, QQWing
# (`apt-get install qqwing`) and quadrille taking turns, ROUNDS times, so that both run under
# the same machine load. Prints puzzles per second and the ratio of each round.
#
#   benches/peers/generate_qqwing.sh [N] [ROUNDS]
set -eu
Q=${Q:-target/release/quadrille}
N=${1:-2000}
ROUNDS=${2:-3}
rate() { # command...: puzzles per second of N puzzles
    start=$(date +%s.%N)
    "$@" > /dev/null
    end=$(date +%s.%N)
    echo "$N / ($end - $start)" | bc -l
}
round=1
while [ "$round" -le "$ROUNDS" ]; do
    qq=$(rate qqwing --generate "$N" --symmetry rotate180 --one-line)
    mo=$(rate "$Q" generate -n "$N" -j 1 --seed "$round" --minimal orbits)
    mg=$(rate "$Q" generate -n "$((N / 4))" -j 1 --seed "$round" --minimal givens)
    mg=$(echo "$mg / 4" | bc -l)
    printf 'round %d: qqwing %.0f/s; quadrille --minimal orbits %.0f/s (%.1fx); --minimal givens %.0f/s (%.2fx)\n' \
        "$round" "$qq" "$mo" "$(echo "$mo / $qq" | bc -l)" "$mg" "$(echo "$mg / $qq" | bc -l)"
    round=$((round + 1))
done
