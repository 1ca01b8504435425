//! The solver's steps checked against the solution, on the fixtures of every shape and on
//! random unique puzzles.

use super::*;
use crate::board::{Cell, Digit};
use crate::engine::DlxSolver;
use crate::io::puzzle::{Layout, PuzzleReader};

/// Checks every step of `grid`'s explanation against its unique solution: a placement is the
/// solution's digit, an elimination never removes it. Returns the explanation.
pub(crate) fn checked_explanation(grid: &Grid) -> Explanation {
    let mut dlx = DlxSolver::sudoku(grid.shape());
    let outcome = dlx.count(grid, Some(2), &crate::Budget::unlimited());
    assert_eq!(
        outcome.solutions, 1,
        "{grid}: the tests take unique puzzles"
    );
    let solution = outcome.solution.unwrap();
    let explanation = explain(grid);
    let n = grid.size();
    for (i, step) in explanation.steps.iter().enumerate() {
        assert!(
            step.placements().len() + step.eliminations().len() > 0,
            "{grid}: step {i} ({}) does nothing",
            step.technique()
        );
        for (cell, digit) in step.placements() {
            assert_eq!(
                solution.digit(cell),
                Some(digit),
                "{grid}: step {i} ({}) places {digit} at {}: {}",
                step.technique(),
                cell_name(cell.index(), n),
                step.why()
            );
        }
        for (cell, digit) in step.eliminations() {
            assert_ne!(
                solution.digit(cell),
                Some(digit),
                "{grid}: step {i} ({}) removes the true {digit} at {}: {}",
                step.technique(),
                cell_name(cell.index(), n),
                step.why()
            );
        }
    }
    assert!(explanation.is_solved(), "{grid}: {:?}", explanation.ending);
    explanation
}

fn fixture_puzzles(text: &str) -> Vec<Grid> {
    PuzzleReader::new(text.as_bytes(), None, Layout::Line)
        .filter_map(|p| p.ok())
        .map(|p| p.grid)
        .filter(|g| DlxSolver::sudoku(g.shape()).is_unique(g))
        .collect()
}

#[test]
fn every_step_of_the_fixtures_agrees_with_the_solution() {
    let sets = [
        include_str!("../../fixtures/sudoku/4x4.txt"),
        include_str!("../../fixtures/sudoku/6x6.txt"),
        include_str!("../../fixtures/sudoku/8x8.txt"),
        include_str!("../../fixtures/sudoku/9x9.txt"),
        include_str!("../../fixtures/sudoku/9x9_sample.txt"),
        include_str!("../../fixtures/sudoku/12x12.txt"),
        include_str!("../../fixtures/sudoku/16x16.txt"),
    ];
    let mut seen = std::collections::BTreeMap::new();
    for text in sets {
        for grid in fixture_puzzles(text) {
            for step in checked_explanation(&grid).steps {
                *seen.entry(step.technique()).or_insert(0) += 1;
            }
        }
    }
    eprintln!("{seen:?}");
}

/// A candidate grid of `shape` with every candidate, less `(row, col, digits)` removals
/// (0-based rows and columns).
fn hand_made(shape: Shape, removals: &[(usize, usize, &[u8])]) -> Candidates {
    let n = shape.size();
    let mut state = Candidates::new(&Grid::empty(shape));
    for &(row, col, ds) in removals {
        for &d in ds {
            state.eliminate(Cell::at(row, col, n), Digit::new(d).unwrap());
        }
    }
    state
}

/// The step's eliminations as sorted (row, col, digit), 1-based.
fn removed(step: &Step) -> Vec<(usize, usize, u8)> {
    let n = step.shape().size();
    let mut list: Vec<_> = step
        .eliminations()
        .map(|(c, d)| {
            let (r, col) = c.row_col(n);
            (r + 1, col + 1, d.get())
        })
        .collect();
    list.sort();
    list
}

#[test]
fn a_hidden_quad_is_found_when_nothing_easier_applies() {
    let removals: Vec<_> = (4..9).map(|c| (0, c, &[1u8, 2, 3, 4][..])).collect();
    let state = hand_made(Shape::CLASSIC, &removals);
    let step = LogicSolver::new(Shape::CLASSIC).next_step(&state).unwrap();
    assert_eq!(step.technique(), Technique::HiddenQuad);
    let want: Vec<_> = (1..=4)
        .flat_map(|c| (5..=9).map(move |d| (1, c, d)))
        .collect();
    assert_eq!(removed(&step), want);
    assert_eq!(step.units(), [0]);
}

#[test]
fn a_naked_quad_is_found_when_nothing_easier_applies() {
    let removals: Vec<_> = (0..4).map(|c| (0, c, &[5u8, 6, 7, 8, 9][..])).collect();
    let state = hand_made(Shape::CLASSIC, &removals);
    let step = LogicSolver::new(Shape::CLASSIC).next_step(&state).unwrap();
    assert_eq!(step.technique(), Technique::NakedQuad);
    let want: Vec<_> = (5..=9)
        .flat_map(|c| (1..=4).map(move |d| (1, c, d)))
        .collect();
    assert_eq!(removed(&step), want);
}

#[test]
fn an_x_wing_on_a_16x16_grid() {
    let shape = Shape::new(4, 4).unwrap();
    let removals: Vec<_> = [0, 4]
        .into_iter()
        .flat_map(|r| {
            (0..16)
                .filter(|&c| c != 1 && c != 6)
                .map(move |c| (r, c, &[1u8][..]))
        })
        .collect();
    let state = hand_made(shape, &removals);
    let step = LogicSolver::new(shape).next_step(&state).unwrap();
    assert_eq!(step.technique(), Technique::XWing);
    let want: Vec<_> = (1..=16)
        .filter(|&r| r != 1 && r != 5)
        .flat_map(|r| [(r, 2, 1), (r, 7, 1)])
        .collect();
    assert_eq!(removed(&step), want);
}

#[test]
fn an_xy_wing_with_its_pivot_and_pincers() {
    // Pivot r1c1 {1,2}, pincers r1c5 {1,3} and r2c2 {2,3}: cells seeing both pincers lose 3.
    let all_but = |keep: &[u8]| -> Vec<u8> { (1..=9).filter(|d| !keep.contains(d)).collect() };
    let (p, a, b) = (all_but(&[1, 2]), all_but(&[1, 3]), all_but(&[2, 3]));
    let state = hand_made(Shape::CLASSIC, &[(0, 0, &p), (0, 4, &a), (1, 1, &b)]);
    let step = LogicSolver::new(Shape::CLASSIC).next_step(&state).unwrap();
    assert_eq!(step.technique(), Technique::XyWing);
    assert_eq!(
        removed(&step),
        [(1, 2, 3), (1, 3, 3), (2, 4, 3), (2, 5, 3), (2, 6, 3)]
    );
}

#[test]
fn a_contradictory_grid_has_no_solution() {
    // Two givens 1 in row 1 of a 4x4: the reader refuses it; by hand, the grid breaks.
    let mut grid = Grid::empty(Shape::new(2, 2).unwrap());
    grid.set(0, 0, 1);
    grid.set(1, 2, 1);
    grid.set(2, 1, 1);
    grid.set(3, 3, 2);
    grid.set(3, 2, 3);
    grid.set(3, 1, 4);
    let explanation = explain(&grid);
    assert_eq!(explanation.ending, Ending::NoSolution);
}

/// A puzzle of several solutions is said to be one: its rating and its explanation say
/// `unique: false` (counted by Dancing Links at the first guess), where a unique puzzle that
/// needs guesses and one that logic solves alone say `true`.
#[test]
fn several_solutions_are_told_apart_from_a_unique_puzzle_that_needs_guesses() {
    let read = |line: &str| crate::io::puzzle::parse_line(line, None).unwrap();
    // Nine solutions.
    let several = read("1...........4..2");
    let rating = rate(&several);
    assert!(rating.guesses > 0 && !rating.unique, "{rating:?}");
    assert!(!explain(&several).unique);
    // Line 86 of the forum's hardest 11+ list (puzzles5_forum_hardest_1905_11+): unique, and
    // beyond the techniques, nested forcing chains included.
    let hardest =
        read("98.7.....6...8.7....7..5...4...5..3...89..5.......2..1.3.....4...65..9.......1..2");
    let mut dlx = DlxSolver::sudoku(hardest.shape());
    assert!(dlx.is_unique(&hardest));
    let rating = rate(&hardest);
    assert!(rating.guesses > 0 && rating.unique, "{rating:?}");
    // Logic alone: unique by the steps themselves.
    let easy = read("1.34341221..4321");
    assert!(rate(&easy).unique && rate(&easy).guesses == 0);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]

    /// Random unique puzzles of several shapes: every step agrees with the solution, and the
    /// rating is the hardest step's score.
    #[test]
    fn random_unique_puzzles_explain_correctly(seed in 0u64..1_000_000, which in 0usize..6) {
        let (r, c) = [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3), (3, 4)][which];
        let shape = Shape::new(r, c).unwrap();
        let grid = crate::generate::unique_puzzle(shape, seed, 0);
        let explanation = checked_explanation(&grid);
        let rating = rate(&grid);
        let hardest = explanation.steps.iter().map(Step::tenths).max().unwrap_or(0);
        proptest::prop_assert_eq!(rating.tenths, hardest);
        proptest::prop_assert_eq!(rating.steps as usize, explanation.steps.len());
    }
}
