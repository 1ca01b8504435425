//! Limits on a search, and why a search ended. Shared by every engine so that "no solution"
//! and "stopped early" are never confused.
//!
//! - [`Budget`]: how much work one search may do.
//! - [`Request`]: what is asked of each search of a batch or a comparison: a solution limit and
//!   a budget.
//! - [`Stop`]: why a search ended; [`SolutionCount`]: a count as people read it, `N` when
//!   exact and `N+` when the search stopped first.
//! - [`Interrupt`]: a flag raised from outside a search (another thread, a Ctrl-C handler)
//!   that ends it as its time budget would.
//!
//! An interrupt is read where the clock is read, every 1,024 nodes and only when the budget
//! has a deadline or an interrupt, so that a search without either still tests one `Option`
//! per node and nothing more (callgrind, `solve --limit 2 -j1` on 1,000 17-clue puzzles: no
//! more instructions than the clock check alone).
//!
//! An interrupted search ends with [`Stop::TimeBudget`]: to the search, a raised interrupt is a
//! deadline moved to now, and its answer is what an out-of-time search gives (undecided, a
//! lower bound `N+`), never a wrong exact one.
//!
//! The interrupt is a `&'static AtomicBool` so that [`Budget`] stays `Copy` and without a
//! lifetime: budgets are copied into requests, orders, sub-searches and worker threads, and
//! an `Arc` would end `Copy` while a borrowed flag would give every type that holds a budget a
//! lifetime. A caller keeps one flag per thread that starts searches (a `static`, or one
//! `Box::leak`ed per thread: a byte each) and lowers it before each search.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use num_bigint::BigUint;

use crate::restart::Restarts;

/// How often the clock is read when there is a time budget: every this many nodes.
pub(crate) const CLOCK_INTERVAL: u64 = 1024;

/// Whether a search that has just entered its `nodes`-th node is past its `deadline`: the
/// clock (and the interrupt) is read every [`CLOCK_INTERVAL`] nodes. Every engine's search
/// asks this one question.
#[inline(always)]
pub(crate) fn past_deadline(deadline: Option<Deadline>, nodes: u64) -> bool {
    deadline.is_some_and(|deadline| nodes.is_multiple_of(CLOCK_INTERVAL) && deadline.has_passed())
}

/// When a search must stop for other reasons than its nodes: the end of its time budget, or
/// the moment its interrupt is raised, whichever comes first ([`Budget::stop_at`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Deadline {
    at: Option<Instant>,
    interrupt: Option<Interrupt>,
}

impl Deadline {
    /// Whether the time is up or the interrupt raised: reads the clock when there is a time.
    #[inline]
    pub(crate) fn has_passed(&self) -> bool {
        self.interrupt.is_some_and(Interrupt::is_raised)
            || self.at.is_some_and(|at| Instant::now() >= at)
    }
}

/// A flag raised from outside a search (another thread, a Ctrl-C handler) to stop it: a
/// search whose [`Budget`] holds it reads it where it reads its clock, and ends as when its
/// time is up ([`Stop::TimeBudget`]). The flag is `&'static` so that a budget stays `Copy`
/// without a lifetime: keep one per thread that starts searches (a `static`, or one
/// `Box::leak`ed per thread, a byte each), and lower it before each search. Two interrupts are
/// equal when they are the same flag.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use quadrille::exact_cover::{CountSink, Dlx};
/// use quadrille::{Budget, Interrupt, Stop, problems};
///
/// static CTRL_C: AtomicBool = AtomicBool::new(false);
/// let interrupt = Interrupt::new(&CTRL_C);
/// interrupt.raise();
/// let budget = Budget::unlimited().interrupted_by(interrupt);
/// let report = Dlx::new(&problems::queens(12)?).search(&budget, CountSink::new(None));
/// assert_eq!(report.stop, Stop::TimeBudget);
/// assert!(report.stats.solutions < 14_200);
/// # Ok::<(), quadrille::Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct Interrupt(&'static AtomicBool);

impl Interrupt {
    /// The interrupt that `flag` raises.
    pub const fn new(flag: &'static AtomicBool) -> Interrupt {
        Interrupt(flag)
    }

    /// Whether it is raised: a search that reads it stops.
    #[inline]
    pub fn is_raised(self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// Raises it: every search whose budget holds it stops at its next clock reading.
    pub fn raise(self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Lowers it, for the next search.
    pub fn lower(self) {
        self.0.store(false, Ordering::Relaxed);
    }
}

impl PartialEq for Interrupt {
    fn eq(&self, other: &Interrupt) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for Interrupt {}

impl fmt::Debug for Interrupt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Interrupt").field(&self.is_raised()).finish()
    }
}

/// How much work a search may do before it gives up. The default is unlimited.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Stop after this many search-tree nodes.
    pub nodes: Option<u64>,
    /// Stop after this much time.
    pub time: Option<Duration>,
    /// Stop, as when the time is up, once this is raised.
    pub interrupt: Option<Interrupt>,
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
            ..Budget::default()
        }
    }

    /// A limit on time.
    pub fn time(time: Duration) -> Budget {
        Budget {
            time: Some(time),
            ..Budget::default()
        }
    }

    /// This budget, stopped also when `interrupt` is raised.
    pub fn interrupted_by(self, interrupt: Interrupt) -> Budget {
        Budget {
            interrupt: Some(interrupt),
            ..self
        }
    }

    /// Whether its interrupt is raised: a search stops as when its time is up.
    pub fn is_interrupted(&self) -> bool {
        self.interrupt.is_some_and(Interrupt::is_raised)
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
            interrupt: self.interrupt,
        }
    }

    /// The budget of a sub-search that must end when this search does: `nodes` nodes, the time
    /// left until `deadline` (this budget's [`Budget::deadline`]), and this budget's interrupt.
    pub(crate) fn until(&self, nodes: Option<u64>, deadline: Option<Instant>) -> Budget {
        Budget {
            nodes,
            time: deadline.map(|d| d.saturating_duration_since(Instant::now())),
            interrupt: self.interrupt,
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

    /// When a search started at `start` must stop besides its nodes: its deadline or its
    /// interrupt; `None` when it has neither, so that its search never reads the clock.
    #[inline]
    pub(crate) fn stop_at(&self, start: Instant) -> Option<Deadline> {
        let at = self.deadline(start);
        (at.is_some() || self.interrupt.is_some()).then_some(Deadline {
            at,
            interrupt: self.interrupt,
        })
    }

    /// [`Budget::stop_at`] for a search that did not read the clock, which a budget without
    /// a time does not need.
    ///
    /// # Panics
    /// If the budget has a time.
    #[inline]
    pub(crate) fn stop_at_untimed(&self) -> Option<Deadline> {
        assert!(self.time.is_none(), "a time budget needs the start's time");
        self.interrupt.map(|interrupt| Deadline {
            at: None,
            interrupt: Some(interrupt),
        })
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
    /// Whether each search's time is measured ([`crate::engine::Outcome::elapsed`],
    /// [`crate::batch::Summary::solving`]); untimed, a quick search saves its readings of the
    /// clock ([`crate::engine::Solve::set_timed`]) and its time is zero.
    pub timed: bool,
}

impl Default for Request {
    fn default() -> Request {
        Request {
            limit: None,
            budget: Budget::unlimited(),
            restarts: Some(Restarts::DEFAULT),
            timed: true,
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
    /// The time budget ran out, or the budget's [`Interrupt`] was raised.
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

    /// The budget that a budget's stop names, as a message says it: "node budget", else
    /// "time budget" (an interrupt stops as time does).
    pub fn budget_name(self) -> &'static str {
        match self {
            Stop::NodeBudget => "node budget",
            _ => "time budget",
        }
    }

    /// Whether a budget (not the caller) ended the search.
    pub fn is_budget(self) -> bool {
        matches!(self, Stop::NodeBudget | Stop::TimeBudget)
    }
}

/// A solution count as people read it: `N` when exact, `N+` when a limit or a budget stopped
/// the search first (a lower bound). Every count the tool prints is written by this. The count
/// is a whole number of any size: `N+` marks a bound, never a count too large to hold.
///
/// ```
/// use quadrille::{SolutionCount, Stop};
///
/// assert_eq!(SolutionCount::new(9u64, Stop::Exhausted).to_string(), "9");
/// assert_eq!(SolutionCount::new(2u64, Stop::Limit).to_string(), "2+");
/// assert_eq!(SolutionCount::new(0u64, Stop::TimeBudget).to_string(), "0+");
/// // Counts past 64 bits, as a count of domino tilings reaches.
/// let big = SolutionCount::new(2_444_888_770_250_892_795_802_079_170_816u128, Stop::Exhausted);
/// assert_eq!(big.to_string(), "2444888770250892795802079170816");
/// // And past 128: the domino tilings of an 18x18 board.
/// let huge: num_bigint::BigUint = "548943583215388338077567813208427340288".parse()?;
/// assert_eq!(SolutionCount::new(huge, Stop::Exhausted).to_u64(), None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// Serialised, it is the number alone (its exactness is the record's `complete`): a JSON
/// number up to [`SolutionCount::MAX_JSON_NUMBER`], above it a string of digits, so that a
/// reader that holds numbers as doubles (JavaScript, `jq`) never rounds a count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolutionCount {
    /// Solutions found.
    pub solutions: BigUint,
    /// Why the search ended.
    pub stop: Stop,
}

impl SolutionCount {
    /// The largest count written as a JSON number: 2^53 - 1, the largest whole number that
    /// every double holds exactly (JavaScript's `Number.MAX_SAFE_INTEGER`).
    pub const MAX_JSON_NUMBER: u64 = (1 << 53) - 1;

    /// The count of a search that found `solutions` and ended for `stop`.
    pub fn new(solutions: impl Into<BigUint>, stop: Stop) -> SolutionCount {
        SolutionCount {
            solutions: solutions.into(),
            stop,
        }
    }

    /// Whether the count is the true count (the search explored everything).
    pub fn is_exact(&self) -> bool {
        self.stop.is_complete()
    }

    /// The count, when it fits in 64 bits.
    pub fn to_u64(&self) -> Option<u64> {
        u64::try_from(&self.solutions).ok()
    }
}

/// Serialises `count` as [`SolutionCount`] says: a number up to
/// [`SolutionCount::MAX_JSON_NUMBER`], else a string of digits.
pub(crate) fn serialize_count<S: serde::Serializer>(
    count: &BigUint,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match u64::try_from(count) {
        Ok(small) if small <= SolutionCount::MAX_JSON_NUMBER => serializer.serialize_u64(small),
        _ => serializer.collect_str(count),
    }
}

impl serde::Serialize for SolutionCount {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_count(&self.solutions, serializer)
    }
}

impl serde::Serialize for Stop {
    /// Its [`name`](Stop::name).
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
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
