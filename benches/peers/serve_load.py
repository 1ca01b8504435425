#!/usr/bin/env python3
"""A bounded load test of `quadrille serve` on loopback: solves of 17-clue puzzles from many
clients at once, and long counts beside them.

    python3 benches/peers/serve_load.py target/release/quadrille ../shared/data \
        [--clients 200] [--per-client 10] [--counts 20]

Each client sends its solves one after another (one puzzle each, `limit` 2), so that `clients`
requests are in flight at once; each count client streams one count of the 13 queens (73,712
solutions) on one thread. Every answer is checked: each solve's record is its own puzzle's
(the line's givens kept, every row, column and box complete), unique, and each count exact.
Reports requests, concurrency, p50/p99/max latency, errors, and the server's resident memory:
at the start, after the run, and its peak (VmHWM)."""

import argparse
import json
import pathlib
import statistics
import subprocess
import sys
import threading
import time
import urllib.request


def rss(pid, key):
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def queens(n):
    items = [f"r{i}" for i in range(n)] + [f"c{j}" for j in range(n)]
    diagonals = [f"a{k}" for k in range(2 * n - 1)] + [f"b{k}" for k in range(2 * n - 1)]
    lines = [" ".join(items) + " | " + " ".join(diagonals)]
    lines += [f"r{i} c{j} a{i + j} b{i - j + n - 1}" for i in range(n) for j in range(n)]
    return "\n".join(lines) + "\n"


def valid(puzzle, solution):
    if len(solution) != 81 or any(g not in ".0" and g != s for g, s in zip(puzzle, solution)):
        return False
    units = [[r * 9 + c for c in range(9)] for r in range(9)]
    units += [[r * 9 + c for r in range(9)] for c in range(9)]
    units += [[(b // 3 * 3 + i // 3) * 9 + b % 3 * 3 + i % 3 for i in range(9)] for b in range(9)]
    return all(set(solution[i] for i in unit) == set("123456789") for unit in units)


def post(url, body):
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST")
    with urllib.request.urlopen(request, timeout=300) as answer:
        return answer.read()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("data")
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--per-client", type=int, default=10)
    parser.add_argument("--counts", type=int, default=20)
    args = parser.parse_args()
    lines = (pathlib.Path(args.data) / "puzzles2_17_clue").read_text().splitlines()
    puzzles = [l.split()[0] for l in lines if l and not l.startswith("#")]
    server = subprocess.Popen([args.binary, "serve", "--port", "0"], stdout=subprocess.PIPE,
                              text=True)
    url = server.stdout.readline().strip().rstrip("/")
    start_rss = rss(server.pid, "VmRSS")
    latencies, counts, errors = [], [], []
    lock = threading.Lock()

    def solver(k):
        for i in range(args.per_client):
            puzzle = puzzles[(k * args.per_client + i) % len(puzzles)]
            began = time.monotonic()
            try:
                [record] = json.loads(post(url + "/api/solve", {"puzzle": puzzle}))["results"]
                ok = record["solutions"] == 1 and record["exact"] and valid(puzzle, record["solution"])
            except Exception as err:  # noqa: BLE001 - every failure is counted
                ok, record = False, err
            with lock:
                latencies.append(time.monotonic() - began)
                if not ok:
                    errors.append(("solve", puzzle, record))

    def counter(problem):
        began = time.monotonic()
        try:
            text = post(url + "/api/xc", {"dlx": problem, "threads": 1}).decode()
            result = json.loads(text.split("event: result\ndata: ")[1].split("\n")[0])
            ok = result["solutions"] == 73712 and result["complete"]
        except Exception as err:  # noqa: BLE001
            ok, result = False, err
        with lock:
            counts.append(time.monotonic() - began)
            if not ok:
                errors.append(("count", result))

    problem = queens(13)
    threads = [threading.Thread(target=counter, args=(problem,)) for _ in range(args.counts)]
    threads += [threading.Thread(target=solver, args=(k,)) for k in range(args.clients)]
    began = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.monotonic() - began
    end_rss, peak = rss(server.pid, "VmRSS"), rss(server.pid, "VmHWM")
    server.terminate()
    server.wait()
    latencies.sort()
    q = lambda p: latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000  # noqa: E731
    print(f"solves: {len(latencies)} requests from {args.clients} clients at once, "
          f"{len(latencies) / wall:.0f}/s; latency p50 {q(0.5):.1f} ms, p99 {q(0.99):.1f} ms, "
          f"max {latencies[-1] * 1000:.1f} ms")
    print(f"counts: {len(counts)} of the 13 queens at once (2 slots), each answered in "
          f"median {statistics.median(counts):.2f} s, max {max(counts):.2f} s")
    print(f"wall {wall:.1f} s; errors {len(errors)}; server memory: {start_rss:.1f} MB at the "
          f"start, {end_rss:.1f} MB after, peak {peak:.1f} MB")
    for error in errors[:5]:
        print("error:", error, file=sys.stderr)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
