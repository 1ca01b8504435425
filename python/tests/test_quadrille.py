"""quadrille from Python: real answers (known counts, fixtures' puzzles, solutions checked
cell by cell here, by rules written in this file), errors, budgets, streams."""

import _thread
import json
import os
import pathlib
import re
import threading
import time

import pytest

import quadrille as q

FIXTURES = pathlib.Path(__file__).resolve().parents[2] / "fixtures"

CLASSIC = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"


def digits_of(line):
    """A one-line grid as digits 0 (empty) to 25, `.`/`0` empty, `1`-`9` then `A`-`P`."""
    return [0 if c in ".0" else int(c) if c.isdigit() else ord(c) - ord("A") + 10 for c in line]


def assert_solves(puzzle, solution, box_rows, box_cols, extra_groups=()):
    """Every row, column, box (and extra group) holds 1..n once, and the givens are kept."""
    n = box_rows * box_cols
    p, s = digits_of(puzzle), digits_of(solution)
    assert len(s) == n * n
    for cell, given in enumerate(p):
        assert given == 0 or s[cell] == given, f"given changed at cell {cell}"
    groups = [[r * n + c for c in range(n)] for r in range(n)]
    groups += [[r * n + c for r in range(n)] for c in range(n)]
    for br in range(0, n, box_rows):
        for bc in range(0, n, box_cols):
            groups.append([(br + r) * n + bc + c for r in range(box_rows) for c in range(box_cols)])
    groups += list(extra_groups)
    for group in groups:
        assert sorted(s[i] for i in group) == list(range(1, n + 1)), f"group {group}"


def fixture_lines(path):
    return [l for l in path.read_text().splitlines() if l.strip() and not l.startswith("#")]


# --- exact cover -------------------------------------------------------------------------


def test_items_and_options_give_every_cover():
    p = q.ExactCover(["a", "b", "c"], [["a", "b"], ["c"], ["a"], ["b", "c"]])
    assert p.count() == 2
    assert sorted(p.solutions().solutions) == [[0, 1], [2, 3]]
    for solution in p.solutions():
        covered = sorted(i for o in solution for i in p.option_text(o).split())
        assert covered == ["a", "b", "c"]


def test_knuths_example_from_dlx_text():
    p = q.ExactCover.read_dlx(FIXTURES / "knuth_example.dlx")
    (solution,) = p.solutions().solutions
    texts = sorted(" ".join(sorted(p.option_text(o).split())) for o in solution)
    assert texts == ["a d f", "b g", "c e"]
    assert q.ExactCover.from_dlx(p.to_dlx()).count() == 1


@pytest.mark.parametrize(
    "name, count",
    [("queens8.dlx", 92), ("langford7.dlx", 52), ("pentominoes_3x20.dlx", 8), ("secondary_hand.dlx", 3)],
)
def test_known_counts(name, count):
    p = q.ExactCover.read_dlx(FIXTURES / name)
    c = p.count()
    assert c == count and int(c) == count and c.exact and c.stop == "exhausted"
    assert c.stats["solutions"] == count and c.stats["nodes"] > 0
    assert p.count(threads=2) == count
    assert p.count(no_restarts=True) == count
    assert len(p.solutions()) == count


def test_queens_solutions_are_queens():
    p = q.ExactCover.read_dlx(FIXTURES / "queens8.dlx")
    boards = set()
    for solution in p.iter_solutions():
        cells = []
        for o in solution:
            names = p.option_text(o).split()
            row = next(int(n[1:]) for n in names if n.startswith("r"))
            col = next(int(n[1:]) for n in names if n.startswith("c"))
            cells.append((row, col))
        assert len({r for r, _ in cells}) == len({c for _, c in cells}) == 8
        assert len({r - c for r, c in cells}) == len({r + c for r, c in cells}) == 8
        boards.add(tuple(sorted(cells)))
    assert len(boards) == 92


def test_secondary_items_colours_and_multiplicities():
    # The toy XCC problem of TAOCP 7.2.2.1, built in Python: one solution.
    p = q.ExactCover(
        ["p", "q", "r"],
        [["p", "q", "x", "y:A"], ["p", "r", "x:A", "y"], ["p", "x:B"], ["q", "x:A"], ["r", "y:B"]],
        secondary=["x", "y"],
    )
    assert not p.is_plain
    (solution,) = p.solutions().solutions
    assert sorted(p.option_text(o) for o in solution) == ["p r x:A y", "q x:A"]
    # Tuples say the same; an item taken exactly twice by three options of one item: 3 ways.
    assert q.ExactCover([("a", 2, 2)], [["a"], ["a"], ["a"]]).count() == 3
    assert q.ExactCover.read_dlx(FIXTURES / "latin4_colours.dlx").count() == 576
    assert q.ExactCover.read_dlx(FIXTURES / "cycle7_colourings.dlx").count() == 126
    assert q.ExactCover.read_dlx(FIXTURES / "queens8_multiplicity.dlx").count(threads=2) == 92


def test_limits_and_budgets_stop_cleanly():
    p = q.ExactCover.read_dlx(FIXTURES / "queens8.dlx")
    c = p.count(limit=5)
    assert (c.solutions, c.exact, c.stop, str(c)) == (5, False, "limit", "5+")
    assert c != 5  # a lower bound is no count
    s = p.solutions(3)
    assert len(s) == 3 and s.count.stop == "limit"
    b = p.count(node_budget=10, no_restarts=True)
    assert b.stop == "node-budget" and not b.exact and b.solutions < 92
    assert str(b).endswith("+")
    assert p.first() is not None
    stream = p.iter_solutions(limit=4)
    assert len(list(stream)) == 4


def test_a_dropped_stream_stops_its_search():
    p = q.ExactCover.read_dlx(FIXTURES / "pentominoes_6x10.dlx")
    stream = p.iter_solutions()
    first = next(stream)
    assert len(first) == 12  # twelve pentominoes tile the 6x10 board
    del stream
    done = p.iter_solutions(limit=2)
    assert len(list(done)) == 2 and done.result.stop == "limit"
    # A stream that meets no solution (Langford 13 has none) stops too, and leaves no thread.
    before = search_threads()
    silent = langford(13).iter_solutions()
    assert search_threads() == before + 1
    del silent
    assert threads_back_to(before), "the stream's search runs on"


def test_count_is_a_python_int_of_any_size():
    # 2**k solutions: k independent pairs {a_i} | {a_i}: each item has two options.
    k = 20
    items = [f"a{i}" for i in range(k)]
    options = [[f"a{i}"] for i in range(k) for _ in range(2)]
    c = q.ExactCover(items, options).count()
    assert c == 2**k and isinstance(c.solutions, int)


def test_estimate_and_shards():
    p = q.ExactCover.read_dlx(FIXTURES / "langford7.dlx")
    e = p.estimate(2000, seed=1)
    assert e["probes"] == 2000 and e["exact_solutions"] == 52
    low, high = e["nodes_interval"]
    assert 0 <= low <= e["nodes"]
    shards = [p.count_shard(i, 4) for i in range(1, 5)]
    assert sum(s["solutions"] for s in shards) == 52
    assert len({s["split"] for s in shards}) == 1 and all(s["complete"] for s in shards)
    with pytest.raises(q.QuadrilleError, match="plain exact cover"):
        q.ExactCover.read_dlx(FIXTURES / "latin4_colours.dlx").estimate()


def test_merge_adds_shards_up_as_the_cli_does():
    p = q.ExactCover.read_dlx(FIXTURES / "pentominoes_3x20.dlx")
    shards = [p.count_shard(i, 3) for i in (3, 1, 2)]
    merged = q.merge(shards)
    assert merged["solutions"] == 8 and merged["complete"] and not merged["partial"]
    assert (merged["shards"], merged["present"], merged["missing"]) == (3, 3, [])
    assert merged["nodes"] == sum(s["nodes"] for s in shards)
    lines = "\n".join(json.dumps(s) for s in shards) + "\n\n"
    assert q.merge(lines) == merged
    partial = q.merge(shards[:2])
    assert partial["partial"] and partial["missing"] == [2]
    assert partial["solutions"] == shards[0]["solutions"] + shards[1]["solutions"]
    # The plan's nodes (about 3,600 here) are the budget's too: it cannot be made in 1, and
    # 8,000 leave too few for the shard's 11,800.
    with pytest.raises(q.QuadrilleError, match="node budget ran out while the tree was being split"):
        p.count_shard(2, 3, node_budget=1)
    cut = p.count_shard(2, 3, node_budget=8_000)
    assert not cut["complete"] and q.merge(shards[:2] + [cut])["incomplete"] == [2]
    with pytest.raises(q.QuadrilleError, match="shard 1 given twice"):
        q.merge(shards + shards[1:2])
    other = q.ExactCover.read_dlx(FIXTURES / "queens8.dlx").count_shard(1, 3)
    with pytest.raises(q.QuadrilleError, match="has problem"):
        q.merge([shards[0], other])
    with pytest.raises(q.QuadrilleError) as raised:
        q.merge(lines.splitlines()[0] + "\n{")
    assert raised.value.line == 2
    # An edited count fails its record's checksum, at its place in the list.
    edited = dict(shards[1], solutions=shards[1]["solutions"] + 1)
    with pytest.raises(q.QuadrilleError, match="checksum") as raised:
        q.merge([shards[0], edited, shards[2]])
    assert raised.value.line == 2


def test_readers_take_a_line_of_their_limit_and_refuse_one_byte_more():
    # The README's limits, as the command-line tool has them: 64 MiB a dlx line...
    items = "a" + " " * (64 * 2**20 - 1)
    assert q.ExactCover.from_dlx(items + "\na\n").count() == 1
    with pytest.raises(q.QuadrilleError) as raised:
        q.ExactCover.from_dlx(items + " \na\n")
    err = raised.value
    assert (err.line, err.column) == (1, 1)
    assert err.message == "the line is longer than 67108864 bytes, more than any dlx line needs"
    # ...and 4 KiB a line of shard results.
    record = json.dumps(q.ExactCover.read_dlx(FIXTURES / "queens8.dlx").count_shard(1, 1))
    assert q.merge(record.ljust(4096))["solutions"] == 92
    with pytest.raises(q.QuadrilleError) as raised:
        q.merge("\n" + record.ljust(4097))
    assert (raised.value.line, raised.value.column) == (2, 1)


def test_cheapest_assignments_against_every_permutation():
    """Six workers, six jobs: the cheapest exact covers are the cheapest permutations."""
    import itertools

    price = lambda w, j: (3 * w * w + 5 * j + 7 * w * j) % 11 + 1
    options = [[f"w{w}", f"j{j}"] for w in range(6) for j in range(6)]
    costs = [price(w, j) for w in range(6) for j in range(6)]
    items = [f"w{w}" for w in range(6)] + [f"j{j}" for j in range(6)]
    p = q.ExactCover(items, options, costs=costs)
    totals = sorted(sum(price(w, j) for w, j in enumerate(perm)) for perm in itertools.permutations(range(6)))
    found = p.cheapest(5)
    assert [s["cost"] for s in found["solutions"]] == totals[:5]
    assert found["complete"] and all(s["proved"] for s in found["solutions"])
    for s in found["solutions"]:
        assert sum(costs[o] for o in s["options"]) == s["cost"]
        assert sorted(i for o in s["options"] for i in options[o]) == sorted(items)
    least = p.min_cost()
    assert (least["min_cost"], least["count_at_min"]) == (totals[0], totals.count(totals[0]))
    # Threads share the bound and give the same answer: solutions, costs, order.
    ten = p.cheapest(10)["solutions"]
    for threads in (2, 4, 0):
        assert p.cheapest(10, threads=threads)["solutions"] == ten
        on_threads = p.min_cost(threads=threads)
        assert (on_threads["min_cost"], on_threads["count_at_min"]) == (least["min_cost"], least["count_at_min"])
        assert on_threads["solutions"] == least["solutions"]
    with pytest.raises(ValueError, match="threads"):
        p.cheapest(3, threads=100_000)
    # The same problem read from the fixture, whose costs are dlx5's `|n`.
    read = q.ExactCover.read_dlx(FIXTURES / "costs_assignment6.dlx")
    assert read.costs() == costs
    assert [s["cost"] for s in read.cheapest(5)["solutions"]] == totals[:5]
    # Under a budget, what is not proved says so.
    some = q.ExactCover.read_dlx(FIXTURES / "costs_pentominoes_6x10.dlx").cheapest(3, node_budget=100)
    assert not some["complete"] and some["bound"] is not None
    assert all(not s["proved"] or s["cost"] <= some["bound"] for s in some["solutions"])
    with pytest.raises(ValueError, match="costs: one cost per option"):
        q.ExactCover(["a"], [["a"]], costs=[1, 2])
    with pytest.raises(ValueError, match="cheapest: from 1"):
        p.cheapest(0)
    with pytest.raises(q.QuadrilleError, match=r"line 2, column 3: '\|x' is not a valid cost"):
        q.ExactCover.from_dlx("a\na |x\n")


def test_errors_carry_line_and_column():
    with pytest.raises(q.QuadrilleError) as raised:
        q.ExactCover.from_dlx("a b\na c\n")
    err = raised.value
    assert str(err) == "line 2, column 3: unknown item 'c'"
    assert (err.line, err.column, err.message) == (2, 3, "unknown item 'c'")
    assert isinstance(err, ValueError)
    with pytest.raises(q.QuadrilleError, match=r"options\[1\]: unknown item 'z'"):
        q.ExactCover(["a"], [["a"], ["z"]])
    with pytest.raises(ValueError, match="0 nodes"):
        q.ExactCover(["a"], [["a"]]).count(node_budget=0)
    with pytest.raises(ValueError, match="finite"):
        q.ExactCover(["a"], [["a"]]).count(time_budget=float("inf"))


def test_the_gil_is_released_during_a_search():
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(1)
            stop.wait(0.001)

    t = threading.Thread(target=tick)
    t.start()
    # One search of 0.3 s (Langford 13 has no solution, and proving it takes minutes): a
    # search that held the GIL would let the ticker in only once it had returned.
    before = len(ticks)
    assert langford(13).count(time_budget=0.3).stop == "time-budget"
    during = len(ticks) - before
    stop.set()
    t.join()
    assert during > 10
    assert q.ExactCover.read_dlx(FIXTURES / "langford7.dlx").count(no_restarts=True) == 52


def langford(n, colour=False):
    """Langford pairs of 1..n: none when n is 1 or 2 modulo 4, and a long search to prove it.
    With `colour`, every option also gives a secondary item the colour every other gives."""
    items = [str(k) for k in range(1, n + 1)] + [f"s{i}" for i in range(1, 2 * n + 1)]
    options = [[str(k), f"s{i}", f"s{i + k + 1}"] for k in range(1, n + 1) for i in range(1, 2 * n - k)]
    if colour:
        return q.ExactCover(items, [o + ["x:A"] for o in options], secondary=["x"])
    return q.ExactCover(items, options)


def search_threads():
    """The threads of this process, Python's and the searches' alike (Linux)."""
    return len(os.listdir("/proc/self/task"))


def threads_back_to(before):
    """Whether the threads are back to `before` within two seconds: a thread that has ended
    takes a moment to leave /proc."""
    for _ in range(200):
        if search_threads() <= before:
            return True
        time.sleep(0.01)
    return False


def interrupted(search, after=0.3):
    """Runs `search` with Ctrl-C (`_thread.interrupt_main`) sent after `after` seconds; returns
    the seconds from Ctrl-C to the KeyboardInterrupt. Each search given here runs for minutes
    (or without end) when left alone, so one that finishes first fails the test."""
    sent = []

    def ctrl_c():
        sent.append(time.monotonic())
        _thread.interrupt_main()

    timer = threading.Timer(after, ctrl_c)
    before = search_threads()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            search()
    finally:
        timer.cancel()
        timer.join()
    took = time.monotonic() - sent[0]
    assert threads_back_to(before), "a search thread is left running"
    return took


# Langford 13 has no solution; proving it takes minutes, and no solution is met on the way.
@pytest.mark.parametrize(
    "search",
    [
        lambda p: p.count(),
        lambda p: p.count(no_restarts=True),
        lambda p: p.count(knuth=True),
        lambda p: p.count(threads=2),
        lambda p: p.count(limit=1),
        lambda p: p.first(),
        lambda p: p.solutions(),
        lambda p: p.count_shard(1, 2),
        lambda p: p.estimate(10**15),
    ],
    ids=["count", "plain", "knuth", "threads", "limit", "first", "solutions", "shard", "estimate"],
)
def test_ctrl_c_stops_a_long_exact_cover_search(search):
    p = langford(13)
    assert interrupted(lambda: search(p)) < 2.0
    # The next call runs as if nothing had happened.
    assert p.count(node_budget=100).stop == "node-budget"
    assert langford(7).count() == 52


def test_ctrl_c_stops_a_long_colour_count():
    coloured = langford(13, colour=True)
    assert not coloured.is_plain and langford(7, colour=True).count() == 52
    assert interrupted(coloured.count) < 2.0
    assert interrupted(lambda: coloured.count(threads=2)) < 2.0


@pytest.mark.parametrize("engine", ["auto", "dlx", "csp", "bitboard"])
def test_ctrl_c_stops_a_sudoku_count_on_every_engine(engine):
    # An empty grid has 6.67e21 solutions: its count never ends.
    assert interrupted(lambda: q.count("." * 81, engine=engine, threads=1)) < 2.0
    assert interrupted(lambda: q.count_many(["." * 81] * 4, engine=engine, threads=2)) < 2.0
    assert q.solve(CLASSIC, engine=engine).status == "solved"


def test_ctrl_c_stops_explain_and_rate_of_a_large_puzzle():
    # Its logical solution takes minutes.
    (puzzle,) = fixture_lines(FIXTURES / "large" / "unique_36x36_seed1.txt")[:1]
    assert interrupted(lambda: q.explain(puzzle)) < 2.0
    assert interrupted(lambda: q.rate(puzzle)) < 2.0
    assert q.explain(CLASSIC).solved


def test_ctrl_c_stops_generate_and_compare():
    # No 9x9 puzzle rates 11: the generator tries attempt after attempt.
    assert interrupted(lambda: q.generate(2, score=(10.9, 11.0), attempts=10**9, threads=1)) < 2.0
    assert interrupted(lambda: q.compare(["." * 81], limit=10**15, no_node_budget=True, engines=["dlx", "csp"])) < 2.0
    # Minimal 25x25 puzzles: their uniqueness checks escalate to budgets of their own, and
    # heard Ctrl-C only when those ran out (0.1 to 0.6 s later, benches/peers/ctrl_c.py).
    for after in (0.2, 0.7):
        minimal = lambda: q.generate(4, box="5x5", seed=1, minimal="orbits", threads=2)
        assert interrupted(minimal, after=after) < 0.5
    assert len(q.generate(1, seed=3)) == 1


# --- Sudoku ------------------------------------------------------------------------------

SHAPES = {"4x4": (2, 2), "6x6": (2, 3), "8x8": (2, 4), "9x9": (3, 3), "12x12": (3, 4), "16x16": (4, 4), "25x25": (5, 5)}


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_every_box_shape_against_its_expected_file(name):
    rows, cols = SHAPES[name]
    puzzles = fixture_lines(FIXTURES / "sudoku" / f"{name}.txt")
    expected = (FIXTURES / "sudoku" / f"{name}.expected").read_text().splitlines()
    results = q.solve_many(puzzles, limit=3, box=f"{rows}x{cols}")
    assert len(results) == len(expected)
    for line, result, want in zip(puzzles, results, expected):
        count, solution = want.split()
        assert result.count == count
        puzzle = line.split()[0]
        if count == "0":
            assert result.status == "unsolvable" and result.solution is None
        else:
            assert_solves(puzzle, result.solution, rows, cols)
            assert q.check(puzzle, result.solution, box=f"{rows}x{cols}") is None
        if count == "1":
            assert result.solution == solution


@pytest.mark.parametrize("engine", ["dlx", "csp", "csp:mrv+lcv+hidden-singles", "bitboard", "auto"])
def test_engines_agree_on_the_classic(engine):
    puzzles = fixture_lines(FIXTURES / "sudoku" / "9x9.txt")
    expected = (FIXTURES / "sudoku" / "9x9.expected").read_text().splitlines()
    for line, want in zip(puzzles, expected):
        r = q.solve(line.split()[0], engine=engine, limit=3)
        assert r.count == want.split()[0]
        if r.solution:
            assert_solves(line.split()[0], r.solution, 3, 3)
    assert q.solve(CLASSIC, engine=engine).engine.split(":")[0] in (engine.split(":")[0], "bitboard")


def test_counts_are_exact():
    assert q.count("1...........4..2").solutions == 9
    assert q.count("1...........4..2", engine="dlx").exact
    assert q.count("................").solutions == 288  # every 4x4 Sudoku grid
    assert q.count("................", limit=10).count == "10+"
    assert [r.solutions for r in q.count_many(["1...........4..2", "................"])] == [9, 288]


def diagonals(n):
    return [[i * n + i for i in range(n)], [i * n + n - 1 - i for i in range(n)]]


def windows(n=9):
    return [[(r0 + r) * n + c0 + c for r in range(3) for c in range(3)] for r0 in (1, 5) for c0 in (1, 5)]


def test_variants():
    x_puzzles = fixture_lines(FIXTURES / "variants" / "x.txt")
    for r in q.solve_many(x_puzzles, variant="x"):
        assert r.status == "solved"
    text = (FIXTURES / "variants" / "x.txt").read_text()
    expected = (FIXTURES / "variants" / "x.expected").read_text().split()
    for line, result, want in zip(x_puzzles, q.solve_many(text), expected):
        n = int(len(want) ** 0.5)
        box = {4: (2, 2), 6: (2, 3), 9: (3, 3)}[n]
        assert_solves(line.split()[0], result.solution, *box, extra_groups=diagonals(n))
        assert result.solution == want
    windoku = (FIXTURES / "variants" / "windoku.txt").read_text()
    (w,) = q.solve_many(windoku)
    assert_solves(fixture_lines(FIXTURES / "variants" / "windoku.txt")[0].split()[0], w.solution, 3, 3, windows())
    jigsaw = (FIXTURES / "variants" / "jigsaw.txt").read_text()
    (j,) = q.solve_many(jigsaw, limit=2)
    assert j.solutions == 1 and j.solution == (FIXTURES / "variants" / "jigsaw.expected").read_text().split()[0]
    killer = (FIXTURES / "variants" / "killer.txt").read_text()
    (k,) = q.solve_many(killer, limit=2, engine="csp")
    assert k.solutions == 1 and k.solution == (FIXTURES / "variants" / "killer.expected").read_text().split()[0]
    # The checker knows the variant's rules: a classic grid breaks the diagonals.
    bad = "123456789456789123789123456214365897365897214897214365531642978642978531978531642"
    assert q.check("# variant: x\n" + "." * 81, bad) is not None
    assert q.check("." * 81, bad) is None


def test_sudoku_errors_and_kept_errors():
    with pytest.raises(q.QuadrilleError) as raised:
        q.solve("12x")
    assert raised.value.line == 1 and raised.value.column == 1
    assert str(raised.value) == "line 1, column 1: cannot tell the grid shape from 3 cells; give it with box=\"RxC\""
    with pytest.raises(q.QuadrilleError, match="line 2"):
        q.solve_many(["1...........4..2", "11.............."])
    kept = q.solve_many(["1...........4..2", "11.............."], keep_errors=True)
    assert [r.status for r in kept] == ["solved", "error"] and "given twice" in kept[1].error
    with pytest.raises(q.QuadrilleError, match="not an engine|engine"):
        q.solve(CLASSIC, engine="quantum")
    assert q.check("1...............", "2234341221434321") is not None
    assert q.check("1...............", "1234341221434321") is None
    wrong = "1234341221434321".replace("1", "9", 1)
    assert q.check("................", wrong) is not None


def test_budgets_leave_puzzles_undecided():
    empty25 = "." * 625
    r = q.solve(empty25, engine="dlx", node_budget=5, no_restarts=True)
    # 625 cells to fill take 625 nodes at least: 5 decide nothing.
    assert r.status == "undecided" and r.solution is None and not r.exact
    r = q.count("." * 81, node_budget=1000, engine="dlx")
    assert not r.exact and r.count.endswith("+")


# --- explain, rate, generate, compare --------------------------------------------------------


def test_explain_steps_reach_the_solution():
    e = q.explain(CLASSIC)
    assert e.solved and e.unique and e.ending == "solved"
    solution = q.solve(CLASSIC).solution
    grid = digits_of(CLASSIC)
    for step in e.steps:
        for r, c, d in step.placements:
            assert solution[(r - 1) * 9 + c - 1] == str(d)
            grid[(r - 1) * 9 + c - 1] = d
        for r, c, d in step.eliminations:
            assert solution[(r - 1) * 9 + c - 1] != str(d)
    assert "".join(map(str, grid)) == solution
    assert e.score == max(s.score for s in e.steps) and e.hardest == "forcing chain"
    first = e.steps[0]
    svg = first._repr_svg_()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>") and first.technique in svg
    assert str(first).startswith(f"{first.technique} ({first.score:.1f}): ")
    hardest = "98.76.5..75..8..6...6......5.......4..794..5.......3..2..........965..8......41.."
    stuck = q.explain(hardest, guesses=False)
    assert stuck.ending == "stuck" and len(stuck.stuck[0]) == 81
    guessed = q.explain(hardest)
    assert guessed.solved and any(s.technique == "guess" for s in guessed.steps)
    assert q.explain("1...........4..2").ending == "several solutions"


def test_rate_scores():
    r = q.rate(CLASSIC)
    assert (r.score, r.hardest, r.guesses, r.unique) == (9.0, "forcing chain", 0, True)
    assert [name for name, _ in r.backtracks] == ["hidden-singles", "pairs", "triples", "alldiff"]
    assert r.to_dict()["score"] == 9.0 and r.difficulty == "extreme"
    assert q.rate("1...........4..2").score is None


def test_rate_and_explain_on_the_sukaku_scale():
    # Line 12 of fixtures/se/heldout_sukaku.txt: Sukaku Explainer rates it 5.6.
    wxyz = ".1......7.....4.28..76..3.4.....92.324.....857.62.....9.1..38..85.9.....3......1."
    assert (q.rate(wxyz, levels=[]).score, q.rate(wxyz, levels=[]).hardest) == (7.1, "w-wing")
    sukaku = q.rate(wxyz, levels=[], scale="sukaku")
    assert (sukaku.score, sukaku.hardest) == (5.6, "wxyz-wing")
    steps = q.explain(wxyz, scale="sukaku").steps
    assert max(s.score for s in steps) == 5.6
    with pytest.raises(ValueError, match="scale: unknown scale 'se': se121 or sukaku"):
        q.rate(wxyz, scale="se")
    made = q.generate(2, seed=3, score=(5.5, 5.6), scale="sukaku")
    for m in made:
        assert q.rate(m["puzzle"], levels=[], scale="sukaku").score in (5.5, 5.6)
        assert m["rating"]["score"] in (5.5, 5.6)


def test_generate_makes_unique_puzzles_with_their_options():
    made = q.generate(4, seed=7, rate=True)
    assert [m["seed"] for m in made] == [7, 8, 9, 10]
    for m in made:
        assert_solves(m["puzzle"], m["solution"], 3, 3)
        assert q.solve(m["puzzle"], limit=2).solutions == 1
        assert m["givens"] == sum(c != "." for c in m["puzzle"])
        assert 1.0 <= m["rating"]["score"]
    assert made == q.generate(4, seed=7, rate=True, threads=1)  # the seed decides
    easy = q.generate(2, difficulty="easy", box="2x3")
    assert all(q.rate(m["puzzle"]).difficulty == "easy" for m in easy)
    random = q.generate(3, kind="random", givens=20)
    assert all(m["givens"] == 20 and "solution" not in m for m in random)
    for m in q.generate(2, kind="contradictory"):
        assert q.count(m["puzzle"]).solutions == 0
    with pytest.raises(ValueError, match="^symmetry: only unique puzzles take it"):
        q.generate(1, kind="random", symmetry="none")
    with pytest.raises(ValueError, match="^givens: a random 9x9 puzzle has from 0 to 81 givens"):
        q.generate(1, kind="random", givens=100)


def test_compare_rows_are_ready_for_a_dataframe():
    text = (FIXTURES / "sudoku" / "9x9_sample.txt").read_text()
    rows = q.compare(text, engines=["dlx", "csp"])
    assert len(rows) == 2 * 20
    assert {r["engine"].split(":")[0] for r in rows} == {"dlx", "csp"}
    for row in rows:
        assert row["solutions"] == 1 and row["exact"] and not row["gave_up"]
        assert set(row) >= {"line", "engine", "micros", "nodes", "backtracks"}
    default = q.compare(fixture_lines(FIXTURES / "sudoku" / "4x4.txt"))
    assert len({r["engine"] for r in default}) >= 2
    with pytest.raises(q.QuadrilleError, match="line 2") as raised:
        q.compare(["1...........4..2", "12x"])
    # The skipped line's error as solve raises it: its place once, and the keyword that fixes it.
    assert str(raised.value) == 'line 2, column 1: cannot tell the grid shape from 3 cells; give it with box="RxC"'
    assert len(q.compare(["1...........4..2", "12x"], skip_errors=True, engines=["dlx"])) == 1


def test_the_notebook_example_of_docs_runs(monkeypatch, capsys):
    """docs/python.md's cells, run in order from the repository's root (with or without
    pandas and matplotlib)."""
    import re

    root = FIXTURES.parent
    page = (root / "docs" / "python.md").read_text()
    cells = re.findall(r"```python\n(.*?)```", page, re.S)
    assert len(cells) >= 4
    monkeypatch.chdir(root)
    try:
        import matplotlib

        matplotlib.use("Agg")
    except ImportError:
        pass
    scope = {}
    for cell in cells:
        exec(compile(cell, "docs/python.md", "exec"), scope)
    assert len(scope["rows"]) == 40 and scope["e"].solved
    assert "SudokuResult(line 1, solved" in capsys.readouterr().out


def test_the_readme_example_runs(monkeypatch):
    """The README's Python block, run from the repository's root, says what its comments say."""
    import re

    root = FIXTURES.parent
    (block,) = re.findall(r"```python\n(.*?)```", (root / "README.md").read_text(), re.S)
    monkeypatch.chdir(root)
    scope = {}
    exec(compile(block, "README.md", "exec"), scope)
    assert scope["n"] == 8 and scope["n"].stats["nodes"] > 0 and scope["r"].solutions == 1
    assert q.check(scope["puzzle"], scope["r"].solution) is None
    assert q.count("1...........4..2").solutions == 9 and q.rate(scope["puzzle"]).score == 9.0
    assert len(scope["rows"]) == 40


def test_signatures_show_their_defaults():
    import inspect

    functions = [q.solve, q.count, q.solve_many, q.count_many, q.check, q.explain, q.rate, q.generate, q.compare]
    for f in functions + [q.ExactCover.count, q.ExactCover.solutions, q.ExactCover.estimate]:
        assert "..." not in f.__text_signature__, f.__name__
        inspect.signature(f)
    assert inspect.signature(q.solve).parameters["limit"].default == 1
    assert inspect.signature(q.count).parameters["limit"].default is None
    assert inspect.signature(q.solve_many).parameters["box"].default is None


# The counts of tests/requests.rs: the same library request from Rust, the CLI and here.
COUNTS = [
    ("queens8.dlx", 92),
    ("langford7.dlx", 52),
    ("pentominoes_3x20.dlx", 8),
    ("dominoes_8x8.dlx", 12988816),
    ("dominoes_12x12.dlx", 53060477521960000),
    ("dominoes_16x16.dlx", 2444888770250892795802079170816),
    ("latin4_colours.dlx", 576),
    ("cycle7_colourings.dlx", 126),
    ("queens8_multiplicity.dlx", 92),
    ("secondary_hand.dlx", 3),
]


def quadrille_binary():
    """The command-line tool: $QUADRILLE_BIN (CI sets it, and a missing one fails), else a
    build in target/, else None."""
    given = os.environ.get("QUADRILLE_BIN")
    if given:
        assert os.path.exists(given), f"QUADRILLE_BIN={given} does not exist"
        return given
    root = FIXTURES.parent / "target"
    for build in ("release", "debug"):
        if (root / build / "quadrille").exists():
            return str(root / build / "quadrille")
    return None


@pytest.mark.parametrize("name,expected", COUNTS)
def test_a_count_is_exact_at_any_size_on_any_threads(name, expected):
    problem = q.ExactCover.read_dlx(FIXTURES / name)
    for threads in (1, 2):
        c = problem.count(threads=threads)
        assert int(c) == expected and c == expected
        assert c.exact and c.stop == "exhausted"
        assert c.solutions == expected
        assert c.stats["solutions"] == expected


@pytest.mark.parametrize("name,expected", COUNTS)
def test_a_count_is_the_command_line_tools(name, expected):
    binary = quadrille_binary()
    if binary is None:
        pytest.skip("no quadrille binary: build it, or set QUADRILLE_BIN")
    import subprocess

    for threads in ("1", "2"):
        out = subprocess.run(
            [binary, "xc", str(FIXTURES / name), "--json", "-j", threads],
            capture_output=True, text=True, check=True,
        ).stdout
        theirs = as_python(json.loads(out))
        mine = q.ExactCover.read_dlx(FIXTURES / name).count(threads=int(threads)).stats
        theirs["seconds"] = mine["seconds"] = None
        assert mine == theirs


def test_a_count_is_an_int():
    c = q.ExactCover.read_dlx(FIXTURES / "queens8.dlx").count()
    assert c > 10 and c >= 92 and c < 93 and c <= 92
    assert c + 1 == 93 and 1 + c == 93 and c - 2 == 90 and 100 - c == 8 and 2 * c == 184
    assert f"{c:,}" == "92" and f"{c:05d}" == "00092"
    assert [0, 1, 2][c - 91] == 1 and bool(c)
    big = q.ExactCover.read_dlx(FIXTURES / "dominoes_16x16.dlx").count(node_budget=1000)
    assert not big.exact and str(big).endswith("+") and int(big) > 0


def test_a_request_out_of_range_names_its_keyword():
    queens = q.ExactCover.read_dlx(FIXTURES / "queens8.dlx")
    with pytest.raises(ValueError, match="^threads: "):
        queens.count(knuth=True, threads=2)
    with pytest.raises(ValueError, match="^limit: "):
        queens.count(limit=0)
    with pytest.raises(ValueError, match="^memo: "):
        queens.count(memo="sometimes")
    colours = q.ExactCover.read_dlx(FIXTURES / "latin4_colours.dlx")
    # Colours are remembered too (issue 42): the count is the same.
    assert colours.count(memo="always") == 576 == colours.count(memo="off")
    with pytest.raises(ValueError, match="^knuth: .*colours"):
        colours.count(knuth=True)


def test_an_estimate_and_a_shard_are_the_command_line_tools():
    binary = quadrille_binary()
    if binary is None:
        pytest.skip("no quadrille binary: build it, or set QUADRILLE_BIN")
    import subprocess

    # The 3x20 pentominoes: a split of 50 shards plans in a tenth of the 6x10's 500 (10 s).
    path = str(FIXTURES / "pentominoes_3x20.dlx")
    problem = q.ExactCover.read_dlx(path)
    # A shard's checksum covers its seconds.
    timed = ("seconds", "probe_seconds", "sample_seconds", "checksum")
    for mine, args in [
        (problem.estimate(2000, seed=3), ["--estimate", "2000", "--seed", "3"]),
        (problem.count_shard(2, 50), ["--shard", "2/50"]),
    ]:
        out = subprocess.run(
            [binary, "xc", path, "--json", *args], capture_output=True, text=True, check=True
        ).stdout
        theirs = json.loads(out)
        for key in timed:
            mine.pop(key, None)
            theirs.pop(key, None)
        # The estimate's sample counts for 300 ms: whether it finishes, and so gives the exact
        # count, depends on the build's speed (this package may be built unoptimised).
        for record in (mine, theirs):
            assert record.pop("exact_solutions", 8) == 8
        assert mine == theirs
    with pytest.raises(ValueError, match="^probes: "):
        problem.estimate(0)
    with pytest.raises(ValueError, match="^shard: "):
        problem.count_shard(3, 2)


def test_generate_is_the_command_line_tools():
    binary = quadrille_binary()
    if binary is None:
        pytest.skip("no quadrille binary: build it, or set QUADRILLE_BIN")
    import subprocess

    for kwargs, flags in [
        (dict(seed=7, rate=True), ["--seed", "7", "--rate"]),
        (dict(seed=2, box="2x3", minimal="orbits"), ["--seed", "2", "--box", "2x3", "--minimal", "orbits"]),
        (dict(seed=5, kind="random", uniform=True, box="2x2", givens=6),
         ["--seed", "5", "--kind", "random", "--uniform", "--box", "2x2", "--givens", "6"]),
        (dict(seed=1, kind="contradictory"), ["--seed", "1", "--kind", "contradictory"]),
    ]:
        out = subprocess.run(
            [binary, "generate", "-n", "3", "--json", *flags], capture_output=True, text=True, check=True
        ).stdout
        assert q.generate(3, **kwargs) == [json.loads(line) for line in out.splitlines()]


def test_a_generated_record_names_the_boxes_and_variant_that_read_it_back():
    """Issue 41, item 17: a record had no box, and a 4x2 puzzle taken from it was read as
    2x4, mostly without solution. With the record's box and variant it is solved, uniquely,
    to the record's solution."""
    for record in q.generate(3, box="4x2", threads=1):
        assert (record["box"], record["variant"]) == ("4x2", "classic")
        solved = q.solve(record["puzzle"], box=record["box"], variant=record["variant"], limit=2)
        assert (solved.status, solved.solutions) == ("solved", 1)
        assert "".join(map(str, solved.solution)) == record["solution"]


def test_eight_python_threads_of_mixed_jobs_share_the_pool_and_the_objects():
    """Issue 41: two Python threads counting with threads=0 made the per-thread solver cache
    panic ('RefCell already borrowed') on a rayon worker that ran a second count while it
    waited on the first. Eight threads here run counts split on the shared global pool, exact
    cover counts on two threads, batches, generation and rating, on shared objects, and every
    answer is checked against its known value."""
    dominoes = q.ExactCover.read_dlx(FIXTURES / "dominoes_8x8.dlx")
    queens = q.ExactCover.read_dlx(FIXTURES / "queens8.dlx")
    sample = (FIXTURES / "sudoku" / "9x9_sample.txt").read_text()
    made = q.generate(2, seed=11, rate=True, threads=1)
    jobs = [
        lambda: q.count("12" + "." * 34, engine="dlx", threads=0).solutions == 940032,
        lambda: q.count("1" + "." * 15, threads=0).solutions == 72,
        lambda: int(dominoes.count(threads=2)) == 12988816,
        lambda: queens.count(threads=0) == 92,
        lambda: all(r.solutions == 1 for r in q.solve_many(sample, limit=2, threads=0)),
        lambda: q.generate(2, seed=11, rate=True, threads=0) == made,
        lambda: q.rate(made[0]["puzzle"]).score == made[0]["rating"]["score"],
        lambda: q.count("12" + "." * 34, engine="dlx", threads=2).solutions == 940032,
    ]
    failures = []

    def run(job, rounds=3):
        for _ in range(rounds):
            try:
                if not job():
                    failures.append(f"wrong answer from job {jobs.index(job)}")
            except Exception as err:  # the test reports every failure, not the first
                failures.append(f"job {jobs.index(job)}: {err!r}")

    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


def test_sample_draws_what_the_command_line_tool_draws():
    queens = q.ExactCover.read_dlx(FIXTURES / "queens8.dlx")
    drawn = queens.sample(5, seed=3)
    assert len(drawn) == 5 and drawn == queens.sample(5, seed=3)
    every = set(tuple(s) for s in queens.solutions().solutions)
    assert all(tuple(s) in every for s in drawn)
    assert len(queens.sample(10**9, time_budget=0.1)) < 10**9
    binary = quadrille_binary()
    if binary is None:
        pytest.skip("no quadrille binary: build it, or set QUADRILLE_BIN")
    import subprocess

    out = subprocess.run(
        [binary, "xc", str(FIXTURES / "queens8.dlx"), "--sample", "5", "--seed", "3"],
        capture_output=True, text=True, check=True,
    ).stdout
    assert [queens.option_text(i) for s in drawn for i in s] == [l for l in out.splitlines() if l]


def test_a_rating_is_the_command_line_tools():
    several = "1...........4..2"
    r = q.rate(several)
    assert r.score is None and r.hardest is None and r.ending == "several solutions"
    binary = quadrille_binary()
    if binary is None:
        pytest.skip("no quadrille binary: build it, or set QUADRILLE_BIN")
    import subprocess

    for line in [several, "................12....345........3....6.......71..8......2.6..834.......5..7....."]:
        out = subprocess.run(
            [binary, "rate", "--json"], input=line + "\n", capture_output=True, text=True, check=True
        ).stdout
        assert q.rate(line).to_dict() == json.loads(out)
    with pytest.raises(ValueError, match="^levels: 'x' is not a propagation level"):
        q.rate(several, levels=["x"])
    with pytest.raises(ValueError, match="^level_nodes: "):
        q.rate(several, level_nodes=0)


def test_compare_checks_its_request_in_the_library():
    text = (FIXTURES / "sudoku" / "9x9_sample.txt").read_text()
    with pytest.raises(ValueError, match="^node_budget: "):
        q.compare(text, node_budget=5, no_node_budget=True)
    with pytest.raises(ValueError, match="^limit: "):
        q.compare(text, limit=0)
    rows = q.compare(text)
    assert rows[0]["engine"] == "bitboard"  # the defaults suit the first puzzle's board


def run_cli(*args, check=True):
    binary = quadrille_binary()
    if binary is None:
        pytest.skip("no quadrille binary: build it, or set QUADRILLE_BIN")
    import subprocess

    return subprocess.run([binary, *args], capture_output=True, text=True, check=check)


def without_seconds(record):
    record.pop("seconds", None)
    return record


def as_python(record):
    """A JSON record as the package's dicts hold it: JSON writes a count past 2**53 as a
    string of digits (docs/guide.md), a dict holds every count as an int."""
    if isinstance(record.get("solutions"), str):
        record["solutions"] = int(record["solutions"])
    return record


@pytest.mark.parametrize("name", ["queens8.dlx", "langford7.dlx"])
def test_a_checkpointed_count_is_the_command_line_tools(name, tmp_path):
    path = str(FIXTURES / name)
    problem = q.ExactCover.read_dlx(path)
    for threads in (1, 2):
        mine_file, theirs_file = tmp_path / f"py{threads}.jsonl", tmp_path / f"cli{threads}.jsonl"
        mine = problem.count_checkpointed(mine_file, threads=threads)
        theirs = json.loads(run_cli("xc", path, "--json", "-j", str(threads), "--checkpoint", str(theirs_file)).stdout)
        assert without_seconds(mine) == without_seconds(theirs)
        assert mine["complete"] and mine["shards_done"] == 128 and mine["shards_resumed"] == 0
        # Each resumes the other's file, and finds every shard there.
        again = problem.count_checkpointed(theirs_file, threads=threads)
        assert again["shards_resumed"] == 128 and again["solutions"] == mine["solutions"]
    # A count stopped by its budget, resumed by the other front end, ends at the same count.
    for first_python in (True, False):
        file = tmp_path / f"stopped{first_python}.jsonl"
        if first_python:
            stopped = problem.count_checkpointed(file, node_budget=1)
        else:
            stopped = json.loads(run_cli("xc", path, "--json", "--node-budget", "1", "--checkpoint", str(file)).stdout)
        assert not stopped["complete"] and stopped["stop"] == "node-budget"
        if first_python:
            resumed = json.loads(run_cli("xc", path, "--json", "--checkpoint", str(file)).stdout)
        else:
            resumed = problem.count_checkpointed(file, threads=2)
        assert resumed["complete"] and resumed["solutions"] == mine["solutions"]
        assert resumed["shards_resumed"] == stopped["shards_done"]


def test_a_checkpoint_of_another_problem_is_refused_by_both(tmp_path):
    file = tmp_path / "queens.jsonl"
    q.ExactCover.read_dlx(FIXTURES / "queens8.dlx").count_checkpointed(file)
    other = q.ExactCover.read_dlx(FIXTURES / "queens6.dlx")
    with pytest.raises(q.QuadrilleError, match=f"^{re.escape(str(file))}: .*another problem"):
        other.count_checkpointed(file)
    cli = run_cli("xc", str(FIXTURES / "queens6.dlx"), "--checkpoint", str(file), check=False)
    assert cli.returncode == 1 and "another problem" in cli.stderr
    with pytest.raises(ValueError, match="^threads: "):
        other.count_checkpointed(tmp_path / "x.jsonl", threads=10**9)
    with pytest.raises(q.QuadrilleError, match="plain exact cover"):
        q.ExactCover.read_dlx(FIXTURES / "latin4_colours.dlx").count_checkpointed(file)


# Each variant's fixture (killer_random.txt, a slow set for the benchmarks, aside).
VARIANT_FILES = [FIXTURES / "variants" / f"{name}.txt" for name in ("x", "windoku", "jigsaw", "killer")]


@pytest.mark.parametrize("path", VARIANT_FILES, ids=lambda p: p.stem)
@pytest.mark.parametrize("mode", ["solve", "count"])
def test_every_variant_is_the_command_line_tools(path, mode):
    text = path.read_text()
    for engine in ("auto", "dlx", "csp", "bitboard"):
        for threads in (1, 2):
            cli = run_cli(mode, "--json", "--engine", engine, "-j", str(threads), str(path), check=False)
            theirs = [json.loads(line) for line in cli.stdout.splitlines()]
            call = q.solve_many if mode == "solve" else q.count_many
            try:
                mine = [r.to_dict() for r in call(text, engine=engine, threads=threads, keep_errors=True)]
            except (ValueError, q.QuadrilleError) as refused:
                # A refusal of the whole request (an engine that cannot take the variant) is
                # the command-line tool's too.
                assert cli.returncode != 0 and not theirs, (engine, refused, cli.stdout)
                continue
            assert len(mine) == len(theirs) > 0, (engine, threads)
            for m, t in zip(mine, theirs):
                assert {k: m[k] for k in t if k != "seconds"} == without_seconds(t), (engine, threads)


def test_a_diagram_is_the_command_line_tools(tmp_path):
    path = str(FIXTURES / "queens8.dlx")
    mine_file, theirs_file = tmp_path / "py.zdd", tmp_path / "cli.zdd"
    mine = q.ExactCover.read_dlx(path).write_zdd(mine_file)
    theirs = json.loads(run_cli("xc", path, "--zdd", str(theirs_file), "--json").stdout)
    assert without_seconds(mine) == without_seconds(theirs) and mine["solutions"] == 92
    assert mine_file.read_bytes() == theirs_file.read_bytes()
    stopped = tmp_path / "stopped.zdd"
    with pytest.raises(q.QuadrilleError, match="node budget ran out while the diagram was being built"):
        q.ExactCover.read_dlx(FIXTURES / "dominoes_8x8.dlx").write_zdd(stopped, node_budget=100)
    assert not stopped.exists()
    with pytest.raises(ValueError, match="colours"):
        q.ExactCover.read_dlx(FIXTURES / "latin4_colours.dlx").write_zdd(tmp_path / "c.zdd")
