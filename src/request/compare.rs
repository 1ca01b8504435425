//! [`CompareRequest`]: several engines over the same puzzles, checked against each other, asked
//! the same way by `quadrille compare` and by Python's `compare`. The defaults (which engines,
//! what budget) suit the first puzzle and are decided here, once.

use std::time::Duration;

use super::check::{self, Field, Invalid};
use super::on_threads;
use crate::budget::{Budget, Interrupt, Request};
use crate::compare::{self, Comparison};
use crate::engine::Engine;
use crate::error::Result;
use crate::io::puzzle::Puzzle;
use crate::restart::Restarts;
use crate::sudoku::Shape;

/// A comparison of engines over a stream of puzzles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompareRequest {
    /// The engines; `None`: the bitboard search where it takes the first puzzle's board, DLX
    /// and the CSP presets ([`Engine::defaults_for`]).
    pub engines: Option<Vec<Engine>>,
    /// Count each puzzle's solutions up to this many (1 or more).
    pub limit: u64,
    /// Nodes per puzzle and engine; with `time` `None` too, the default budget of the first
    /// puzzle's shape ([`compare::default_budget`]), so that weak engines cannot hang.
    pub nodes: Option<u64>,
    /// No node budget at all (`nodes` must be `None`).
    pub no_node_budget: bool,
    /// Time per puzzle and engine.
    pub time: Option<Duration>,
    /// The interrupt that stops the whole comparison.
    pub interrupt: Option<Interrupt>,
    /// How searches with a limit restart.
    pub restarts: Option<Restarts>,
    /// Threads (0: one per core).
    pub threads: usize,
}

impl Default for CompareRequest {
    /// The tool's defaults: the default engines and budget, counts up to 2, the default
    /// restarts, one thread per core.
    fn default() -> CompareRequest {
        CompareRequest {
            engines: None,
            limit: 2,
            nodes: None,
            no_node_budget: false,
            time: None,
            interrupt: None,
            restarts: Some(Restarts::DEFAULT),
            threads: 0,
        }
    }
}

impl CompareRequest {
    /// A comparison's input reports how far its reading has got whatever its size: even a
    /// small file takes long with weak engines (see [`super::PROGRESS_BYTES`]).
    pub const PROGRESS_BYTES: u64 = 0;

    /// Checks the request's fields.
    pub fn check(&self) -> std::result::Result<(), Invalid> {
        check::limit(Some(self.limit))?;
        check::threads(self.threads)?;
        check::node_budget(self.nodes)?;
        if self.no_node_budget && self.nodes.is_some() {
            return Err(Invalid::new(
                Field::NodeBudget,
                "a node budget and no node budget at once: give one",
            ));
        }
        if self.engines.as_ref().is_some_and(Vec::is_empty) {
            return Err(Invalid::new(Field::Engine, "name one engine or more"));
        }
        Ok(())
    }

    /// The engines and the per-search request for a comparison whose first puzzle is
    /// `first` (none: the classic board's defaults).
    pub fn plan(&self, first: Option<&Puzzle>) -> (Vec<Engine>, Request) {
        let (shape, engines) = match first {
            Some(puzzle) => (puzzle.grid.shape(), Engine::defaults_for(puzzle.board())),
            None => (Shape::CLASSIC, Engine::defaults()),
        };
        let budget = match (self.no_node_budget, self.nodes, self.time) {
            (false, None, None) => compare::default_budget(shape),
            (lifted, nodes, time) => Budget {
                nodes: nodes.filter(|_| !lifted),
                time,
                interrupt: None,
            },
        };
        let budget = Budget {
            interrupt: self.interrupt,
            ..budget
        };
        let request = Request {
            limit: Some(self.limit),
            budget,
            restarts: self.restarts,
            timed: true,
        };
        (self.engines.clone().unwrap_or(engines), request)
    }

    /// Compares the engines over `puzzles` on a pool of [`threads`](CompareRequest::threads)
    /// threads; returns the engines and per-search request it used, and the comparison. Once
    /// the interrupt is raised, no further puzzle is read.
    ///
    /// ```
    /// use quadrille::io::puzzle::{Layout, PuzzleReader};
    /// use quadrille::request::CompareRequest;
    ///
    /// let text = "1...........4..2\n................\n";
    /// let puzzles = PuzzleReader::new(text.as_bytes(), None, Layout::Line);
    /// let (engines, _, comparison) = CompareRequest { threads: 1, ..CompareRequest::default() }.run(puzzles)?;
    /// assert_eq!(comparison.puzzles().len(), 2);
    /// assert!(comparison.disagreements().is_empty());
    /// assert_eq!(engines[0].to_string(), "bitboard");
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    pub fn run<I>(&self, puzzles: I) -> Result<(Vec<Engine>, Request, Comparison)>
    where
        I: IntoIterator<Item = Result<Puzzle>>,
        I::IntoIter: Send,
    {
        self.check()?;
        let mut puzzles = puzzles.into_iter().peekable();
        let first = match puzzles.peek() {
            Some(Ok(puzzle)) => Some(puzzle.clone()),
            _ => None,
        };
        let (engines, request) = self.plan(first.as_ref());
        let interrupt = self.interrupt;
        let puzzles = puzzles.take_while(|_| !interrupt.is_some_and(Interrupt::is_raised));
        let comparison = on_threads(self.threads, || compare::run(puzzles, &engines, &request))?;
        Ok((engines, request, comparison))
    }
}
