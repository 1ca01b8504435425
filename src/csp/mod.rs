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
//! - `propagate`: the inference rules, run to a fixpoint. At the `alldiff` level a unit is made
//!   generalised-arc-consistent by bipartite matching and strongly connected components
//!   (Régin 1994), in `crate::bipartite`, which the learning exact-cover search shares.
//! - `intersections`: locked candidates where two units meet, for the `intersections` option.
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
//! The removal of a digit from the peers is most of the time (perf and cachegrind), so it is
//! branch-free and, on grids up to 16x16, visits only open peers; hidden singles look only at
//! units that lost a candidate; the degree tie-break cuts a third of the nodes for a popcount
//! per tied cell. Pairs and triples save nodes but cost more than they save on 9x9, where the
//! `alldiff` filter prunes nearly what triples prune at a third of their cost; it pays on
//! larger grids. `cargo bench --bench csp` measures every preset, and docs/performance.md
//! gives its figures.
//!
//! # The default: small and large boards
//!
//! The default, `mrv-degree+lex+hidden-singles+scaled`, searches boards up to 16x16 at
//! `hidden-singles`, the fastest on 9x9 grids, and larger ones at `alldiff` with
//! `intersections` ([`Config::for_side`]). On generated unique 36x36 and 49x49 puzzles the
//! 9x9 configuration is lost: every few thousand nodes of a Luby restart it makes an early
//! choice whose contradiction shows only far below, and restarts (on by default), other unit
//! sizes, other value orders and branching on a digit's places in a unit did not change
//! that (the generated 36x36 of seed 1: undecided after 1.2 million nodes and minutes). Unit
//! rules alone do not see it either (`alldiff`: 141,475 nodes, 4 s). Locked candidates (a
//! digit confined to a box's row leaves the rest of the row, and the other way round) do:
//! with `alldiff` the same puzzle takes about 100,000 nodes and seconds, and every generated
//! puzzle from 16x16 to 49x49 measured is decided: the 36x36 ones in 3 s on average, the
//! 49x49 ones in 14 s (docs/performance.md, "Large generated puzzles"). On 9x9 both filters cost more than they save, so the default
//! there is unchanged.
//!
//! Above 16x16 the default also has `fill`: a puzzle left more than three quarters open by the
//! root's propagation (an empty or nearly empty grid) is filled in reading order until a
//! quarter is open, then searched by the fewest candidates. By the fewest candidates, every
//! restart run on a 95%-blank 64x64 reached within a few dozen levels of the bottom and
//! thrashed there; in reading order the last open cells are in the last rows, where matching
//! and locked candidates see what is missing, and such grids take about 3,000 nodes, one run.
//! Generated unique puzzles (about half given) and the hardness-peak bands do not fill.
//! Where a unit or an overlap has nothing to remove, as on a nearly empty grid, `alldiff`
//! and `intersections` find it out cheaply: the matching is skipped when Hall's condition
//! shows every candidate is used (`alldiff`), and the scan of an overlap stops once every
//! shared digit has a place outside it (`intersections`).

mod cages;
pub mod config;
mod domains;
mod intersections;
mod levels;
mod propagate;
mod restart;
mod search;
mod stack;
mod stats;
mod subsets;

pub use config::{Config, Propagation, ValueOrder, VariableOrder};
pub use levels::{LevelBacktracks, backtracks_by_level, backtracks_by_level_on};
pub use search::CspSolver;
pub use stats::{CspReport, CspStats, Inferences};

#[cfg(test)]
mod tests;
