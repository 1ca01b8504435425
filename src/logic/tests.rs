//! The solver's steps checked against the solution, on the fixtures of every shape and on
//! random unique puzzles.

use super::*;
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
