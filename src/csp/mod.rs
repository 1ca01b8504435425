//! Constraint-propagation search over Sudoku grids of every shape.
//!
//! The model: variables are cells, domains are candidate bitsets (`u64`, so n <= 64), and the
//! constraints are the all-different groups (rows, columns, boxes). A [`CspSolver`] is built
//! once per shape and [`Config`]; it precomputes the units and peers of every cell and keeps
//! its buffers, so counting solutions allocates nothing on the hot path.
//!
//! - [`config`]: the configuration ([`Propagation`] level, pigeonhole check,
//!   [`VariableOrder`], [`ValueOrder`]) and its names, e.g. `mrv+lex+hidden-singles`.
//! - `domains`: the per-shape tables and the state block, copied per search level.
//! - `propagate`: the inference rules, run to a fixpoint.
//! - `alldiff`: generalised arc consistency of one unit by bipartite matching and strongly
//!   connected components (Régin 1994), for the `alldiff` level.
//! - `cages`: killer cages, whose digits are different and add up to a sum, on boards that
//!   have them.
//! - `search`: the backtracking loop with an explicit stack, and the heuristics.
//! - [`CspStats`] / [`Inferences`] / [`CspReport`]: what a search reports.
//!
//! ```
//! use quadrille::csp::{Config, CspSolver};
//! use quadrille::engine::Solve;
//! use quadrille::sudoku::{Grid, Shape};
//! use quadrille::{Budget, Stop};
//!
//! let shape = Shape::CLASSIC;
//! let line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
//! let cells = line.bytes().map(|b| if b == b'.' { 0 } else { b - b'0' }).collect();
//! let puzzle = Grid::from_cells(shape, cells).unwrap();
//! let mut solver = CspSolver::new(shape.board(), "mrv+lex+hidden-singles".parse()?);
//! let outcome = solver.count(&puzzle, Some(2), &Budget::unlimited());
//! assert_eq!(outcome.solutions, 1);
//! assert_eq!(outcome.stop, Stop::Exhausted);
//! assert!(outcome.solution.unwrap().to_string().starts_with("417369825"));
//! # Ok::<(), quadrille::Error>(())
//! ```
//!
//! # Speed
//!
//! Measured single-threaded in release mode through [`CspSolver::count_report`] with a limit of 2 (a
//! uniqueness check), µs per puzzle, on a shared 2-core AMD EPYC VM (thread CPU time; wall
//! time was within 10% when the machine was quiet). Run with `QUADRILLE_DATA=<data dir>
//! cargo test --release --lib csp::tests::speed -- --ignored --nocapture`; criterion benches
//! are in `benches/csp.rs`.
//!
//! | configuration                       | 17-clue (5000) | nodes | 11+ hardest (2000) | nodes |
//! |-------------------------------------|---------------:|------:|-------------------:|------:|
//! | `mrv-degree+lex+hidden-singles` (default) |      9.0 |   6.6 |                159 |   212 |
//! | `mrv+lex+hidden-singles`            |           12.6 |  10.1 |                192 |   332 |
//! | `mrv-degree+lex+pairs`              |           14.3 |   2.7 |                650 |   187 |
//! | `mrv-degree+lcv+triples+pigeonhole` |           23.1 |   2.5 |               1467 |   187 |
//! | `mrv-degree+lex+alldiff` (*)        |           11.9 |   2.5 |                422 |   187 |
//! | `mrv+lex+ac` (200 puzzles each)     |           2306 | 11966 |                947 |  3246 |
//! | `first+lex+fc` (200, 100k-node cap) |        > 7544 |   cap |             > 6602 |   cap |
//!
//! `first+lex+fc` hit the cap of 100,000 nodes on all 200 17-clue puzzles and on 167 of the
//! 200 hardest; `mrv+lex+ac` on 4 of the 17-clue puzzles. What decided the design: the
//! removal of a digit from the peers is most of the time (perf and cachegrind), so it is
//! branch-free and, on grids up to 16x16, visits only open peers (a fifth fewer
//! instructions); hidden singles look only at units that lost a candidate; the degree
//! tie-break cuts a third of the nodes for a popcount per tied cell. Pairs and triples
//! save nodes but cost more than they save.
//!
//! (*) Measured in a later run and scaled by the default's ratio: that run gave 6.0 µs and
//! 119 µs (thread CPU) for the default, 7.9 µs and 317 µs for `alldiff`, and 12.0 µs and
//! 912 µs for `mrv-degree+lex+triples`. A Hall set of k of a unit's m open cells comes with
//! a hidden one of m - k digits, so with at most 7 open cells triples find one of the two,
//! and on 9x9 grids `alldiff` prunes nearly what `triples` prunes (187.0 against 186.9
//! nodes) at a third of the cost. It pays off on larger grids: on 12 random 25x25 puzzles
//! with 245 givens (`quadrille generate --box 5x5 --kind random --givens 245 -n 12 --seed
//! 1`, `compare --no-node-budget --time-budget 2`) it solves all 12 with a median of 6.1 ms
//! and 479 nodes, where `triples` needs 29 ms and 964 nodes and the default gives up on 4.
//! The default stays `hidden-singles`, the fastest on 9x9 grids.

mod alldiff;
mod cages;
pub mod config;
mod domains;
mod levels;
mod propagate;
mod restart;
mod search;
mod stats;
mod subsets;

pub use config::{Config, Propagation, ValueOrder, VariableOrder};
pub use levels::{LevelBacktracks, backtracks_by_level};
pub use search::CspSolver;
pub use stats::{CspReport, CspStats, Inferences};

#[cfg(test)]
mod tests;
