//! Counting on several threads by splitting one search tree.
//!
//! The tree is split into parts (see [`Dlx::split`]): a few dozen per thread, so that uneven
//! parts even out, and bounded work to set up however many options an item has. The parts wait
//! in one queue in the tree's order, and each thread, on its own copy of the links, takes the
//! next one whenever it is free: a greedy schedule, whose makespan is at most an even share
//! plus the last part taken, and which [`Dlx::part_stats`] lets anyone compute from the
//! measured parts (16 threads on the 6x10 pentominoes: 1/14.6 of the updates, in
//! docs/performance.md). Parts are disjoint and together hold every solution below the split,
//! so the counts add up to the sequential count, and the nodes too.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use super::Dlx;
use super::search::{Control, Report, Solution, Stats};
use super::split::Subtree;
use crate::budget::{Budget, Stop};

/// How far a count on several threads has got ([`Dlx::count_parallel_with`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PartsDone {
    /// The work of the parts finished, the split's included; its `elapsed` is the split's
    /// plus each part's, so with several threads it runs ahead of the clock.
    pub stats: Stats,
    /// Parts finished.
    pub parts_done: usize,
    /// Parts in all.
    pub parts: usize,
}

/// Parts wanted per thread.
const PARTS_PER_THREAD: usize = 64;

impl Dlx {
    /// Counts solutions on the threads of the current rayon pool (the global one, one thread
    /// per core, unless called inside [`ThreadPool::install`](rayon::ThreadPool::install)), up
    /// to `limit` if given, within `budget` (shared by all threads: each part gets what the
    /// others have left when it starts, and stops when the time is up or when another part ran
    /// out). Options already forced are kept in every solution. The result is the same count
    /// as [`Dlx::count`]; the statistics add up every thread's work.
    ///
    /// ```
    /// use quadrille::Budget;
    /// use quadrille::sudoku::{Shape, encode};
    /// use quadrille::exact_cover::Dlx;
    ///
    /// let mut dlx = Dlx::new(&encode::problem(Shape::new(2, 2)?.board()));
    /// let two_threads = rayon::ThreadPoolBuilder::new().num_threads(2).build()?;
    /// let report = two_threads.install(|| dlx.count_parallel(None, &Budget::unlimited()));
    /// assert_eq!(report.stats.solutions, 288);
    /// assert!(report.is_complete());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn count_parallel(&mut self, limit: Option<u64>, budget: &Budget) -> Report {
        self.count_parallel_with(limit, budget, &|_| {})
    }

    /// [`Dlx::count_parallel`], telling `progress` the work done after each part: the
    /// statistics of the parts finished (the split's own work included) and how many of how
    /// many parts are done. The parts' sizes are not known, so neither is the share done.
    pub fn count_parallel_with(
        &mut self,
        limit: Option<u64>,
        budget: &Budget,
        progress: &(dyn Fn(PartsDone) + Sync),
    ) -> Report {
        let start = Instant::now();
        let threads = rayon::current_num_threads();
        let limit = limit.unwrap_or(u64::MAX);
        let split = self.split(threads * PARTS_PER_THREAD);
        let mut stats = split.stats;
        if stats.solutions >= limit {
            stats.solutions = limit;
            stats.elapsed = start.elapsed();
            return Report {
                stats,
                stop: Stop::Limit,
            };
        }

        // Kept under a lock that each report is made under, so that reports never go backwards.
        let tally = Mutex::new(PartsDone {
            stats,
            parts_done: 0,
            parts: split.subtrees.len(),
        });
        progress(*tally.lock().expect("no reporter panics"));
        let found = AtomicU64::new(stats.solutions);
        let nodes = AtomicU64::new(stats.nodes);
        let halt = AtomicBool::new(false);
        let deadline = budget.deadline(start);
        let node_limit = budget.node_limit();
        let base = &*self;

        // One queue of parts in the tree's order, taken one at a time by whichever thread is
        // free (not rayon's halving of the list, whose last halves may hold the large parts):
        // the makespan is then at most an even share plus the last part taken, which is what
        // `part_stats` lets a greedy schedule of the measured parts show (docs/performance.md).
        let next = AtomicUsize::new(0);
        let done = Mutex::new(Vec::with_capacity(split.subtrees.len()));
        let work = |dlx: &mut Dlx, part: &Subtree| {
            if halt.load(Ordering::Relaxed) {
                // Another part reached the limit or a budget: this one is left out, so the
                // count is not exhaustive (a budget stop, if that was the cause, is reported
                // by its own part and takes precedence).
                return Report {
                    stats: Stats::default(),
                    stop: Stop::Limit,
                };
            }
            // Each part gets what is left of the shared budgets.
            let used = nodes.load(Ordering::Relaxed);
            if used >= node_limit {
                halt.store(true, Ordering::Relaxed);
                return Report {
                    stats: Stats::default(),
                    stop: Stop::NodeBudget,
                };
            }
            let sub_budget = budget.until(budget.nodes.map(|_| node_limit - used), deadline);
            let stopped = || halt.load(Ordering::Relaxed);
            // Only a limit needs the shared count, kept per solution; without one, each part
            // counts on its own and the counts are added at the end.
            let report = if limit == u64::MAX {
                dlx.search_subtree(part, &sub_budget, &stopped, |_: &Solution<'_>| {
                    Control::Continue
                })
            } else {
                let sink = shared_limit(&found, &halt, limit);
                dlx.search_subtree(part, &sub_budget, &stopped, sink)
            };
            nodes.fetch_add(report.stats.nodes, Ordering::Relaxed);
            let mut tally = tally.lock().expect("no reporter panics");
            tally.stats.add(&report.stats);
            tally.parts_done += 1;
            progress(*tally);
            if report.stop.is_budget() {
                halt.store(true, Ordering::Relaxed);
            }
            report
        };
        let parts = &split.subtrees;
        rayon::scope(|scope| {
            for _ in 0..threads.min(parts.len()) {
                scope.spawn(|_| {
                    let mut dlx = base.clone();
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(part) = parts.get(i) else { break };
                        mine.push((i, work(&mut dlx, part)));
                    }
                    done.lock().expect("no worker panics").extend(mine);
                });
            }
        });
        let mut results = done.into_inner().expect("no worker panics");
        // In the parts' order, so that the report does not depend on which thread was first.
        results.sort_unstable_by_key(|&(i, _)| i);
        let results: Vec<Report> = results.into_iter().map(|(_, report)| report).collect();
        combine(stats, &results, limit, start)
    }
}

impl Dlx {
    /// The split's own work (done before any part) and the work of each part that
    /// [`Dlx::count_parallel`] hands out on `threads` threads, in the order it hands them out,
    /// each counted here on one thread: what a schedule of the parts on `threads` threads
    /// can be computed from (`examples/part_balance.rs`). Hidden: a measuring tool.
    #[doc(hidden)]
    pub fn part_stats(&mut self, threads: usize) -> (Stats, Vec<Stats>) {
        let split = self.split(threads.max(1) * PARTS_PER_THREAD);
        let parts = split
            .subtrees
            .iter()
            .map(|part| {
                self.search_subtree(part, &Budget::unlimited(), &|| false, |_: &Solution<'_>| {
                    Control::Continue
                })
                .stats
            })
            .collect();
        (split.stats, parts)
    }
}

/// The sink of one thread's share of a count up to `limit` (not `u64::MAX`): solutions are
/// counted in `found`, shared by all threads, and the one that reaches the limit halts the
/// others.
pub(crate) fn shared_limit<'a>(
    found: &'a AtomicU64,
    halt: &'a AtomicBool,
    limit: u64,
) -> impl FnMut(&Solution<'_>) -> Control + 'a {
    move |_: &Solution<'_>| {
        if found.fetch_add(1, Ordering::Relaxed) + 1 >= limit {
            halt.store(true, Ordering::Relaxed);
            Control::Stop
        } else if halt.load(Ordering::Relaxed) {
            Control::Stop
        } else {
            Control::Continue
        }
    }
}

/// The report of a count split across threads: `stats` (work done before the split) plus every
/// share's, stopped by a budget if any share was (a budget outranks a limit: the count is then
/// a lower bound), else by the limit if any share met it, and clamped to `limit`.
pub(crate) fn combine(mut stats: Stats, shares: &[Report], limit: u64, start: Instant) -> Report {
    let mut stop = Stop::Exhausted;
    for share in shares {
        stats.add(&share.stats);
        match share.stop {
            Stop::Exhausted => {}
            s if stop == Stop::Exhausted || s.is_budget() => stop = s,
            _ => {}
        }
    }
    if stats.solutions >= limit {
        stats.solutions = limit;
        if stop == Stop::Exhausted {
            stop = Stop::Limit;
        }
    }
    stats.elapsed = start.elapsed();
    Report { stats, stop }
}
