//! `grid`: the streaming puzzle reader, `quadrille::io::puzzle::PuzzleReader`, over
//! arbitrary bytes (not UTF-8 too: the reader takes them as U+FFFD), in both layouts, with the
//! shape inferred and given (2x2, 3x3).
//!
//! Checks: iterating to the end never panics; every item's line (a puzzle's `line`, an error's
//! `line()`) is there, is at most the lines read so far, and never decreases; every error has
//! a column; every puzzle read has the shape asked for and no two equal givens in a unit; and
//! in the one-line layout a puzzle is what `parse_line` makes of its own line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use quadrille::io::puzzle::{Layout, PuzzleReader, parse_line};
use quadrille::sudoku::{Shape, check};

fuzz_target!(|data: &[u8]| {
    let lines: Vec<&[u8]> = data.split_inclusive(|&b| b == b'\n').collect();
    for layout in [Layout::Grid, Layout::Line] {
        for shape in [None, Some((2, 2)), Some((3, 3))] {
            let shape = shape.map(|(r, c)| Shape::new(r, c).unwrap());
            let mut reader = PuzzleReader::new(data, shape, layout);
            let mut last = 0;
            while let Some(item) = reader.next() {
                let line = match &item {
                    Ok(puzzle) => puzzle.line,
                    Err(err) => {
                        assert!(err.column().is_some(), "no column in {err}");
                        err.line().unwrap_or_else(|| panic!("no line in {err}"))
                    }
                };
                assert!(
                    line >= 1 && line <= reader.lines_read(),
                    "line {line} of {}",
                    reader.lines_read()
                );
                assert!(line >= last, "line {line} after line {last}");
                last = line;
                let Ok(puzzle) = item else { continue };
                if let Some(shape) = shape {
                    assert_eq!(puzzle.grid.shape(), shape);
                }
                assert!(check::conflicts(&puzzle.grid).is_ok(), "{:?}", puzzle.grid);
                if layout == Layout::Line {
                    let text = String::from_utf8_lossy(lines[line - 1]);
                    let text = text.trim_start_matches('\u{feff}');
                    let grid = parse_line(text, shape).expect("the reader's line parses alone");
                    assert_eq!(grid, puzzle.grid);
                }
            }
        }
    }
});
