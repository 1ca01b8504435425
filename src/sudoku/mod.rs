//! Sudoku of every box shape: shapes, grids, formats, checking, and the exact-cover encoding.

pub mod check;
pub mod encode;
pub mod format;
mod grid;
mod shape;

pub use grid::{Grid, digit_char};
pub use shape::{MAX_SIZE, Shape};
