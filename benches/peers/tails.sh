#!/bin/sh
# The heavy-tail table of the README: random puzzles near the hardness peak, counted up to 2 on
# one thread by quadrille's engines and by OR-Tools CP-SAT (one worker), set by set, so that
# both run under the same machine load. Needs `pip install ortools`.
#
#   benches/peers/tails.sh [OUT_DIR]
set -eu
Q=${Q:-target/release/quadrille}
OUT=${1:-/tmp/quadrille-tails}
mkdir -p "$OUT"
here=$(dirname "$0")
run_set() { # name box blanks count time_budget
    file="$OUT/$1.txt"
    "$Q" generate --box "$2" --kind random --blanks "$3" -n "$4" --seed 1 > "$file"
    echo "== $1 ($4 puzzles, $3 blanks, --box $2)"
    "$Q" compare "$file" --box "$2" --engines dlx,csp,csp:mrv-degree+lex+alldiff \
        --no-node-budget --time-budget "$5" -q | tail -n 3
    if [ "${BEFORE:-0}" = 1 ]; then
        "$Q" compare "$file" --box "$2" --engines dlx,csp --no-node-budget \
            --time-budget "$5" --no-restarts -q | tail -n 2 | sed 's/^/no restarts: /'
    fi
    python3 "$here/cpsat.py" "$file" --box "$2" --time-limit "$5" 2>&1 >/dev/null | sed 's/^/CP-SAT: /'
}
[ -n "${ONLY:-}" ] && { run_set $ONLY; exit; }
run_set 16x16_150 4x4 150 200 1
run_set 16x16_175 4x4 175 200 1
run_set 16x16_190 4x4 190 200 1
run_set 25x25_300 5x5 300 50 2
run_set 25x25_340 5x5 340 50 2
run_set 25x25_380 5x5 380 50 2
run_set 25x25_450 5x5 450 50 2
run_set latin30_378 1x30 378 50 2
