#!/usr/bin/env python3
"""Counts solutions up to 2 with OR-Tools CP-SAT, one worker, for quadrille's peer comparisons.

A peer, not a dependency: install it with `pip install ortools`. Reads puzzles one per line in
quadrille's line format ('.' or '0' blank; 1-9 then A-Z for 10 and up; '#' comments) and prints
one line per puzzle: its line number, the count (2 means "2 or more"), and the seconds taken by
the solver (model building excluded). A summary goes to standard error.

    python3 benches/peers/cpsat.py puzzles.txt [--box RxC] [--time-limit SECONDS]

Without --box the box is the most square r x c with r <= c (as quadrille infers it); give
--box 1xN for Latin squares.
"""

import argparse
import math
import statistics
import sys
import time

from ortools.sat.python import cp_model

from puzzle_lines import box_shape, digit, parse_box, puzzles


class Stop(cp_model.CpSolverSolutionCallback):
    def __init__(self, limit):
        super().__init__()
        self.limit, self.count = limit, 0

    def on_solution_callback(self):
        self.count += 1
        if self.count >= self.limit:
            self.stop_search()


def count(line, time_limit, box):
    n = math.isqrt(len(line))
    assert n * n == len(line), f"not a square grid: {len(line)} cells"
    r, c = box or box_shape(n)
    assert r * c == n, f"a {r}x{c} box does not fit a {n}x{n} grid"
    model = cp_model.CpModel()
    x = [[model.new_int_var(1, n, f"x{i}_{j}") for j in range(n)] for i in range(n)]
    for i in range(n):
        model.add_all_different(x[i])
        model.add_all_different([x[k][i] for k in range(n)])
    for bi in range(0, n, r):
        for bj in range(0, n, c):
            model.add_all_different([x[bi + a][bj + b] for a in range(r) for b in range(c)])
    for k, ch in enumerate(line):
        d = digit(ch)
        if d:
            model.add(x[k // n][k % n] == d)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.enumerate_all_solutions = True
    if time_limit:
        solver.parameters.max_time_in_seconds = time_limit
    stop = Stop(2)
    start = time.perf_counter()
    status = solver.solve(model, stop)
    seconds = time.perf_counter() - start
    decided = stop.count >= 2 or status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
    return stop.count, decided, seconds


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("--time-limit", type=float, default=0)
    parser.add_argument("--box", default=None, help="RxC")
    args = parser.parse_args()
    box = parse_box(args.box)
    times, undecided = [], 0
    for number, line in puzzles(args.file):
        found, decided, seconds = count(line, args.time_limit, box)
        undecided += not decided
        times.append(seconds)
        print(f"{number} {found}{'' if decided else '+'} {seconds:.4f}")
    print(
        f"{len(times)} puzzles, {undecided} undecided; seconds mean {statistics.mean(times):.4f}"
        f" median {statistics.median(times):.4f} max {max(times):.4f}",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
