//! The bitboard engine: plain Sudoku and its variants on boards of at most 128 cells (up to
//! 9x9 Sudoku, 11x11 Latin squares), as sets of cells in machine words.
//!
//! [`BitboardSolver`] is an engine like the others ([`Solve`]): it counts solutions up to a
//! limit within a budget, branching on a cell with the fewest candidates. It reads a board's
//! groups, so X-Sudoku, windoku and jigsaw boards are in reach, but not killer cages, nor more
//! than 128 cells or 64 groups: those boards are refused with an error when the solver is
//! built.
//!
//! **The generator's question.** The generator also asks it its own question, through an
//! entry of its own (`other_solution`): is there a solution of P' other than the known
//! solution S? Every puzzle the generator checks is S less some givens, so S solves it and
//! "unique" means "no solution but S". This search looks for that other solution directly: it
//! branches on a cell with the fewest candidates, tries S's digit last, and skips S when it
//! reaches it, so a puzzle with a second solution usually meets it on the first path, and that
//! solution comes back as the witness the strict-minimality repairs feed on (see
//! `generate/strict.rs`).
//!
//! The state is one bitset of cells per digit (where that digit can still go) plus the open
//! cells and, per digit, the groups still missing it: W words per set, W = 2 up to 128 cells
//! (9x9), 4 up to 256 (16x16). Placing a digit is n + 1 masked ANDs; naked singles come from
//! counting candidates bit-sliced across the digits, hidden singles from one AND per word and
//! a one-bit test per digit and group, for the groups where the digit lost a cell since they
//! were last looked at. Givens are loaded the same way, so a check costs a few hundred word
//! operations before any search, where the CSP's per-cell domains paid a loop over each
//! given's peers. The digit count N is a const parameter (9 for grids up to 9x9, 11 for 10x10
//! and 11x11, see `Small`; larger digits than the board's are empty padding), and each
//! depth's state a `Copy` struct, so the digit loops unroll without bounds checks; a cell's
//! peers and groups sit in one table entry, and `fill` (a placement) is inlined into
//! `propagate`. On 9x9 a check takes about a quarter of the CSP's instructions (callgrind,
//! `generate --minimal -n 200 -j 1 --seed 1`).
//!
//! **Folded groups.** Which words a group's cells fill varies from group to group (a 9x9
//! column has cells in both), so a one-bit test per word is a branch the processor often
//! mispredicts. Each group has a rotation per word that folds its cells into one word on
//! distinct bits (see `fold`), so the test is one word and one branch, nearly always "two
//! cells or more": a few more instructions, far fewer mispredicted branches and less time
//! (callgrind's branch simulation on the command above). Likewise a naked single's digit is
//! read from all N digit sets at once rather than found by a loop that stops at it.
//!
//! The engine stops at 128 cells (W = 2): on 16x16 its branching, on the fewest candidates
//! only, made the generator's check slower than the CSP's count, so larger grids keep the
//! other engines. W = 4 is kept for the tests.
//!
//! **Plain 9x9 by bands.** On the classic 9x9 board, counts go to `band`: one 27-bit word per
//! digit and band of three rows, settled by table lookups (hidden singles of rows and boxes,
//! locked candidates, pointing across bands), naked singles bit-sliced, in JCZSolve's manner.
//! With it, `solve --limit 2 -j1` on the first 1,000 17-clue and 500 forum-hardest puzzles
//! takes 42% and 72% of the instructions it took with the search on cells, reading and
//! writing included (callgrind). It branches on a cell with two digits that has the most
//! open peers rather than the first one, which cuts the nodes on the forum-hardest set by two
//! fifths (see `band`). The generator's question stays on cells, where S's digit is tried
//! last and the witness comes back.
//!
//! - `band`: the band search of plain 9x9.
//! - `tables`: the state at one depth, the board's tables, and the singles.
//! - `search`: the generator's search and the engine's count.

mod band;
mod search;
mod tables;
#[cfg(test)]
mod tests;

use band::BandSearch;
use search::{Ask, Counted};
use tables::Bitboard;

use crate::board::{Board, Cell, Digit};
use crate::budget::{Budget, Stop};
use crate::engine::{Outcome, Solve};
use crate::error::{Error, ErrorKind, Result};
use crate::restart::Restarts;
use crate::sudoku::{Grid, Shape};

/// What one search for a solution other than S found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Found {
    /// A solution other than S, if one was found.
    pub other: Option<Grid>,
    /// Whether the search ended without running out of nodes (so `other == None` proves S is
    /// the only solution).
    pub complete: bool,
    /// Search-tree nodes, the root included.
    pub nodes: u64,
}

/// The bitboard search of a grid of at most 128 cells (two words), with the digit count
/// fixed where it pays: 9x9 has its own copy of the code, other small grids share one.
#[derive(Clone, Debug)]
enum Small {
    /// Up to 9 digits (4x4, 6x6, 8x8, 9x9).
    Nine(Bitboard<2, 9>),
    /// Up to 11 digits (10x10, 11x11 Latin squares).
    Eleven(Bitboard<2, 11>),
    /// Plain 9x9 Sudoku: counts by bands, the generator's question on cells.
    Classic(BandSearch, Bitboard<2, 9>),
}

/// Solves puzzles of one board on bitboards: Sudoku and its variants up to 128 cells.
///
/// ```
/// use quadrille::Budget;
/// use quadrille::engine::{BitboardSolver, Solve};
/// use quadrille::sudoku::{Grid, Shape};
///
/// let shape = Shape::new(2, 2)?;
/// let mut solver = BitboardSolver::sudoku(shape)?;
/// let outcome = solver.count(&Grid::empty(shape), None, &Budget::unlimited());
/// assert_eq!(outcome.solutions, 288);
/// assert!(outcome.is_complete());
/// // 16x16 is out of its reach: an error, not a panic.
/// assert!(BitboardSolver::sudoku(Shape::new(4, 4)?).is_err());
/// # Ok::<(), quadrille::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct BitboardSolver {
    search: Box<Small>,
    /// The board's side n.
    size: usize,
    /// The digit tried first at each cell (0: none); empty when none is.
    preferred: Vec<u8>,
    /// Whether a count reads the clock for its [`Outcome::elapsed`] ([`Solve::set_timed`]).
    timed: bool,
}

impl BitboardSolver {
    /// The most cells of a board it solves: two 64-bit words per set of cells.
    pub const MAX_CELLS: usize = 128;

    /// The most groups of a board it solves: a set of groups is one 64-bit word.
    pub const MAX_GROUPS: usize = 64;

    /// Whether it solves puzzles on `board`: at most [`BitboardSolver::MAX_CELLS`] cells and
    /// [`BitboardSolver::MAX_GROUPS`] groups, and no killer cages ([`BitboardSolver::new`]
    /// refuses the others, saying which limit they pass).
    pub fn takes(board: &Board) -> bool {
        board.cell_count() <= BitboardSolver::MAX_CELLS
            && board.groups().len() <= BitboardSolver::MAX_GROUPS
            && board.cages().is_empty()
    }

    /// A solver for puzzles on `board`.
    ///
    /// # Errors
    /// [`ErrorKind::UnsupportedBoard`] when the board has more than
    /// [`BitboardSolver::MAX_CELLS`] cells or [`BitboardSolver::MAX_GROUPS`] groups, or
    /// killer cages.
    pub fn new(board: &Board) -> Result<BitboardSolver> {
        let refuse = |reason: String| {
            Err(Error::new(ErrorKind::UnsupportedBoard {
                engine: "bitboard",
                reason,
            }))
        };
        let (n, cells, groups) = (board.size(), board.cell_count(), board.groups().len());
        if cells > BitboardSolver::MAX_CELLS {
            return refuse(format!(
                "it has {cells} cells ({n}x{n}), and the engine takes at most {} (11x11)",
                BitboardSolver::MAX_CELLS
            ));
        }
        if groups > BitboardSolver::MAX_GROUPS {
            return refuse(format!(
                "it has {groups} groups, and the engine takes at most {}",
                BitboardSolver::MAX_GROUPS
            ));
        }
        if !board.cages().is_empty() {
            return refuse("the engine does not read killer cages".to_string());
        }
        let search = if board == Shape::CLASSIC.board() {
            Bitboard::new(board).map(|cells| Small::Classic(BandSearch::new(), cells))
        } else if n <= 9 {
            Bitboard::new(board).map(Small::Nine)
        } else {
            Bitboard::new(board).map(Small::Eleven)
        };
        match search {
            Some(search) => Ok(BitboardSolver {
                search: Box::new(search),
                size: n,
                preferred: Vec::new(),
                timed: true,
            }),
            None => refuse("a group's cells do not fold into one word".to_string()),
        }
    }

    /// A solver for the Sudoku of `shape` (see [`BitboardSolver::new`]).
    ///
    /// # Errors
    /// [`ErrorKind::UnsupportedBoard`] when the shape has more than
    /// [`BitboardSolver::MAX_CELLS`] cells.
    pub fn sudoku(shape: Shape) -> Result<BitboardSolver> {
        BitboardSolver::new(shape.board())
    }

    /// The generator's check: looks for a solution of `puzzle` other than `solution`, which
    /// must solve it, within `max_nodes` nodes; `removed` are the cells of `solution` that
    /// `puzzle` left empty (see the [module docs](self)).
    pub(crate) fn other_solution(
        &mut self,
        puzzle: &Grid,
        removed: &[usize],
        solution: &Grid,
        max_nodes: u64,
    ) -> Found {
        match &mut *self.search {
            Small::Nine(b) | Small::Classic(_, b) => {
                b.other_solution(puzzle, removed, solution, max_nodes)
            }
            Small::Eleven(b) => b.other_solution(puzzle, removed, solution, max_nodes),
        }
    }
}

impl BitboardSolver {
    /// [`Solve::count`], paused once at `at` nodes: `go_on` is told the solutions found so far
    /// and says whether the count goes on; one that it stops ends with [`Stop::Limit`] (the
    /// caller's search takes over).
    pub(crate) fn count_paused(
        &mut self,
        puzzle: &Grid,
        limit: Option<u64>,
        budget: &Budget,
        (at, go_on): (u64, &dyn Fn(u64) -> bool),
    ) -> Outcome {
        self.count_asked(puzzle, &[], limit, budget, Some((at, go_on)))
    }

    fn count_asked(
        &mut self,
        puzzle: &Grid,
        excluded: &[(Cell, Digit)],
        limit: Option<u64>,
        budget: &Budget,
        pause: Option<(u64, &dyn Fn(u64) -> bool)>,
    ) -> Outcome {
        let n = self.size;
        assert_eq!(puzzle.size(), n, "the puzzle's side is not the board's");
        assert!(
            (excluded.iter()).all(|&(cell, d)| cell.index() < n * n && d.index() < n),
            "an excluded cell or digit is not on the board"
        );
        // Two readings of the clock are a few percent of a 9x9 count that takes microseconds
        // (benches/peers/batch9.sh, puzzles7_serg_benchmark): read only when asked or needed.
        let start = (self.timed || budget.time.is_some()).then(std::time::Instant::now);
        let ask = Ask {
            excluded,
            limit: limit.unwrap_or(u64::MAX),
            budget,
            preferred: &self.preferred,
            deadline: match start {
                Some(start) => budget.stop_at(start),
                None => budget.stop_at_untimed(),
            },
            pause,
        };
        let counted = match &mut *self.search {
            // Nothing is searched for a limit of 0, as in the other engines.
            _ if ask.limit == 0 => Counted {
                nodes: 0,
                stop: Stop::Limit,
                ..Counted::root()
            },
            Small::Nine(b) => b.count(puzzle, &ask),
            Small::Eleven(b) => b.count(puzzle, &ask),
            Small::Classic(bands, _) => bands.count(puzzle, &ask),
        };
        Outcome {
            solutions: counted.solutions,
            solution: counted.first,
            stop: counted.stop,
            nodes: counted.nodes,
            backtracks: counted.backtracks,
            work: counted.forced,
            restarts: 0,
            learned: 0,
            elapsed: start.map_or(std::time::Duration::ZERO, |start| start.elapsed()),
        }
    }
}

impl Solve for BitboardSolver {
    fn count_excluding(
        &mut self,
        puzzle: &Grid,
        excluded: &[(Cell, Digit)],
        limit: Option<u64>,
        budget: &Budget,
    ) -> Outcome {
        self.count_asked(puzzle, excluded, limit, budget, None)
    }

    /// The bitboard search does not restart: its counts up to a limit are one run whatever
    /// this says.
    fn set_restarts(&mut self, _restarts: Option<Restarts>) {}

    fn set_timed(&mut self, timed: bool) {
        self.timed = timed;
    }

    fn set_preferred(&mut self, near: Option<&Grid>) {
        self.preferred.clear();
        if let Some(near) = near {
            assert_eq!(near.size(), self.size, "the grid's side is not the board's");
            self.preferred.extend_from_slice(near.cells());
        }
    }
}
