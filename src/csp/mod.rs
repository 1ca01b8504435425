//! Constraint-propagation search over Sudoku grids of every shape.
//!
//! The model: variables are cells, domains are candidate bitsets (`u64`, so n <= 64), and the
//! constraints are the all-different groups (rows, columns, boxes). A [`Solver`] is built
//! once per shape and [`Config`]; it precomputes the units and peers of every cell and keeps
//! its buffers, so counting solutions allocates nothing on the hot path.
//!
//! - [`config`]: the configuration ([`Propagation`] level, pigeonhole check,
//!   [`VariableOrder`], [`ValueOrder`]) and its names, e.g. `mrv+lex+hidden-singles`.
//! - `domains`: the per-shape tables and the state block, copied per search level.
//! - `propagate`: the inference rules, run to a fixpoint.
//! - `search`: the backtracking loop with an explicit stack, and the heuristics.
//! - [`Stats`] / [`Inferences`] / [`Outcome`]: what a search reports.
//!
//! ```
//! use quadrille::csp::{Config, Solver};
//! use quadrille::sudoku::{Grid, Shape};
//! use quadrille::{Budget, Stop};
//!
//! let shape = Shape::CLASSIC;
//! let line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
//! let cells = line.bytes().map(|b| if b == b'.' { 0 } else { b - b'0' }).collect();
//! let puzzle = Grid::from_cells(shape, cells).unwrap();
//! let mut solver = Solver::new(shape, "mrv+lex+hidden-singles".parse()?);
//! let outcome = solver.count(&puzzle, Some(2), &Budget::unlimited());
//! assert_eq!(outcome.solutions, 1);
//! assert_eq!(outcome.stop, Stop::Exhausted);
//! assert!(outcome.solution.unwrap().to_string().starts_with("417369825"));
//! # Ok::<(), quadrille::Error>(())
//! ```
//!
//! Speed, measured single-threaded in release mode through [`Solver::count`] with a limit of
//! 2 (see `benches/csp.rs` and the ignored test `csp::tests::speed`): TODO.

pub mod config;
mod domains;
mod propagate;
mod search;
mod stats;

pub use config::{Config, Propagation, ValueOrder, VariableOrder};
pub use search::Solver;
pub use stats::{Inferences, Outcome, Stats};

#[cfg(test)]
mod tests;
