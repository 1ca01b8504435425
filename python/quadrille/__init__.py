"""quadrille: exact cover by Dancing Links, Sudoku of every box size, and CSP search.

The engines of the Rust library, from Python:

- ``ExactCover``: build a problem from items and options (secondary items, colours,
  multiplicities) or read Knuth's dlx format; ``first``, ``solutions``, ``iter_solutions``
  (streamed), ``count`` (an exact int), ``estimate``, ``count_shard``; ``merge`` adds the
  shards' results up.
- ``solve``, ``count``, ``solve_many``, ``count_many``, ``check``: Sudoku of every box shape
  and variant, with the engine of your choice.
- ``explain`` and ``rate``: a puzzle's logical solution, step by step (each step draws
  itself as SVG in a notebook), and its score on Sudoku Explainer's scale.
- ``generate``: puzzles from a seed; ``compare``: engines over puzzles, as rows for pandas.

Searches release the GIL; Ctrl-C stops any of them within a tenth of a second and raises
KeyboardInterrupt. Errors are ``QuadrilleError`` (a ``ValueError``) with the command-line tool's
message, ``line`` and ``column``.
"""

from ._quadrille import (
    Count,
    ExactCover,
    Explanation,
    QuadrilleError,
    Rating,
    SolutionIterator,
    Solutions,
    Step,
    SudokuResult,
    __version__,
    check,
    compare,
    count,
    count_many,
    explain,
    generate,
    merge,
    rate,
    solve,
    solve_many,
)

__all__ = [
    "Count",
    "ExactCover",
    "Explanation",
    "QuadrilleError",
    "Rating",
    "SolutionIterator",
    "Solutions",
    "Step",
    "SudokuResult",
    "__version__",
    "check",
    "compare",
    "count",
    "count_many",
    "explain",
    "generate",
    "merge",
    "rate",
    "solve",
    "solve_many",
]
