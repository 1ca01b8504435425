#!/bin/sh
# Shards end to end, as processes: the CPU time of one whole count of the 6x10 pentominoes
# (`xc --count -j1`) against that of the slowest of N shard processes (`xc --shard I/N`), each
# the median of three runs; every shard pays its own plan, which the records' even share of
# the split does not show (shard_balance.sh shows the records).
#   sh benches/peers/shard_speed.sh BIN [N]      (N: 16 unless given)
set -eu
bin=$1
n=${2:-16}
python3 - "$bin" "$n" fixtures/pentominoes_6x10.dlx <<'PY'
import resource, statistics, subprocess, sys
binary, n, problem = sys.argv[1], int(sys.argv[2]), sys.argv[3]
# The first child of a Python process is charged with copying the parent's pages.
subprocess.run(["true"], check=True)
def cpu(args):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
def median_of_3(args):
    return statistics.median(cpu(args) for _ in range(3))
whole = median_of_3([binary, "xc", problem, "--count", "-j1", "-q"])
shards = [median_of_3([binary, "xc", problem, "--shard", f"{i}/{n}", "-q"]) for i in range(1, n + 1)]
print(f"one process {whole:.3f} s of CPU; {n} shards {min(shards):.3f} to {max(shards):.3f} s, "
      f"{sum(shards):.3f} s in all; one process over the slowest shard: {whole / max(shards):.2f}")
PY
