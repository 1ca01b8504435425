//! Sudoku of every box shape: shapes, grids, checking, the exact-cover encoding, and the
//! variants (X, windoku, jigsaw, killer) as boards. Reading and writing puzzles is
//! [`crate::io::puzzle`]'s.

pub mod check;
pub mod encode;
mod grid;
mod shape;
pub mod variant;

pub use grid::Grid;
pub(crate) use grid::digit_char;
pub use shape::{MAX_SIZE, Shape};
