//! What a CSP search reports: counts of nodes, backtracks and inferences by rule.

use std::time::Duration;

use crate::Stop;
use crate::sudoku::Grid;

/// How often each inference rule fired during one search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Inferences {
    /// Candidates removed from peers' domains by an assignment (every level).
    pub forward_checking: u64,
    /// Cells assigned because their domain shrank to one digit (from `ac`).
    pub naked_singles: u64,
    /// Cells assigned because a digit had one place left in a unit (from `hidden-singles`).
    pub hidden_singles: u64,
    /// Candidates removed by naked pairs (from `pairs`).
    pub naked_pairs: u64,
    /// Candidates removed by hidden pairs (from `pairs`).
    pub hidden_pairs: u64,
    /// Candidates removed by naked triples (from `triples`).
    pub naked_triples: u64,
    /// Candidates removed by hidden triples (from `triples`).
    pub hidden_triples: u64,
    /// Candidates removed by generalised arc consistency of the units (from `alldiff`).
    pub alldiff: u64,
    /// Candidates removed by locked candidates (with the `intersections` option).
    pub intersections: u64,
    /// Dead ends found by the pigeonhole check (with the `pigeonhole` option).
    pub pigeonhole: u64,
    /// Candidates removed by killer cages' sums (every level, on boards with cages).
    pub cages: u64,
}

impl Inferences {
    /// The sum of all counts.
    pub fn total(&self) -> u64 {
        self.forward_checking
            + self.naked_singles
            + self.hidden_singles
            + self.naked_pairs
            + self.hidden_pairs
            + self.naked_triples
            + self.hidden_triples
            + self.alldiff
            + self.intersections
            + self.pigeonhole
            + self.cages
    }
}

/// Counts for one search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CspStats {
    /// Search-tree nodes: the root (the puzzle with its givens propagated) plus every value
    /// tried at a choice point, whether it survived propagation or not.
    pub nodes: u64,
    /// Values tried and undone: a value that failed propagation, or whose subtree was
    /// finished. When the search runs to the end, this is `nodes - 1`; when it stops early,
    /// the values on the current path are not counted.
    pub backtracks: u64,
    /// Inferences by rule.
    pub inferences: Inferences,
    /// The largest number of choices on one path (0 when propagation alone decided).
    pub max_depth: usize,
    /// Runs cut off and started again, in a restarting search (see [`crate::restart`]).
    pub restarts: u64,
    /// Wall-clock time of the search, including setting up the givens.
    pub elapsed: Duration,
}

/// The result of [`crate::csp::CspSolver::count_report`]: a count and the CSP's own statistics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CspReport {
    /// Solutions found (all of them when `stop` is [`Stop::Exhausted`], else a lower bound).
    pub solutions: u64,
    /// The first solution found, if any.
    pub solution: Option<Grid>,
    /// Why the search ended.
    pub stop: Stop,
    /// What the search did.
    pub stats: CspStats,
}
