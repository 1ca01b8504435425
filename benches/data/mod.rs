//! The public data sets the benches read, found as the tests find them (`src/test_data.rs`:
//! `$QUADRILLE_DATA`, else `../shared/data` beside the crate; a missing set is skipped with a
//! note). Shared by the bench programs through `#[path]`, as `reference_links` is.

#![allow(dead_code)] // each bench uses part of it

use quadrille::io::puzzle::{Layout, PuzzleReader};
use quadrille::sudoku::Grid;

#[path = "../../src/test_data.rs"]
mod test_data;

/// The first `max` puzzle lines of a data set (comments and blank lines left out); `None`
/// when the set is not there.
pub fn lines(file: &str, max: usize) -> Option<Vec<String>> {
    let text = test_data::data_text(file)?;
    let lines = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .take(max)
        .map(str::to_string)
        .collect();
    Some(lines)
}

/// The first `max` puzzles of a data set, read as the tool reads them; `None` when the set is
/// not there.
pub fn load(file: &str, max: usize) -> Option<Vec<Grid>> {
    let text = test_data::data_text(file)?;
    let puzzles = PuzzleReader::new(text.as_bytes(), None, Layout::Line)
        .take(max)
        .map(|puzzle| puzzle.expect("data sets are well formed").grid)
        .collect();
    Some(puzzles)
}
