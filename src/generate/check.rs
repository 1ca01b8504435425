//! The generator's hot path: does removing some givens keep the puzzle unique?
//!
//! The generator knows the solution S of the puzzle it thins, and it removes givens only from
//! a puzzle P that is already unique. Both facts make the check cheaper than counting the
//! solutions of P' (P less the removed cells) up to 2:
//!
//! - **On bitboards, a search for a solution other than S** (grids of at most 128 cells, such
//!   as 9x9, when no engine is named; see `bitboard.rs`). It branches on the removed cells first, S's digit
//!   last, and prunes a branch as soon as every removed cell holds its digit of S: below it
//!   lies P again, whose only solution is S. A check decided by singles at the root (the
//!   removed cells forced back) needs no branching; a second solution found comes back as a
//!   witness for the strict-minimality repairs (`strict.rs`). Against the CSP's count up to
//!   2 through the same generator, a check took 41k instead of 72k instructions (callgrind,
//!   `generate --minimal -n 100 -j 1 --seed 1`).
//! - **Otherwise singles first, then count up to 2** on the engine of the order (the CSP up
//!   to 16x16, Dancing Links above: see [`super::Order::default_engine`]). Singles: if, in
//!   P', every removed cell is forced back to its digit by a naked or a hidden single on the
//!   givens, every solution of P' agrees with S on the removed cells, so it solves P too, so
//!   it is S. An earlier attempt at the search for a differing solution on these engines (P'
//!   with a removed cell set to each other candidate in turn, each a search of its own) was
//!   25% slower on 9x9 and nine times slower on 25x25, where each of the 4 or 5 searches of a
//!   check paid its own refutation; the bitboard search does it in one search.
//!
//! Every search has the node budget the generator gives it; one that runs out makes the
//! verdict [`Verdict::Undecided`], never a guess.

use super::bitboard::{Found, Small};
use crate::board::Board;
use crate::budget::Budget;
use crate::engine::{Engine, Solver};
use crate::sudoku::{Grid, Shape};

/// What a check proved about P'.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// P' has exactly one solution, S.
    Unique,
    /// P' has another solution besides S.
    Multiple,
    /// A search ran out of its budget before either was proved.
    Undecided,
}

/// What the checks cost, summed over a generation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckStats {
    /// Uniqueness checks made (one per removal tried).
    pub checks: u64,
    /// Checks that singles decided without a search.
    pub by_singles: u64,
    /// Searches run (counts up to 2: one per check that singles left open).
    pub searches: u64,
    /// Search-tree nodes of those searches.
    pub nodes: u64,
    /// Checks that ended undecided, on a search's budget.
    pub undecided: u64,
}

impl CheckStats {
    /// Adds `other`'s counts to these.
    pub fn add(&mut self, other: &CheckStats) {
        self.checks += other.checks;
        self.by_singles += other.by_singles;
        self.searches += other.searches;
        self.nodes += other.nodes;
        self.undecided += other.undecided;
    }
}

/// The bitboard search, on grids of at most 128 cells. On 16x16 (four words) it was slower
/// than the CSP's count: 39k nodes and 213 ms against 11k and 59 ms a rot180 orbit-minimal
/// puzzle (seed 1), its branching being only on the fewest candidates.
#[derive(Debug)]
enum Fast {
    Off,
    Two(Box<Small>),
}

/// A reusable checker for one shape: a solver and the board's groups, built once, so that a
/// check allocates nothing but the solution grid a search returns.
#[derive(Debug)]
pub(crate) struct Checker {
    board: &'static Board,
    solver: Solver,
    /// The bitboard search for a second solution, on grids small enough for it (see
    /// `bitboard.rs`); the checks then skip `solver`, which only completes grids.
    fast: Fast,
    budget: Budget,
    /// The digits given in each group of P', one bit per digit.
    group_digits: Vec<u64>,
    pub(crate) stats: CheckStats,
    /// The second solution the last check found, when it said [`Verdict::Multiple`] and the
    /// search happened to find S second (else `None`).
    pub(crate) witness: Option<Grid>,
}

impl Checker {
    /// A checker for `shape` whose searches run on `engine` within `budget` each, or when
    /// `bitboards` is set and the grid has at most 128 cells, on bitboards.
    pub(crate) fn new(shape: Shape, engine: Engine, budget: Budget, bitboards: bool) -> Checker {
        let board = shape.board();
        let fast = match () {
            _ if !bitboards => Fast::Off,
            _ if let Some(b) = Small::new(board) => Fast::Two(Box::new(b)),
            _ => Fast::Off,
        };
        Checker {
            board,
            fast,
            solver: Solver::new(engine, board),
            budget,
            group_digits: vec![0; board.groups().len()],
            stats: CheckStats::default(),
            witness: None,
        }
    }

    /// Whether `puzzle` (P': a unique puzzle whose solution is `solution`, less the cells
    /// `removed`, which must be empty in it) still has only one solution.
    pub(crate) fn removal(&mut self, puzzle: &Grid, removed: &[usize], solution: &Grid) -> Verdict {
        self.stats.checks += 1;
        self.witness = None;
        let max_nodes = self.budget.node_limit();
        let found = match &mut self.fast {
            Fast::Off => None,
            Fast::Two(b) => Some(b.other_solution(puzzle, removed, solution, max_nodes)),
        };
        if let Some(found) = found {
            return self.verdict_of(found);
        }
        self.note_group_digits(puzzle);
        if (removed.iter()).all(|&cell| self.forced_by_singles(puzzle, cell, solution)) {
            self.stats.by_singles += 1;
            return Verdict::Unique;
        }
        let outcome = self.solver.count(puzzle, Some(2), &self.budget);
        self.stats.searches += 1;
        self.stats.nodes += outcome.nodes;
        if outcome.solutions >= 2 {
            self.witness = outcome.solution.filter(|first| first != solution);
            Verdict::Multiple
        } else if outcome.is_complete() {
            Verdict::Unique
        } else {
            self.stats.undecided += 1;
            Verdict::Undecided
        }
    }

    /// The verdict of a bitboard search; a search that branched not counts as decided by
    /// singles.
    fn verdict_of(&mut self, found: Found) -> Verdict {
        self.stats.nodes += found.nodes;
        if found.nodes > 1 || found.other.is_some() {
            self.stats.searches += 1;
        }
        match found.other {
            Some(other) => {
                self.witness = Some(other);
                Verdict::Multiple
            }
            None if found.complete => {
                self.stats.by_singles += u64::from(found.nodes == 1);
                Verdict::Unique
            }
            None => {
                self.stats.undecided += 1;
                Verdict::Undecided
            }
        }
    }

    /// A solution of `puzzle` found within the budget, if any.
    pub(crate) fn complete(&mut self, puzzle: &Grid) -> Option<Grid> {
        self.solver.count(puzzle, Some(1), &self.budget).solution
    }

    /// Whether `digit` is given in one of the groups of `cell` in `puzzle`.
    pub(crate) fn given_in_groups(&self, puzzle: &Grid, cell: usize, digit: u8) -> bool {
        (self.board.groups_of(crate::board::Cell::new(cell))).any(|g| {
            (self.board.group(g).cells().iter()).any(|&c| puzzle.cells()[c.index()] == digit)
        })
    }

    fn note_group_digits(&mut self, puzzle: &Grid) {
        for (digits, group) in self.group_digits.iter_mut().zip(self.board.groups()) {
            *digits = (group.cells().iter())
                .map(|&c| puzzle.cells()[c.index()])
                .filter(|&d| d != 0)
                .fold(0, |bits, d| bits | 1 << (d - 1));
        }
    }

    /// Whether `cell` sees `digit` given in one of its groups.
    fn sees(&self, cell: usize, digit: u8) -> bool {
        let bit = 1u64 << (digit - 1);
        (self.board.groups_of(crate::board::Cell::new(cell)))
            .any(|g| self.group_digits[g] & bit != 0)
    }

    /// Whether the empty `cell` of P' must hold its solution digit by a naked or a hidden
    /// single on P's givens alone.
    fn forced_by_singles(&self, puzzle: &Grid, cell: usize, solution: &Grid) -> bool {
        let n = self.board.size();
        let right = solution.cells()[cell];
        let cell_id = crate::board::Cell::new(cell);
        let seen =
            (self.board.groups_of(cell_id)).fold(0u64, |bits, g| bits | self.group_digits[g]);
        let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        if seen | 1 << (right - 1) == all {
            return true; // naked single
        }
        // Hidden single: in some group, every other empty cell sees the digit.
        (self.board.groups_of(cell_id)).any(|g| {
            (self.board.group(g).cells().iter()).all(|&other| {
                let other = other.index();
                other == cell || puzzle.cells()[other] != 0 || self.sees(other, right)
            })
        })
    }
}
