#!/usr/bin/env bash
# The time and peak memory of `generate --uniform` (docs/memo.md, issue 41 item 16): building
# the diagram of every grid of each shape within each --memory, drawing one puzzle when it fits
# and refused (exit code 1) when it does not, each with /usr/bin/time's wall seconds and peak
# resident set.
# Usage: benches/peers/uniform_memory.sh [QUADRILLE] [SHAPES...]   (default: target/release/quadrille, 2x3 2x4)
set -uo pipefail
bin="${1:-target/release/quadrille}"
shift || true
shapes=("${@:-2x3 2x4}")
peak="$(mktemp)"
for shape in ${shapes[@]}; do
  for memory in 1G 256M; do
    /usr/bin/time -f "%e %M" -o "$peak" "$bin" generate --box "$shape" --kind random --uniform \
      -n 1 --givens 5 --memory "$memory" > /dev/null 2>&1
    code=$?
    read -r seconds kb < <(tail -1 "$peak")
    verdict=$([ "$code" -eq 0 ] && echo "drawn" || echo "refused (exit $code)")
    echo "--box $shape --memory $memory: $verdict, $seconds s, $((kb / 1024)) MB peak"
  done
done
rm -f "$peak"
