#!/bin/sh
# Agreement of `quadrille rate` with Sudoku Explainer on a reference set.
#
#   benches/peers/se_agreement.sh REFERENCE [QUADRILLE] [--by-score] [--range=LO..HI] [--scale=NAME]
#
# --scale=NAME rates on `quadrille rate --scale NAME` (se121, the default, or sukaku).
# REFERENCE holds lines `PUZZLE ER`, as SE's serate writes them with --format="%g %r" (see
# the README's rate section for the settings used); lines starting with # are comments. QUADRILLE defaults to the release build.
# Prints the Spearman rank correlation, the exact-match share and the mean absolute difference,
# overall and for SE >= 7.0 and >= 9.0.
set -eu
reference=$1
quadrille=${2:-target/release/quadrille}
shift $(( $# >= 2 ? 2 : 1 ))
here=$(dirname "$0")
scale=se121
for arg in "$@"; do
    case $arg in --scale=*) scale=${arg#--scale=} ;; esac
done
ours=$(mktemp)
trap 'rm -f "$ours"' EXIT
grep -v '^#' "$reference" | cut -d' ' -f1 | "$quadrille" rate --json --levels none -q --scale "$scale" > "$ours"
python3 "$here/se_agreement.py" "$reference" "$ours" "$@"
