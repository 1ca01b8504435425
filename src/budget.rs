//! Limits on a search, and why a search ended. Shared by every engine so that "no solution"
//! and "stopped early" are never confused.
//!
//! - [`Budget`]: how much work one search may do.
//! - [`Request`]: what is asked of each search of a batch or a comparison: a solution limit and
//!   a budget.
//! - [`Stop`]: why a search ended; [`SolutionCount`]: a count as people read it, `N` when
//!   exact and `N+` when the search stopped first.

use std::fmt;
use std::time::{Duration, Instant};

use crate::restart::Restarts;

/// How often the clock is read when there is a time budget: every this many nodes.
pub(crate) const CLOCK_INTERVAL: u64 = 1024;

/// Whether a search that has just entered its `nodes`-th node is past its `deadline`: the
/// clock is read every [`CLOCK_INTERVAL`] nodes. Every engine's search asks this one question.
#[inline(always)]
pub(crate) fn past_deadline(deadline: Option<Instant>, nodes: u64) -> bool {
    deadline
        .is_some_and(|deadline| nodes.is_multiple_of(CLOCK_INTERVAL) && Instant::now() >= deadline)
}

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

    /// What is left of this budget after a search that took `nodes` and `elapsed`; a node
    /// budget keeps at least one node, so that what is left is still a budget.
    ///
    /// ```
    /// use std::time::Duration;
    /// use quadrille::Budget;
    ///
    /// let left = Budget::nodes(100).after(40, Duration::ZERO);
    /// assert_eq!(left.nodes, Some(60));
    /// assert_eq!(Budget::nodes(100).after(500, Duration::ZERO).nodes, Some(1));
    /// assert_eq!(Budget::unlimited().after(40, Duration::from_secs(1)), Budget::unlimited());
    /// ```
    pub fn after(&self, nodes: u64, elapsed: Duration) -> Budget {
        Budget {
            nodes: self.nodes.map(|n| n.saturating_sub(nodes).max(1)),
            time: self.time.map(|t| t.saturating_sub(elapsed)),
        }
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

/// What is asked of every search of a run: count solutions up to `limit` within `budget`,
/// restarting as `restarts` says. The default counts all solutions without a budget, with the
/// default restarts (which a count of all solutions does not use).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    /// Count solutions up to this many (`None`: all). 1 finds a solution; 2 tells unique from
    /// multiple.
    pub limit: Option<u64>,
    /// The budget of each search.
    pub budget: Budget,
    /// How a search with a limit restarts ([`crate::restart`]); `None`: one plain run.
    pub restarts: Option<Restarts>,
}

impl Default for Request {
    fn default() -> Request {
        Request {
            limit: None,
            budget: Budget::unlimited(),
            restarts: Some(Restarts::DEFAULT),
        }
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

/// A solution count as people read it: `N` when exact, `N+` when a limit or a budget stopped
/// the search first (a lower bound). Every count the tool prints is written by this.
///
/// ```
/// use quadrille::{SolutionCount, Stop};
///
/// assert_eq!(SolutionCount::new(9, Stop::Exhausted).to_string(), "9");
/// assert_eq!(SolutionCount::new(2, Stop::Limit).to_string(), "2+");
/// assert_eq!(SolutionCount::new(0, Stop::TimeBudget).to_string(), "0+");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolutionCount {
    /// Solutions found.
    pub solutions: u64,
    /// Why the search ended.
    pub stop: Stop,
}

impl SolutionCount {
    /// The count of a search that found `solutions` and ended for `stop`.
    pub fn new(solutions: u64, stop: Stop) -> SolutionCount {
        SolutionCount { solutions, stop }
    }

    /// Whether the count is the true count (the search explored everything).
    pub fn is_exact(&self) -> bool {
        self.stop.is_complete()
    }
}

impl fmt::Display for SolutionCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_exact() {
            write!(f, "{}", self.solutions)
        } else {
            write!(f, "{}+", self.solutions)
        }
    }
}
