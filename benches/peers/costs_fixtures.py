#!/usr/bin/env python3
"""Writes the two fixtures with costs (run from the repository's root):

  python3 benches/peers/costs_fixtures.py

- fixtures/costs_pentominoes_6x10.dlx: fixtures/pentominoes_6x10.dlx with each placement
  priced by its potential energy: the piece's weight (F=1, I=2, ..., Z=12, in the order of
  the item line) times the height of its cells above the bottom row, summed (row r of 6 is
  at height 5 - r). The cheapest tilings put the heavy pieces at the bottom.
- fixtures/costs_assignment6.dlx: six workers, six jobs, a price for each pair (a fixed
  formula with ties); the cheapest exact covers are the cheapest assignments.
"""

PIECES = "FILNPTUVWXYZ"


def pentominoes():
    out = []
    with open("fixtures/pentominoes_6x10.dlx") as f:
        lines = f.read().splitlines()
    out.append("| The twelve pentominoes on a 6x10 board, each placement priced by its potential")
    out.append("| energy: the piece's weight (F=1, I=2, ..., Z=12) times the heights of its cells")
    out.append("| above the bottom row (row r at height 5 - r), summed. Knuth's dlx5 costs (|n).")
    out.append("| Made by benches/peers/costs_fixtures.py from pentominoes_6x10.dlx.")
    items = None
    for line in lines:
        if not line.strip() or line.lstrip().startswith("|"):
            continue
        if items is None:
            items = line
            out.append(line)
            continue
        tokens = line.split()
        weight = PIECES.index(tokens[0]) + 1
        height = sum(5 - int(cell.split(".")[0]) for cell in tokens[1:])
        out.append(f"{line} |{weight * height}")
    with open("fixtures/costs_pentominoes_6x10.dlx", "w") as f:
        f.write("\n".join(out) + "\n")


def assignment():
    out = [
        "| Six workers, six jobs: each worker does one job, each job is done once; option",
        "| 'wW jJ |p' costs p = (3*W*W + 5*J + 7*W*J) mod 11 + 1.",
        "| Made by benches/peers/costs_fixtures.py.",
        " ".join(f"w{w}" for w in range(6)) + " " + " ".join(f"j{j}" for j in range(6)),
    ]
    for w in range(6):
        for j in range(6):
            out.append(f"w{w} j{j} |{(3 * w * w + 5 * j + 7 * w * j) % 11 + 1}")
    with open("fixtures/costs_assignment6.dlx", "w") as f:
        f.write("\n".join(out) + "\n")


pentominoes()
assignment()
