//! The public data sets the benches read: `$QUADRILLE_DATA`, else `../shared/data` beside the
//! crate. Shared by the bench programs through `#[path]`, as `reference_links` is.

use std::path::PathBuf;

use quadrille::io::puzzle::{Layout, PuzzleReader};
use quadrille::sudoku::Grid;

/// The data directory, or `None` when it is not there.
pub fn data_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("QUADRILLE_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data").into());
    dir.is_dir().then_some(dir)
}

/// The first `max` puzzles of a data file, read as the tool reads them; `None` when the file
/// is not there.
pub fn load(file: &str, max: usize) -> Option<Vec<Grid>> {
    let text = std::fs::read_to_string(data_dir()?.join(file)).ok()?;
    let puzzles = PuzzleReader::new(text.as_bytes(), None, Layout::Line)
        .take(max)
        .map(|puzzle| puzzle.expect("data sets are well formed").grid)
        .collect();
    Some(puzzles)
}
