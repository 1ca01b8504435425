#!/usr/bin/env python3
"""quadrille against miniexact (Algorithm C$) on problems with costs, one thread each, in one
run: the cheapest solution's cost by each, checked against each other, and the median wall
time of 3 runs (alternating), with the ratio quadrille / miniexact.

  sh benches/peers/miniexact_build.sh /tmp/miniexact-build
  cargo build --release
  python3 benches/peers/costs_speed.py /tmp/miniexact-build/miniexact-fixed target/release/quadrille

miniexact runs as `miniexact -C -D -p -e -K 1`: without -e it stops at the first solution it
meets, which is not the cheapest; with it, it prints each solution that beats the best so far,
and its answer is the cheapest of those. Use the fixed build: the released 1.6.1 misses
cheaper solutions (docs/guide.md, "Against miniexact").

The problems (written to a temporary directory; miniexact reads each through
benches/peers/to_miniexact.py, with a tag item per option so that its answer can be priced):
- pentominoes: fixtures/costs_pentominoes_6x10.dlx (the tiling of least potential energy);
- queens N: N queens (rows and columns primary, diagonals secondary), the queen on row r,
  column c costing (7 r + 13 c) mod 10, N = 13, 15 and 16;
- assignment N: N workers, N jobs, prices from a fixed linear congruential sequence mod 50
  (N = 12: quick for both).
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def queens(n):
    items = [f"r{i}" for i in range(n)] + [f"c{i}" for i in range(n)]
    diagonals = [f"a{i}" for i in range(2 * n - 1)] + [f"b{i}" for i in range(2 * n - 1)]
    lines = [" ".join(items) + " | " + " ".join(diagonals)]
    for r in range(n):
        for c in range(n):
            lines.append(f"r{r} c{c} a{r + c} b{r - c + n - 1} |{(7 * r + 13 * c) % 10}")
    return "\n".join(lines) + "\n"


def assignment(n):
    x, lines = 12345, [" ".join(f"w{i}" for i in range(n)) + " " + " ".join(f"j{i}" for i in range(n))]
    for w in range(n):
        for j in range(n):
            x = (1103515245 * x + 12345) % 2**31
            lines.append(f"w{w} j{j} |{x % 50}")
    return "\n".join(lines) + "\n"


def option_costs(path):
    out, items = [], None
    for line in open(path):
        text = line.strip()
        if not text or text.startswith("|"):
            continue
        if items is None:
            items = text
            continue
        out.append(sum(int(t[1:]) for t in text.split() if t[0] in "|$" and t[1:].isdigit()))
    return out


LIMIT = 600


def timed(command):
    """Seconds of wall time and the finished run, or (None, None) past LIMIT seconds."""
    start = time.perf_counter()
    try:
        run = subprocess.run(command, capture_output=True, text=True, timeout=LIMIT)
    except subprocess.TimeoutExpired:
        return None, None
    return time.perf_counter() - start, run


def main():
    miniexact, quadrille = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        problems = [("pentominoes 6x10", os.path.join(ROOT, "fixtures/costs_pentominoes_6x10.dlx"))]
        for name, text in [("queens 13", queens(13)), ("queens 15", queens(15)),
                           ("queens 16", queens(16)), ("assignment 12", assignment(12))]:
            path = os.path.join(tmp, name.replace(" ", "") + ".dlx")
            open(path, "w").write(text)
            problems.append((name, path))
        print("problem | quadrille cost | miniexact cost | quadrille s (median of 3) | miniexact s | ratio",
              flush=True)
        for name, path in problems:
            tagged = os.path.join(tmp, "me.dlx")
            with open(tagged, "w") as f:
                subprocess.run([sys.executable, os.path.join(HERE, "to_miniexact.py"), "--tag", path],
                               stdout=f, check=True)
            ours, theirs = [], []
            cost = their_cost = None
            for _ in range(3):
                t, run = timed([quadrille, "xc", path, "--cheapest", "1", "--json", "-q"])
                ours.append(t)
                if run is not None:
                    found = json.loads(run.stdout)["solutions"]
                    cost = found[0]["cost"] if found else "none"
                t, run = timed([miniexact, "-C", "-D", "-p", "-e", "-K", "1", tagged])
                theirs.append(t)
                if run is not None:
                    costs = option_costs(path)
                    found = [sum(costs[int(x[1:].rstrip(";"))] for x in block.split() if x.startswith("#"))
                             for block in run.stdout.split("\n\n") if "#" in block]
                    their_cost = min(found) if found else "none"
            show = lambda ts: f"> {LIMIT}" if None in ts else f"{statistics.median(ts):.3f}"
            ratio = "-" if None in ours + theirs else f"{statistics.median(ours) / statistics.median(theirs):.2f}"
            print(f"{name} | {cost} | {their_cost} | {show(ours)} | {show(theirs)} | {ratio}", flush=True)


main()
