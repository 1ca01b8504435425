//! Running several engines over the same puzzles, and what they did: `quadrille compare`.
//!
//! [`run`] gives every puzzle to every engine in turn (count up to a limit, default 2, within
//! a per-puzzle budget: a [`Request`]) and keeps, per puzzle and engine, a [`Measurement`]:
//! the solution count, why the search stopped, the time, nodes, backtracks and engine-specific
//! work. The solutions themselves are checked as they come (each against the rules with
//! [`check_solution`](crate::sudoku::check::check_solution), and the engines against each
//! other) and then dropped, so that memory grows by a few words per puzzle and engine, not by
//! grids.
//!
//! Weak CSP configurations (`first+lex+fc`) can spend minutes on one hard 9x9 puzzle, so
//! [`DEFAULT_REQUEST`] stops each search after [`DEFAULT_NODE_BUDGET`] nodes; such puzzles are
//! counted as "gave up", with the time and nodes they used.
//!
//! Timing is per puzzle, as each engine reports it ([`Outcome::elapsed`]: from the givens to
//! the answer). A comparison runs on the current rayon pool, several puzzles at once (each
//! puzzle's engines one after another on one thread); `quadrille compare` gives it one thread
//! unless asked for more, so that times are comparable, as the contention of several threads
//! for caches and memory bandwidth can inflate every time.
//!
//! - `run.rs`: driving the engines over the puzzles, through the ordered runner (`runner.rs`).
//! - `agreement.rs`: the checks of each puzzle's outcomes: solutions against the rules and the
//!   givens, engines against each other.
//! - `report.rs`: the text table and the JSON ([`Comparison::table`],
//!   [`Comparison::write_json`]).
//! - `stats.rs`: quantiles and the per-engine [`EngineSummary`], and the table's rows.
//! - `plot`: the SVG chart (with the `plot` feature, on by default).
//!
//! ```
//! use quadrille::compare::{self, DEFAULT_REQUEST};
//! use quadrille::engine::Engine;
//! use quadrille::io::puzzle::{Layout, PuzzleReader};
//!
//! let text = "1...........4..2 easy\n1.3.34.2.......1 easy\n11.............. bad\n................ open\n";
//! let puzzles = PuzzleReader::new(text.as_bytes(), None, Layout::Line);
//! let engines = ["dlx".parse()?, "csp:first+lex+fc".parse::<Engine>()?];
//! let comparison = compare::run(puzzles, &engines, &DEFAULT_REQUEST);
//! assert_eq!(comparison.puzzles().len(), 3);
//! assert_eq!(comparison.skipped()[0].line(), Some(3));
//! assert!(comparison.disagreements().is_empty());
//! let summaries = comparison.summaries();
//! assert_eq!(summaries[1].engine.to_string(), "csp:first+lex+fc");
//! assert_eq!((summaries[0].solved, summaries[0].gave_up), (3, 0));
//! // The empty grid has 288 solutions: both engines stop at the limit, 2.
//! assert!(comparison.puzzles()[2].results.iter().all(|m| m.solutions == 2));
//! let json = comparison.to_json();
//! assert_eq!(json["puzzles"][0]["label"], "easy");
//! # Ok::<(), quadrille::Error>(())
//! ```

mod agreement;
#[cfg(feature = "plot")]
pub mod plot;
mod report;
mod run;
pub(crate) mod stats;

use std::time::Duration;

use crate::budget::{Budget, Request, SolutionCount, Stop};
use crate::engine::{Engine, Outcome};
use crate::error::Error;
use crate::io::puzzle::Puzzle;
use crate::restart::Restarts;
use crate::sudoku::Shape;

pub use run::run;
pub use stats::{EngineSummary, Spread};

/// The node budget per puzzle and engine on a 9x9 grid when none is given: enough for every
/// preset on the 17-clue puzzles, and about a second for `first+lex+fc` on a puzzle it cannot
/// crack. Larger grids get it per 81 cells ([`default_budget`]).
pub const DEFAULT_NODE_BUDGET: u64 = 100_000;

/// The time budget per puzzle and engine when none is given: on large grids a node of the
/// strongest CSP filters costs milliseconds, so nodes alone would not bound a comparison.
pub const DEFAULT_TIME_BUDGET: Duration = Duration::from_secs(5);

/// What a comparison asks of every search of a 9x9 puzzle when nothing else is said: count up
/// to 2 (unique or not) within [`DEFAULT_NODE_BUDGET`] nodes and [`DEFAULT_TIME_BUDGET`].
pub const DEFAULT_REQUEST: Request = Request {
    limit: Some(2),
    budget: Budget {
        nodes: Some(DEFAULT_NODE_BUDGET),
        time: Some(DEFAULT_TIME_BUDGET),
        interrupt: None,
    },
    restarts: Some(Restarts::DEFAULT),
    timed: true,
};

/// The budget of each search of a puzzle of `shape` when none is given: [`DEFAULT_NODE_BUDGET`]
/// per 81 cells, since the nodes a search needs grow with the grid (Dancing Links decides
/// `fixtures/large/unique_36x36_seed1.txt` in 278,224 nodes), and
/// [`DEFAULT_TIME_BUDGET`].
///
/// ```
/// use quadrille::compare::{DEFAULT_NODE_BUDGET, default_budget};
/// use quadrille::sudoku::Shape;
///
/// assert_eq!(default_budget(Shape::CLASSIC).nodes, Some(DEFAULT_NODE_BUDGET));
/// assert_eq!(default_budget(Shape::new(2, 2)?).nodes, Some(DEFAULT_NODE_BUDGET));
/// assert_eq!(default_budget(Shape::new(6, 6)?).nodes, Some(1_600_000));
/// # Ok::<(), quadrille::Error>(())
/// ```
pub fn default_budget(shape: Shape) -> Budget {
    let per_81_cells = shape.cell_count().div_ceil(81).max(1) as u64;
    Budget {
        nodes: Some(DEFAULT_NODE_BUDGET * per_81_cells),
        time: Some(DEFAULT_TIME_BUDGET),
        interrupt: None,
    }
}

/// What one engine did on one puzzle (its solution is checked, then dropped).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Measurement {
    /// Solutions found, up to the limit.
    pub solutions: u64,
    /// Why the search ended.
    pub stop: Stop,
    /// Time spent on the puzzle.
    pub elapsed: Duration,
    /// Search-tree nodes.
    pub nodes: u64,
    /// Dead ends (DLX) or values tried and undone (CSP).
    pub backtracks: u64,
    /// Link updates (DLX) or inferences (CSP).
    pub work: u64,
    /// Runs cut off and started again.
    pub restarts: u64,
    /// Nogoods learned (DLX's learning search).
    pub learned: u64,
}

impl Measurement {
    /// The measurement of an outcome.
    pub fn of(outcome: &Outcome) -> Measurement {
        Measurement {
            solutions: outcome.solutions,
            stop: outcome.stop,
            elapsed: outcome.elapsed,
            nodes: outcome.nodes,
            backtracks: outcome.backtracks,
            work: outcome.work,
            restarts: outcome.restarts,
            learned: outcome.learned,
        }
    }

    /// Whether a budget stopped the search, leaving the answer unknown.
    pub fn gave_up(&self) -> bool {
        self.stop.is_budget()
    }

    /// The time in microseconds.
    pub fn micros(&self) -> f64 {
        self.elapsed.as_secs_f64() * 1e6
    }

    /// The count as people read it: `1` when exact, `2+` when the limit stopped the search,
    /// `0+ (gave up)` when a budget did.
    fn count_text(&self) -> String {
        let count = SolutionCount::new(self.solutions, self.stop);
        if self.gave_up() {
            format!("{count} (gave up)")
        } else {
            count.to_string()
        }
    }
}

/// One puzzle of a comparison and every engine's measurement, in the engines' order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleRecord {
    /// The 1-based input line where the puzzle starts.
    pub line: usize,
    /// The puzzle's label (the first word of its comment), if any.
    pub label: Option<String>,
    /// One measurement per engine.
    pub results: Vec<Measurement>,
}

/// Engines that did not agree on a puzzle, or an engine whose solution breaks the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    /// The 1-based input line of the puzzle.
    pub line: usize,
    /// What differed, naming the engines.
    pub what: String,
}

impl std::fmt::Display for Disagreement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.what)
    }
}

/// Mean backtracks per puzzle of one label, per engine.
#[derive(Clone, Debug, PartialEq)]
pub struct LabelGroup {
    /// The label.
    pub label: String,
    /// Puzzles with this label.
    pub puzzles: usize,
    /// Mean backtracks per puzzle, one per engine.
    pub backtracks_mean: Vec<f64>,
}

/// Disagreements a report lists one by one before it only counts the rest
/// ([`Comparison::shown_disagreements`]): a broken engine can disagree on every puzzle of a
/// file, and the list is for reading.
pub const SHOWN_DISAGREEMENTS: usize = 20;

/// The results of a comparison: per-puzzle measurements, disagreements and bad lines.
#[derive(Debug)]
pub struct Comparison {
    engines: Vec<Engine>,
    request: Request,
    threads: usize,
    puzzles: Vec<PuzzleRecord>,
    disagreements: Vec<Disagreement>,
    skipped: Vec<Error>,
    wall: Duration,
}

impl Comparison {
    /// An empty comparison of these engines, to [`add`](Comparison::add) results to, on the
    /// threads of the current rayon pool.
    pub fn new(engines: &[Engine], request: Request) -> Comparison {
        Comparison {
            engines: engines.to_vec(),
            request,
            threads: rayon::current_num_threads(),
            puzzles: Vec::new(),
            disagreements: Vec::new(),
            skipped: Vec::new(),
            wall: Duration::ZERO,
        }
    }

    /// Records the engines' outcomes on a puzzle (one per engine, in order), checking every
    /// solution against the puzzle and the engines against each other.
    ///
    /// # Panics
    ///
    /// If there is not one outcome per engine (a bug in the caller, not bad input).
    pub fn add(&mut self, puzzle: &Puzzle, outcomes: &[Outcome]) {
        assert_eq!(outcomes.len(), self.engines.len(), "one outcome per engine");
        let problems = agreement::disagreements(&self.engines, puzzle, outcomes);
        if !problems.is_empty() {
            self.disagreements.push(Disagreement {
                line: puzzle.line,
                what: problems.join("; "),
            });
        }
        self.puzzles.push(PuzzleRecord {
            line: puzzle.line,
            label: puzzle.label.clone(),
            results: outcomes.iter().map(Measurement::of).collect(),
        });
    }

    /// Records a line that was not a valid puzzle.
    pub fn skip(&mut self, error: Error) {
        self.skipped.push(error);
    }

    /// The engines, in the order of every puzzle's results.
    pub fn engines(&self) -> &[Engine] {
        &self.engines
    }

    /// What was asked of every search.
    pub fn request(&self) -> &Request {
        &self.request
    }

    /// The threads of the pool it ran on (more than one can inflate the times).
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Every puzzle run, in input order.
    pub fn puzzles(&self) -> &[PuzzleRecord] {
        &self.puzzles
    }

    /// Puzzles on which engines disagreed (or returned a wrong solution), in input order.
    pub fn disagreements(&self) -> &[Disagreement] {
        &self.disagreements
    }

    /// The disagreements a report lists, the first [`SHOWN_DISAGREEMENTS`] in input order,
    /// and how many more there are, which it only counts: the same for every front end.
    pub fn shown_disagreements(&self) -> (&[Disagreement], usize) {
        let shown = self.disagreements.len().min(SHOWN_DISAGREEMENTS);
        (
            &self.disagreements[..shown],
            self.disagreements.len() - shown,
        )
    }

    /// Lines that were not valid puzzles, with where and why.
    pub fn skipped(&self) -> &[Error] {
        &self.skipped
    }

    /// The wall-clock time of the whole run.
    pub fn wall(&self) -> Duration {
        self.wall
    }

    /// The measurements of engine `index` over all puzzles.
    pub fn measurements(&self, index: usize) -> impl Iterator<Item = &Measurement> + '_ {
        self.puzzles.iter().map(move |p| &p.results[index])
    }
}

/// The engines of these names, for tests.
#[cfg(test)]
fn engines_named(names: &[&str]) -> Vec<Engine> {
    names.iter().map(|n| n.parse().unwrap()).collect()
}
