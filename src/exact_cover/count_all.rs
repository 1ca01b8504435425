//! Counting every solution with the strongest complete search for the problem at hand.
//!
//! A count of all solutions has two kinds of cost. Where solutions are few, the work is the
//! proof that no other exists, and the learning search ([`Plan::learning`]) proves it in far
//! fewer nodes than plain Algorithm X: a unique 25x25 Sudoku took 120,000 nodes against
//! plain search's 11.9 s. Where solutions are many (6x10 pentominoes' 9,356, the empty 6x6
//! Sudoku's 28,200,960), the work is the enumeration itself: plain Algorithm X visits each
//! node at half the cost of a learning node, and its tree splits into parts for threads and
//! shards. So a count starts plain, and decides:
//!
//! 1. A plain [`Mrv`] search of at most [`FIRST_NODES`] nodes. A tree that small is counted
//!    as it is.
//! 2. If that search found [`ENUMERATION_SOLUTIONS`] solutions, the count is
//!    enumeration-bound: plain search goes on ([`Dlx::count_all`] to the end, so no node is
//!    walked twice; [`Dlx::count_start`] to [`SPLIT_NODES`], then hands the count over to
//!    be split across threads).
//! 3. Otherwise solutions are hard to find and the learning search counts, every solution
//!    once, exact when it ends. If it finds [`LEARNING_SOLUTIONS`] solutions the count is
//!    enumeration-bound after all, and plain enumeration takes over from the start.
//!
//! Every route counts every solution exactly once, so the count is the plain search's; only
//! the nodes differ.

use std::cell::Cell;

use super::Dlx;
use super::choose::Mrv;
use super::memo::{Layers, MemoBranching, MemoCount, MemoMode, ORDERED_TRIAL_NODES, TRIAL_NODES};
use super::search::{Control, CountSink, Cutoff, Report, Solution, Stats};
use crate::budget::{Budget, Stop};
use crate::restart::Restarts;

/// The nodes of the first, plain search of a count: the unit of the restarts, so that a
/// count and a search for one solution start alike.
pub(crate) const FIRST_NODES: u64 = Restarts::DEFAULT_UNIT;

/// Solutions that make a count enumeration-bound when the first plain search finds them. Two,
/// not one: a unique puzzle's plain search may find its solution at once and spend seconds
/// proving there is no other (the proof is learning's job), while 6x10 pentominoes, whose
/// 4.3 million nodes hold 9,356 solutions, has two in its first 3,000 nodes.
pub(crate) const ENUMERATION_SOLUTIONS: u64 = 2;

/// Nodes that the first plain search of an enumeration-bound count walks before
/// [`Dlx::count_start`] hands it over to be split: a count this small is done sooner on one
/// thread than split (the threshold of [`Solver::count_split`](crate::engine::Solver::count_split)).
/// Hidden: a tuning constant, public only for the count-path tests that bound a count's nodes.
#[doc(hidden)]
pub const SPLIT_NODES: u64 = 20_000;

/// Nodes that remembering gets, under `auto`, after a first search that met no solution: dead
/// subproblems repeat, but too deep for a 512-node trial to see them. The 10x10 board without
/// two opposite corners is proved empty in 15,216 remembered nodes, against 4,341,727 of
/// learning; a 14x9 board with two holes of one colour in 13,086 (tests/memo.rs). Where
/// remembering does not finish within them, learning proves the count.
pub(crate) const DEAD_END_NODES: u64 = 1 << 16;

/// Solutions after which the learning search gives way to plain enumeration: each solution
/// leaves a nogood that is never forgotten, and a learning node costs about 1.7 plain ones
/// on pentominoes, so learning pays for proofs, not for long lists.
pub(crate) const LEARNING_SOLUTIONS: u64 = 1_000;

/// How a count of all solutions goes on after [`Dlx::count_start`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CountStart {
    /// The count is done: exact when the report is complete, else a lower bound (a budget
    /// stopped it).
    Done(Report),
    /// Remembering subproblems counted it: its count is of any size (the report's is cut at
    /// 64 bits, with [`Stop::Limit`]), and its report includes the searches before it.
    Remembered(MemoCount),
    /// The count is enumeration-bound: count every solution with plain search (one run,
    /// [`Dlx::count_parallel`] or shards) within `rest`. `spent` is the work of the searches
    /// that decided so, whose solutions are not part of the count.
    Enumerate {
        /// The work done so far (its solutions set to 0).
        spent: Stats,
        /// What is left of the budget.
        rest: Budget,
    },
}

impl Dlx {
    /// Counts every solution within `budget` on this thread, with the search that suits the
    /// problem (see the module's description): plain Algorithm X for a small tree or many
    /// solutions, the learning search for proofs. The count is exact when the report is
    /// complete, a lower bound when a budget stopped it. The links are left as they were.
    ///
    /// ```
    /// use quadrille::Budget;
    /// use quadrille::exact_cover::Dlx;
    /// use quadrille::problems;
    ///
    /// let mut dlx = Dlx::new(&problems::queens(8)?);
    /// let report = dlx.count_all(&Budget::unlimited());
    /// assert_eq!(report.stats.solutions, 92);
    /// assert!(report.is_complete());
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    pub fn count_all(&mut self, budget: &Budget) -> Report {
        let mut ignore = |_: &Solution<'_>| {};
        self.count_all_with(budget, &mut ignore)
    }

    /// [`Dlx::count_all`], showing `each` solutions counted (perhaps some of a search given up,
    /// which counts them again, and not those after the first search when it goes on where
    /// it stopped, having shown two: fine for keeping one).
    pub(crate) fn count_all_with(
        &mut self,
        budget: &Budget,
        each: &mut dyn FnMut(&Solution<'_>),
    ) -> Report {
        match self.decide(budget, true, each) {
            CountStart::Done(report) => report,
            CountStart::Remembered(counted) => counted.report,
            CountStart::Enumerate { spent, rest } => {
                let sink = |s: &Solution<'_>| {
                    each(s);
                    Control::Continue
                };
                let mut report = self.search(&rest, sink);
                report.stats.add(&spent);
                report
            }
        }
    }

    /// The start of a count of every solution that another search will finish if it is
    /// enumeration-bound: [`CountStart::Done`] when the first plain search or the learning
    /// search counted it, else [`CountStart::Enumerate`] with what is left of `budget`.
    ///
    /// ```
    /// use quadrille::Budget;
    /// use quadrille::exact_cover::{CountStart, Dlx};
    /// use quadrille::sudoku::{Shape, encode};
    ///
    /// // The empty 4x4 Sudoku: 288 grids, counted in the first search.
    /// let mut dlx = Dlx::new(&encode::problem(Shape::new(2, 2)?.board()));
    /// let CountStart::Done(report) = dlx.count_start(&Budget::unlimited()) else {
    ///     panic!("a small tree is counted at once");
    /// };
    /// assert_eq!(report.stats.solutions, 288);
    ///
    /// // The empty 6x6 Sudoku: 28,200,960 grids, for plain enumeration.
    /// let mut dlx = Dlx::new(&encode::problem(Shape::new(2, 3)?.board()));
    /// assert!(matches!(dlx.count_start(&Budget::unlimited()), CountStart::Enumerate { .. }));
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    pub fn count_start(&mut self, budget: &Budget) -> CountStart {
        self.decide(budget, false, &mut |_| {})
    }

    /// The start of [`Dlx::count_all`]: [`Dlx::count_start`], except that an
    /// enumeration-bound first search goes on to the end (no node is walked twice); an
    /// enumeration is still handed back after learning has given way to it.
    pub(crate) fn count_all_start(&mut self, budget: &Budget) -> CountStart {
        self.decide(budget, true, &mut |_| {})
    }

    /// [`Dlx::count_start`], showing `each` the solutions of the searches it runs (as
    /// [`Dlx::count_all_with`]).
    pub(crate) fn count_start_with(
        &mut self,
        budget: &Budget,
        each: &mut dyn FnMut(&Solution<'_>),
    ) -> CountStart {
        self.decide(budget, false, each)
    }

    /// Steps 1 to 3 of the module's description. With `lift`, a first search that finds
    /// [`ENUMERATION_SOLUTIONS`] solutions goes on to the end; without, it goes on to
    /// [`SPLIT_NODES`], and the count is then handed back to be enumerated.
    fn decide(
        &mut self,
        budget: &Budget,
        lift: bool,
        each: &mut dyn FnMut(&Solution<'_>),
    ) -> CountStart {
        // A count that may remember subproblems stops its first search at the cutoff, to try
        // remembering next: a tree smaller than that is counted as it is.
        let remembering = self.memo().mode != MemoMode::Off;
        let enumerating = Cell::new(false);
        let mut seen = 0u64;
        let first_sink = |s: &Solution<'_>| {
            each(s);
            seen += 1;
            if seen >= ENUMERATION_SOLUTIONS {
                enumerating.set(true);
            }
            Control::Continue
        };
        let never = Cell::new(false);
        let cutoff = Cutoff {
            nodes: FIRST_NODES,
            lifted: if remembering { &never } else { &enumerating },
        };
        // Without `lift`, an enumeration goes on to `SPLIT_NODES`, so that a small one is not
        // split.
        let first_budget = Budget {
            nodes: Some(if lift {
                budget.node_limit()
            } else {
                budget.node_limit().min(SPLIT_NODES)
            }),
            ..*budget
        };
        let mut first = self.search_cut(&mut Mrv, &first_budget, first_sink, Some(cutoff));
        let stopped_here =
            first.stop == Stop::NodeBudget && first.stats.nodes < budget.node_limit();
        if !stopped_here {
            return CountStart::Done(first);
        }
        if enumerating.get() {
            let level = self.cut_level;
            if remembering && let Some(counted) = self.remember_after(&mut first, budget, false) {
                return CountStart::Remembered(counted);
            }
            if remembering {
                // The first search goes on where it was cut off, its solutions counted: the
                // trial cost its own nodes and nothing more (3,000 nodes, 8% of the 3x20
                // pentominoes' count, when the enumeration began again from the root).
                // Without `lift`, to `SPLIT_NODES` in all, as a first search that does not
                // remember goes on: a larger count is split from the root.
                self.cut_level = level;
                let rest = budget.after(first.stats.nodes, first.stats.elapsed);
                let cap = SPLIT_NODES.saturating_sub(first.stats.nodes);
                let capped = !lift && cap < rest.node_limit();
                let resumed_budget = Budget {
                    nodes: Some(if capped { cap } else { rest.node_limit() }),
                    ..rest
                };
                // `each` has seen two solutions, which is what its callers keep (one); a
                // sink that only counts keeps this search the plain count's own code.
                let mut report = self.search_resumed(&resumed_budget, CountSink::new(None));
                report.stats.add(&first.stats);
                if capped && report.stop == Stop::NodeBudget {
                    return enumerate(report.stats, budget);
                }
                return CountStart::Done(report);
            }
            return enumerate(first.stats, budget);
        }
        // Dead subproblems repeat as live ones do (a board with two holes has no tiling, and
        // meets the same dead regions again and again): a count that met no solution tries
        // remembering, zeros included, before the learning proof, and `always` remembers
        // whatever it met. The 10x10 board without two opposite corners, `--memo always`:
        // 4,341,727 nodes of learning, against 15,216 remembered (tests/memo.rs).
        if remembering
            && (seen == 0 || self.memo().mode == MemoMode::Always)
            && let Some(counted) = self.remember_after(&mut first, budget, seen == 0)
        {
            return CountStart::Remembered(counted);
        }

        let rest = budget.after(first.stats.nodes, first.stats.elapsed);
        let mut learned = 0u64;
        let learning_sink = |s: &Solution<'_>| {
            each(s);
            learned += 1;
            if learned >= LEARNING_SOLUTIONS {
                Control::Stop
            } else {
                Control::Continue
            }
        };
        let mut report = self.search_learning(&Restarts::DEFAULT, &rest, learning_sink);
        report.stats.add(&first.stats);
        if report.stop == Stop::Limit {
            return enumerate(report.stats, budget);
        }
        CountStart::Done(report)
    }
}

impl Dlx {
    /// The remembering count after the `first` search (a trial under `auto`, given up with
    /// `None`), with what is left of `budget`; its report counts the first search's work too.
    /// After a first search that met no solution (`dead`), `auto` remembers for up to
    /// [`DEAD_END_NODES`] instead of a trial, and gives up if that does not finish it.
    fn remember_after(
        &mut self,
        first: &mut Report,
        budget: &Budget,
        dead: bool,
    ) -> Option<MemoCount> {
        let rest = budget.after(first.stats.nodes, first.stats.elapsed);
        let memo = self.memo();
        let auto = memo.mode == MemoMode::Auto;
        let mut counted = if auto && dead && rest.node_limit() > DEAD_END_NODES {
            let capped = Budget {
                nodes: Some(DEAD_END_NODES),
                ..rest
            };
            let counted = self.memo_search(&capped, &memo, false, None)?;
            if counted.report.stop == Stop::NodeBudget {
                // Its work is the count's, for the budget and the statistics.
                first.stats.add(&Stats {
                    solutions: 0,
                    ..counted.report.stats
                });
                return None;
            }
            counted
        } else if memo.branching == MemoBranching::Layers && !dead && self.memo_order().is_empty() {
            self.count_by_layers(&rest, auto)?
        } else {
            // Where the encoder gave an order that keeps the frontier narrow, the trial
            // branches in it (`Dlx::trial_memo`).
            let memo = if auto && !dead {
                self.trial_memo(memo)
            } else {
                memo
            };
            self.memo_search(&rest, &memo, auto && !dead, None)?
        };
        counted.report.stats.add(&Stats {
            solutions: 0,
            ..first.stats
        });
        Some(counted)
    }
}

impl Dlx {
    /// The count by layers within `budget`, after a trial of remembering under `auto` (whose
    /// `None` gives the count back to plain search, as [`Dlx::memo_search`]'s does); a count
    /// whose order has no narrow frontier, or whose layers would not fit in the memory,
    /// remembers with MRV instead. The layers are built after the trial, which most counts
    /// that do not remember end within a quarter of its nodes.
    fn count_by_layers(&mut self, budget: &Budget, auto: bool) -> Option<MemoCount> {
        let memo = self.memo();
        let mut spent = Stats::default();
        if auto {
            let trial_budget = Budget {
                nodes: Some(TRIAL_NODES.min(budget.node_limit())),
                ..*budget
            };
            let trial = self.memo_search(&trial_budget, &memo, true, None)?;
            if trial.report.stop != Stop::NodeBudget
                || trial.report.stats.nodes >= budget.node_limit()
            {
                return Some(trial);
            }
            spent = Stats {
                solutions: 0,
                subproblems: 0,
                cache_hits: 0,
                ..trial.report.stats
            };
        }
        let rest = budget.after(spent.nodes, spent.elapsed);
        let layered = Layers::new(self).and_then(|layers| layers.count(&rest, memo.memory));
        let mut counted = match layered {
            Some(counted) => counted,
            None => self.memo_search(&rest, &memo, false, None)?,
        };
        counted.report.stats.add(&spent);
        Some(counted)
    }
}

impl Dlx {
    /// Whether a count of every solution remembers subproblems, as the count itself decides
    /// (its first plain search, then its trial of remembering: a few thousand nodes), so that
    /// the shards of a count remember as the whole count would. A trial that counts everything
    /// within its nodes remembers, as [`Dlx::count_all`] takes its count. The decision counts
    /// nodes, not time: every machine makes it alike, and the shards of one plan agree.
    pub(crate) fn counts_by_remembering(&mut self) -> bool {
        let memo = self.memo();
        match memo.mode {
            MemoMode::Off => false,
            MemoMode::Always => true,
            MemoMode::Auto => {
                let mut seen = 0u64;
                let first = self.search(&Budget::nodes(FIRST_NODES), |_: &Solution<'_>| {
                    seen += 1;
                    Control::Continue
                });
                if first.stop != Stop::NodeBudget || seen < ENUMERATION_SOLUTIONS {
                    return false;
                }
                let memo = self.trial_memo(memo);
                let nodes = if self.memo_order().is_empty() {
                    TRIAL_NODES
                } else {
                    ORDERED_TRIAL_NODES
                };
                // `None`: its subproblems did not repeat, and the trial gave up.
                self.memo_search(&Budget::nodes(nodes), &memo, true, None)
                    .is_some()
            }
        }
    }
}

/// The hand-over to plain enumeration after searches that did `spent` within `budget`: their
/// solutions are left out, as the enumeration counts them all again.
fn enumerate(mut spent: Stats, budget: &Budget) -> CountStart {
    spent.solutions = 0;
    CountStart::Enumerate {
        spent,
        rest: budget.after(spent.nodes, spent.elapsed),
    }
}
