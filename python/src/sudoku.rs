//! Sudoku of every box shape and variant: solve, count and check, one puzzle or many, with
//! the engine of your choice, as `quadrille solve` and `quadrille count` do.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use quadrille::batch::{self, Parallelism, Record};
use quadrille::engine::Engine;
use quadrille::io::puzzle::{Layout, Puzzle, PuzzleReader, parse_line};
use quadrille::sudoku::Shape;
use quadrille::sudoku::check::check_solution_on;
use quadrille::sudoku::variant::Variant;
use quadrille::{Request, SolutionCount, Stop};

use crate::args;
use crate::errors::{self, OrRaise};
use crate::interrupt;

/// Registers the functions and classes.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<SudokuResult>()?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(count, m)?)?;
    m.add_function(wrap_pyfunction!(solve_many, m)?)?;
    m.add_function(wrap_pyfunction!(count_many, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    Ok(())
}

/// How puzzle text is read: the box shape, the layout and the variant.
#[derive(Clone, Copy)]
pub struct Reading {
    shape: Option<Shape>,
    layout: Layout,
    variant: Option<Variant>,
}

impl Reading {
    /// The reading of the keyword arguments `box`, `input` and `variant`.
    pub fn new(shape: Option<&str>, input: &str, variant: Option<&str>) -> PyResult<Reading> {
        Ok(Reading {
            shape: args::shape(shape)?,
            layout: args::layout(input)?,
            variant: args::variant(variant)?,
        })
    }

    /// A reader of `text`.
    pub fn reader<'a>(&self, text: &'a str) -> PuzzleReader<&'a [u8]> {
        PuzzleReader::new(text.as_bytes(), self.shape, self.layout).with_variant(self.variant)
    }

    /// The only puzzle of `text` (a line, or a grid, with `# variant:` lines if any).
    pub fn one(&self, text: &str) -> PyResult<Puzzle> {
        let mut puzzles = self.reader(text);
        match (puzzles.next(), puzzles.next()) {
            (Some(puzzle), None) => puzzle.or_raise(),
            (None, _) => Err(PyValueError::new_err("no puzzle in the text")),
            (Some(_), Some(_)) => Err(PyValueError::new_err(
                "more than one puzzle in the text: solve_many takes several",
            )),
        }
    }
}

/// The puzzles' text: a str as it is, a list of str one per line.
pub fn puzzle_text(puzzles: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(text) = puzzles.extract::<String>() {
        return Ok(text);
    }
    let lines: Vec<String> = puzzles.extract().map_err(|_| {
        PyValueError::new_err("puzzles: a str (the text of a file) or a list of str")
    })?;
    let mut text = String::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
    for line in &lines {
        text.push_str(line);
        text.push('\n');
    }
    Ok(text)
}

/// What solving one puzzle gave, as `quadrille solve --json` writes it, with the statistics.
#[pyclass(frozen, module = "quadrille")]
pub struct SudokuResult {
    /// The 1-based line of the puzzle in the input.
    #[pyo3(get)]
    line: usize,
    /// "solved", "unsolvable" (proved), "undecided" (the budget ran out) or "error".
    #[pyo3(get)]
    status: &'static str,
    /// Solutions found, up to the limit: exact when `exact`.
    #[pyo3(get)]
    solutions: u64,
    /// The first solution found, one line of digits (None when there is none).
    #[pyo3(get)]
    solution: Option<String>,
    /// The engine that answered (the one "auto" chose).
    #[pyo3(get)]
    engine: Option<String>,
    /// Why that engine answered: "named", or auto's reason ("bitboard-takes-the-board",
    /// "killer-cages", "nearly-empty", "large-board", "fallback").
    #[pyo3(get)]
    why: Option<&'static str>,
    /// Search-tree nodes.
    #[pyo3(get)]
    nodes: u64,
    /// Dead ends (DLX) or values tried and undone (CSP, bitboard).
    #[pyo3(get)]
    backtracks: u64,
    /// Restarts of the search.
    #[pyo3(get)]
    restarts: u64,
    /// Seconds in the solver.
    #[pyo3(get)]
    seconds: f64,
    /// The puzzle's label (the first word of its comment), if any.
    #[pyo3(get)]
    label: Option<String>,
    /// Why the line is not a puzzle (status "error"), as the command-line tool says it.
    #[pyo3(get)]
    error: Option<String>,
    /// Why the search ended (a bad line's is a limit: its count is no exact 0).
    stop: Stop,
}

impl SudokuResult {
    fn of(record: &Record) -> SudokuResult {
        match &record.result {
            Ok(solved) => {
                let outcome = &solved.outcome;
                let status = match (outcome.solutions, outcome.stop.is_budget()) {
                    (1.., _) => "solved",
                    (0, true) => "undecided",
                    (0, false) => "unsolvable",
                };
                SudokuResult {
                    line: record.line,
                    status,
                    solutions: outcome.solutions,
                    solution: outcome.solution.as_ref().map(|g| g.to_string()),
                    engine: Some(solved.engine.to_string()),
                    why: Some(solved.why.name()),
                    nodes: outcome.nodes,
                    backtracks: outcome.backtracks,
                    restarts: outcome.restarts,
                    seconds: outcome.elapsed.as_secs_f64(),
                    label: solved.puzzle.label.clone(),
                    error: None,
                    stop: outcome.stop,
                }
            }
            Err(err) => SudokuResult {
                line: record.line,
                status: "error",
                solutions: 0,
                solution: None,
                engine: None,
                why: None,
                nodes: 0,
                backtracks: 0,
                restarts: 0,
                seconds: 0.0,
                label: None,
                error: Some(errors::in_record(err)),
                stop: Stop::Limit,
            },
        }
    }
}

#[pymethods]
impl SudokuResult {
    /// The count as the command-line tool prints it: `N`, or `N+` for a lower bound.
    #[getter]
    fn count(&self) -> String {
        SolutionCount::new(self.solutions, self.stop).to_string()
    }

    /// Whether `solutions` is the whole count (the search was exhausted).
    #[getter]
    fn exact(&self) -> bool {
        self.stop.is_complete()
    }

    /// The result as a dict (a row of a pandas DataFrame).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("line", self.line)?;
        d.set_item("status", self.status)?;
        d.set_item("solutions", self.solutions)?;
        d.set_item("exact", self.exact())?;
        d.set_item("solution", &self.solution)?;
        d.set_item("engine", &self.engine)?;
        d.set_item("why", self.why)?;
        d.set_item("nodes", self.nodes)?;
        d.set_item("backtracks", self.backtracks)?;
        d.set_item("restarts", self.restarts)?;
        d.set_item("seconds", self.seconds)?;
        d.set_item("label", &self.label)?;
        d.set_item("error", &self.error)?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        match (&self.error, &self.solution) {
            (Some(error), _) => format!("SudokuResult(line {}, error: {error})", self.line),
            (None, Some(solution)) => format!(
                "SudokuResult(line {}, {}, {} solutions, {solution})",
                self.line,
                self.status,
                self.count()
            ),
            (None, None) => format!("SudokuResult(line {}, {})", self.line, self.status),
        }
    }
}

/// One batch of puzzles, as `solve` or `count` runs it.
struct Batch {
    reading: Reading,
    engine: Engine,
    request: Request,
    parallelism: Parallelism,
    threads: usize,
}

impl Batch {
    #[allow(clippy::too_many_arguments)]
    fn new(
        shape: Option<&str>,
        input: &str,
        variant: Option<&str>,
        engine: &str,
        limit: Option<u64>,
        threads: usize,
        node_budget: Option<u64>,
        time_budget: Option<f64>,
        seed: u64,
        no_restarts: bool,
        parallelism: Parallelism,
    ) -> PyResult<Batch> {
        Ok(Batch {
            reading: Reading::new(shape, input, variant)?,
            engine: args::engine(engine)?,
            request: Request {
                limit: args::limit(limit)?,
                budget: args::budget(node_budget, time_budget)?,
                restarts: args::restarts(seed, no_restarts),
                ..Request::default()
            },
            parallelism,
            threads: args::threads(threads)?,
        })
    }

    /// Every puzzle's result, in input order; the first bad line raises unless `keep_errors`.
    fn run(&self, py: Python<'_>, text: &str, keep_errors: bool) -> PyResult<Vec<SudokuResult>> {
        let results = interrupt::run(py, |interrupt| {
            args::on_threads(self.threads, || {
                let mut results = Vec::new();
                let mut first_error = None;
                let reader = self.reading.reader(text);
                let summary = batch::solve(
                    reader,
                    self.engine,
                    &self.request,
                    self.parallelism,
                    |record| {
                        if interrupt.is_raised() {
                            return Err(std::io::Error::from(std::io::ErrorKind::Interrupted));
                        }
                        if let (Err(err), false) = (&record.result, keep_errors) {
                            first_error = Some(errors::ErrorText::of(err));
                            return Err(std::io::Error::other("a bad line"));
                        }
                        results.push(SudokuResult::of(record));
                        Ok(())
                    },
                );
                (summary.map(|_| ()), results, first_error)
            })
        })?;
        let (summary, results, first_error) = results.or_raise()?;
        if let Some(err) = first_error {
            return Err(err.raise());
        }
        summary.or_raise()?;
        Ok(results)
    }
}

/// The functions' shared keyword arguments, documented once: `box` ("RxC", inferred from each
/// puzzle's size when None), `input` ("line" or "grid"), `variant` (classic, x, windoku,
/// jigsaw, killer; None: from `# variant:` lines), `engine` ("auto", "dlx", "csp",
/// "csp:CONFIG", "bitboard"), `node_budget` and `time_budget` (per puzzle), `seed` and
/// `no_restarts` (the restarts of searches with a limit).
macro_rules! batch_fn {
    ($name:ident, $default_limit:expr, $parallelism:expr, $threads:expr, $shown:literal, $doc:literal) => {
        #[doc = $doc]
        #[pyfunction]
        #[pyo3(signature = (puzzles, *, limit = $default_limit, engine = "auto", threads = $threads, r#box = None, input = "line", variant = None, node_budget = None, time_budget = None, seed = 0, no_restarts = false, keep_errors = false))]
        #[pyo3(text_signature = $shown)]
        #[allow(clippy::too_many_arguments)]
        fn $name(
            py: Python<'_>,
            puzzles: &Bound<'_, PyAny>,
            limit: Option<u64>,
            engine: &str,
            threads: usize,
            r#box: Option<&str>,
            input: &str,
            variant: Option<&str>,
            node_budget: Option<u64>,
            time_budget: Option<f64>,
            seed: u64,
            no_restarts: bool,
            keep_errors: bool,
        ) -> PyResult<Vec<SudokuResult>> {
            let text = puzzle_text(puzzles)?;
            let batch = Batch::new(
                r#box, input, variant, engine, limit, threads, node_budget, time_budget, seed,
                no_restarts, $parallelism,
            )?;
            batch.run(py, &text, keep_errors)
        }
    };
}

batch_fn!(
    solve_many,
    Some(1),
    Parallelism::AcrossPuzzles,
    0,
    "(puzzles, *, limit=1, engine='auto', threads=0, box=None, input='line', variant=None, node_budget=None, time_budget=None, seed=0, no_restarts=False, keep_errors=False)",
    "Solves every puzzle of `puzzles` (a list of str, one puzzle each, or the text of a file) on `threads` threads (0: one per core), as `quadrille solve` does: one SudokuResult per puzzle, in input order. `limit=2` tells unique from multiple. A bad line raises QuadrilleError (its line and column), unless `keep_errors`, which gives it a result of status \"error\"."
);

batch_fn!(
    count_many,
    None,
    Parallelism::WithinPuzzle,
    0,
    "(puzzles, *, limit=None, engine='auto', threads=0, box=None, input='line', variant=None, node_budget=None, time_budget=None, seed=0, no_restarts=False, keep_errors=False)",
    "Counts the solutions of every puzzle of `puzzles` (see solve_many), as `quadrille count` does: each count split across the threads. `limit` stops a count at that many (the count is then a lower bound, `exact` False)."
);

/// A function of one puzzle: `solve` (one thread, puzzles solved one per thread) or `count`
/// (split across `threads`), with the keyword arguments of `batch_fn!`.
macro_rules! one_fn {
    ($name:ident, $default_limit:expr, $parallelism:expr, $shown:literal, $doc:literal) => {
        #[doc = $doc]
        #[pyfunction]
        #[pyo3(signature = (puzzle, *, limit = $default_limit, engine = "auto", threads = 0, r#box = None, input = "line", variant = None, node_budget = None, time_budget = None, seed = 0, no_restarts = false))]
        #[pyo3(text_signature = $shown)]
        #[allow(clippy::too_many_arguments)]
        fn $name(
            py: Python<'_>,
            puzzle: &str,
            limit: Option<u64>,
            engine: &str,
            threads: usize,
            r#box: Option<&str>,
            input: &str,
            variant: Option<&str>,
            node_budget: Option<u64>,
            time_budget: Option<f64>,
            seed: u64,
            no_restarts: bool,
        ) -> PyResult<SudokuResult> {
            let batch = Batch::new(
                r#box, input, variant, engine, limit, threads, node_budget, time_budget, seed,
                no_restarts, $parallelism,
            )?;
            one(py, puzzle, batch)
        }
    };
}

one_fn!(
    solve,
    Some(1),
    Parallelism::AcrossPuzzles,
    "(puzzle, *, limit=1, engine='auto', threads=0, box=None, input='line', variant=None, node_budget=None, time_budget=None, seed=0, no_restarts=False)",
    "Solves one puzzle (a line, or a grid with `input=\"grid\"`, with `# variant:` lines if any) and returns its SudokuResult: `solution` is a line of digits, `solutions` the count up to `limit` (2 tells unique from multiple). Raises QuadrilleError for a bad puzzle."
);

one_fn!(
    count,
    None,
    Parallelism::WithinPuzzle,
    "(puzzle, *, limit=None, engine='auto', threads=0, box=None, input='line', variant=None, node_budget=None, time_budget=None, seed=0, no_restarts=False)",
    "Counts the solutions of one puzzle (see solve), all of them unless `limit`, split across `threads` threads (0: one per core): `solutions` is an exact int when `exact`."
);

fn one(py: Python<'_>, puzzle: &str, batch: Batch) -> PyResult<SudokuResult> {
    batch.reading.one(puzzle)?;
    let mut results = batch.run(py, puzzle, false)?;
    results
        .pop()
        .ok_or_else(|| PyValueError::new_err("no puzzle in the text"))
}

/// Checks that `solution` (a line of digits) solves `puzzle` under its rules (its variant's
/// groups and cages too) and keeps its givens: None when it does, else what is wrong first,
/// e.g. "r1c1 changes the given 1 to 2", or why the solution is no grid of the puzzle's side.
#[pyfunction]
#[pyo3(signature = (puzzle, solution, *, r#box = None, input = "line", variant = None))]
#[pyo3(text_signature = "(puzzle, solution, *, box=None, input='line', variant=None)")]
fn check(
    puzzle: &str,
    solution: &str,
    r#box: Option<&str>,
    input: &str,
    variant: Option<&str>,
) -> PyResult<Option<String>> {
    let puzzle = Reading::new(r#box, input, variant)?.one(puzzle)?;
    // A line that is no grid of the puzzle's side, or repeats a digit in a row, column or box,
    // is refused by the reader: that is what is wrong with it.
    let solution = match parse_line(solution.trim(), Some(puzzle.grid.shape())) {
        Ok(solution) => solution,
        Err(err) => return Ok(Some(err.message())),
    };
    Ok(check_solution_on(puzzle.board(), &puzzle.grid, &solution)
        .err()
        .map(|violation| violation.to_string()))
}
