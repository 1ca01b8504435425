"""Sukaku Explainer's steps of chosen techniques, with the candidates before each, as a
fixture for `rate --scale sukaku` (fixtures/se/sukaku_steps.txt; see fixtures/README.md).

    java -cp classes diuf.sudoku.test.serate --format="= %r" --before="B %m" \
        --after="A %r %s" --input=PUZZLES --output=STEPS
    python3 benches/peers/sukaku_steps.py STEPS [PER_KIND] > fixtures/se/sukaku_steps.txt

Each output line is `CANDIDATES SCORE ELIMINATIONS NAME`: the 729-character candidates before
the step (a digit where it is a candidate, `.` where not; a solved cell shows its digit alone),
Sukaku's score, the candidates the step removed (`row,col,digit`, `;`-separated, 1-based) and
its description. The first PER_KIND (default 4) steps of each kind are kept, in file order.
"""

import re
import sys

KINDS = [
    "Skyscraper", "Two-string Kite", "Turbot Crane", "Grouped Skyscraper",
    "Grouped 2-String Kite", "Grouped Turbot Crane", "3 Skyscrapers", "3-String Kite",
    "3 Strong links", "WXYZ-Wing", "VWXYZ-Wing", "BUG type 2", "Bidirectional Y-Cycle",
    "Bidirectional X-Cycle", "Bidirectional Cycle", "Aligned Pair", "Unique Rectangle type 3", "Unique Loop",
]


def kind_of(description):
    name = re.sub(r"^[0-9.]+ ", "", description)
    for kind in sorted(KINDS, key=len, reverse=True):
        if name.startswith(kind):
            return kind
    return None


def main():
    per_kind = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    seq = []
    for line in open(sys.argv[1]):
        line = line.rstrip("\n")
        if line[:2] in ("B ", "A "):
            seq.append((line[0], line[2:]))
        elif line.startswith("= "):
            seq.append(("=", None))
    kept = {}
    for i, (tag, text) in enumerate(seq):
        kind = kind_of(text) if tag == "A" else None
        if kind is None or kept.get(kind, 0) >= per_kind:
            continue
        if i == 0 or seq[i - 1][0] != "B" or i + 1 >= len(seq) or seq[i + 1][0] != "B":
            continue
        before, after = seq[i - 1][1], seq[i + 1][1]
        removed = [
            f"{j // 81 + 1},{j // 9 % 9 + 1},{before[j]}"
            for j in range(729)
            if before[j] != "." and after[j] == "."
        ]
        score, name = text.split(" ", 1)
        print(before, score, ";".join(removed), name)
        kept[kind] = kept.get(kind, 0) + 1


main()
