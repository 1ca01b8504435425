#!/bin/sh
# Two threads against one, and against the machine's own ceiling: two single-thread processes
# each solving half of the set at once. Per set, ROUNDS interleaved rounds of three commands
# (the pair of halves, `solve --limit 2 -j2`, `solve --limit 2 -j1`), wall seconds; prints the
# medians, -j1 over -j2, -j1 over the pair, the CPU seconds (user and system) and the peak
# memory of -j1 and -j2, and the peak memory of -j2 on the set taken once (memory flat: the
# same whatever the number of lines). The 17-clue set is taken twenty times over (983,160
# lines), so that a run lasts a couple of seconds and the process's start and stop do not
# weigh. Build first: `cargo build --release --locked`.
#
#   benches/peers/threads.sh [DATA_DIR]
set -eu
Q=${Q:-target/release/quadrille}
DATA=${1:-../shared/data}
ROUNDS=${ROUNDS:-9}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

for set in puzzles2_17_clue puzzles5_forum_hardest_1905_11+; do
    times=1
    [ "$set" = puzzles2_17_clue ] && times=20
    for _ in $(seq "$times"); do grep -v '^#' "$DATA/$set"; done > "$scratch/all.txt"
    lines=$(wc -l < "$scratch/all.txt")
    head -n $((lines / 2)) "$scratch/all.txt" > "$scratch/first.txt"
    tail -n +$((lines / 2 + 1)) "$scratch/all.txt" > "$scratch/second.txt"
    : > "$scratch/times.txt"
    for _ in $(seq "$ROUNDS"); do
        /usr/bin/time -a -o "$scratch/times.txt" -f "pair %e" sh -c "
            '$Q' solve --limit 2 -j1 '$scratch/first.txt' > /dev/null &
            '$Q' solve --limit 2 -j1 '$scratch/second.txt' > /dev/null
            wait"
        for j in 2 1; do
            /usr/bin/time -a -o "$scratch/times.txt" -f "j$j %e %U %S %M" \
                "$Q" solve --limit 2 -j$j "$scratch/all.txt" > /dev/null
        done
    done
    grep -v '^#' "$DATA/$set" > "$scratch/once.txt"
    /usr/bin/time -a -o "$scratch/times.txt" -f "once %e %U %S %M" \
        "$Q" solve --limit 2 -j2 "$scratch/once.txt" > /dev/null
    python3 - "$set" "$lines" "$scratch/times.txt" <<'EOF'
import statistics, sys
name, lines, path = sys.argv[1], sys.argv[2], sys.argv[3]
runs, cpu, peak = {}, {}, {}
for line in open(path):
    kind, seconds, *used = line.split()
    runs.setdefault(kind, []).append(float(seconds))
    if kind != "pair":
        cpu.setdefault(kind, []).append(float(used[0]) + float(used[1]))
        peak.setdefault(kind, []).append(int(used[2]) / 1024)
median = {kind: statistics.median(v) for kind, v in runs.items()}
cpu = {kind: statistics.median(v) for kind, v in cpu.items()}
print(f"{name} ({lines} lines): -j1 {median['j1']:.3f} s, -j2 {median['j2']:.3f} s, "
      f"two -j1 halves at once {median['pair']:.3f} s; -j1/-j2 {median['j1'] / median['j2']:.2f}, "
      f"-j1/pair {median['j1'] / median['pair']:.2f}; CPU -j1 {cpu['j1']:.2f} s, -j2 {cpu['j2']:.2f} s; "
      f"peak memory -j1 {max(peak['j1']):.1f} MB, -j2 {max(peak['j2']):.1f} MB, "
      f"-j2 on the set once {max(peak['once']):.1f} MB")
EOF
done
