#!/usr/bin/env python3
"""quadrille's K cheapest solutions against miniexact's (Algorithm C$, `miniexact -C -K K`)
on random small problems with costs, plain and with colours (miniexact has no costs with
multiplicities), costs 0 to 20 with ties, options of cost 0 and problems without solution:

  sh benches/peers/miniexact_build.sh /tmp/miniexact-build
  cargo build --release
  python3 benches/peers/miniexact_costs.py /tmp/miniexact-build/miniexact-fixed target/release/quadrille [N] [SEED] [-v]

(miniexact-released gives the PyPI wheel's answers, wrong on 113 of the 1,500 runs of seed 1;
miniexact-fixed, with its C$ restore loops mended, on none: docs/guide.md, "Against miniexact".)

For each problem and K = 1, 3, 10: the costs of quadrille's K cheapest (`xc --cheapest K
--json`) and the K least costs among the solutions miniexact prints (it prints each solution
that beats the K+1-th best so far, so the K best are among them), each against a
brute force over every subset of options. miniexact reads
the file through benches/peers/to_miniexact.py (one `$n`, options sorted by cost, a tag item
per option to name it in its output). Prints one line per disagreement and a summary.
"""
import json
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def random_problem(rng, colours):
    primary = rng.randint(1, 5)
    secondary = rng.randint(0, 3)
    items = " ".join(f"p{i}" for i in range(primary))
    if secondary:
        items += " | " + " ".join(f"s{i}" for i in range(secondary))
    lines = [items]
    for _ in range(rng.randint(0, 12)):
        names = [f"p{i}" for i in sorted(rng.sample(range(primary), rng.randint(1, min(3, primary))))]
        for s in range(secondary):
            if rng.random() < 0.4:
                colour = rng.choice(["", ":R", ":B"]) if colours else ""
                names.append(f"s{s}{colour}")
        cost = rng.choice([0, 5, rng.randint(0, 20)])
        lines.append(" ".join(names) + f" |{cost}")
    return "\n".join(lines) + "\n"


def costs_of(path):
    """The cost of each option of a dlx file, in order."""
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


def miniexact_costs(miniexact, path, k):
    with tempfile.NamedTemporaryFile("w", suffix=".dlx", delete=False) as f:
        subprocess.run([sys.executable, os.path.join(HERE, "to_miniexact.py"), "--tag", path],
                       stdout=f, check=True)
        converted = f.name
    try:
        run = subprocess.run([miniexact, "-C", "-D", "-p", "-e", "-K", str(k), converted],
                             capture_output=True, text=True, timeout=2)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"miniexact ran past 2 s on {path}")
    finally:
        os.unlink(converted)
    if run.returncode not in (0, 10, 20):
        raise RuntimeError(f"miniexact failed on {path}: {run.stderr}")
    costs = costs_of(path)
    found = []
    for block in run.stdout.split("\n\n"):
        tags = [int(t[1:].rstrip(";")) for t in block.split() if t.startswith("#")]
        if tags:
            found.append(sum(costs[t] for t in tags))
    return sorted(found)[:k]


def brute_force(path, k):
    """The K least costs of a solution, over every subset of options (plain and colours)."""
    items, options = None, []
    for line in open(path):
        text = line.strip()
        if items is None:
            items = text.split()
            continue
        names = [t for t in text.split() if t[0] != "|"]
        cost = sum(int(t[1:]) for t in text.split() if t[0] == "|")
        options.append((names, cost))
    primary = items[: items.index("|")] if "|" in items else items
    found = []
    for mask in range(1 << len(options)):
        covered, colour, cost = {}, {}, 0
        ok = True
        for o, (names, c) in enumerate(options):
            if not mask >> o & 1:
                continue
            cost += c
            for name in names:
                item, _, col = name.partition(":")
                if item in primary:
                    covered[item] = covered.get(item, 0) + 1
                elif item in colour and (not col or colour[item] != col):
                    ok = False
                else:
                    colour[item] = col
        if ok and all(covered.get(p, 0) == 1 for p in primary):
            found.append(cost)
    return sorted(found)[:k]


def quadrille_costs(quadrille, path, k):
    run = subprocess.run([quadrille, "xc", path, "--cheapest", str(k), "--json", "-q"],
                         capture_output=True, text=True, check=True)
    return [s["cost"] for s in json.loads(run.stdout)["solutions"]]


def main():
    miniexact, quadrille = sys.argv[1], sys.argv[2]
    numbers = [a for a in sys.argv[3:] if a != "-v"]
    n = int(numbers[0]) if numbers else 500
    rng = random.Random(int(numbers[1]) if len(numbers) > 1 else 1)
    agree = disagree = empty = 0
    quadrille_wrong = miniexact_wrong = miniexact_failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for case in range(n):
            path = os.path.join(tmp, f"p{case}.dlx")
            with open(path, "w") as f:
                f.write(random_problem(rng, colours=case % 2 == 1))
            for k in (1, 3, 10):
                truth = brute_force(path, k)
                ours = quadrille_costs(quadrille, path, k)
                quadrille_wrong += ours != truth
                try:
                    theirs = miniexact_costs(miniexact, path, k)
                except RuntimeError:
                    miniexact_failed += 1
                    theirs = None
                if theirs is not None:
                    miniexact_wrong += theirs != truth
                if ours == theirs:
                    agree += 1
                    empty += not ours
                else:
                    disagree += 1
                    print(f"problem {case} K={k}: brute force {truth}, quadrille {ours}, "
                          f"miniexact {'failed' if theirs is None else theirs}")
                    if "-v" in sys.argv:
                        print(open(path).read())
    runs = 3 * n
    print(f"{n} problems ({n - n // 2} plain, {n // 2} with colours), K = 1, 3, 10: {runs} runs; "
          f"quadrille and miniexact agree on {agree} ({empty} without solution), disagree on "
          f"{disagree}; against brute force: quadrille wrong on {quadrille_wrong}, miniexact "
          f"wrong on {miniexact_wrong} and crashed or ran past 2 s on {miniexact_failed}")
    sys.exit(1 if quadrille_wrong else 0)


main()
