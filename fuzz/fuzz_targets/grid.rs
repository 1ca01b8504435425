//! `grid`: the streaming puzzle reader, `quadrille::io::puzzle::PuzzleReader`, over
//! arbitrary bytes (not UTF-8 too: the reader takes them as U+FFFD), in both layouts, with the
//! shape inferred and given (2x2, 3x3).
//!
//! Checks: iterating to the end never panics; every item's line (a puzzle's `line`, an error's
//! `line()`) is there, is at most the lines read so far, and never decreases; every error has
//! a column; every puzzle read has the shape asked for and no two equal givens in a unit; and
//! in the one-line layout a puzzle is what `parse_line` makes of its own line.
//!
//! The properties are checked by `check_grid` in `tests/fuzz_checks.rs`, which the corpus replay
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

fuzz_target!(|data: &[u8]| fuzz_checks::check_grid(data));
