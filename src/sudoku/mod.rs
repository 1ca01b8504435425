//! Sudoku of every box shape: shapes, grids, checking, and the exact-cover encoding. Reading
//! and writing puzzles is [`crate::io::puzzle`]'s.

pub mod check;
pub mod encode;
mod grid;
mod shape;

pub use grid::{Grid, digit_char};
pub use shape::{MAX_SIZE, Shape};
