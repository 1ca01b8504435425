//! The generator's hot path: does removing some givens keep the puzzle unique?
//!
//! The generator knows the solution S of the puzzle it thins, and it removes givens only from
//! a puzzle P that is already unique. Both facts make the check cheaper than counting the
//! solutions of P' (P less the removed cells) up to 2:
//!
//! - **On bitboards, a search for a solution other than S** (grids of at most 128 cells, such
//!   as 9x9, when no engine or the bitboard engine is named; see [`BitboardSolver`]). It branches on the removed cells first, S's digit
//!   last, and prunes a branch as soon as every removed cell holds its digit of S: below it
//!   lies P again, whose only solution is S. A check decided by singles at the root (the
//!   removed cells forced back) needs no branching; a second solution found comes back as a
//!   witness for the strict-minimality repairs (`strict.rs`). Against the CSP's count up to
//!   2 through the same generator, a check took 41k instead of 72k instructions, and 26k
//!   after the bitboards were tuned (the whole run's instructions over its checks, callgrind,
//!   `generate --minimal -n 100 -j 1 --seed 1`).
//! - **Otherwise singles first, then a search for T with S's digit ruled out.** Singles: if,
//!   in P', every removed cell is forced back to its digit by a naked or a hidden single on
//!   the givens, every solution of P' agrees with S on the removed cells, so it solves P too,
//!   so it is S. Else a solution T other than S differs from S on some removed cell; on the
//!   first such cell c (in the order removed) the cells before it hold S's digits. So one
//!   search per removed cell, of P' with the cells before c given and S's digit of c ruled
//!   out (`count_excluding`), for one solution: any found is T, none in all of them proves
//!   S unique, and no search has to find S first.
//! - **S's digits first.** Every search tries S's digit first in each cell
//!   (`set_preferred`, the initial phase of a SAT solver), so the T it finds changes as few
//!   cells of S as it must. Most searches of a strict-minimal thinning find a T (a given is
//!   needed), and near S they find it sooner; a T near S is also a stronger witness for
//!   `strict.rs`, since it meets fewer givens; see [`Checker::FIRST_NODES`] for the times.
//! - **Two engines, then a larger budget.** The engine is the CSP up to 16x16 and Dancing
//!   Links above (see [`super::Order::default_engine`]). Behind the CSP stands Dancing Links
//!   with learning: a CSP search still open after [`Checker::FIRST_NODES`] nodes goes on
//!   there. When the order needs every check decided (a minimal puzzle), a search that runs
//!   out is run once more with [`Checker::ESCALATION`] times the budget, since an undecided
//!   check loses the attempt.
//! - **Dancing Links on the candidates.** Every Dancing Links search builds the links of its
//!   own puzzle from its candidates (see `candidates.rs`): the same search as on the board's
//!   whole matrix with the givens forced, without forcing them and copying the block back.
//!
//! Every search has the node budget the generator gives it; one that runs out makes the
//! verdict [`Verdict::Undecided`], never a guess.

use super::candidates::CandidateSearch;
use crate::board::{Board, Cell, Digit};
use crate::budget::{Budget, Interrupt};
use crate::engine::{BitboardSolver, Engine, Found, Outcome, Solve, Solver};
use crate::error::Result;
use crate::sudoku::{Grid, Shape};

/// The search behind a checker: Dancing Links on each puzzle's candidates (see
/// `candidates.rs`), which searches as the board's [`Solver`] would without forcing the givens
/// into the whole board's links, or another engine's solver.
trait Search: Solve + std::fmt::Debug + Send {}

impl<T: Solve + std::fmt::Debug + Send> Search for T {}

/// The search of `engine` on `board`.
fn search(engine: Engine, board: &'static Board) -> Result<Box<dyn Search>> {
    let candidates = (engine == Engine::Dlx)
        .then(|| CandidateSearch::new(board))
        .flatten();
    match candidates {
        Some(candidates) => Ok(Box::new(candidates)),
        None => Ok(Box::new(Solver::new(engine, board)?)),
    }
}

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
    /// Uniqueness checks made (one per removal tried; a glance of the strict repairs, a check
    /// within a few nodes, counts as one).
    pub checks: u64,
    /// Checks that singles decided without a search.
    pub by_singles: u64,
    /// Searches run (counts up to 2: one per check that singles left open).
    pub searches: u64,
    /// Search-tree nodes of those searches.
    pub nodes: u64,
    /// Checks that ended undecided, on a search's budget (glances left undecided are not
    /// counted: the full check follows them).
    pub undecided: u64,
    /// Searches the first engine left undecided that went on to the fallback (Dancing Links
    /// with learning, when the first is the CSP).
    pub fallbacks: u64,
    /// Searches run again with a larger budget, when the order needs every check decided.
    pub escalations: u64,
}

impl CheckStats {
    /// Adds `other`'s counts to these.
    pub fn add(&mut self, other: &CheckStats) {
        self.checks += other.checks;
        self.by_singles += other.by_singles;
        self.searches += other.searches;
        self.nodes += other.nodes;
        self.undecided += other.undecided;
        self.fallbacks += other.fallbacks;
        self.escalations += other.escalations;
    }
}

/// A reusable checker for one shape: a solver and the board's groups, built once, so that a
/// check allocates nothing but the solution grid a search returns and, on Dancing Links, the
/// links of its puzzle's candidates.
#[derive(Debug)]
pub(crate) struct Checker {
    board: &'static Board,
    solver: Box<dyn Search>,
    /// Where a search that `solver` leaves undecided within [`Checker::FIRST_NODES`] goes on,
    /// with the full budget: learning Dancing Links behind the CSP (see [`Checker::new`]).
    fallback: Option<Box<dyn Search>>,
    /// The bitboard search for a second solution, on grids small enough for it (see
    /// [`BitboardSolver`]); the checks then skip `solver`, which only completes grids. On
    /// 16x16 (four words) it was slower than the CSP's count: 39k nodes and 213 ms against 11k
    /// and 59 ms a rot180 orbit-minimal puzzle (seed 1), its branching being only on the
    /// fewest candidates.
    fast: Option<BitboardSolver>,
    budget: Budget,
    /// The budget of a search that fills a grid for a generator to thin (see
    /// [`Checker::fill`]); the checks' budget unless set.
    pub(crate) fill_budget: Budget,
    /// A search that runs out of budget is run again with 16 times the budget, and so on up
    /// to this many times (1: never).
    pub(crate) escalation: u64,
    /// The grid the searches now try first (see [`Checker::prefer`]).
    preferred: Option<Grid>,
    /// P' with some removed cells given again, for the searches of one check.
    scratch: Grid,
    /// The digits given in each group of P', one bit per digit.
    group_digits: Vec<u64>,
    pub(crate) stats: CheckStats,
    /// The second solution the last check found, when it said [`Verdict::Multiple`] and the
    /// search happened to find S second (else `None`).
    pub(crate) witness: Option<Grid>,
}

impl Checker {
    /// Stops its searches, the glances and escalations included, once `interrupt` is raised.
    pub(crate) fn interrupted_by(&mut self, interrupt: Interrupt) {
        self.budget.interrupt = Some(interrupt);
        self.fill_budget.interrupt = Some(interrupt);
    }

    /// The node budget of the CSP's first try when learning Dancing Links stands behind it:
    /// the whole default budget up to 16x16, so learning gets only what the CSP cannot decide.
    /// Trying S's digits first, the CSP finds the far second solutions near the hardness peak
    /// sooner than learning DLX does, so it gets the whole budget: 20,000 took fewer nodes and
    /// less time than 1,000 or 5,000 on 16x16 rot180 strict
    /// (`generate --box 4x4 --minimal -n 40 -j 1 --seed S --stats`, seeds 1 and 100).
    pub(crate) const FIRST_NODES: u64 = 20_000;

    /// How far a check is escalated when the order needs every check decided: once, to 16
    /// times the budget. On 25x25 near the peak some searches stay undecided at 256 times
    /// (8 million nodes, seconds each), so escalating further costs as much as a new attempt.
    pub(crate) const ESCALATION: u64 = 16;

    /// A checker for `shape` whose searches run on `engine` within `budget` each. With
    /// `defaults` (no engine was asked for) or the bitboard engine, grids of at most 128 cells
    /// are checked on bitboards, and with `defaults`, where `engine` is the CSP, a search it
    /// leaves undecided after [`Checker::FIRST_NODES`] nodes goes on in learning Dancing Links.
    ///
    /// # Errors
    /// [`crate::ErrorKind::UnsupportedBoard`] when `engine` cannot solve the shape's puzzles
    /// (see [`Solver::new`]).
    pub(crate) fn new(
        shape: Shape,
        engine: Engine,
        budget: Budget,
        defaults: bool,
    ) -> Result<Checker> {
        let board = shape.board();
        let solver = search(engine, board)?;
        let fast = (defaults || engine == Engine::Bitboard)
            .then(|| BitboardSolver::new(board).ok())
            .flatten();
        let fallback = (defaults && fast.is_none() && matches!(engine, Engine::Csp(_)))
            .then(|| search(Engine::Dlx, board))
            .transpose()?;
        Ok(Checker {
            board,
            fast,
            solver,
            fallback,
            budget,
            fill_budget: budget,
            escalation: 1,
            preferred: None,
            scratch: Grid::empty(shape),
            group_digits: vec![0; board.groups().len()],
            stats: CheckStats::default(),
            witness: None,
        })
    }

    /// Whether `puzzle` (P': a unique puzzle whose solution is `solution`, less the cells
    /// `removed`, which must be empty in it) still has only one solution.
    pub(crate) fn removal(&mut self, puzzle: &Grid, removed: &[usize], solution: &Grid) -> Verdict {
        self.check(puzzle, removed, solution, None)
    }

    /// [`Checker::removal`], in full (`glance` `None`) or at a glance: each search within
    /// that many nodes on the first engine alone, neither passed on nor escalated, and
    /// `Undecided` when one runs out (not counted as an undecided check: a glance is a way to
    /// find the easy verdicts first).
    pub(crate) fn check(
        &mut self,
        puzzle: &Grid,
        removed: &[usize],
        solution: &Grid,
        glance: Option<u64>,
    ) -> Verdict {
        self.stats.checks += 1;
        self.witness = None;
        let verdict = self.verdict(puzzle, removed, solution, glance);
        self.stats.undecided += u64::from(verdict == Verdict::Undecided && glance.is_none());
        verdict
    }

    /// The verdict of [`Checker::check`]: on bitboards, else by singles, else by searches.
    fn verdict(
        &mut self,
        puzzle: &Grid,
        removed: &[usize],
        solution: &Grid,
        glance: Option<u64>,
    ) -> Verdict {
        if let Some(b) = &mut self.fast {
            let max_nodes = glance.unwrap_or(self.budget.node_limit());
            let found = b.other_solution(puzzle, removed, solution, max_nodes);
            return self.verdict_of(found);
        }
        self.note_group_digits(puzzle);
        if (removed.iter()).all(|&cell| self.forced_by_singles(puzzle, cell, solution)) {
            self.stats.by_singles += 1;
            return Verdict::Unique;
        }
        self.prefer(Some(solution));
        // A solution T other than S differs from S on a removed cell: on the first such cell,
        // in `removed`'s order, the cells before it hold S's digits. One search per cell.
        self.scratch.cells_mut().copy_from_slice(puzzle.cells());
        for &cell in removed {
            let digit = solution.cells()[cell];
            let placement = (Cell::new(cell), Digit::new(digit).expect("S is a solution"));
            let outcome = self.search_other(&[placement], glance);
            if outcome.solutions >= 1 {
                self.witness = outcome.solution;
                return Verdict::Multiple;
            }
            if !outcome.is_complete() {
                return Verdict::Undecided;
            }
            self.scratch.cells_mut()[cell] = digit;
        }
        Verdict::Unique
    }

    /// Makes the searches try `near`'s digits first (see [`Solver::set_preferred`]), or stop
    /// doing so (`None`). The solvers are told only when it changes: a generator's checks
    /// prefer the same S for a whole attempt.
    fn prefer(&mut self, near: Option<&Grid>) {
        if self.preferred.as_ref() == near {
            return;
        }
        self.preferred = near.cloned();
        self.solver.set_preferred(near);
        if let Some(fallback) = &mut self.fallback {
            fallback.set_preferred(near);
        }
    }

    /// Searches `scratch` less the `excluded` candidates for a solution: on the first engine
    /// within its budget, then on the fallback's, then with the budget raised 16-fold at a time
    /// up to the escalation; at a glance, on the first engine within `glance` nodes only.
    fn search_other(&mut self, excluded: &[(Cell, Digit)], glance: Option<u64>) -> Outcome {
        let Checker {
            solver,
            fallback,
            budget,
            escalation,
            scratch,
            stats,
            ..
        } = self;
        // Every search stops at the interrupt, those of a node budget of their own too: an
        // escalated 25x25 check ran 200 ms past Ctrl-C (benches/peers/ctrl_c.py).
        let nodes = |nodes: u64| Budget {
            interrupt: budget.interrupt,
            ..Budget::nodes(nodes)
        };
        let first_budget = match (glance, fallback.is_some()) {
            (Some(glance), _) => nodes(glance),
            (None, true) => nodes(Checker::FIRST_NODES.min(budget.node_limit())),
            (None, false) => *budget,
        };
        let mut outcome = solver.count_excluding(scratch, excluded, Some(1), &first_budget);
        stats.searches += 1;
        stats.nodes += outcome.nodes;
        if glance.is_some() {
            return outcome;
        }
        let decided = |o: &Outcome| o.solutions >= 1 || o.is_complete();
        let has_fallback = fallback.is_some();
        let hard = fallback.as_mut().unwrap_or(solver);
        if !decided(&outcome) && has_fallback {
            outcome = hard.count_excluding(scratch, excluded, Some(1), budget);
            stats.nodes += outcome.nodes;
            stats.fallbacks += 1;
        }
        let mut factor = 1;
        while !decided(&outcome) && factor < *escalation {
            factor = factor.saturating_mul(16);
            let more = nodes(budget.node_limit().saturating_mul(factor));
            outcome = hard.count_excluding(scratch, excluded, Some(1), &more);
            stats.nodes += outcome.nodes;
            stats.escalations += 1;
        }
        outcome
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
            None => Verdict::Undecided,
        }
    }

    /// A solution of `puzzle` found within the fill budget, if any, in the engine's own
    /// order: the grid a generator thins.
    pub(crate) fn fill(&mut self, puzzle: &Grid) -> Option<Grid> {
        self.prefer(None);
        (self.solver)
            .count_excluding(puzzle, &[], Some(1), &self.fill_budget)
            .solution
    }

    /// A solution of `puzzle` found within the budget, if any; with `near`, trying its digits
    /// first.
    pub(crate) fn complete(&mut self, puzzle: &Grid, near: Option<&Grid>) -> Option<Grid> {
        self.prefer(near);
        (self.solver)
            .count_excluding(puzzle, &[], Some(1), &self.budget)
            .solution
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
