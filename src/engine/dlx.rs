//! Solving a board with the exact-cover engine.
//!
//! A [`DlxSolver`] builds the links of its board once (see [`encode`]); each puzzle then forces its givens'
//! options, searches, and restores the links (from a copy kept at build time, see
//! [`Dlx::keep_copy`]), so a batch of puzzles reuses one structure and nothing is allocated
//! but the solution grid.

use std::time::Instant;

use crate::board::{Board, Cell, Digit};
use crate::budget::{Budget, Stop};
use crate::engine::{Outcome, Solve};
use crate::exact_cover::{
    Control, CountStart, Dlx, PartsDone, Plan, ProblemBuilder, Report, Solution, Stats,
};
use crate::restart::{self, Restarts};
use crate::sudoku::{Grid, Shape, encode};

/// Solves puzzles of one board by Dancing Links.
///
/// ```
/// use quadrille::Budget;
/// use quadrille::engine::{DlxSolver, Solve};
/// use quadrille::sudoku::{Grid, Shape};
///
/// let shape = Shape::new(2, 2)?;
/// let mut solver = DlxSolver::new(shape.board());
/// let mut puzzle = Grid::empty(shape);
/// puzzle.set(0, 0, 1);
/// puzzle.set(0, 1, 2);
/// puzzle.set(1, 0, 3);
/// let outcome = solver.count(&puzzle, Some(1000), &Budget::unlimited());
/// // 288 grids; 1 and 2 fixed in order: 288 / (4*3) = 24; then 3 or 4 below the 1: 12.
/// assert_eq!(outcome.solutions, 12);
/// assert!(outcome.is_complete());
/// # Ok::<(), quadrille::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct DlxSolver {
    /// The board's side n.
    size: usize,
    dlx: Dlx,
    first: Vec<usize>,
    /// The options the next search rules out ([`DlxSolver::count_excluding`]).
    ruled_out: Vec<usize>,
    /// An option forced before every search ([`encode::dead_option`]).
    dead: Option<usize>,
    /// How a count up to a limit restarts; `None`: one plain search.
    restarts: Option<Restarts>,
    /// Whether the runs after the first learn from their conflicts
    /// ([`Plan::learning`]) rather than only weigh them.
    learning: bool,
    /// The options of the grid set by [`DlxSolver::set_preferred`] (scratch).
    preferred: Vec<usize>,
}

impl DlxSolver {
    /// A solver for the Sudoku of this shape.
    pub fn sudoku(shape: Shape) -> DlxSolver {
        DlxSolver::new(shape.board())
    }

    /// A solver for puzzles on this board (builds the n³-option matrix once).
    pub fn new(board: &Board) -> DlxSolver {
        DlxSolver {
            size: board.size(),
            dlx: {
                // Dead ends hide behind forced moves in Sudoku: tracking them pays (see
                // `Dlx::track_dead_ends`).
                let mut dlx = Dlx::new(&encode::problem(board));
                dlx.track_dead_ends(true);
                // Each group's cells take its digits one to one: the learning search checks
                // Hall's condition on them.
                dlx.set_matchings(&encode::matchings(board));
                // A remembering count branches on the cells in an order that keeps its
                // frontier narrow.
                dlx.set_memo_order(&encode::frontier_order(board));
                // The givens change much of the links: restoring them is one copy.
                dlx.keep_copy();
                dlx
            },
            first: Vec::with_capacity(board.cell_count() + board.cages().len() + 1),
            ruled_out: Vec::new(),
            dead: encode::dead_option(board),
            restarts: Some(Restarts::default()),
            learning: DlxSolver::learns_by_default(board),
            preferred: Vec::new(),
        }
    }

    /// The smallest board side on which restarting searches learn by default. Measured with
    /// callgrind on the first 500 forum-hardest 9x9 puzzles (`solve --limit 2 -j1`): the few
    /// that a first run does not decide cost more instructions with learning than with the
    /// weighted restarts of [`Branching::ConflictWeighted`](crate::exact_cover::Branching),
    /// whose runs are cheaper per node; from 16x16 on, learning decides the hard puzzles in
    /// fewer nodes (see the README's "Restarts and heavy tails").
    pub const LEARNING_FROM: usize = 16;

    /// Whether restarting searches on `board` learn by default: on boards of side
    /// [`DlxSolver::LEARNING_FROM`] or more with more distinct groups than rows and columns
    /// (Sudoku and its variants; a `1xN` Sudoku's boxes are its rows). Latin squares keep the
    /// weighted restarts: on random ones of order 20 and 30 with 42% of the cells blank,
    /// learning took more time for about the same nodes (`TAILS_REPORT_ONLY=1 cargo bench
    /// --bench tails`: 1.23 against 0.36 ms and 7.05 against 3.29 ms per puzzle).
    pub fn learns_by_default(board: &Board) -> bool {
        let mut groups: Vec<Vec<usize>> = (board.groups().iter())
            .map(|g| {
                let mut cells: Vec<usize> = g.cells().iter().map(|c| c.index()).collect();
                cells.sort_unstable();
                cells
            })
            .collect();
        groups.sort_unstable();
        groups.dedup();
        board.size() >= DlxSolver::LEARNING_FROM && groups.len() > 2 * board.size()
    }

    /// Sets whether the restarting runs after the first learn from their conflicts (see
    /// [`Plan::learning`]); by default they do where
    /// [`DlxSolver::learns_by_default`]. Counts are exact either way.
    pub fn set_learning(&mut self, on: bool) {
        self.learning = on;
    }

    /// Whether the restarting runs after the first learn from their conflicts.
    pub fn learning(&self) -> bool {
        self.learning
    }

    /// How a count up to a limit restarts.
    pub fn restarts(&self) -> Option<Restarts> {
        self.restarts
    }

    /// Counts solutions up to `limit` (`None`: all) within `budget` on the threads of the current
    /// rayon pool, by splitting the search tree (see [`Dlx::count_parallel`]). Does not keep a
    /// solution: it is for counting.
    pub fn count_parallel(
        &mut self,
        puzzle: &Grid,
        limit: Option<u64>,
        budget: &Budget,
    ) -> Outcome {
        self.with_givens(puzzle, |dlx, _| dlx.count_parallel(limit, budget))
    }

    /// Counts every solution within `budget`, as [`Solve::count`] with no limit does, but an
    /// enumeration-bound count (see [`CountStart`]) is split across the threads of the
    /// current rayon pool; a count that the learning search proves stays on one thread. Keeps
    /// a solution of the searches that decide the count, not of the split.
    pub fn count_all_parallel(&mut self, puzzle: &Grid, budget: &Budget) -> Outcome {
        self.count_all_parallel_with(puzzle, budget, &|_| {})
    }

    /// [`DlxSolver::count_all_parallel`], telling `progress` how far the split has got.
    pub fn count_all_parallel_with(
        &mut self,
        puzzle: &Grid,
        budget: &Budget,
        progress: &(dyn Fn(PartsDone) + Sync),
    ) -> Outcome {
        self.with_givens(puzzle, |dlx, first| {
            match dlx.count_start_with(budget, &mut keep_first(first)) {
                CountStart::Done(report) => report,
                CountStart::Remembered(counted) => counted.report,
                CountStart::Enumerate { spent, rest } => {
                    let mut report = dlx.count_parallel_with(None, &rest, progress);
                    report.stats.add(&spent);
                    report
                }
            }
        })
    }

    /// Counts every solution of `puzzle` within `budget` by remembering subproblems, on trial
    /// (`Dlx::remember_on_trial`): `None` when the trial gave up, for a caller whose own
    /// search has found the count enumeration-bound. Keeps no solution.
    pub(crate) fn count_remembering(&mut self, puzzle: &Grid, budget: &Budget) -> Option<Outcome> {
        let mut gave_up = false;
        let outcome = self.with_givens(puzzle, |dlx, _| match dlx.remember_on_trial(budget) {
            Some(counted) => counted.report,
            None => {
                gave_up = true;
                Report {
                    stats: Stats::default(),
                    stop: Stop::Limit,
                }
            }
        });
        (!gave_up).then_some(outcome)
    }

    /// Forces the puzzle's givens, rules out the options of `ruled_out`, runs `search` (which may record a solution's options in its
    /// second argument), releases the givens and describes what happened. Clashing givens mean
    /// no solution, without a search.
    fn with_givens<F>(&mut self, puzzle: &Grid, search: F) -> Outcome
    where
        F: FnOnce(&mut Dlx, &mut Vec<usize>) -> Report,
    {
        assert_eq!(
            puzzle.size(),
            self.size,
            "the puzzle's side is not the board's"
        );
        let start = Instant::now();
        self.first.clear();
        let (mut clash, forced_updates) = self.force_givens(puzzle);
        // The options excluded (not out already) move to the front, to be included again.
        let mut excluded = 0;
        for i in 0..if clash { 0 } else { self.ruled_out.len() } {
            let option = self.ruled_out[i];
            match self.dlx.exclude(option) {
                Some(true) => {
                    self.ruled_out[excluded] = option;
                    excluded += 1;
                }
                Some(false) => {}
                // A given ruled out leaves no solution.
                None => {
                    clash = true;
                    break;
                }
            }
        }
        let report = (!clash).then(|| search(&mut self.dlx, &mut self.first));
        for &option in self.ruled_out[..excluded].iter().rev() {
            self.dlx.include(option);
        }
        self.ruled_out.clear();
        self.dlx.release_all();
        let (stats, stop) =
            report.map_or((Stats::default(), Stop::Exhausted), |r| (r.stats, r.stop));

        let solution = (!self.first.is_empty()).then(|| {
            let mut grid = Grid::empty(puzzle.shape());
            // Options past the placements (a killer cage's digit sets) place nothing.
            let placements = self.size * self.size * self.size;
            for &option in self.first.iter().filter(|&&o| o < placements) {
                let (cell, digit) = encode::placement(self.size, option);
                grid.place(cell, Some(digit));
            }
            grid
        });
        let mut outcome = outcome_of(&stats, stop, solution, start);
        outcome.work += forced_updates;
        outcome
    }

    /// Forces the givens' options. Returns whether two givens clash, and the updates made.
    fn force_givens(&mut self, puzzle: &Grid) -> (bool, u64) {
        match force_givens(&mut self.dlx, self.dead, puzzle) {
            Ok(updates) => (false, updates),
            Err((_, updates)) => (true, updates),
        }
    }

    /// The links of one puzzle on `board`, for searches that take links of their own (a count
    /// in shards, [`Dlx::estimate`], [`Dlx::shard_plan`]): the board's matrix, as every
    /// [`DlxSolver`] of the board builds it, with the givens' options forced. A puzzle whose
    /// givens clash gets the links of one item and no option, which every search counts 0.
    ///
    /// ```
    /// use quadrille::engine::DlxSolver;
    /// use quadrille::sudoku::{Grid, Shape};
    /// use quadrille::sudoku::variant::Variant;
    ///
    /// let shape = Shape::new(2, 2)?;
    /// let empty = Grid::empty(shape);
    /// assert_eq!(DlxSolver::links(shape.board(), &empty).count(None).stats.solutions, 288);
    /// let x = Variant::X.board_of_shape(shape)?.expect("X-Sudoku adds groups to the shape's");
    /// assert_eq!(DlxSolver::links(&x, &empty).count(None).stats.solutions, 48);
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    ///
    /// # Panics
    /// If the puzzle's side is not the board's.
    pub fn links(board: &Board, puzzle: &Grid) -> Dlx {
        assert_eq!(
            puzzle.size(),
            board.size(),
            "the puzzle's side is not the board's"
        );
        let mut dlx = Dlx::new(&encode::problem(board));
        // As in `DlxSolver::new`: dead ends hide behind forced moves in Sudoku, and a
        // remembering count branches in the order that keeps its frontier narrow.
        dlx.track_dead_ends(true);
        dlx.set_memo_order(&encode::frontier_order(board));
        match force_givens(&mut dlx, encode::dead_option(board), puzzle) {
            Ok(_) => dlx,
            Err(_) => {
                let mut none = ProblemBuilder::new();
                none.primary("clash").expect("a valid item name");
                Dlx::new(&none.build().expect("one item and no option is a problem"))
            }
        }
    }
}

impl Solve for DlxSolver {
    /// Rules out each excluded placement's option before the search (see `Dlx::exclude`).
    fn count_excluding(
        &mut self,
        puzzle: &Grid,
        excluded: &[(Cell, Digit)],
        limit: Option<u64>,
        budget: &Budget,
    ) -> Outcome {
        let (restarts, learning) = (self.restarts, self.learning);
        let n = self.size;
        let excluded = excluded.iter().map(|&(cell, digit)| {
            assert!(
                cell.index() < n * n && digit.index() < n,
                "an excluded cell or digit is not on the board"
            );
            encode::option(n, cell, digit)
        });
        self.ruled_out.clear();
        self.ruled_out.extend(excluded);
        self.with_givens(puzzle, |dlx, first| {
            search_puzzle(dlx, first, limit, restarts, learning, budget)
        })
    }

    /// The default is [`Restarts::default`]; `None` makes every search one plain run of
    /// Algorithm X.
    fn set_restarts(&mut self, restarts: Option<Restarts>) {
        self.restarts = restarts;
    }

    /// See [`Dlx::set_preferred`]; a search without restarts keeps Knuth's order.
    fn set_preferred(&mut self, near: Option<&Grid>) {
        self.preferred.clear();
        if let Some(near) = near {
            assert_eq!(near.size(), self.size, "the grid's side is not the board's");
            let n = self.size;
            let options = (near.cells().iter().enumerate())
                .filter_map(|(cell, &d)| Some((Cell::new(cell), Digit::new(d)?)))
                .map(|(cell, digit)| encode::option(n, cell, digit));
            self.preferred.extend(options);
        }
        self.dlx.set_preferred(&self.preferred);
    }
}

/// A Dancing Links search's statistics and stop in the common terms, with the solution it
/// kept and the time since `start`: its link updates are its `work`.
pub(crate) fn outcome_of(
    stats: &Stats,
    stop: Stop,
    solution: Option<Grid>,
    start: Instant,
) -> Outcome {
    Outcome {
        solutions: stats.solutions,
        solution,
        stop,
        nodes: stats.nodes,
        backtracks: stats.backtracks,
        work: stats.updates,
        restarts: stats.restarts,
        learned: stats.learned,
        elapsed: start.elapsed(),
    }
}

/// Counts the solutions of a puzzle's links up to `limit` (`None`: all) within `budget`, as a
/// [`DlxSolver`] with these `restarts` and `learning` does, keeping the options of the first in
/// `first`. Every solution, with restarts, is proved with learning or enumerated plainly,
/// whichever the problem needs (see `Dlx::count_all`).
pub(crate) fn search_puzzle(
    dlx: &mut Dlx,
    first: &mut Vec<usize>,
    limit: Option<u64>,
    restarts: Option<Restarts>,
    learning: bool,
    budget: &Budget,
) -> Report {
    let all = limit.unwrap_or(u64::MAX);
    if all == u64::MAX && restarts.is_some() {
        return dlx.count_all_with(budget, &mut keep_first(first));
    }
    let restarts = restart::for_limit(restarts, limit);
    let mut found = 0u64;
    let sink = |s: &Solution<'_>| {
        if found == 0 {
            s.options_into(first);
        }
        found += 1;
        if found >= all {
            Control::Stop
        } else {
            Control::Continue
        }
    };
    let plan = (Plan::new().restarts(restarts)).learning(learning && restarts.is_some());
    dlx.run(&plan, budget, sink)
        .expect("Mrv on the whole tree runs with or without restarts and learning")
}

/// A callback that keeps the options of the first solution it is shown in `first`.
fn keep_first(first: &mut Vec<usize>) -> impl FnMut(&Solution<'_>) + '_ {
    let mut kept = false;
    move |s| {
        if !kept {
            s.options_into(first);
            kept = true;
        }
    }
}

/// Forces the dead option of a killer board (see [`encode::dead_option`]), then the options of
/// the puzzle's givens, into links where nothing is forced yet. Returns the updates made, or
/// the first given that could not be forced (its option was already out: the givens clash)
/// with the updates made before it.
fn force_givens(dlx: &mut Dlx, dead: Option<usize>, puzzle: &Grid) -> Result<u64, (Cell, u64)> {
    let n = puzzle.size();
    let mut updates = 0;
    if let Some(dead) = dead {
        updates += dlx.force(dead).expect("nothing is forced yet");
    }
    for (cell, &digit) in puzzle.cells().iter().enumerate() {
        if let Some(digit) = Digit::new(digit) {
            let cell = Cell::new(cell);
            match dlx.force(encode::option(n, cell, digit)) {
                Some(u) => updates += u,
                None => return Err((cell, updates)),
            }
        }
    }
    Ok(updates)
}
