//! `dlx`: Knuth's dlx text format (`quadrille::io::dlx::read_problem`) and, for small problems,
//! the dancing links built from what it reads.
//!
//! Checks, for any bytes:
//! - reading never panics; a problem read has one line number per option, increasing, after
//!   the item line; writing it (`problem_to_string`) and reading that gives the same problem;
//! - for problems of at most 30 options, with a budget of 10,000 nodes: the solution count of
//!   `Dlx::search`, without and with dead-end tracking, and of `Dlx::run` with
//!   `Branching::FirstItem` agree when the searches are complete; every solution handed out is an exact
//!   cover (each primary item once, each secondary item at most once) and none comes twice;
//!   every search leaves the links as built (`link_fingerprint`, `sanity`);
//! - forcing the last option and counting gives the solutions that contain it, and
//!   `release_all` restores the links, with and without `keep_copy`;
//! - for at most 16 options, the complete counts equal a brute-force count over subsets of
//!   options, and an incomplete count is at most it.
//!
//! The properties are checked by `check_dlx` in `tests/fuzz_checks.rs`, which the corpus replay
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

fuzz_target!(|data: &[u8]| fuzz_checks::check_dlx(data));
