#!/bin/bash
# A count split into a Slurm job array, then merged by a job that waits for the array:
#   sh docs/recipes/slurm_count.sh PROBLEM.dlx SHARDS [QUADRILLE]
# Every task makes the same split and counts its own shard (`xc --shard I/N --json`); a task
# that runs out of time prints "complete": false, and the merge then says partial, names the
# shard and exits 1: rerun that shard alone with its own number. The merge job exits 0 only
# for a total.
set -euo pipefail
problem=$1 shards=$2 quadrille=${3:-quadrille}
out=${OUT:-shards}
mkdir -p "$out"
array=$(sbatch --parsable --job-name=count --array="1-$shards" --cpus-per-task=1 \
  --time="${TIME:-24:00:00}" --output="$out/shard-%a.json" \
  --wrap="$quadrille xc '$problem' --shard \"\$SLURM_ARRAY_TASK_ID/$shards\" --json -q")
sbatch --parsable --job-name=merge --dependency="afterany:$array" --output="$out/merged.txt" \
  --wrap="$quadrille merge $out/shard-*.json"
