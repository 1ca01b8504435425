#!/bin/sh
# The balance of the 16 shards of the 6x10 pentominoes, from the shards' own `--json` records,
# and of the parts that `--threads 16` hands out (a simulated greedy schedule of the measured
# parts: two cores cannot show sixteen):
#   sh benches/peers/shard_balance.sh BIN [PART_BALANCE]
# BIN: a quadrille binary; PART_BALANCE: the `part_balance` example's binary (built with
# `cargo build --release --example part_balance` when not given).
set -eu
bin=$1
parts=${2:-}
problem=fixtures/pentominoes_6x10.dlx
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for i in $(seq 16); do "$bin" xc "$problem" --shard "$i/16" --json -q; done > "$out"
python3 - "$out" <<'PY'
import json, sys
records = [json.loads(line) for line in open(sys.argv[1])]
total = sum(r["updates"] for r in records)
print("| shard | nodes | updates | share of the updates |")
print("|---|---|---|---|")
for r in records:
    print(f"| {r['shard']} | {r['nodes']:,} | {r['updates']:,} | {100 * r['updates'] / total:.2f}% |")
largest = max(r["updates"] for r in records)
nodes = [r["nodes"] for r in records]
print(f"\n{sum(r['solutions'] for r in records):,} solutions, {sum(nodes):,} nodes "
      f"({min(nodes):,} to {max(nodes):,} a shard), {total:,} updates; "
      f"the largest shard holds 1/{total / largest:.2f} of the updates")
PY
if [ -z "$parts" ]; then
  cargo build --release --quiet --example part_balance
  parts=target/release/examples/part_balance
fi
"$parts" "$problem" 16
