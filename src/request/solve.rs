//! [`SolveRecord`]: one puzzle's answer in a batch, as `quadrille solve --json` and
//! `quadrille count --json` write it and `quadrille serve` returns it. The batch itself
//! ([`crate::batch::solve`], [`crate::batch::solve_one`]) is the request; this is its record,
//! built once so that every front end writes the same keys.

use serde::Serialize;

use crate::batch::Solved;
use crate::engine::{Choice, Outcome, Why};
use crate::io::puzzle::Puzzle;

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
