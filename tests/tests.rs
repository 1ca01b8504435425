//! quadrille's integration tests, in one binary to keep build time down.

mod cli;
mod exact_cover;
mod fuzz_corpus;
mod oracle;
mod sudoku;
