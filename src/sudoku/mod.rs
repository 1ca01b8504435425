//! Sudoku of every box shape: shapes, grids, formats, checking, and the exact-cover encoding.

pub mod check;
pub mod encode;
mod engine;
pub mod format;
pub mod generate;
mod grid;
mod shape;
mod solver;

pub use engine::{Engine, Solver};
pub use grid::{Grid, digit_char};
pub use shape::{MAX_SIZE, Shape};
pub use solver::{DlxSolver, Outcome};
