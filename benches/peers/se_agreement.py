#!/usr/bin/env python3
"""Agreement of `quadrille rate` with Sudoku Explainer (SE) on a rated reference set.

Input: a reference file of lines `PUZZLE ER` (SE's serate `--format="%g %r"`), and the
`quadrille rate --json` lines of the same puzzles in the same order. Prints, overall and for
the puzzles SE rates 7.0 and up: the Spearman rank correlation (ties get their mean rank),
the share of exact matches, and the mean absolute difference; with --by-score, the mean of
our score per SE score; with --range LO..HI, also the figures for the puzzles the reference
rates from LO to HI (both included).
"""
import json
import sys
from collections import defaultdict


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    result = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            result[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return result


def pearson(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / (sxx * syy) ** 0.5 if sxx and syy else float("nan")


def spearman(xs, ys):
    return pearson(ranks(xs), ranks(ys))


def summary(name, pairs):
    if len(pairs) < 2:
        return f"{name}: {len(pairs)} puzzles"
    se = [p[0] for p in pairs]
    us = [p[1] for p in pairs]
    exact = sum(1 for a, b in pairs if abs(a - b) < 0.05) / len(pairs)
    mad = sum(abs(a - b) for a, b in pairs) / len(pairs)
    return (f"{name}: {len(pairs)} puzzles, Spearman {spearman(se, us):.3f}, "
            f"exact {100 * exact:.1f}%, mean |diff| {mad:.2f}")


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    by_score = "--by-score" in sys.argv
    ranges = [a.split("=", 1)[1] if "=" in a else None for a in sys.argv[1:] if a.startswith("--range")]
    reference, ours = args
    se = []
    with open(reference) as f:
        for line in f:
            fields = line.split()
            if len(fields) >= 2 and not line.startswith("#"):
                se.append((fields[0], float(fields[1])))
    with open(ours) as f:
        rated = [json.loads(line) for line in f if line.strip()]
    if len(rated) != len(se):
        sys.exit(f"{len(se)} reference lines but {len(rated)} ratings")
    pairs = []
    for (puzzle, er), r in zip(se, rated):
        if "score" not in r:
            sys.exit(f"line {r.get('line')}: no score ({puzzle})")
        pairs.append((er, r["score"]))
    print(summary("all", pairs))
    print(summary("SE >= 7.0", [p for p in pairs if p[0] >= 7.0]))
    print(summary("SE >= 9.0", [p for p in pairs if p[0] >= 9.0]))
    for band in ranges:
        low, high = (float(x) for x in band.split(".."))
        print(summary(f"SE {low}..{high}", [p for p in pairs if low <= p[0] <= high]))
    if by_score:
        groups = defaultdict(list)
        for a, b in pairs:
            groups[a].append(b)
        for a in sorted(groups):
            g = groups[a]
            print(f"  SE {a:4.1f}: {len(g):4d} puzzles, ours mean {sum(g) / len(g):5.2f}, "
                  f"min {min(g):4.1f}, max {max(g):4.1f}")


if __name__ == "__main__":
    main()
