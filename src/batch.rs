//! Solving a stream of puzzles on several threads, in input order, in flat memory.
//!
//! Puzzles are read in chunks; each chunk is solved in parallel (rayon, one solver per thread
//! and shape, kept for the whole run) while the calling thread reads the next chunk and hands
//! the results of the previous one to the caller, in input order. Memory is bounded by three
//! chunks, whatever the input's length. Bad lines are results too, so that every puzzle line
//! is accounted for.

use std::cell::RefCell;
use std::collections::HashMap;
use std::io::BufRead;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::budget::Budget;
use crate::engine::{Engine, Outcome, Solver};
use crate::error::{Error, Result};
use crate::io::puzzle::{Puzzle, PuzzleReader};
use crate::sudoku::Shape;

/// Puzzles read and solved together; large enough to keep every thread busy, small enough to
/// keep memory flat and the first results quick.
const CHUNK: usize = 2048;

/// How to solve a batch.
#[derive(Clone, Copy, Debug, Default)]
pub struct Settings {
    /// The engine to use.
    pub engine: Engine,
    /// Count solutions up to this many (`None`: all).
    pub limit: Option<u64>,
    /// The budget of each puzzle.
    pub budget: Budget,
    /// Split each puzzle's search across threads (for counting few, large puzzles).
    pub split: bool,
}

/// One result of a batch, in input order.
#[derive(Debug)]
pub struct Record {
    /// The 1-based input line where the puzzle starts.
    pub line: usize,
    /// The puzzle and what solving it gave, or why its line could not be read.
    pub result: std::result::Result<Solved, Error>,
}

/// A puzzle that was read, and what solving it gave.
#[derive(Debug)]
pub struct Solved {
    /// The puzzle as read.
    pub puzzle: Puzzle,
    /// What the engine found.
    pub outcome: Outcome,
}

/// What a batch did, for `--stats`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Input lines read (comments and blank lines included).
    pub lines: usize,
    /// Puzzles read, good or bad.
    pub puzzles: usize,
    /// Puzzles with at least one solution found.
    pub solved: usize,
    /// Puzzles with exactly one solution (known only when the limit is 2 or more).
    pub unique: usize,
    /// Puzzles with two or more solutions.
    pub multiple: usize,
    /// Puzzles proven to have no solution.
    pub unsolvable: usize,
    /// Puzzles whose search ran out of budget before finding a solution.
    pub undecided: usize,
    /// Lines that were not valid puzzles.
    pub errors: usize,
    /// Search-tree nodes of all puzzles.
    pub nodes: u64,
    /// Puzzles solved without backtracking.
    pub no_backtracking: usize,
    /// Wall-clock time of the whole batch.
    pub wall: Duration,
    /// Time spent in the solvers, summed over puzzles (over threads).
    pub solving: Duration,
}

impl Summary {
    /// Adds another batch's counts and times to these (for several inputs in a row).
    pub fn merge(&mut self, other: &Summary) {
        self.lines += other.lines;
        self.puzzles += other.puzzles;
        self.solved += other.solved;
        self.unique += other.unique;
        self.multiple += other.multiple;
        self.unsolvable += other.unsolvable;
        self.undecided += other.undecided;
        self.errors += other.errors;
        self.nodes += other.nodes;
        self.no_backtracking += other.no_backtracking;
        self.wall += other.wall;
        self.solving += other.solving;
    }

    fn add(&mut self, record: &Record) {
        self.puzzles += 1;
        let Ok(Solved { outcome, .. }) = &record.result else {
            self.errors += 1;
            return;
        };
        self.nodes += outcome.nodes;
        self.solving += outcome.elapsed;
        if outcome.backtracks == 0 {
            self.no_backtracking += 1;
        }
        match outcome.solutions {
            0 if outcome.is_complete() => self.unsolvable += 1,
            0 => self.undecided += 1,
            k => {
                self.solved += 1;
                if k >= 2 {
                    self.multiple += 1;
                } else if outcome.is_complete() {
                    // One solution, and the search looked everywhere for a second.
                    self.unique += 1;
                }
            }
        }
    }
}

thread_local! {
    /// Each worker thread's solvers, by engine and shape, built on first use.
    static SOLVERS: RefCell<HashMap<(Engine, Shape), Solver>> = RefCell::new(HashMap::new());
}

/// Solves one puzzle with this thread's solver for its engine and shape.
pub fn solve_one(puzzle: &Puzzle, settings: &Settings) -> Outcome {
    SOLVERS.with(|solvers| {
        let mut solvers = solvers.borrow_mut();
        let key = (settings.engine, puzzle.grid.shape());
        let solver = solvers
            .entry(key)
            .or_insert_with(|| Solver::sudoku(key.0, key.1));
        if settings.split {
            solver.count_split(&puzzle.grid, settings.limit, &settings.budget)
        } else {
            solver.count(&puzzle.grid, settings.limit, &settings.budget)
        }
    })
}

/// Solves every puzzle of `reader` on the threads of the current rayon pool and hands each
/// [`Record`] to `each`, in input order. Stops early only if `each` fails (a closed pipe, say).
///
/// ```
/// use quadrille::batch::{self, Settings};
/// use quadrille::io::puzzle::{Layout, PuzzleReader};
///
/// let input = "# 4x4\n1...........4..2\n11..............\n................\n";
/// let reader = PuzzleReader::new(input.as_bytes(), None, Layout::Line);
/// let settings = Settings { limit: Some(2), ..Settings::default() };
/// let mut lines = Vec::new();
/// let summary = batch::solve(reader, &settings, |record| {
///     lines.push(record.line);
///     Ok(())
/// })?;
/// assert_eq!(lines, [2, 3, 4]);
/// assert_eq!((summary.lines, summary.puzzles, summary.errors, summary.multiple), (4, 3, 1, 2));
/// # Ok::<(), quadrille::Error>(())
/// ```
pub fn solve<R, F>(mut reader: PuzzleReader<R>, settings: &Settings, mut each: F) -> Result<Summary>
where
    R: BufRead,
    F: FnMut(&Record) -> std::io::Result<()>,
{
    let start = Instant::now();
    let mut summary = Summary::default();
    // A pipeline of three chunks: while the pool solves one, this thread reads the next and
    // hands out the results of the one before, so that reading and writing, which cannot be
    // shared out, overlap the solving rather than leave the other threads waiting.
    let mut solving = Chunk::read(&mut reader);
    let mut solved: Vec<Record> = Vec::new();
    while !(solving.items.is_empty() && solved.is_empty()) {
        let mut results = Vec::new();
        let mut next = Chunk::default();
        let mut handed = Ok(());
        rayon::in_place_scope(|scope| {
            let chunk = std::mem::take(&mut solving);
            let results = &mut results;
            scope.spawn(move |_| *results = chunk.solve(settings));
            next = Chunk::read(&mut reader);
            for record in &solved {
                summary.add(record);
                handed = each(record);
                if handed.is_err() {
                    break;
                }
            }
        });
        handed?;
        solving = next;
        solved = results;
    }
    summary.lines = reader.lines_read();
    summary.wall = start.elapsed();
    Ok(summary)
}

/// Puzzles read together, in input order.
#[derive(Default)]
struct Chunk {
    items: Vec<std::result::Result<Puzzle, Error>>,
    /// The reader's line count after the chunk: the line of a bad puzzle whose error does not
    /// carry one (a fallback; errors carry their lines).
    last_line: usize,
}

impl Chunk {
    /// The next [`CHUNK`] puzzles of `reader` (fewer at the end).
    fn read<R: BufRead>(reader: &mut PuzzleReader<R>) -> Chunk {
        let items: Vec<_> = reader.by_ref().take(CHUNK).collect();
        Chunk {
            items,
            last_line: reader.lines_read(),
        }
    }

    /// Solves every puzzle, on the threads of the current pool; results in input order.
    fn solve(self, settings: &Settings) -> Vec<Record> {
        let last_line = self.last_line;
        let record_of = |item: std::result::Result<Puzzle, Error>| match item {
            Ok(puzzle) => {
                let outcome = solve_one(&puzzle, settings);
                Record {
                    line: puzzle.line,
                    result: Ok(Solved { puzzle, outcome }),
                }
            }
            Err(err) => Record {
                line: err.line().unwrap_or(last_line),
                result: Err(err),
            },
        };
        // Split searches already use every thread: run those puzzles one after another.
        if settings.split {
            self.items.into_iter().map(record_of).collect()
        } else {
            self.items.into_par_iter().map(record_of).collect()
        }
    }
}
