//! Counting on several threads by splitting one search tree.
//!
//! The top levels of the tree are expanded on one thread, with the same item choice as the
//! search, into a frontier of partial solutions (a few dozen per thread, so that uneven subtrees
//! even out). Each partial solution's subtree is then counted on its own copy of the links, with
//! the partial solution's options forced. Subtrees of different frontier entries are disjoint and
//! together hold every solution, so the counts add up to the sequential count.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::choose::{ActiveItems, ItemChooser, Mrv};
use super::links::Dlx;
use super::search::{Control, CountSink, Report, Solution, Stats};
use crate::budget::{Budget, Stop};

/// Frontier entries wanted per thread.
const ENTRIES_PER_THREAD: usize = 64;
/// The frontier is never expanded deeper than this.
const MAX_FRONTIER_DEPTH: usize = 12;

/// A frontier: the partial solutions to hand out, and what expanding it found on the way.
struct Frontier {
    entries: Vec<Vec<usize>>,
    stats: Stats,
}

impl Dlx {
    /// Counts solutions on the threads of the current rayon pool (the global one, one thread
    /// per core, unless called inside [`ThreadPool::install`](rayon::ThreadPool::install)), up
    /// to `limit` if given, within `budget` (shared by all threads). Options already forced are
    /// kept in every solution. The result is the same count as [`Dlx::count`]; the statistics
    /// add up every thread's work.
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
        let start = Instant::now();
        let threads = rayon::current_num_threads();
        let limit = limit.unwrap_or(u64::MAX);
        let frontier = self.frontier(threads * ENTRIES_PER_THREAD);
        let mut stats = frontier.stats;
        if stats.solutions >= limit {
            stats.solutions = limit;
            stats.elapsed = start.elapsed();
            return Report {
                stats,
                stop: Stop::Limit,
            };
        }

        let found = AtomicU64::new(stats.solutions);
        let nodes = AtomicU64::new(stats.nodes);
        let halt = AtomicBool::new(false);
        let deadline = budget.deadline(start);
        let node_limit = budget.node_limit();
        let base = &*self;
        let keep = base.forced.len();

        let results = frontier
            .entries
            .par_iter()
            .map_init(
                || base.clone(),
                |dlx, entry| {
                    if halt.load(Ordering::Relaxed) {
                        // Another subtree reached the limit or a budget: this one is left
                        // out, so the count is not exhaustive (a budget stop, if that was
                        // the cause, is reported by its own subtree and takes precedence).
                        return (Stats::default(), Some(Stop::Limit));
                    }
                    let mut prefix_updates = 0;
                    for &option in entry {
                        prefix_updates += dlx.force(option).expect("frontier options never clash");
                    }
                    // Each subtree gets what is left of the shared budgets.
                    let left_nodes = node_limit.saturating_sub(nodes.load(Ordering::Relaxed));
                    let left_time = deadline.map(|d| d.saturating_duration_since(Instant::now()));
                    let sub_budget = Budget {
                        nodes: budget.nodes.map(|_| left_nodes),
                        time: left_time,
                    };
                    // Only a limit needs the shared count, kept per solution; without one,
                    // each subtree counts on its own and the counts are added at the end.
                    let report = if limit == u64::MAX {
                        dlx.search(&sub_budget, CountSink::new(None))
                    } else {
                        dlx.search(&sub_budget, |_: &Solution<'_>| {
                            if found.fetch_add(1, Ordering::Relaxed) + 1 >= limit {
                                halt.store(true, Ordering::Relaxed);
                                Control::Stop
                            } else if halt.load(Ordering::Relaxed) {
                                Control::Stop
                            } else {
                                Control::Continue
                            }
                        })
                    };
                    nodes.fetch_add(report.stats.nodes, Ordering::Relaxed);
                    dlx.release_to(keep);
                    let mut sub = report.stats;
                    sub.updates += prefix_updates;
                    sub.max_depth += entry.len();
                    let stop = match report.stop {
                        Stop::Exhausted => None,
                        Stop::Limit => Some(Stop::Limit),
                        other => {
                            halt.store(true, Ordering::Relaxed);
                            Some(other)
                        }
                    };
                    (sub, stop)
                },
            )
            .collect::<Vec<_>>();

        let mut stop = Stop::Exhausted;
        for (sub, sub_stop) in &results {
            stats.add(sub);
            match sub_stop {
                Some(s) if stop == Stop::Exhausted || s.is_budget() => stop = *s,
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

    /// Expands the tree breadth-first, level by level, until it has at least `wanted` entries
    /// (or cannot grow). Solutions met above the frontier are counted in the returned stats.
    fn frontier(&mut self, wanted: usize) -> Frontier {
        let mut stats = Stats::default();
        let mut entries: Vec<Vec<usize>> = vec![Vec::new()];
        let keep = self.forced.len();
        for _ in 0..MAX_FRONTIER_DEPTH {
            if entries.len() >= wanted {
                break;
            }
            let mut next = Vec::with_capacity(entries.len() * 4);
            let mut grew = false;
            for entry in &entries {
                for &option in entry {
                    stats.updates += self.force(option).expect("frontier options never clash");
                }
                stats.nodes += 1;
                stats.max_depth = stats.max_depth.max(entry.len());
                if self.all_covered::<false>() {
                    stats.solutions += 1;
                } else if self.known_dead_end() {
                    stats.backtracks += 1;
                } else {
                    let chosen = Mrv.choose(&ActiveItems::new(self));
                    if chosen.len == 0 {
                        stats.backtracks += 1;
                    }
                    let h = chosen.header;
                    let mut x = self.node(h).down;
                    while x != h {
                        let mut longer = entry.clone();
                        longer.push(self.node(x).option as usize);
                        next.push(longer);
                        x = self.node(x).down;
                    }
                    grew = true;
                }
                self.release_to(keep);
            }
            entries = next;
            if !grew {
                break;
            }
        }
        Frontier { entries, stats }
    }
}
