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
//!
//! The properties are checked by `check_solve` in `tests/fuzz_checks.rs`, which the corpus replay
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

fuzz_target!(|data: &[u8]| fuzz_checks::check_solve(data));
