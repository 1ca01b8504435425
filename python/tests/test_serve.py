"""`quadrille serve`: its JSON API against the command-line tool's `--json`, its limits under
bad input (a seeded fuzz), a count cancelled through the API, and the page in a real browser
(headless Chromium driven by Playwright; skipped, with the reason, when either is missing).

The server is the tool's binary: $QUADRILLE_BIN, else a build in target/."""

import json
import os
import pathlib
import random
import signal
import subprocess
import time
import urllib.error
import urllib.request

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
P9 = "................12....345........3....6.......71..8......2.6..834.......5..7....."
CHROMIUM = "/usr/bin/chromium"


def binary():
    given = os.environ.get("QUADRILLE_BIN")
    if given:
        assert os.path.exists(given), f"QUADRILLE_BIN={given} does not exist"
        return given
    for build in ("release", "debug"):
        path = ROOT / "target" / build / "quadrille"
        if path.exists():
            return str(path)
    pytest.skip("no quadrille binary: build it, or set QUADRILLE_BIN")


def start(*args):
    proc = subprocess.Popen(
        [binary(), "serve", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    url = proc.stdout.readline().strip().rstrip("/")
    assert url.startswith("http://127.0.0.1:"), url
    return proc, url


@pytest.fixture(scope="module")
def server():
    proc, url = start()
    yield proc, url
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=5)


def post(url, route, body, raw=None):
    """The status and the JSON answer of a POST."""
    data = raw if raw is not None else json.dumps(body).encode()
    request = urllib.request.Request(f"{url}/api/{route}", data=data, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def cli(*args, stdin=None):
    done = subprocess.run(
        [binary(), *args], input=stdin, capture_output=True, text=True, timeout=120
    )
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def events(url, route, body, on_event):
    """Reads a count's server-sent events, handing each (event, data) to `on_event`, which
    returns False to stop reading."""
    request = urllib.request.Request(
        f"{url}/api/{route}", data=json.dumps(body).encode(), method="POST"
    )
    with urllib.request.urlopen(request, timeout=120) as stream:
        event = None
        for raw in stream:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: "):
                if on_event(event, json.loads(line[6:])) is False:
                    return


def digits(n):
    return "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[:n]


def check_solution(solution, puzzle, box_rows, box_cols):
    """Asserts that `solution` keeps the givens of `puzzle` and obeys every rule of Sudoku."""
    n = box_rows * box_cols
    assert len(solution) == n * n
    for given, cell in zip(puzzle, solution):
        assert given in ".0" or given.upper() == cell
    every = set(digits(n))
    rows = [solution[r * n : (r + 1) * n] for r in range(n)]
    cols = ["".join(row[c] for row in rows) for c in range(n)]
    boxes = [
        "".join(
            rows[br * box_rows + i][bc * box_cols + j]
            for i in range(box_rows)
            for j in range(box_cols)
        )
        for br in range(box_cols)
        for bc in range(box_rows)
    ]
    for unit in rows + cols + boxes:
        assert set(unit) == every, unit


def queens(n):
    """The n queens problem in Knuth's dlx format: a count long enough to cancel for n = 16."""
    items = [f"r{i}" for i in range(n)] + [f"c{j}" for j in range(n)]
    diagonals = [f"a{k}" for k in range(2 * n - 1)] + [f"b{k}" for k in range(2 * n - 1)]
    lines = [" ".join(items) + " | " + " ".join(diagonals)]
    for i in range(n):
        for j in range(n):
            lines.append(f"r{i} c{j} a{i + j} b{i - j + n - 1}")
    return "\n".join(lines) + "\n"


def cpu_seconds(pid):
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_the_records_are_the_command_line_tools(server):
    _, url = server
    lines = (FIXTURES / "sudoku" / "9x9.txt").read_text().splitlines()
    puzzle = next(line for line in lines if line and not line.startswith("#")).split()[0]
    status, answer = post(url, "solve", {"puzzle": puzzle})
    assert status == 200
    assert answer["results"] == cli("solve", "--json", "--limit", "2", stdin=puzzle + "\n")
    check_solution(answer["results"][0]["solution"], puzzle, 3, 3)

    status, explained = post(url, "explain", {"puzzle": P9})
    pictures = explained.pop("svg")
    assert status == 200 and explained == cli("explain", "--json", stdin=P9 + "\n")[0]
    assert len(pictures) == explained["steps"].__len__() == 70
    assert all(p.startswith("<svg") for p in pictures)

    status, rated = post(url, "rate", {"puzzle": P9, "scale": "sukaku"})
    assert status == 200 and rated == cli("rate", "--json", "--scale", "sukaku", stdin=P9 + "\n")[0]

    status, made = post(url, "generate", {"box": "2x3", "count": 3, "seed": 5, "rate": True})
    want = cli("generate", "--box", "2x3", "-n", "3", "--seed", "5", "--rate", "--json")
    assert status == 200 and made["puzzles"] == want

    pentominoes = FIXTURES / "pentominoes_6x10.dlx"
    status, estimated = post(url, "estimate", {"dlx": pentominoes.read_text(), "probes": 1000, "seed": 1})
    want = cli("xc", "--estimate", "1000", "--seed", "1", "--json", str(pentominoes))[0]
    for timed in ("seconds", "probe_seconds", "sample_seconds"):
        estimated.pop(timed), want.pop(timed)
    assert status == 200 and estimated == want

    got = []
    events(url, "xc", {"dlx": (FIXTURES / "queens8.dlx").read_text()}, lambda e, d: got.append((e, d)))
    result = [d for e, d in got if e == "result"][0]
    want = cli("xc", "--count", "--json", str(FIXTURES / "queens8.dlx"))[0]
    result.pop("seconds"), want.pop("seconds")
    assert result == want and result["solutions"] == 92


def test_variants_and_compare_are_the_command_line_tools(server):
    _, url = server
    for name in ("x", "windoku", "jigsaw", "killer"):
        path = FIXTURES / "variants" / f"{name}.txt"
        status, answer = post(url, "solve", {"puzzle": path.read_text()})
        assert status == 200 and answer["results"] == cli("solve", "--json", "--limit", "2", str(path))
        assert all(r["status"] == "solved" for r in answer["results"])
    # A bad killer line: its error names the line after the header and the column.
    status, answer = post(url, "solve", {"puzzle": "# variant: killer\n" + "." * 81 + " aab"})
    assert status == 400 and answer["line"] == 2 and answer["column"] >= 83, answer

    text = (FIXTURES / "sudoku" / "9x9_sample.txt").read_text()
    status, answer = post(url, "compare", {"puzzle": text, "engines": "dlx,csp"})
    assert status == 200 and answer["svg"].startswith("<svg") and "dlx" in answer["table"]
    compared = answer["comparison"]
    assert compared["engines"][0] == "dlx" and len(compared["puzzles"]) == 20
    assert compared["disagreements"] == []
    for puzzle in compared["puzzles"]:
        assert [r["solutions"] for r in puzzle["results"]] == [1, 1]


def test_a_generated_puzzle_is_unique(server):
    _, url = server
    status, made = post(url, "generate", {"box": "3x3", "seed": 7, "symmetry": "rot90"})
    assert status == 200
    puzzle = made["puzzles"][0]["puzzle"]
    _, solved = post(url, "solve", {"puzzle": puzzle, "limit": 2})
    record = solved["results"][0]
    assert (record["solutions"], record["exact"]) == (1, True)
    check_solution(record["solution"], puzzle, 3, 3)


def test_bad_input_is_a_4xx_with_the_librarys_place(server):
    _, url = server
    status, answer = post(url, "solve", {"puzzle": "11.............."})
    assert status == 400 and (answer["line"], answer["column"]) == (1, 2)
    assert "digit 1 is given twice in row 1" in answer["error"]
    status, answer = post(url, "solve", {"puzzle": "1...", "node_budget": 0})
    assert status == 400 and answer["field"] == "node_budget"
    status, answer = post(url, "solve", {"puzzle": "1...", "limit": "two"})
    assert status == 400 and answer["line"] == 1 and "invalid type" in answer["error"]
    status, answer = post(url, "solve", {"puzzle": "1.", "nonsense": 1})
    assert status == 400 and "unknown field" in answer["error"]
    status, answer = post(url, "xc", {"dlx": "a b\na c\n"})
    assert status == 400 and answer["line"] == 2
    status, answer = post(url, "solve", None, raw=b"x" * (2 << 20))
    assert status == 413


def test_a_cancelled_count_stops_and_the_server_goes_idle(server):
    proc, url = server
    seen, cancelled = [], {}

    def on_event(event, data):
        seen.append((event, data))
        if event == "job":
            cancelled["id"] = data["id"]
        progress = [d for e, d in seen if e == "progress" and d.get("parts_done")]
        # Cancelled once the progress has moved.
        if progress and progress[-1]["parts_done"] > progress[0]["parts_done"] and "at" not in cancelled:
            # A quick solve is answered while the count runs.
            start = time.monotonic()
            status, _ = post(url, "solve", {"puzzle": P9})
            assert status == 200 and time.monotonic() - start < 5
            cancelled["at"] = time.monotonic()
            assert post(url, "cancel", {"id": cancelled["id"]}) == (200, {"cancelled": True})
        if event == "result":
            cancelled["result"] = (data, time.monotonic())

    events(url, "xc", {"dlx": queens(16), "threads": 2, "time_budget": 120}, on_event)
    record, at = cancelled["result"]
    assert record["complete"] is False and record["stop"] == "time-budget"
    assert at - cancelled["at"] < 1.0
    before = cpu_seconds(proc.pid)
    time.sleep(1.0)
    assert cpu_seconds(proc.pid) - before < 0.1


def test_a_fuzz_of_the_api_is_answered_with_4xx_and_the_server_keeps_serving(server):
    _, url = server
    rng = random.Random(43)
    routes = ["solve", "explain", "rate", "generate", "compare", "cancel", "count", "xc",
              "solutions", "nope"]
    junk = [None, True, -1, 1e308, -1e308, 2**70, "x", "", [], {}, [1, "a"], "NaN", "9" * 400]
    keys = ["puzzle", "box", "variant", "layout", "limit", "node_budget", "time_budget",
            "engine", "seed", "scale", "count", "kind", "givens", "score", "threads", "dlx",
            "id", "levels", "symmetry", "difficulty", "minimal", "engines"]
    statuses = {}
    for i in range(300):
        route = rng.choice(routes)
        shape = rng.randrange(4)
        if shape == 0:  # malformed JSON
            raw = rng.choice([b"{", b"{\"puzzle\":", b"[1,2", b"\xff\xfe", b"nul", b"{}}"])
        elif shape == 1:  # a huge body
            raw = b"{\"puzzle\": \"" + b"." * (1 << 20) + b"\"}"
        else:  # wrong types and absurd values
            body = {rng.choice(keys): rng.choice(junk) for _ in range(rng.randrange(1, 4))}
            # Half of them (and every count, not to wait for one) surely wrong.
            if shape == 3 or route in ("count", "xc"):
                body["limit"] = "x"
            raw = json.dumps(body).encode()
        status, answer = post(url, route, None, raw=raw)
        statuses[status] = statuses.get(status, 0) + 1
        if status == 200 and shape == 2:
            continue  # junk that happens to be a good request (nulls are defaults)
        assert 400 <= status < 500, (route, raw[:200], status, answer)
        assert isinstance(answer.get("error"), str) and answer["error"]
    print("fuzz statuses:", statuses)
    assert post(url, "solve", {"puzzle": P9})[0] == 200


def test_ctrl_c_stops_the_server_and_ends_a_running_count():
    proc, url = start()
    assert post(url, "solve", {"puzzle": P9})[0] == 200
    seen = {}

    def on_event(event, data):
        if event == "progress" and "sent" not in seen:
            proc.send_signal(signal.SIGINT)
            seen["sent"] = time.monotonic()
        if event == "result":
            seen["result"] = data

    events(url, "xc", {"dlx": queens(16), "threads": 1}, on_event)
    assert seen["result"]["complete"] is False
    assert proc.wait(timeout=2) == 0
    assert time.monotonic() - seen["sent"] < 2
    assert "quadrille serve: stopped (running requests interrupted: 1)" in proc.stderr.read()


def is_exact_cover(dlx, lines):
    """Whether the options `lines` of the problem `dlx` (Knuth's format, colours as `x:c`)
    cover every primary item once, and every secondary item once or always in one colour."""
    rows = [l for l in dlx.splitlines() if l.strip() and not l.startswith("|")]
    head = rows[0].split("|")
    primary, secondary = head[0].split(), (head[1].split() if len(head) > 1 else [])
    options = {" ".join(r.split()) for r in rows[1:]}
    seen = {}
    for line in lines:
        assert line in options, line
        for token in line.split():
            item, _, colour = token.partition(":")
            seen.setdefault(item, []).append(colour or None)
    return all(len(seen.get(i, [])) == 1 for i in primary) and all(
        len(c) <= 1 or (c[0] is not None and len(set(c)) == 1)
        for i, c in seen.items() if i in secondary
    )


def test_the_first_solutions_are_xcs(server):
    _, url = server
    for name, limit in (("queens8.dlx", 3), ("dlx3_example.dlx", 10)):
        text = (FIXTURES / name).read_text()
        status, listed = post(url, "solutions", {"dlx": text, "limit": limit})
        assert status == 200, listed
        done = subprocess.run([binary(), "xc", "--limit", str(limit), "-q"], input=text,
                              capture_output=True, text=True, timeout=60)
        blocks = [b.splitlines() for b in done.stdout.split("\n\n") if b.strip()]
        assert [s["lines"] for s in listed["solutions"]] == blocks
        assert listed["found"] == len(blocks) and listed["found"] >= 1
        if name.startswith("queens"):
            assert all(is_exact_cover(text, s["lines"]) for s in listed["solutions"])
    status, answer = post(url, "solutions", {"dlx": "a b\na\nb\n", "limit": 5000})
    assert status == 400 and answer["field"] == "limit" and "1000" in answer["error"]


def browser():
    """Playwright's Chromium on the system's browser, or a skip that says what is missing
    (a failure where $QUADRILLE_REQUIRE_BROWSER is set, as in CI)."""
    missing = pytest.fail if os.environ.get("QUADRILLE_REQUIRE_BROWSER") else pytest.skip
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("browser tests skipped: Playwright for Python is not installed")
    if not os.path.exists(CHROMIUM):
        missing(f"browser tests skipped: no Chromium at {CHROMIUM}")
    return sync_playwright


def test_the_page_in_a_browser(server):
    sync_playwright = browser()
    proc, url = server
    with sync_playwright() as p:
        chromium = p.chromium.launch(
            executable_path=CHROMIUM,
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"],
        )
        page = chromium.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(url + "/")

        def cells():
            return "".join(v or "." for v in page.eval_on_selector_all(
                "#grid input", "els => els.map(e => e.value)"))

        def solved():
            page.click("#solve")
            page.wait_for_function(
                "[...document.querySelectorAll('#grid input')].every(e => e.value)"
                " && document.querySelector('#status').textContent.includes('engine')")

        def type_puzzle(box, puzzle):
            page.select_option("#box", box)
            inputs = page.locator("#grid input")
            assert inputs.count() == len(puzzle)
            for i, ch in enumerate(puzzle):
                if ch != ".":
                    inputs.nth(i).fill(ch)

        # A 9x9 typed cell by cell, and a 16x16 typed likewise: solved, every cell checked.
        type_puzzle("3x3", P9)
        solved()
        check_solution(cells(), P9, 3, 3)
        p16 = (FIXTURES / "sudoku" / "16x16.txt").read_text().split("\n")
        p16 = next(l for l in p16 if l and not l.startswith("#")).split()[0]
        type_puzzle("4x4", p16)
        solved()
        check_solution(cells(), p16, 4, 4)

        # A cell error shown at the cell.
        page.click("#clear")
        type_puzzle("3x3", "11" + "." * 79)
        page.click("#solve")
        page.wait_for_selector("#grid input.error")
        assert page.locator("#grid input.error").first.get_attribute("aria-label") == "r1c2"

        # Ten explain steps, by button and by arrow key, each with its picture.
        page.click("#clear")
        type_puzzle("3x3", P9)
        page.click("#explain")
        page.wait_for_selector("#step-svg svg")
        for k in range(10):
            assert page.inner_text("#step-count") == f"step {k + 1} of 70"
            assert page.locator("#step-svg svg").count() == 1
            assert "(" in page.inner_text("#step-info")
            if k % 2:
                page.click("#step-next")
            else:
                page.locator("body").press("ArrowRight")
        page.locator("body").press("ArrowLeft")
        assert page.inner_text("#step-count") == "step 10 of 70"

        # Generate, then the puzzle is unique through the API.
        page.fill("#gen-seed", "11")
        page.click("#generate")
        page.wait_for_function("document.querySelector('#status').textContent.includes('givens')")
        made = cells()
        _, solved = post(url, "solve", {"puzzle": made, "limit": 2})
        assert (solved["results"][0]["solutions"], solved["results"][0]["exact"]) == (1, True)

        # The first solutions of a pasted problem: each listed one an exact cover of it, all
        # of the 6 queens' 4, none twice.
        six = queens(6)
        page.fill("#xc-text", six)
        page.click("#xc-solutions")
        page.wait_for_function("document.querySelector('#xc-solutions-text').textContent.includes('solutions')")
        listed = page.eval_on_selector_all("#xc-list li", "els => els.map(e => e.innerText)")
        covers = [[l for l in item.splitlines() if l.strip()] for item in listed]
        assert len(covers) == 4 and len({tuple(sorted(c)) for c in covers}) == 4
        assert all(is_exact_cover(six, c) for c in covers)
        assert page.inner_text("#xc-solutions-text").startswith("4 solutions (all of them)")

        # A long count: the bar moves, then cancel; the server's CPU goes idle within a second.
        page.fill("#xc-text", queens(16))
        page.click("#xc-estimate")
        page.wait_for_function("document.querySelector('#xc-estimate-text').textContent.includes('about')")
        page.click("#xc-count")
        page.wait_for_function("document.querySelector('#progress').value > 0")
        first = page.eval_on_selector("#progress", "e => e.value")
        page.wait_for_function(f"document.querySelector('#progress').value > {first}", timeout=30000)
        if os.environ.get("QUADRILLE_SCREENSHOT"):
            page.screenshot(path=os.environ["QUADRILLE_SCREENSHOT"], full_page=True)
        page.click("#cancel")
        page.wait_for_function(
            "document.querySelector('#progress-text').textContent.includes('time-budget')",
            timeout=5000)
        time.sleep(0.2)
        before = cpu_seconds(proc.pid)
        time.sleep(1.0)
        assert cpu_seconds(proc.pid) - before < 0.1
        chromium.close()
