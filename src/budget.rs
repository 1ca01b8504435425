//! Limits on a search, and why a search ended. Shared by every engine so that "no solution"
//! and "stopped early" are never confused.

use std::time::{Duration, Instant};

/// How much work a search may do before it gives up. The default is unlimited.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Stop after this many search-tree nodes.
    pub nodes: Option<u64>,
    /// Stop after this much time.
    pub time: Option<Duration>,
}

impl Budget {
    /// No limit.
    pub fn unlimited() -> Budget {
        Budget::default()
    }

    /// A limit on search-tree nodes.
    pub fn nodes(nodes: u64) -> Budget {
        Budget {
            nodes: Some(nodes),
            time: None,
        }
    }

    /// A limit on time.
    pub fn time(time: Duration) -> Budget {
        Budget {
            nodes: None,
            time: Some(time),
        }
    }

    /// The node count at which to stop (`u64::MAX` for none).
    pub fn node_limit(&self) -> u64 {
        self.nodes.unwrap_or(u64::MAX)
    }

    /// The instant at which to stop, if any, for a search started at `start`. A time so long
    /// that the clock cannot hold its end (`Duration::MAX`, say) is no deadline at all.
    ///
    /// ```
    /// use std::time::{Duration, Instant};
    /// use quadrille::Budget;
    ///
    /// let now = Instant::now();
    /// assert_eq!(Budget::time(Duration::MAX).deadline(now), None);
    /// assert_eq!(Budget::time(Duration::ZERO).deadline(now), Some(now));
    /// ```
    pub fn deadline(&self, start: Instant) -> Option<Instant> {
        self.time.and_then(|t| start.checked_add(t))
    }
}

/// Why a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stop {
    /// The whole search space was explored: the solution count is exact.
    Exhausted,
    /// The caller asked to stop (for example a solution limit was reached).
    Limit,
    /// The node budget ran out.
    NodeBudget,
    /// The time budget ran out.
    TimeBudget,
}

impl Stop {
    /// Whether the search explored everything, so that its count is the true count.
    pub fn is_complete(self) -> bool {
        self == Stop::Exhausted
    }

    /// The reason's name in machine-readable output: `exhausted`, `limit`, `node-budget` or
    /// `time-budget`.
    pub fn name(self) -> &'static str {
        match self {
            Stop::Exhausted => "exhausted",
            Stop::Limit => "limit",
            Stop::NodeBudget => "node-budget",
            Stop::TimeBudget => "time-budget",
        }
    }

    /// Whether a budget (not the caller) ended the search.
    pub fn is_budget(self) -> bool {
        matches!(self, Stop::NodeBudget | Stop::TimeBudget)
    }
}
