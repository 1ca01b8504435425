//! `records`: shard results as `quadrille merge` reads them (`quadrille::merge::read_records`
//! and `read_shard_results`), and their sum (`merge::merge`).
//!
//! Checks, for any bytes:
//! - reading and merging never panic, and never ask for more memory than a split can need (a
//!   record's shard count is at most `MAX_SHARDS`);
//! - an error names a line of the input;
//! - both readers read the same records, except a last line cut short mid-write, which
//!   `read_shard_results` leaves out and names and `read_records` refuses;
//! - a record read has 1 <= shard <= shards and its line as its origin;
//! - a merge that is not refused has every shard present or missing, and a sum at least each
//!   record's count.
//!
//! The properties are checked by `check_records` in `tests/fuzz_checks.rs`, which the corpus
//! replay in `cargo test` runs too.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/fuzz_checks.rs"]
mod fuzz_checks;

// The brute-force oracles of the other checks, where `tests/tests.rs` has them.
#[allow(dead_code)]
#[path = "../../tests/support/oracle.rs"]
mod oracle;
mod support {
    pub(crate) use crate::oracle;
}

fuzz_target!(|data: &[u8]| fuzz_checks::check_records(data));
