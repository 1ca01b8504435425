//! quadrille solves exact-cover problems with Knuth's Dancing Links (Algorithm X), with Sudoku
//! of every box size as its first citizen, and a constraint-propagation (CSP) solver beside it
//! to compare against and to cross-check it.
//!
//! # A tour
//!
//! - [`exact_cover`]: build a [`Problem`](exact_cover::Problem) with a
//!   [`ProblemBuilder`](exact_cover::ProblemBuilder) (primary and secondary items, options),
//!   turn it into dancing links with [`Dlx::new`](exact_cover::Dlx::new), and search: first
//!   solution, up to N, all, a count, on one thread or several, with a node or time
//!   [`Budget`]. Every search returns its [`Stats`](exact_cover::Stats) and why it
//!   [`Stop`]ped, and leaves the links exactly as built. Colours and multiplicities (Knuth's
//!   XCC and multiset cover, dlx2 and dlx3) are searched by [`Xcc`](exact_cover::Xcc).
//! - [`io`]: text in and out, with line and column in every error. [`io::dlx`]: Knuth's dlx
//!   format, read and written. [`io::puzzle`]: Sudoku puzzles one per line or in multi-line
//!   grids, read as a stream by [`PuzzleReader`](io::puzzle::PuzzleReader) (or one line by
//!   [`parse_line`](io::puzzle::parse_line)) and written by
//!   [`write_pretty`](io::puzzle::write_pretty). [`problems`] builds classic problems in code:
//!   n queens, Langford pairs, pentominoes.
//! - [`sudoku`]: [`Shape`](sudoku::Shape)s of every box size, [`Grid`](sudoku::Grid)s, an
//!   independent [`check`](sudoku::check)er, and the exact-cover
//!   [`encode`](sudoku::encode)ing; the [`variant`](sudoku::variant)s X-Sudoku, windoku,
//!   jigsaw and killer, each a [`Board`](board::Board) that every engine reads.
//! - [`engine`]: the [`Solve`](engine::Solve) trait gives every engine one signature and one
//!   [`Outcome`](engine::Outcome): the [`DlxSolver`](engine::DlxSolver), the [`csp`] solver,
//!   the [`BitboardSolver`](engine::BitboardSolver) (boards of at most 128 cells), and
//!   [`Solver`](engine::Solver), any of them chosen by its [`Engine`](engine::Engine) name.
//! - [`logic`]: a logical solver that explains a solution step by step, as a person solves
//!   (singles, locked candidates, subsets, fish, wings, chains), and rates a puzzle on Sudoku
//!   Explainer's scale ([`logic::rate`]).
//! - [`generate`]: seeded random grids and puzzles (unique, random, contradictory); Latin
//!   squares (1xN boxes) near-uniform by the Jacobson–Matthews chain.
//! - [`csp`]: constraint propagation and backtracking over the same grids, configurable.
//! - [`batch`]: a stream of puzzles solved on every thread, in input order, in flat memory.
//!   [`compare`]: several engines over the same puzzles, checked against each other, with a
//!   table, JSON and (feature `plot`) a chart. Both ask each search for a [`Request`] (a
//!   limit and a budget) and both run through one ordered runner: a function over a stream
//!   of inputs, chunked and pipelined, its results handed back in input order.
//! - Counts too big for one machine: [`Dlx::estimate`](exact_cover::Dlx::estimate) (Knuth's
//!   estimate of the tree), [`Dlx::shard_plan`](exact_cover::Dlx::shard_plan) (N disjoint
//!   shards for N processes) and [`merge`] (their results added up).
//! - [`SolutionCount`]: every count as it is printed, `N` when exact, `N+` when a limit or a
//!   budget stopped the search.
//! - [`Error`]: one error type; its [`ErrorKind`] says what, its line and column say where.
//!
//! The library builds no thread pool: whatever runs on several threads uses the rayon pool it
//! is called in (the global one, or one the caller
//! [`install`](rayon::ThreadPool::install)s, as the command-line tool does).
//!
//! Cargo features, both on by default: `cli` (the `quadrille` binary: clap, indicatif; and
//! `runner`, the ordered runner, public but hidden, for the binary's own batches) and `plot`
//! (`compare::plot`: plotters). `default-features = false` builds the library alone.
//!
//! ```
//! use quadrille::Budget;
//! use quadrille::engine::{Engine, Solve, Solver};
//! use quadrille::io::puzzle::parse_line;
//!
//! // A 4x4 puzzle with nine solutions, counted by every engine.
//! let puzzle = parse_line("1...........4..2", None)?;
//! for engine in [Engine::Dlx, "csp:mrv+lex+hidden-singles".parse()?, Engine::Bitboard] {
//!     let mut solver = Solver::sudoku(engine, puzzle.shape())?;
//!     let outcome = solver.count(&puzzle, None, &Budget::unlimited());
//!     assert_eq!(outcome.solutions, 9);
//!     assert!(outcome.is_complete());
//! }
//! # Ok::<(), quadrille::Error>(())
//! ```
#![deny(missing_docs)]

pub mod batch;
mod bipartite;
pub mod board;
pub mod budget;
pub mod compare;
pub mod csp;
pub mod engine;
pub mod error;
pub mod exact_cover;
pub mod generate;
pub mod io;
pub mod logic;
pub mod long_count;
pub mod merge;
pub mod problems;
pub mod request;
pub mod restart;
// Plumbing that the binary needs, not part of the library's API.
#[cfg(feature = "cli")]
#[doc(hidden)]
pub mod runner;
#[cfg(not(feature = "cli"))]
mod runner;
pub mod sudoku;
#[cfg(test)]
mod test_data;

pub use budget::{Budget, Interrupt, Request, SolutionCount, Stop};
pub use error::{Error, ErrorKind, Result};
/// The whole number of any size that a count is ([`SolutionCount`]), re-exported so that a
/// caller needs no `num-bigint` of its own.
pub use num_bigint::BigUint;

/// The README's examples, compiled and run as doc tests so that they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
