//! DLX and CSP as each other's oracle on random puzzles of many shapes: the same number of
//! solutions (up to 3), the same solution when it is unique, and every returned grid valid by
//! the independent checker.

use proptest::prelude::*;
use quadrille::csp::Config;
use quadrille::engine::{DlxSolver, Engine, Solve, Solver};
use quadrille::restart::Restarts;
use quadrille::sudoku::Grid;
use quadrille::sudoku::check::check_solution;
use quadrille::{Budget, Stop};

use crate::support::{partial_grid, peak_puzzle};

const SHAPES: [(usize, usize); 7] = [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3), (3, 4), (4, 4)];

/// Count up to this many solutions.
const LIMIT: u64 = 3;

/// The fewest givens for a shape, as a fraction of the cells: big grids keep many so that the
/// weak configurations stay quick.
fn min_fraction(n: usize) -> f64 {
    match n {
        0..=6 => 0.0,
        7..=9 => 0.25,
        10..=12 => 0.45,
        _ => 0.6,
    }
}

/// A random puzzle: a shape, a seed, how many givens (between the shape's minimum and full),
/// and whether it is a well-formed contradictory one.
fn puzzle() -> impl Strategy<Value = Grid> {
    partial_grid(&SHAPES, min_fraction, 0.15)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn dlx_and_csp_agree(puzzle in puzzle(), config in 0..Config::all().len()) {
        let config = Config::all()[config];
        let dlx = DlxSolver::sudoku(puzzle.shape()).count(&puzzle, Some(LIMIT), &Budget::unlimited());
        prop_assert!(dlx.stop != Stop::NodeBudget && dlx.stop != Stop::TimeBudget);
        // Weak configurations may wander on big grids: give them a budget, and compare only
        // what both searches finished.
        let budget = if puzzle.size() <= 6 { Budget::unlimited() } else { Budget::nodes(20_000) };
        let engine = Engine::Csp(config);
        let csp = Solver::sudoku(engine, puzzle.shape()).unwrap().count(&puzzle, Some(LIMIT), &budget);

        for outcome in [&dlx, &csp] {
            prop_assert_eq!(outcome.solution.is_some(), outcome.solutions > 0);
            if let Some(solution) = &outcome.solution {
                prop_assert_eq!(check_solution(&puzzle, solution), Ok(()), "{}", engine);
            }
        }
        if csp.stop.is_budget() {
            prop_assert!(csp.solutions <= dlx.solutions, "{}: {} > {}", engine, csp.solutions, dlx.solutions);
        } else {
            prop_assert_eq!((csp.solutions, csp.stop), (dlx.solutions, dlx.stop), "{}", engine);
            if dlx.solutions == 1 {
                prop_assert_eq!(&csp.solution, &dlx.solution, "{}", engine);
            }
        }
    }
}

/// Shapes for the restart tests: every kind, Latin squares (one-row boxes) and the large grids
/// whose heavy tails restarts are for.
const PEAK_SHAPES: [(usize, usize); 9] = [
    (2, 2),
    (2, 3),
    (1, 6),
    (3, 3),
    (1, 9),
    (3, 4),
    (1, 12),
    (4, 4),
    (5, 5),
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// DLX and the CSP (the default and `alldiff`), all restarting with a random seed, count
    /// the same up to 3 and finish: restarts never cost exactness. On shapes up to 12x12 a
    /// DLX run without restarts is the reference too.
    #[test]
    fn restarting_engines_agree_near_the_peak(puzzle in peak_puzzle(&PEAK_SHAPES), seed in any::<u64>()) {
        let restarts = Some(Restarts::new(seed));
        let mut engines = vec![
            (Engine::Dlx, restarts),
            (Engine::Csp(Config::default()), restarts),
            (Engine::Csp("mrv-degree+lex+alldiff".parse().unwrap()), restarts),
        ];
        if puzzle.size() <= 12 {
            engines.push((Engine::Dlx, None));
        }
        let mut outcomes = Vec::new();
        for (engine, restarts) in engines {
            let mut solver = Solver::sudoku(engine, puzzle.shape()).unwrap();
            solver.set_restarts(restarts);
            let outcome = solver.count(&puzzle, Some(LIMIT), &Budget::unlimited());
            prop_assert!(!outcome.stop.is_budget());
            prop_assert!(outcome.solutions >= 1, "{}: a blanked grid has a solution", engine);
            let solution = outcome.solution.as_ref().unwrap();
            prop_assert_eq!(check_solution(&puzzle, solution), Ok(()), "{}", engine);
            outcomes.push((engine, outcome));
        }
        let (_, first) = &outcomes[0];
        for (engine, outcome) in &outcomes[1..] {
            prop_assert_eq!((outcome.solutions, outcome.stop), (first.solutions, first.stop), "{}", engine);
            if first.solutions == 1 {
                prop_assert_eq!(&outcome.solution, &first.solution, "{}", engine);
            }
        }
    }

    /// The same seed gives the same search: the same solution and the same work.
    #[test]
    fn restarts_are_reproducible_per_seed(puzzle in peak_puzzle(&PEAK_SHAPES), seed in any::<u64>(), csp in any::<bool>()) {
        let engine = if csp { Engine::Csp("mrv-degree+lex+alldiff".parse().unwrap()) } else { Engine::Dlx };
        let run = || {
            let mut solver = Solver::sudoku(engine, puzzle.shape()).unwrap();
            solver.set_restarts(Some(Restarts::new(seed)));
            let o = solver.count(&puzzle, Some(2), &Budget::unlimited());
            (o.solutions, o.stop, o.solution, o.nodes, o.backtracks, o.work, o.restarts)
        };
        prop_assert_eq!(run(), run());
    }
}
