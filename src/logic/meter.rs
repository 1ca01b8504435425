//! The budget of one logical solution ([`crate::Budget`]), counted as the solver works.
//!
//! A node of the logical solver is one unit of the work that can grow without bound: a step
//! taken, a start of a chain search (one literal assumed false and followed breadth-first), an
//! assumption of a forcing chain followed (outer or inner), and each search-tree node of the
//! Dancing Links count that proves the puzzle unique. The clock is read at each of those, so a
//! time budget stops the solver within one of them (a single chain or forcing assumption on
//! the largest grids takes milliseconds). The budget's interrupt is read with the clock.

use std::time::Instant;

use crate::budget::Deadline;
use crate::{Budget, Stop};

/// What is left of a budget, and why it ran out if it did.
#[derive(Clone, Debug)]
pub(crate) struct Meter {
    budget: Budget,
    deadline: Option<Instant>,
    stop_at: Option<Deadline>,
    node_limit: u64,
    nodes: u64,
    stop: Option<Stop>,
}

impl Meter {
    /// A meter of `budget`, started now.
    pub fn start(budget: &Budget) -> Meter {
        let start = Instant::now();
        Meter {
            budget: *budget,
            deadline: budget.deadline(start),
            stop_at: budget.stop_at(start),
            node_limit: budget.node_limit(),
            nodes: 0,
            stop: None,
        }
    }

    /// A meter that never stops.
    pub fn unlimited() -> Meter {
        Meter::start(&Budget::unlimited())
    }

    /// Counts `nodes` nodes; false once the budget has run out (and from then on).
    pub fn spend(&mut self, nodes: u64) -> bool {
        if self.stop.is_some() {
            return false;
        }
        self.nodes = self.nodes.saturating_add(nodes);
        if self.nodes > self.node_limit {
            self.stop = Some(Stop::NodeBudget);
        } else if self.stop_at.is_some_and(|d| d.has_passed()) {
            self.stop = Some(Stop::TimeBudget);
        }
        self.stop.is_none()
    }

    /// Why the budget ran out, if it did.
    pub fn stop(&self) -> Option<Stop> {
        self.stop
    }

    /// What is left, as a budget for a search (at least one node).
    pub fn left(&self) -> Budget {
        let nodes = (self.budget.nodes).map(|_| self.node_limit.saturating_sub(self.nodes).max(1));
        self.budget.until(nodes, self.deadline)
    }

    /// Counts a search's nodes and its stop, when a budget stopped it.
    pub fn record(&mut self, nodes: u64, stop: Stop) {
        self.nodes = self.nodes.saturating_add(nodes);
        if stop.is_budget() && self.stop.is_none() {
            self.stop = Some(stop);
        }
    }
}
