"""What the peer scripts share: reading quadrille's line format and its box shapes."""

import math


def digit(ch):
    """A cell's digit: 0 for a blank ('.' or '0'), 1-9, then A-Z for 10 and up."""
    if ch in ".0":
        return 0
    if ch.isdigit():
        return int(ch)
    return ord(ch.upper()) - ord("A") + 10


def box_shape(n):
    """The box r x c of an n x n Sudoku: the most square, wider than tall (as quadrille)."""
    r = int(math.isqrt(n))
    while n % r:
        r -= 1
    return r, n // r


def parse_box(text):
    """`RxC` as a pair, or None."""
    return tuple(int(k) for k in text.lower().split("x")) if text else None


def puzzles(path):
    """(line number, puzzle) for each puzzle line of a file; blank and '#' lines are skipped."""
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if line and not line.startswith("#"):
                yield number, line
