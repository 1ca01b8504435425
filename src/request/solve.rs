//! [`SolveRecord`]: one puzzle's answer in a batch, as `quadrille solve --json` and
//! `quadrille count --json` write it and `quadrille serve` returns it. The batch itself
//! ([`crate::batch::solve`], [`crate::batch::solve_one`]) is the request; this is its record,
//! built once so that every front end writes the same keys.

use serde::Serialize;

use super::{check, on_threads};
use crate::batch::{self, Parallelism, Solved};
use crate::budget::{Budget, Request};
use crate::engine::{Choice, Engine, Outcome, Why};
use crate::exact_cover::PartsDone;
use crate::io::puzzle::Puzzle;

/// A count of one puzzle's solutions, split across threads where the engine splits one
/// (the batch's own call, [`batch::solve_one_with`]): `quadrille serve`'s `/api/count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PuzzleCount {
    /// The engine.
    pub engine: Engine,
    /// Stop at this many solutions; `None`: every one.
    pub limit: Option<u64>,
    /// Threads (0: the pool it is called in).
    pub threads: usize,
    /// The budget of the count.
    pub budget: Budget,
}

impl PuzzleCount {
    /// Counts `puzzle`, telling `progress` how far a split count has got.
    ///
    /// ```
    /// use quadrille::io::puzzle::{Layout, PuzzleReader};
    /// use quadrille::request::PuzzleCount;
    /// use quadrille::{Budget, engine::Engine};
    ///
    /// let puzzle = PuzzleReader::new(&b"................"[..], None, Layout::Line).next().unwrap()?;
    /// let count = PuzzleCount { engine: Engine::Dlx, limit: None, threads: 2, budget: Budget::unlimited() };
    /// let record = count.run(&puzzle, &|_| {})?;
    /// assert_eq!((record.solutions, record.exact), (288, true));
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    pub fn run(
        &self,
        puzzle: &Puzzle,
        progress: &(dyn Fn(PartsDone) + Sync),
    ) -> crate::Result<SolveRecord> {
        let limit = check::limit(self.limit)?;
        check::node_budget(self.budget.nodes)?;
        let request = Request {
            limit,
            budget: self.budget,
            ..Request::default()
        };
        let counted = on_threads(check::threads(self.threads)?, || {
            let within = Parallelism::WithinPuzzle;
            batch::solve_one_with(puzzle, self.engine, &request, within, progress)
        })?;
        let (outcome, choice) = counted?;
        Ok(SolveRecord::new(puzzle, &outcome, choice))
    }
}

/// What one puzzle of a batch gave; serialised, the object of `solve --json` (the tool adds
/// the input's `file` when it reads several). Fields are in the order the object is written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SolveRecord {
    /// The engine that answered.
    pub engine: String,
    /// Whether `solutions` is the whole count (the search was exhausted), or only what was
    /// found before the limit or the budget stopped it.
    pub exact: bool,
    /// The puzzle's label, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The input line where the puzzle starts.
    pub line: usize,
    /// The first solution found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solution: Option<String>,
    /// Solutions found.
    pub solutions: u64,
    /// `solved`, `unsolvable` or `undecided` (a budget stopped it before any solution).
    pub status: &'static str,
    /// `budget` when a budget stopped the search.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<&'static str>,
    /// Why auto chose the engine; a named engine needs no reason.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<&'static str>,
}

impl SolveRecord {
    /// The record of a puzzle that a batch solved.
    pub fn of(solved: &Solved) -> SolveRecord {
        let choice = Choice {
            engine: solved.engine,
            why: solved.why,
        };
        SolveRecord::new(&solved.puzzle, &solved.outcome, choice)
    }

    /// The records of `puzzles`, each solved by `engine` within `request` on this thread, one
    /// after another ([`batch::solve_one`]): a short batch answered at once.
    pub fn each(
        puzzles: &[Puzzle],
        engine: Engine,
        request: &Request,
    ) -> crate::Result<Vec<SolveRecord>> {
        (puzzles.iter())
            .map(|puzzle| {
                let (outcome, choice) =
                    batch::solve_one(puzzle, engine, request, Parallelism::AcrossPuzzles)?;
                Ok(SolveRecord::new(puzzle, &outcome, choice))
            })
            .collect()
    }

    /// The record of `puzzle`, which the engine of `choice` searched to `outcome`
    /// ([`crate::batch::solve_one`]'s answer).
    pub fn new(puzzle: &Puzzle, outcome: &Outcome, choice: Choice) -> SolveRecord {
        let status = match (outcome.solutions, outcome.stop.is_budget()) {
            (1.., _) => "solved",
            (0, true) => "undecided",
            (0, false) => "unsolvable",
        };
        SolveRecord {
            engine: choice.engine.to_string(),
            exact: outcome.is_complete(),
            label: puzzle.label.clone(),
            line: puzzle.line,
            solution: outcome.solution.as_ref().map(ToString::to_string),
            solutions: outcome.solutions,
            status,
            stopped: outcome.stop.is_budget().then_some("budget"),
            why: (choice.why != Why::Named).then(|| choice.why.name()),
        }
    }
}
