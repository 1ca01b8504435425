//! `line`: the one-line puzzle parser, `quadrille::io::puzzle::parse_line`.
//!
//! For any UTF-8 text, with the shape inferred and with a few fixed shapes (square boxes,
//! oblong boxes both ways, 1 x n boxes, and 6x6 boxes, whose n = 36 lines are numeric):
//! - parsing never panics;
//! - an error names a column (and no line: the reader adds it), within the text plus one;
//! - a parsed grid has the shape asked for, and has no two equal givens in a unit;
//! - writing the grid back (`Grid::write_line`, which `to_string` uses) and parsing that again,
//!   with the grid's shape and, when the shape was inferred, with none, gives the same grid.
//!
//! The properties are checked by `check_line` in `tests/fuzz_checks.rs`, which the corpus replay
//! in `cargo test` runs too.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/fuzz_checks.rs"]
mod fuzz_checks;

// The brute-force oracles the checks compare against, where `tests/tests.rs` has them.
#[allow(dead_code)]
#[path = "../../tests/support/oracle.rs"]
mod oracle;
mod support {
    pub(crate) use crate::oracle;
}

fuzz_target!(|data: &[u8]| fuzz_checks::check_line(data));
