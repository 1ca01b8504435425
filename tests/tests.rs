//! quadrille's integration tests, in one binary to keep build time down.

mod exact_cover;
mod sudoku;
