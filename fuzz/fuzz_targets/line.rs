//! `line`: the one-line puzzle parser, `quadrille::io::puzzle::parse_line`.
//!
//! For any UTF-8 text, with the shape inferred and with a few fixed shapes (square boxes,
//! oblong boxes both ways, 1 x n boxes, and 6x6 boxes, whose n = 36 lines are numeric):
//! - parsing never panics;
//! - an error names a column (and no line: the reader adds it), within the text plus one;
//! - a parsed grid has the shape asked for, and has no two equal givens in a unit;
//! - writing the grid back (`Grid::write_line`, which `to_string` uses) and parsing that again,
//!   with the grid's shape and, when the shape was inferred, with none, gives the same grid.
#![no_main]

use libfuzzer_sys::fuzz_target;
use quadrille::io::puzzle::parse_line;
use quadrille::sudoku::{Shape, check};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let shapes = [
        None,
        Some((2, 2)),
        Some((3, 3)),
        Some((2, 3)),
        Some((1, 4)),
        Some((6, 6)),
    ];
    for shape in shapes {
        let shape = shape.map(|(r, c)| Shape::new(r, c).unwrap());
        let grid = match parse_line(text, shape) {
            Ok(grid) => grid,
            Err(err) => {
                let column = err.column().unwrap_or_else(|| panic!("no column in {err}"));
                assert!(err.line().is_none(), "a line in {err}");
                let end = text.chars().count() + 1;
                assert!(
                    (1..=end).contains(&column),
                    "column {column} of {end}: {err}"
                );
                continue;
            }
        };
        if let Some(shape) = shape {
            assert_eq!(grid.shape(), shape);
        }
        assert!(
            check::conflicts(&grid).is_ok(),
            "{grid:?} has clashing givens"
        );
        let written = grid.to_string();
        let mut line = String::new();
        grid.write_line(&mut line);
        assert_eq!(line, written);
        let again = parse_line(&written, Some(grid.shape()))
            .unwrap_or_else(|err| panic!("{written:?} does not parse back: {err}"));
        assert_eq!(again, grid, "{written:?}");
        if shape.is_none() {
            let inferred = parse_line(&written, None)
                .unwrap_or_else(|err| panic!("{written:?} does not parse back: {err}"));
            assert_eq!(inferred, grid, "{written:?}");
        }
    }
});
