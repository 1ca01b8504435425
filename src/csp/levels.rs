//! A puzzle's difficulty for search: the backtracks that a uniqueness check (up to two
//! solutions, without restarts) takes at each propagation level, as `quadrille rate` reports
//! them beside the logical rating.

use std::cell::RefCell;

use super::{Config, CspSolver, Propagation};
use crate::board::Board;
use crate::budget::Budget;
use crate::runner::Recent;
use crate::sudoku::{Grid, Shape};

/// The backtracks of one level's search, and whether its budget cut it (then `count` is a
/// lower bound).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelBacktracks {
    /// Values tried and undone.
    pub count: u64,
    /// Whether the budget stopped the search first.
    pub cut: bool,
}

impl LevelBacktracks {
    fn of(report: &super::CspReport) -> LevelBacktracks {
        LevelBacktracks {
            count: report.stats.backtracks,
            cut: report.stop.is_budget(),
        }
    }
}

fn config(propagation: Propagation) -> Config {
    Config {
        propagation,
        scaled: false,
        fill: false,
        ..Config::default()
    }
}

thread_local! {
    /// Each thread's solvers by shape and level: one per level asked for, on a shape or two.
    static SOLVERS: RefCell<Recent<(Shape, Propagation), CspSolver>> =
        const { RefCell::new(Recent::new(16)) };
}

/// The backtracks of a uniqueness check of `puzzle` with the default CSP configuration at each
/// of `levels`, each within `budget`, on this thread's solvers (built once per shape and level).
///
/// ```
/// use quadrille::Budget;
/// use quadrille::csp::{Propagation, backtracks_by_level};
/// use quadrille::io::puzzle::parse_line;
///
/// let puzzle = parse_line("1...........4..2", None)?;
/// let levels = [Propagation::ForwardChecking, Propagation::HiddenSingles];
/// let found = backtracks_by_level(&puzzle, &levels, &Budget::nodes(10_000));
/// assert_eq!(found.len(), 2);
/// // Nine solutions: the search backtracks to find a second one, and is not cut.
/// assert!(found.iter().all(|b| b.count > 0 && !b.cut));
/// # Ok::<(), quadrille::Error>(())
/// ```
pub fn backtracks_by_level(
    puzzle: &Grid,
    levels: &[Propagation],
    budget: &Budget,
) -> Vec<LevelBacktracks> {
    let shape = puzzle.shape();
    SOLVERS.with(|solvers| {
        let mut solvers = solvers.borrow_mut();
        levels
            .iter()
            .map(|&propagation| {
                let solver = solvers.get_or_insert_with((shape, propagation), || {
                    let mut solver = CspSolver::new(shape.board(), config(propagation));
                    solver.set_restarts(None);
                    solver
                });
                LevelBacktracks::of(&solver.count_report(puzzle, &[], Some(2), budget))
            })
            .collect()
    })
}

/// [`backtracks_by_level`] of a puzzle on `board` (a variant's), with solvers of that board
/// built for the call.
pub fn backtracks_by_level_on(
    board: &Board,
    puzzle: &Grid,
    levels: &[Propagation],
    budget: &Budget,
) -> Vec<LevelBacktracks> {
    levels
        .iter()
        .map(|&propagation| {
            let mut solver = CspSolver::new(board, config(propagation));
            solver.set_restarts(None);
            LevelBacktracks::of(&solver.count_report(puzzle, &[], Some(2), budget))
        })
        .collect()
}
