//! Reading and writing problem files: Sudoku puzzles ([`puzzle`]) and Knuth's dlx format
//! ([`dlx`]), each read a line at a time within its format's limits.

pub mod dlx;
pub(crate) mod lines;
pub mod puzzle;
