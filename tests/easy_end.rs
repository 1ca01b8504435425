//! The easy end of large grids: empty grids of every box shape and near-empty random grids,
//! solved by the default DLX solver (restarts, learning, the fill and its Hall checks), each
//! answer checked against the rules by the code here, and an empty grid told to have several
//! solutions.

use quadrille::Budget;
use quadrille::engine::{DlxSolver, Solve};
use quadrille::generate::random_puzzle;
use quadrille::restart::Restarts;
use quadrille::sudoku::{Grid, Shape};

/// Why `solution` is not a filling of `puzzle` by the rules of its shape, if it is not: every
/// cell holds a digit of 1..=n, the givens are kept, and no row, column or box repeats a digit.
fn breach(puzzle: &Grid, solution: &Grid) -> Option<String> {
    let shape = puzzle.shape();
    let (n, r, c) = (shape.size(), shape.box_rows(), shape.box_cols());
    for row in 0..n {
        for col in 0..n {
            let (given, digit) = (puzzle.get(row, col), solution.get(row, col));
            if !(1..=n as u8).contains(&digit) {
                return Some(format!("r{}c{} holds {digit}", row + 1, col + 1));
            }
            if given != 0 && given != digit {
                return Some(format!(
                    "r{}c{}: given {given}, got {digit}",
                    row + 1,
                    col + 1
                ));
            }
        }
    }
    // Each group as its cells' (row, col): rows, columns, then boxes of r rows and c columns.
    let rows = (0..n).map(|i| (0..n).map(|j| (i, j)).collect::<Vec<_>>());
    let cols = (0..n).map(|j| (0..n).map(|i| (i, j)).collect::<Vec<_>>());
    let boxes = (0..n).map(|b| {
        let (top, left) = ((b / r) * r, (b % r) * c);
        (0..n)
            .map(|k| (top + k / c, left + k % c))
            .collect::<Vec<_>>()
    });
    for group in rows.chain(cols).chain(boxes) {
        let mut seen = vec![false; n + 1];
        for (i, j) in group {
            let digit = solution.get(i, j) as usize;
            if std::mem::replace(&mut seen[digit], true) {
                return Some(format!(
                    "{digit} twice in the group of r{}c{}",
                    i + 1,
                    j + 1
                ));
            }
        }
    }
    None
}

/// Solves `puzzle` with the default DLX solver and checks the answer.
fn solve_and_check(puzzle: &Grid) {
    let shape = puzzle.shape();
    let mut solver = DlxSolver::sudoku(shape);
    let outcome = solver.count(puzzle, Some(1), &Budget::unlimited());
    let solution = (outcome.solution.as_ref()).unwrap_or_else(|| panic!("{shape:?}: no solution"));
    assert_eq!(outcome.solutions, 1, "{shape:?}");
    if let Some(why) = breach(puzzle, solution) {
        panic!("{shape:?}: {why}");
    }
}

#[test]
fn the_empty_grid_of_every_box_shape_up_to_25x25_is_filled_by_the_rules() {
    for r in 1..=25 {
        for c in 1..=25 / r {
            if r * c >= 2 {
                solve_and_check(&Grid::empty(Shape::new(r, c).expect("a box shape")));
            }
        }
    }
}

#[test]
fn near_empty_36x36_grids_are_solved_by_the_rules() {
    let shape = Shape::new(6, 6).expect("a box shape");
    // 95% to 99% blanks, as `generate --kind random` makes them.
    for (seed, givens) in [(1, 65), (2, 40), (3, 13)] {
        solve_and_check(&random_puzzle(shape, seed, givens));
    }
}

#[test]
fn an_empty_36x36_grid_has_several_solutions() {
    let shape = Shape::new(6, 6).expect("a box shape");
    let mut solver = DlxSolver::sudoku(shape);
    let outcome = solver.count(&Grid::empty(shape), Some(2), &Budget::unlimited());
    assert_eq!(outcome.solutions, 2);
    assert!(!outcome.is_complete(), "stopped at the limit");
}

/// The fill run goes in reading order with the digits in order, which fills the empty 64x64
/// grid in under two descents: DLX decides it within four descents' worth of nodes (a node
/// budget, not a time).
#[test]
fn dlx_fills_the_empty_64x64_grid_within_four_descents() {
    let shape = Shape::new(8, 8).expect("a box shape");
    let puzzle = Grid::empty(shape);
    let mut solver = DlxSolver::sudoku(shape);
    let outcome = solver.count(&puzzle, Some(1), &Budget::nodes(4 * 64 * 64));
    let solution = (outcome.solution.as_ref())
        .unwrap_or_else(|| panic!("not filled within the budget: {outcome:?}"));
    assert_eq!(breach(&puzzle, solution), None);
}

/// With Hall's condition checked at the easy end, DLX alone decides near-empty 64x64 grids
/// (99% blanks) and the empty grids of the rectangular shapes that a fill without it left
/// undecided, each within eight descents' worth of nodes (a node budget, not a time), for
/// every seed tried.
#[test]
fn dlx_decides_near_empty_64x64_grids_and_every_rectangle_within_eight_descents() {
    let shape = Shape::new(8, 8).expect("a box shape");
    let mut puzzles: Vec<Grid> = [(1, 41), (2, 41)]
        .into_iter()
        .map(|(seed, givens)| random_puzzle(shape, seed, givens))
        .collect();
    for (r, c) in [(6, 10), (10, 6), (7, 9)] {
        puzzles.push(Grid::empty(Shape::new(r, c).expect("a box shape")));
    }
    for puzzle in &puzzles {
        let shape = puzzle.shape();
        let descent = (puzzle.size() * puzzle.size() - puzzle.givens()) as u64;
        for seed in [0, 3] {
            let mut solver = DlxSolver::sudoku(shape);
            solver.set_restarts(Some(Restarts::new(seed)));
            let outcome = solver.count(puzzle, Some(1), &Budget::nodes(8 * descent));
            let solution = (outcome.solution.as_ref())
                .unwrap_or_else(|| panic!("{shape:?}, seed {seed}: undecided: {outcome:?}"));
            assert_eq!(breach(puzzle, solution), None, "{shape:?}, seed {seed}");
        }
    }
}

/// A node budget holds across the first run and the fill run and learning after it: the
/// search stops undecided with at most the budget's nodes.
#[test]
fn a_node_budget_bounds_the_fill_run_and_learning_too() {
    let shape = Shape::new(8, 8).expect("a box shape");
    let mut solver = DlxSolver::sudoku(shape);
    for budget in [4_000, 6_000] {
        let outcome = solver.count(&Grid::empty(shape), Some(1), &Budget::nodes(budget));
        assert_eq!(outcome.solutions, 0, "budget {budget}");
        assert!(outcome.nodes <= budget, "budget {budget}: {outcome:?}");
    }
}
