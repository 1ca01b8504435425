//! quadrille solves exact-cover problems with Knuth's Dancing Links (Algorithm X), with Sudoku
//! of every box size as its first citizen, and a constraint-propagation (CSP) solver beside it
//! to compare against and to check it.
#![deny(missing_docs)]

pub mod batch;
pub mod budget;
pub mod compare;
pub mod csp;
pub mod error;
pub mod exact_cover;
pub mod io;
pub mod problems;
pub mod sudoku;

pub use budget::{Budget, Stop};
pub use error::{Error, ErrorKind, Result};
