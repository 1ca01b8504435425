#!/usr/bin/env python3
"""Counts solutions up to 2 with a CDCL SAT solver (CaDiCaL 1.5.3 by default, through PySAT),
for quadrille's peer comparisons: how many conflicts a clause-learning solver needs where
quadrille's DLX counts backtracks.

A peer, not a dependency: install it with `pip install python-sat`. The encoding is the usual
"extended" one: a variable per cell and digit; for each cell, and for each group (row, column,
box) and digit, at least one and at most one (pairwise); the givens as unit clauses. After a
solution its negation is added and the solver runs again, so the count is exact up to 2.
Prints one line per puzzle (line number, count, conflicts, seconds of solving, loading the
clauses excluded) and a summary on standard error.

    python3 benches/peers/sat.py puzzles.txt [--box RxC] [--solver cadical153|glucose4|...]
"""

import argparse
import math
import statistics
import sys
import time
from itertools import combinations

from pysat.solvers import Solver

from puzzle_lines import box_shape, digit, parse_box, puzzles


def clauses(line, box):
    n = math.isqrt(len(line))
    assert n * n == len(line), f"not a square grid: {len(line)} cells"
    r, c = box or box_shape(n)
    assert r * c == n, f"a {r}x{c} box does not fit a {n}x{n} grid"

    def var(i, j, d):
        return (i * n + j) * n + d + 1

    def exactly_one(literals):
        yield literals
        yield from ([-a, -b] for a, b in combinations(literals, 2))

    groups = [[(i, j) for j in range(n)] for i in range(n)]
    groups += [[(i, j) for i in range(n)] for j in range(n)]
    groups += [
        [(bi + a, bj + b) for a in range(r) for b in range(c)]
        for bi in range(0, n, r)
        for bj in range(0, n, c)
    ]
    for i in range(n):
        for j in range(n):
            yield from exactly_one([var(i, j, d) for d in range(n)])
    for group in groups:
        for d in range(n):
            yield from exactly_one([var(i, j, d) for i, j in group])
    for k, ch in enumerate(line):
        if digit(ch):
            yield [var(k // n, k % n, digit(ch) - 1)]


def count(line, box, solver_name):
    solver = Solver(name=solver_name, bootstrap_with=list(clauses(line, box)))
    start = time.perf_counter()
    found = 0
    while found < 2 and solver.solve():
        found += 1
        solver.add_clause([-v for v in solver.get_model() if v > 0])
    seconds = time.perf_counter() - start
    conflicts = solver.accum_stats().get("conflicts", 0)
    solver.delete()
    return found, conflicts, seconds


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("--box", default=None, help="RxC")
    parser.add_argument("--solver", default="cadical153")
    args = parser.parse_args()
    box = parse_box(args.box)
    times, conflicts = [], []
    for number, line in puzzles(args.file):
        found, conflicts_here, seconds = count(line, box, args.solver)
        times.append(seconds)
        conflicts.append(conflicts_here)
        print(f"{number} {found} {conflicts_here} {seconds:.4f}")
    print(
        f"{len(times)} puzzles; conflicts mean {statistics.mean(conflicts):.0f}"
        f" median {statistics.median(conflicts):.0f} max {max(conflicts)};"
        f" seconds mean {statistics.mean(times):.4f} median {statistics.median(times):.4f}"
        f" max {max(times):.4f}",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
