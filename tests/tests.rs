//! quadrille's integration tests, in one binary to keep build time down.

// The command-line tool is there to run only with the `cli` feature (on by default).
#[cfg(feature = "cli")]
mod auto;
mod balance;
mod bitboard;
mod board;
#[cfg(feature = "cli")]
mod bounds;
#[cfg(feature = "cli")]
mod cli;
mod costs;
#[cfg(all(feature = "cli", unix))]
mod count_paths;
mod easy_end;
mod exact_cover;
mod exclusion;
#[cfg(feature = "cli")]
mod first_hour;
mod fuzz_checks;
mod fuzz_corpus;
mod generate_order;
mod interrupt;
mod layering;
mod learning;
mod logic;
mod memo;
mod oracle;
#[cfg(all(feature = "cli", unix))]
mod readme;
#[cfg(all(feature = "cli", unix))]
mod requests;
mod se_agreement;
#[cfg(feature = "serve")]
mod serve;
mod shard;
#[cfg(feature = "cli")]
mod shard_cli;
mod sudoku;
mod support;
mod variants;
mod xcc;
