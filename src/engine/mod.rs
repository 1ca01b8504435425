//! One solver signature for every engine, the [`Solve`] trait: given a puzzle, a solution
//! limit and a budget, return the number of solutions found, the first one, and the search's
//! statistics, as one [`Outcome`]. The batch runner, `quadrille compare`, the generator and the
//! benchmarks all go through it; [`Solver`] picks an engine by its [`Engine`] name.
//!
//! This layer sits above the engines it joins: [`DlxSolver`] (Sudoku as exact cover, through
//! [`crate::exact_cover`]), [`csp::CspSolver`] and [`BitboardSolver`] (plain search on
//! bitboards, for boards of at most 128 cells); none of those knows of the others.

mod auto;
mod bitboard;
mod dlx;

pub use auto::{Choice, Why};
pub(crate) use auto::{
    REMEMBER_AFTER, after_first_try, enumeration_bound, first_try, may_remember, with_first_try,
};
pub use bitboard::BitboardSolver;
pub(crate) use bitboard::Found;
pub use dlx::DlxSolver;
pub(crate) use dlx::{outcome_of, search_puzzle};

use std::fmt;
use std::str::FromStr;

use crate::board::{Board, Cell, Digit};
use crate::budget::{Budget, Stop};
use crate::csp;
use crate::error::{Error, ErrorKind, Result};
use crate::exact_cover::PartsDone;
use crate::restart::{self, Restarts};
use crate::sudoku::{Grid, Shape};

/// A Sudoku engine: Dancing Links, CSP search with a configuration, or the bitboard search.
///
/// Names: `dlx`, `csp` (the default CSP configuration), `csp:CONFIG` with `CONFIG` as in
/// [`csp::Config`]'s names, e.g. `csp:mrv+lcv+hidden-singles`, and `bitboard` (boards of at
/// most 128 cells, see [`BitboardSolver`]).
///
/// ```
/// use quadrille::engine::Engine;
///
/// let engine: Engine = "csp:first+lex+fc".parse()?;
/// assert_eq!(engine.to_string(), "csp:first+lex+fc");
/// assert_eq!("dlx".parse::<Engine>()?, Engine::Dlx);
/// assert_eq!("bitboard".parse::<Engine>()?, Engine::Bitboard);
/// assert!("dlx2".parse::<Engine>().is_err());
/// # Ok::<(), quadrille::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Engine {
    /// The fastest exact engine for the puzzle: the bitboard search where it takes the board,
    /// the CSP on killer boards and on nearly empty puzzles above 16x16, Dancing Links
    /// everywhere else (see [`Engine::for_puzzle`], then [`Solver::new`]).
    #[default]
    Auto,
    /// Dancing Links over the exact-cover encoding.
    Dlx,
    /// Constraint propagation and backtracking.
    Csp(csp::Config),
    /// Search on bitboards with naked and hidden singles, for boards of at most 128 cells.
    Bitboard,
}

impl Engine {
    /// The engines `quadrille compare` runs when none are named: DLX and the CSP presets.
    pub fn defaults() -> Vec<Engine> {
        std::iter::once(Engine::Dlx)
            .chain(csp::Config::presets().into_iter().map(Engine::Csp))
            .collect()
    }

    /// The engine that searches `puzzle` on `board` when this one is asked for: itself, or
    /// for [`Engine::Auto`] the engine [`Engine::choose`] picks.
    pub fn for_puzzle(self, board: &Board, puzzle: &Grid) -> Engine {
        self.choose(board, Some(puzzle)).engine
    }

    /// The engines `quadrille compare` runs on puzzles of `board` when none are named:
    /// [`Engine::defaults`], after the bitboard search where it takes the board (the engine
    /// [`Engine::Auto`] picks there).
    pub fn defaults_for(board: &Board) -> Vec<Engine> {
        let bitboard = BitboardSolver::takes(board).then_some(Engine::Bitboard);
        bitboard.into_iter().chain(Engine::defaults()).collect()
    }
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Engine::Auto => f.write_str("auto"),
            Engine::Dlx => f.write_str("dlx"),
            Engine::Csp(config) => write!(f, "csp:{config}"),
            Engine::Bitboard => f.write_str("bitboard"),
        }
    }
}

impl FromStr for Engine {
    type Err = Error;

    fn from_str(name: &str) -> Result<Engine> {
        let name = name.trim();
        match name {
            "auto" => Ok(Engine::Auto),
            "dlx" => Ok(Engine::Dlx),
            "csp" => Ok(Engine::Csp(csp::Config::default())),
            "bitboard" => Ok(Engine::Bitboard),
            _ => match name.strip_prefix("csp:") {
                Some(config) => Ok(Engine::Csp(config.parse()?)),
                None => Err(Error::new(ErrorKind::UnknownName {
                    what: "engine",
                    name: name.to_string(),
                    hint: " (expected auto, dlx, csp, csp:CONFIG, e.g. csp:mrv+lex+hidden-singles, or bitboard)"
                        .to_string(),
                })),
            },
        }
    }
}

/// What every Sudoku engine does on the board it was built for: count a puzzle's solutions up
/// to a limit within a budget, keeping the first, with some placements ruled out if asked, and
/// say what happened as one [`Outcome`]. Implemented by [`DlxSolver`], [`csp::CspSolver`],
/// [`BitboardSolver`] and [`Solver`] (any of them, chosen by name), so that code written against
/// it runs on every engine.
///
/// ```
/// use quadrille::Budget;
/// use quadrille::board::{Cell, Digit};
/// use quadrille::csp::{Config, CspSolver};
/// use quadrille::engine::{BitboardSolver, DlxSolver, Solve};
/// use quadrille::sudoku::{Grid, Shape};
///
/// fn without_a_corner_one(solver: &mut impl Solve, empty: &Grid) -> u64 {
///     let corner_one = (Cell::new(0), Digit::new(1).unwrap());
///     solver.count_excluding(empty, &[corner_one], None, &Budget::unlimited()).solutions
/// }
/// let shape = Shape::new(2, 2)?;
/// let empty = Grid::empty(shape);
/// // Of the 288 grids, a quarter have 1 in the corner: 216 do not.
/// assert_eq!(without_a_corner_one(&mut DlxSolver::sudoku(shape), &empty), 216);
/// assert_eq!(without_a_corner_one(&mut CspSolver::new(shape.board(), Config::default()), &empty), 216);
/// assert_eq!(without_a_corner_one(&mut BitboardSolver::sudoku(shape)?, &empty), 216);
/// # Ok::<(), quadrille::Error>(())
/// ```
pub trait Solve {
    /// Counts the solutions of `puzzle` in which no cell of `excluded` holds its digit, up to
    /// `limit` (`None`: all) within `budget`, keeping the first. A puzzle whose givens clash
    /// has no solution. A generator that knows a solution S asks this way whether another
    /// exists, without finding S first.
    ///
    /// # Panics
    /// If the puzzle's side is not the board's, or an excluded cell or digit is not on it.
    fn count_excluding(
        &mut self,
        puzzle: &Grid,
        excluded: &[(Cell, Digit)],
        limit: Option<u64>,
        budget: &Budget,
    ) -> Outcome;

    /// Counts the solutions of `puzzle` up to `limit` (`None`: all) within `budget`, keeping
    /// the first.
    fn count(&mut self, puzzle: &Grid, limit: Option<u64>, budget: &Budget) -> Outcome {
        self.count_excluding(puzzle, &[], limit, budget)
    }

    /// The first solution, searching only until one is found.
    fn solve(&mut self, puzzle: &Grid) -> Outcome {
        self.count(puzzle, Some(1), &Budget::unlimited())
    }

    /// Whether the puzzle has exactly one solution (searching for two).
    fn is_unique(&mut self, puzzle: &Grid) -> bool {
        self.count(puzzle, Some(2), &Budget::unlimited()).solutions == 1
    }

    /// Sets how a count up to a limit restarts (see [`crate::restart`]); `None`: one plain
    /// run. Without restarts a count of all solutions is one plain run; with them DLX's proves
    /// with the learning search or enumerates plainly, whichever the puzzle needs
    /// ([`Dlx::count_all`](crate::exact_cover::Dlx::count_all)), and the CSP's never restarts.
    fn set_restarts(&mut self, restarts: Option<Restarts>);

    /// Sets whether a count reads the clock for its [`Outcome::elapsed`]; untimed, `elapsed`
    /// is zero unless the budget has a time, which is read anyway. For a caller that does not
    /// report the time of its quick searches: the bitboard search of a 9x9 puzzle takes
    /// microseconds, and two readings of the clock are a few percent of it. The engines whose
    /// searches are longer time them whatever this says.
    fn set_timed(&mut self, _timed: bool) {}

    /// Sets the digits that a search tries first at each cell: its digit in `near` (none at an
    /// empty cell); `None`: the engine's usual order. A search for a solution other than a
    /// known one S, preferring S, changes as few cells of S as it must.
    ///
    /// # Panics
    /// If the grid's side is not the board's.
    fn set_preferred(&mut self, near: Option<&Grid>);
}

/// What solving one puzzle gave, the same for every engine: the engines' own reports
/// ([`csp::CspReport`], [`crate::exact_cover::Report`]) are read into it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Solutions found (up to the limit asked for).
    pub solutions: u64,
    /// The first solution found.
    pub solution: Option<Grid>,
    /// Why the search ended; only [`Stop::Exhausted`] makes `solutions` the exact count.
    pub stop: Stop,
    /// Search-tree nodes.
    pub nodes: u64,
    /// Dead ends met (DLX) or values tried and undone (CSP, bitboard): zero means no
    /// backtracking.
    pub backtracks: u64,
    /// Engine-specific work: link updates for DLX, inferences for CSP, cells filled by singles
    /// for the bitboard search.
    pub work: u64,
    /// Runs cut off and started again ([`crate::restart`]); 0 when the first run decided.
    pub restarts: u64,
    /// Nogoods learned from dead ends (DLX's learning search, `crate::exact_cover::Plan::learning`); 0 for the others.
    pub learned: u64,
    /// Time spent on the puzzle, from givens to answer.
    pub elapsed: std::time::Duration,
}

impl Outcome {
    /// Whether the count is exact (the search was not stopped by a limit or a budget).
    pub fn is_complete(&self) -> bool {
        self.stop.is_complete()
    }
}

impl From<csp::CspReport> for Outcome {
    /// The CSP's report in the common terms: its inferences are its `work`.
    fn from(report: csp::CspReport) -> Outcome {
        Outcome {
            solutions: report.solutions,
            solution: report.solution,
            stop: report.stop,
            nodes: report.stats.nodes,
            backtracks: report.stats.backtracks,
            work: report.stats.inferences.total(),
            restarts: report.stats.restarts,
            learned: 0,
            elapsed: report.stats.elapsed,
        }
    }
}

/// A solver for one engine and one board, reused across puzzles.
#[derive(Clone, Debug)]
pub enum Solver {
    /// Dancing Links.
    Dlx(DlxSolver),
    /// CSP search.
    Csp(csp::CspSolver),
    /// Bitboard search.
    Bitboard(BitboardSolver),
}

impl Solver {
    /// A solver of `engine` for puzzles on `board`.
    ///
    /// # Errors
    /// [`ErrorKind::UnsupportedBoard`] when the engine cannot solve puzzles on the board: the
    /// bitboard engine on a board of more than 128 cells or 64 groups, or with killer cages
    /// (see [`BitboardSolver::new`]). DLX and the CSP take every board.
    ///
    /// [`Engine::Auto`] builds the fastest engine that takes the board. On a 9x9 board the
    /// bitboard search (by bands on the classic board): on the 17-clue and forum-hardest sets
    /// it takes 15% and 20% of DLX's CPU time, and 1.08 and 0.88 times the `sudoku` crate's
    /// (`benches/peers/batch9.sh`, docs/performance.md). On killer boards the CSP: on the
    /// 100 random 9x9 killers without givens of `fixtures/variants/killer_random.txt`, 17 ms
    /// a puzzle against DLX's 219 ms (`solve --limit 2 -j1 --stats --engine csp`). Elsewhere
    /// Dancing Links, the strongest on large boards.
    pub fn new(engine: Engine, board: &Board) -> Result<Solver> {
        Ok(match engine {
            Engine::Auto => Solver::new(engine.choose(board, None).engine, board)?,
            Engine::Dlx => Solver::Dlx(DlxSolver::new(board)),
            Engine::Csp(config) => Solver::Csp(csp::CspSolver::new(board, config)),
            Engine::Bitboard => Solver::Bitboard(BitboardSolver::new(board)?),
        })
    }

    /// A solver of `engine` for the Sudoku of `shape`.
    ///
    /// # Errors
    /// As [`Solver::new`]: the bitboard engine takes shapes of at most 128 cells.
    ///
    /// ```
    /// use quadrille::Budget;
    /// use quadrille::engine::{Engine, Solve, Solver};
    /// use quadrille::sudoku::{Grid, Shape};
    ///
    /// let empty = Grid::empty(Shape::new(2, 2)?);
    /// for engine in Engine::defaults() {
    ///     let outcome = Solver::sudoku(engine, empty.shape())?.count(&empty, None, &Budget::unlimited());
    ///     assert_eq!(outcome.solutions, 288, "{engine}");
    /// }
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    pub fn sudoku(engine: Engine, shape: Shape) -> Result<Solver> {
        Solver::new(engine, shape.board())
    }

    /// The engine that searches: never [`Engine::Auto`], which names the choice of one.
    pub fn engine(&self) -> Engine {
        match self {
            Solver::Dlx(_) => Engine::Dlx,
            Solver::Csp(s) => Engine::Csp(s.config()),
            Solver::Bitboard(_) => Engine::Bitboard,
        }
    }

    /// Like [`Solver::count`], but a long DLX count is split across the threads of the current
    /// rayon pool. Short searches stay on one thread: the count starts sequentially and moves to
    /// the split only when it outgrows a small node budget. The probe's work is counted and taken
    /// off the budget; its solutions are found again by the split count. A count up to a limit
    /// with restarts on is not split: restarts, not threads, are what shorten it. A count of
    /// every solution with restarts on is split only when it is enumeration-bound (see
    /// [`DlxSolver::count_all_parallel`]).
    pub fn count_split(&mut self, puzzle: &Grid, limit: Option<u64>, budget: &Budget) -> Outcome {
        self.count_split_with(puzzle, limit, budget, &|_| {})
    }

    /// [`Solver::count_split`], telling `progress` how far a count of every solution split
    /// across the threads has got.
    pub fn count_split_with(
        &mut self,
        puzzle: &Grid,
        limit: Option<u64>,
        budget: &Budget,
        progress: &(dyn Fn(PartsDone) + Sync),
    ) -> Outcome {
        const SEQUENTIAL_NODES: u64 = 20_000;
        if let Solver::Dlx(dlx) = self
            && rayon::current_num_threads() > 1
            && limit.is_none()
            && dlx.restarts().is_some()
        {
            return dlx.count_all_parallel_with(puzzle, budget, progress);
        }
        let dlx = match self {
            Solver::Dlx(dlx)
                if rayon::current_num_threads() > 1
                    && restart::for_limit(dlx.restarts(), limit).is_none() =>
            {
                dlx
            }
            solver => return solver.count(puzzle, limit, budget),
        };
        let probe_budget = Budget {
            nodes: Some(budget.node_limit().min(SEQUENTIAL_NODES)),
            ..*budget
        };
        let probe = dlx.count(puzzle, limit, &probe_budget);
        if probe.stop != crate::Stop::NodeBudget || budget.node_limit() <= SEQUENTIAL_NODES {
            return probe;
        }
        let rest = budget.after(probe.nodes, probe.elapsed);
        let mut outcome = dlx.count_parallel(puzzle, limit, &rest);
        outcome.nodes += probe.nodes;
        outcome.work += probe.work;
        outcome.elapsed += probe.elapsed;
        outcome
    }
}

impl Solve for Solver {
    fn count_excluding(
        &mut self,
        puzzle: &Grid,
        excluded: &[(Cell, Digit)],
        limit: Option<u64>,
        budget: &Budget,
    ) -> Outcome {
        match self {
            Solver::Dlx(s) => s.count_excluding(puzzle, excluded, limit, budget),
            Solver::Csp(s) => s.count_excluding(puzzle, excluded, limit, budget),
            Solver::Bitboard(s) => s.count_excluding(puzzle, excluded, limit, budget),
        }
    }

    fn set_restarts(&mut self, restarts: Option<Restarts>) {
        match self {
            Solver::Dlx(s) => s.set_restarts(restarts),
            Solver::Csp(s) => s.set_restarts(restarts),
            Solver::Bitboard(s) => s.set_restarts(restarts),
        }
    }

    fn set_timed(&mut self, timed: bool) {
        if let Solver::Bitboard(s) = self {
            s.set_timed(timed);
        }
    }

    fn set_preferred(&mut self, near: Option<&Grid>) {
        match self {
            Solver::Dlx(s) => s.set_preferred(near),
            Solver::Csp(s) => s.set_preferred(near),
            Solver::Bitboard(s) => s.set_preferred(near),
        }
    }
}

impl Solve for csp::CspSolver {
    fn count_excluding(
        &mut self,
        puzzle: &Grid,
        excluded: &[(Cell, Digit)],
        limit: Option<u64>,
        budget: &Budget,
    ) -> Outcome {
        self.count_report(puzzle, excluded, limit, budget).into()
    }

    fn set_restarts(&mut self, restarts: Option<Restarts>) {
        csp::CspSolver::set_restarts(self, restarts);
    }

    fn set_preferred(&mut self, near: Option<&Grid>) {
        csp::CspSolver::set_preferred(self, near);
    }
}
