//! [`Engine::Auto`]: the one place that picks an engine for a puzzle, says why ([`Why`]), and
//! falls back to Dancing Links when the engine it picked first runs out of its share of the
//! budget. Every front end that solves or counts Sudoku reaches it through
//! [`batch::solve_one`](crate::batch::solve_one); [`Engine::for_puzzle`] and
//! [`Solver::new`](super::Solver::new) ask it too.
//!
//! The bitboard and CSP searches are faster than DLX where they are chosen, but they are
//! heuristic searches without learning: on a board without a solution they may never finish
//! (an unsolvable 9x9 jigsaw: the bitboard search was not done after 100 s, DLX's learning
//! search refutes it in 0.04 s). So their first try is cut at [`FIRST_TRY_NODES`]; a try cut
//! there with no solution found goes to DLX with the rest of the budget, and one that was
//! finding solutions (an enumeration) runs again, uncut, on the same engine.

use super::{BitboardSolver, Engine, Outcome};
use crate::board::Board;
use crate::budget::{Budget, Stop};
use crate::csp;
use crate::sudoku::Grid;

/// The nodes of the first try of an engine that auto picked before DLX: about 0.09 s of the
/// bitboard search and 0.35 s of the CSP's (`solve --variant jigsaw --engine E --node-budget
/// 1000000 --stats` on the unsolvable jigsaw of tests/auto.rs). Far above any puzzle of the
/// benchmark sets, which the bitboard search decides in hundreds of nodes.
pub(crate) const FIRST_TRY_NODES: u64 = 1_000_000;

/// The largest board side on which [`Engine::choose`] keeps DLX for nearly empty puzzles: up
/// to 16x16, DLX fills nearly empty grids as fast as the CSP (the empty 16x16 windoku in
/// 0.05 s). From 25x25 on the CSP is as fast on classic grids (random 25x25 puzzles with 95%
/// blanks: 6 ms against DLX's 3 ms, with 99%: 4 ms against 11 ms) and sees what DLX does
/// not, the hidden regions of a windoku (`crate::board::leftovers`): the empty 25x25 windoku
/// takes it 0.02 s, and DLX is undecided after 60 s.
pub(crate) const EASY_END_ABOVE: usize = 16;

/// Why an engine answered a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Why {
    /// It was named by the caller.
    Named,
    /// Auto: the bitboard search takes the board (at most 128 cells and 64 groups, no
    /// cages), where it is the fastest: on the 17-clue and forum-hardest sets it takes 15%
    /// and 20% of DLX's CPU time (`benches/peers/batch9.sh`).
    BitboardTakesTheBoard,
    /// Auto: killer cages, whose sums the CSP propagates: 17 ms a random 9x9 killer against
    /// DLX's 219 ms (`fixtures/variants/killer_random.txt`, `solve --limit 2 -j1 --stats`).
    KillerCages,
    /// Auto: a nearly empty puzzle above 16x16, which the CSP fills in reading order
    /// (`sh benches/peers/easy_end.sh`).
    NearlyEmpty,
    /// Auto: Dancing Links, the strongest on large boards.
    LargeBoard,
    /// Auto: the engine picked first ran out of its share of the budget without a solution,
    /// and Dancing Links answered.
    Fallback,
    /// Auto: a count of every solution that the bitboard search found enumeration-bound, and
    /// that Dancing Links counted by remembering subproblems once a trial showed them
    /// repeating: the empty 6x6 grid, in 1,394,928 remembered nodes against 57,241,157
    /// of the bitboard search (docs/memo.md).
    Remembering,
}

impl Why {
    /// The reason's name in machine-readable output (`bitboard-takes-the-board`).
    pub fn name(self) -> &'static str {
        match self {
            Why::Named => "named",
            Why::BitboardTakesTheBoard => "bitboard-takes-the-board",
            Why::KillerCages => "killer-cages",
            Why::NearlyEmpty => "nearly-empty",
            Why::LargeBoard => "large-board",
            Why::Fallback => "fallback",
            Why::Remembering => "remembering",
        }
    }
}

/// The engine picked for a puzzle, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The engine: never [`Engine::Auto`].
    pub engine: Engine,
    /// Why.
    pub why: Why,
}

impl Engine {
    /// The engine that searches `puzzle` (or any puzzle, when `None`) on `board` when this one
    /// is asked for, and why: itself when it is named; for [`Engine::Auto`], the first of
    /// these that holds:
    ///
    /// 1. the default CSP for a nearly empty puzzle (more than [`csp::Config::FILL_ABOVE`]
    ///    of its cells open) on a board larger than 16x16 ([`Why::NearlyEmpty`]);
    /// 2. the bitboard search where it takes the board ([`Why::BitboardTakesTheBoard`]);
    /// 3. the default CSP on killer boards ([`Why::KillerCages`]);
    /// 4. Dancing Links ([`Why::LargeBoard`]).
    ///
    /// ```
    /// use quadrille::engine::{Engine, Why};
    /// use quadrille::sudoku::{Grid, Shape};
    ///
    /// let nine = Shape::new(3, 3)?;
    /// let choice = Engine::Auto.choose(nine.board(), None);
    /// assert_eq!((choice.engine, choice.why), (Engine::Bitboard, Why::BitboardTakesTheBoard));
    /// let empty = Grid::empty(Shape::new(6, 6)?);
    /// assert_eq!(Engine::Auto.choose(empty.shape().board(), Some(&empty)).why, Why::NearlyEmpty);
    /// assert_eq!(Engine::Dlx.choose(nine.board(), None).why, Why::Named);
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    pub fn choose(self, board: &Board, puzzle: Option<&Grid>) -> Choice {
        let choice = |engine, why| Choice { engine, why };
        if self != Engine::Auto {
            return choice(self, Why::Named);
        }
        if let Some(puzzle) = puzzle
            && board.size() > EASY_END_ABOVE
        {
            let cells = puzzle.cells().len() as u64;
            let open = cells - puzzle.givens() as u64;
            let (above, of) = csp::Config::FILL_ABOVE;
            if open * of > cells * above {
                return choice(Engine::Csp(csp::Config::default()), Why::NearlyEmpty);
            }
        }
        if BitboardSolver::takes(board) {
            choice(Engine::Bitboard, Why::BitboardTakesTheBoard)
        } else if !board.cages().is_empty() {
            choice(Engine::Csp(csp::Config::default()), Why::KillerCages)
        } else {
            choice(Engine::Dlx, Why::LargeBoard)
        }
    }
}

/// The nodes after which a count of every solution that auto gave to the bitboard search
/// looks at what it found: two solutions or more make it enumeration-bound, as for DLX's
/// first search, and Dancing Links tries remembering its subproblems in the order of cells
/// that the encoding gives (`encode::frontier_order`); if the trial pays, remembering
/// counts, else the bitboard search goes on where it paused. The empty 6x6 grid: 28,200,960
/// solutions in 1,394,928 remembered nodes, about 0.3 s, against 3.8 s of the bitboard
/// search. The pause is late (8 ms of the bitboard search on 6x6, 28 ms on 9x9) because remembering pays
/// for long counts only: a 6x6 puzzle with 6 givens and 6,528 solutions, 1.5 ms of the
/// bitboard search, took 8 ms remembered, and a trial may walk 65,536 nodes before it gives
/// up (see `memo::ORDERED_LOOKS`). Counts that end before the pause are the bitboard
/// search's as before. Of pauses at 50,000, 100,000, 200,000 and 400,000 nodes, this one
/// made the 6x6 puzzles with 2 and 3 givens of `docs/memo.md` fastest in all.
pub(crate) const REMEMBER_AFTER: u64 = 100_000;

/// Whether a count asked with `limit` and `restarts` (as [`crate::Request`] holds them) of
/// the engine of `choice` pauses at [`REMEMBER_AFTER`] to try remembering: a count of every
/// solution with the default search, by the bitboard search that auto picked.
pub(crate) fn may_remember(choice: Choice, limit: Option<u64>, restarts: bool) -> bool {
    limit.is_none() && restarts && choice.why == Why::BitboardTakesTheBoard
}

/// Whether a count paused at [`REMEMBER_AFTER`] with `solutions` found is enumeration-bound:
/// as for DLX's first search, two solutions (one may be a unique puzzle's).
pub(crate) fn enumeration_bound(solutions: u64) -> bool {
    solutions >= crate::exact_cover::ENUMERATION_SOLUTIONS
}

/// The budget of the first try of an engine that auto picked before DLX: the caller's, its
/// nodes cut at [`FIRST_TRY_NODES`].
pub(crate) fn first_try(choice: Choice, budget: &Budget) -> Budget {
    if choice.why == Why::Named || choice.engine == Engine::Dlx {
        return *budget;
    }
    Budget {
        nodes: Some(budget.node_limit().min(FIRST_TRY_NODES)),
        ..*budget
    }
}

/// What to do after a first try that gave `first` within the caller's `budget`: nothing
/// (`None`), or search again with the engine returned, within what is left of the budget.
pub(crate) fn after_first_try(choice: Choice, first: &Outcome, budget: &Budget) -> Option<Choice> {
    let cut_here = first.stop == Stop::NodeBudget && first.nodes < budget.node_limit();
    if choice.why == Why::Named || choice.engine == Engine::Dlx || !cut_here {
        return None;
    }
    Some(if first.solutions > 0 {
        choice
    } else {
        Choice {
            engine: Engine::Dlx,
            why: Why::Fallback,
        }
    })
}

/// `first`'s work added to `then`'s, the search that answered after it.
pub(crate) fn with_first_try(mut then: Outcome, first: &Outcome) -> Outcome {
    then.nodes += first.nodes;
    then.backtracks += first.backtracks;
    then.work += first.work;
    then.restarts += first.restarts;
    then.elapsed += first.elapsed;
    then
}
