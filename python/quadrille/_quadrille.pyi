"""Type stubs of quadrille's native module (see the docstrings for what each does)."""

from os import PathLike
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

__version__: str

class QuadrilleError(ValueError):
    line: Optional[int]
    column: Optional[int]
    message: str

Item = Union[str, Tuple[str, int, int]]
Entry = Union[str, Tuple[str, str]]
Puzzles = Union[str, Sequence[str]]

class Count:
    @property
    def solutions(self) -> int: ...
    @property
    def exact(self) -> bool: ...
    @property
    def stop(self) -> str: ...
    @property
    def stats(self) -> Dict[str, Any]: ...
    def __int__(self) -> int: ...
    def __index__(self) -> int: ...
    def __lt__(self, other: int) -> bool: ...
    def __le__(self, other: int) -> bool: ...
    def __gt__(self, other: int) -> bool: ...
    def __ge__(self, other: int) -> bool: ...
    def __add__(self, other: int) -> int: ...
    def __radd__(self, other: int) -> int: ...
    def __sub__(self, other: int) -> int: ...
    def __rsub__(self, other: int) -> int: ...
    def __mul__(self, other: int) -> int: ...
    def __rmul__(self, other: int) -> int: ...
    def __format__(self, spec: str) -> str: ...
    def __bool__(self) -> bool: ...

class Solutions:
    @property
    def solutions(self) -> List[List[int]]: ...
    @property
    def count(self) -> Count: ...
    def __len__(self) -> int: ...
    def __getitem__(self, index: int) -> List[int]: ...

class SolutionIterator(Iterator[List[int]]):
    def __iter__(self) -> "SolutionIterator": ...
    def __next__(self) -> List[int]: ...
    @property
    def result(self) -> Optional[Count]: ...

class ExactCover:
    def __init__(
        self,
        items: Sequence[Item],
        options: Sequence[Sequence[Entry]],
        *,
        secondary: Sequence[str] = ...,
        costs: Optional[Sequence[int]] = None,
    ) -> None: ...
    @staticmethod
    def from_dlx(text: str) -> "ExactCover": ...
    @staticmethod
    def read_dlx(path: Union[str, PathLike[str]]) -> "ExactCover": ...
    def to_dlx(self) -> str: ...
    @property
    def item_count(self) -> int: ...
    @property
    def option_count(self) -> int: ...
    @property
    def items(self) -> List[str]: ...
    @property
    def is_plain(self) -> bool: ...
    def option_text(self, index: int) -> str: ...
    def first(
        self,
        *,
        node_budget: Optional[int] = None,
        time_budget: Optional[float] = None,
        seed: int = 0,
        no_restarts: bool = False,
    ) -> Optional[List[int]]: ...
    def solutions(
        self,
        limit: Optional[int] = None,
        *,
        node_budget: Optional[int] = None,
        time_budget: Optional[float] = None,
        seed: int = 0,
        no_restarts: bool = False,
        knuth: bool = False,
    ) -> Solutions: ...
    def iter_solutions(
        self,
        limit: Optional[int] = None,
        *,
        node_budget: Optional[int] = None,
        time_budget: Optional[float] = None,
        seed: int = 0,
        no_restarts: bool = False,
    ) -> SolutionIterator: ...
    def count(
        self,
        *,
        limit: Optional[int] = None,
        threads: int = 1,
        node_budget: Optional[int] = None,
        time_budget: Optional[float] = None,
        seed: int = 0,
        no_restarts: bool = False,
        knuth: bool = False,
        memo: str = "auto",
    ) -> Count: ...
    def cheapest(
        self,
        k: int = 1,
        *,
        node_budget: Optional[int] = None,
        time_budget: Optional[float] = None,
    ) -> Dict[str, Any]: ...
    def min_cost(
        self,
        *,
        node_budget: Optional[int] = None,
        time_budget: Optional[float] = None,
    ) -> Dict[str, Any]: ...
    def costs(self) -> List[int]: ...
    def sample(
        self,
        k: int,
        *,
        seed: int = 0,
        time_budget: Optional[float] = None,
        memory: Optional[int] = None,
    ) -> List[List[int]]: ...
    def estimate(
        self,
        probes: int = 10000,
        *,
        seed: int = 0,
        node_budget: Optional[int] = None,
        time_budget: Optional[float] = None,
    ) -> Dict[str, Any]: ...
    def count_shard(
        self,
        shard: int,
        shards: int,
        *,
        node_budget: Optional[int] = None,
        time_budget: Optional[float] = None,
    ) -> Dict[str, Any]: ...

class SudokuResult:
    @property
    def line(self) -> int: ...
    @property
    def status(self) -> str: ...
    @property
    def solutions(self) -> int: ...
    @property
    def exact(self) -> bool: ...
    @property
    def count(self) -> str: ...
    @property
    def solution(self) -> Optional[str]: ...
    @property
    def engine(self) -> Optional[str]: ...
    @property
    def why(self) -> Optional[str]: ...
    @property
    def nodes(self) -> int: ...
    @property
    def backtracks(self) -> int: ...
    @property
    def restarts(self) -> int: ...
    @property
    def seconds(self) -> float: ...
    @property
    def label(self) -> Optional[str]: ...
    @property
    def error(self) -> Optional[str]: ...
    def to_dict(self) -> Dict[str, Any]: ...

def solve(
    puzzle: str,
    *,
    limit: Optional[int] = 1,
    engine: str = "auto",
    threads: int = 0,
    box: Optional[str] = None,
    input: str = "line",
    variant: Optional[str] = None,
    node_budget: Optional[int] = None,
    time_budget: Optional[float] = None,
    seed: int = 0,
    no_restarts: bool = False,
) -> SudokuResult: ...
def count(
    puzzle: str,
    *,
    limit: Optional[int] = None,
    engine: str = "auto",
    threads: int = 0,
    box: Optional[str] = None,
    input: str = "line",
    variant: Optional[str] = None,
    node_budget: Optional[int] = None,
    time_budget: Optional[float] = None,
    seed: int = 0,
    no_restarts: bool = False,
) -> SudokuResult: ...
def solve_many(
    puzzles: Puzzles,
    *,
    limit: Optional[int] = 1,
    engine: str = "auto",
    threads: int = 0,
    box: Optional[str] = None,
    input: str = "line",
    variant: Optional[str] = None,
    node_budget: Optional[int] = None,
    time_budget: Optional[float] = None,
    seed: int = 0,
    no_restarts: bool = False,
    keep_errors: bool = False,
) -> List[SudokuResult]: ...
def count_many(
    puzzles: Puzzles,
    *,
    limit: Optional[int] = None,
    engine: str = "auto",
    threads: int = 0,
    box: Optional[str] = None,
    input: str = "line",
    variant: Optional[str] = None,
    node_budget: Optional[int] = None,
    time_budget: Optional[float] = None,
    seed: int = 0,
    no_restarts: bool = False,
    keep_errors: bool = False,
) -> List[SudokuResult]: ...
def check(
    puzzle: str,
    solution: str,
    *,
    box: Optional[str] = None,
    input: str = "line",
    variant: Optional[str] = None,
) -> Optional[str]: ...

class Step:
    @property
    def number(self) -> int: ...
    @property
    def technique(self) -> str: ...
    @property
    def score(self) -> float: ...
    @property
    def placements(self) -> List[Tuple[int, int, int]]: ...
    @property
    def eliminations(self) -> List[Tuple[int, int, int]]: ...
    @property
    def cells(self) -> List[Tuple[int, int]]: ...
    @property
    def units(self) -> List[str]: ...
    @property
    def why(self) -> str: ...
    def svg(self, title: Optional[str] = None) -> str: ...
    def _repr_svg_(self) -> str: ...

class Explanation:
    @property
    def steps(self) -> List[Step]: ...
    @property
    def ending(self) -> str: ...
    @property
    def solved(self) -> bool: ...
    @property
    def unique(self) -> Optional[bool]: ...
    @property
    def score(self) -> Optional[float]: ...
    @property
    def hardest(self) -> str: ...
    @property
    def stuck(self) -> Optional[Tuple[str, str]]: ...
    def __len__(self) -> int: ...

class Rating:
    @property
    def score(self) -> Optional[float]: ...
    @property
    def difficulty(self) -> Optional[str]: ...
    @property
    def hardest(self) -> Optional[str]: ...
    @property
    def steps(self) -> int: ...
    @property
    def guesses(self) -> int: ...
    @property
    def ending(self) -> str: ...
    @property
    def unique(self) -> Optional[bool]: ...
    @property
    def backtracks(self) -> List[Tuple[str, int]]: ...
    @property
    def budget_cut(self) -> List[str]: ...
    def to_dict(self) -> Dict[str, Any]: ...

def explain(
    puzzle: str,
    *,
    guesses: bool = True,
    scale: str = "se121",
    box: Optional[str] = None,
    input: str = "line",
    variant: Optional[str] = None,
    node_budget: Optional[int] = None,
    time_budget: Optional[float] = None,
) -> Explanation: ...
def rate(
    puzzle: str,
    *,
    levels: Sequence[str] = ("hidden-singles", "pairs", "triples", "alldiff"),
    level_nodes: int = 100000,
    scale: str = "se121",
    box: Optional[str] = None,
    input: str = "line",
    variant: Optional[str] = None,
    node_budget: Optional[int] = None,
    time_budget: Optional[float] = None,
) -> Rating: ...
def generate(
    n: int = 10,
    *,
    box: str = "3x3",
    seed: int = 1,
    kind: str = "unique",
    givens: Optional[int] = None,
    blanks: Optional[int] = None,
    symmetry: Optional[str] = None,
    minimal: Optional[str] = None,
    difficulty: Optional[str] = None,
    score: Optional[Tuple[float, float]] = None,
    scale: str = "se121",
    rate: bool = False,
    attempts: int = ...,
    node_budget: Optional[int] = None,
    time_budget: Optional[float] = None,
    engine: Optional[str] = None,
    threads: int = 0,
) -> List[Dict[str, Any]]: ...
def merge(shards: Union[str, Sequence[Dict[str, Any]]]) -> Dict[str, Any]: ...
def compare(
    puzzles: Puzzles,
    *,
    engines: Optional[Sequence[str]] = None,
    limit: int = 2,
    threads: int = 1,
    box: Optional[str] = None,
    input: str = "line",
    variant: Optional[str] = None,
    node_budget: Optional[int] = None,
    no_node_budget: bool = False,
    time_budget: Optional[float] = None,
    seed: int = 0,
    no_restarts: bool = False,
    skip_errors: bool = False,
) -> List[Dict[str, Any]]: ...
