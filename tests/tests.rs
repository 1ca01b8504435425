//! quadrille's integration tests, in one binary to keep build time down.

mod board;
mod cli;
mod exact_cover;
mod oracle;
mod sudoku;
