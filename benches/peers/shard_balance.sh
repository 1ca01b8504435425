#!/bin/sh
# The balance of the 16 shards of the 6x10 pentominoes, from the shards' own `--json` records,
# and of the parts that `--threads 16` hands out (a simulated greedy schedule of the measured
# parts: two cores cannot show sixteen):
#   sh benches/peers/shard_balance.sh BIN [PART_BALANCE]
# BIN: a quadrille binary; PART_BALANCE: the `part_balance` example's binary (built with
# `cargo build --release --example part_balance` when not given). With ALSO="8 12 24 32", a
# line more for each of those numbers of shards.
set -eu
bin=$1
parts=${2:-}
problem=fixtures/pentominoes_6x10.dlx
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# One line a number of shards, from their records; the table of each shard for the first.
for n in 16 ${ALSO:-}; do
  for i in $(seq "$n"); do "$bin" xc "$problem" --shard "$i/$n" --json -q; done > "$out"
  python3 - "$out" "$n" <<'PY'
import json, sys
records = [json.loads(line) for line in open(sys.argv[1])]
total = sum(r["updates"] for r in records)
if sys.argv[2] == "16":
    print("| shard | nodes | updates | share of the updates |")
    print("|---|---|---|---|")
    for r in records:
        print(f"| {r['shard']} | {r['nodes']:,} | {r['updates']:,} | {100 * r['updates'] / total:.2f}% |")
    print()
largest = max(r["updates"] for r in records)
nodes = [r["nodes"] for r in records]
print(f"{sys.argv[2]} shards: {sum(r['solutions'] for r in records):,} solutions, "
      f"{sum(nodes):,} nodes ({min(nodes):,} to {max(nodes):,} a shard), {total:,} updates; "
      f"the largest shard holds 1/{total / largest:.2f} of the updates, "
      f"{largest * len(records) / total:.3f} times the mean")
PY
done
if [ -z "$parts" ]; then
  cargo build --release --quiet --example part_balance
  parts=target/release/examples/part_balance
fi
"$parts" "$problem" 16
