//! `solve`: both Sudoku engines on small puzzles, each other's oracle.
//!
//! The first byte picks a shape (2x2, 1x4, 4x1, 2x3, 3x2, 3x3) and how the rest is read: as
//! one digit per byte (`byte % (n + 1)`, 0 empty, missing cells empty) or, with bit 7 set, as
//! a one-line puzzle for `parse_line` with that shape. The second byte also picks a CSP
//! configuration from `Config::all()`, run besides the default one.
//!
//! Checks, with a limit of 2 solutions and a budget of 20,000 nodes per search:
//! - puzzles that `parse_line` rejects are skipped; puzzles whose givens clash
//!   (`check::conflicts`) have no solution in any engine;
//! - a solution is returned exactly when one was counted, and `check::check_solution` accepts
//!   it; a count of 1 from a complete search is the only solution, so the engines return it;
//! - complete counts agree across engines (DLX through `DlxSolver` and through
//!   `engine::Solver::Dlx`, CSP default, CSP chosen); a count that stopped at the
//!   limit or the budget is at most a complete one.
#![no_main]

use std::cell::RefCell;
use std::collections::HashMap;

use libfuzzer_sys::fuzz_target;
use quadrille::Budget;
use quadrille::csp::{Config, CspSolver};
use quadrille::engine::{DlxSolver, Outcome, Solver};
use quadrille::io::puzzle::parse_line;
use quadrille::sudoku::{Grid, Shape, check};

const SHAPES: [(usize, usize); 6] = [(2, 2), (1, 4), (4, 1), (2, 3), (3, 2), (3, 3)];
const LIMIT: u64 = 2;
const NODES: u64 = 20_000;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let (r, c) = SHAPES[(mode & 0x7f) as usize % SHAPES.len()];
    let shape = Shape::new(r, c).unwrap();
    let n = shape.size();
    let puzzle = if mode & 0x80 != 0 {
        let Ok(text) = std::str::from_utf8(rest) else {
            return;
        };
        let Ok(grid) = parse_line(text, Some(shape)) else {
            return;
        };
        grid
    } else {
        let cells = (0..shape.cell_count())
            .map(|i| rest.get(i).map_or(0, |&b| b % (n as u8 + 1)))
            .collect();
        Grid::from_cells(shape, cells).expect("values are at most n")
    };
    let config = Config::all()[rest.first().map_or(0, |&b| b as usize) % Config::all().len()];
    let budget = Budget::nodes(NODES);

    // Fresh solvers for every input (clones of ones built once), so that a failure
    // reproduces from its input alone.
    let (mut dlx, mut engine) = (dlx_solver(shape), Solver::Dlx(dlx_solver(shape)));
    let outcomes = [
        ("dlx", dlx.count(&puzzle, Some(LIMIT), &budget)),
        ("engine dlx", engine.count(&puzzle, Some(LIMIT), &budget)),
        ("csp default", csp(&puzzle, Config::default(), &budget)),
        ("csp chosen", csp(&puzzle, config, &budget)),
    ];

    let clash = check::conflicts(&puzzle).is_err();
    for (name, o) in &outcomes {
        if clash {
            assert_eq!(o.solutions, 0, "{name} solved clashing {puzzle:?}");
        }
        assert!(o.solutions <= LIMIT, "{name}: {o:?}");
        assert_eq!(o.solution.is_some(), o.solutions > 0, "{name}: {o:?}");
        if let Some(solution) = &o.solution {
            if let Err(why) = check::check_solution(&puzzle, solution) {
                panic!("{name} on {puzzle:?} gave {solution:?}: {why}");
            }
        }
    }
    for (a_name, a) in &outcomes {
        if !a.is_complete() {
            continue;
        }
        for (b_name, b) in &outcomes {
            assert!(
                b.solutions <= a.solutions,
                "{a_name} found {} solutions (complete), {b_name} {} ({:?}) on {puzzle:?}",
                a.solutions,
                b.solutions,
                b.stop
            );
            if a.solutions == 1 && b.solutions == 1 {
                assert_eq!(
                    a.solution, b.solution,
                    "{a_name} and {b_name} on {puzzle:?}"
                );
            }
        }
    }
});

thread_local! {
    static DLX: RefCell<HashMap<Shape, DlxSolver>> = RefCell::default();
    static CSP: RefCell<HashMap<(Shape, Config), CspSolver>> = RefCell::default();
}

/// A new `DlxSolver` for the shape: a clone of one built once.
fn dlx_solver(shape: Shape) -> DlxSolver {
    DLX.with_borrow_mut(|m| {
        m.entry(shape)
            .or_insert_with(|| DlxSolver::sudoku(shape))
            .clone()
    })
}

/// A CSP count as an engine `Outcome`, by a new solver (a clone of one built once).
fn csp(puzzle: &Grid, config: Config, budget: &Budget) -> Outcome {
    let shape = puzzle.shape();
    let mut solver = CSP.with_borrow_mut(|m| {
        (m.entry((shape, config)))
            .or_insert_with(|| CspSolver::new(shape.board(), config))
            .clone()
    });
    let o = solver.count(puzzle, Some(LIMIT), budget);
    Outcome {
        solutions: o.solutions,
        solution: o.solution,
        stop: o.stop,
        nodes: o.stats.nodes,
        backtracks: o.stats.backtracks,
        work: o.stats.inferences.total(),
        elapsed: o.stats.elapsed,
    }
}
