//! Reading and writing problem files: Sudoku puzzles ([`puzzle`]) and Knuth's dlx format
//! ([`dlx`]).

pub mod dlx;
pub mod puzzle;
