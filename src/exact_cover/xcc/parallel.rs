//! Counting on several threads: every thread walks the top of the same tree, and below a
//! split depth explores only its share of the nodes met there, dealt round-robin.
//!
//! Unlike [`Dlx::count_parallel`](crate::exact_cover::Dlx::count_parallel), which forces each
//! frontier entry's options, this needs nothing from the links but a search: a branch of
//! Algorithm M is not always an option (it may leave an item alone, or exclude the options
//! before it), so a frontier of options could not say where it is. The shares are disjoint
//! and together hold the whole tree, so their counts add up to the sequential count.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::Xcc;
use super::search::{Share, Turns};
use crate::budget::Budget;
use crate::exact_cover::parallel::{combine, shared_limit};
use crate::exact_cover::{Control, CountSink, Report, Solution, Stats};

/// Nodes at the split depth wanted per thread, so that uneven subtrees even out.
const NODES_PER_THREAD: u64 = 64;
/// The split is never deeper than this.
const MAX_SPLIT_DEPTH: usize = 12;

impl Xcc {
    /// Counts solutions on the threads of the current rayon pool, up to `limit` if given,
    /// within `budget` (shared by all threads). The count is the one of [`Xcc::count`]; the
    /// statistics add up every thread's work (the levels above the split, which every thread
    /// walks, are counted once in the nodes and solutions, and by every thread in the updates).
    ///
    /// ```
    /// use quadrille::Budget;
    /// use quadrille::exact_cover::{ProblemBuilder, Xcc};
    ///
    /// // Choose 3 of 12 items: C(12, 3) ways.
    /// let mut b = ProblemBuilder::new();
    /// b.primary_with_bounds("three", 3, 3)?;
    /// for k in 0..12 {
    ///     b.option_by_names(["three"])?;
    /// }
    /// let mut xcc = Xcc::new(&b.build()?);
    /// let two_threads = rayon::ThreadPoolBuilder::new().num_threads(2).build()?;
    /// let report = two_threads.install(|| xcc.count_parallel(None, &Budget::unlimited()));
    /// assert_eq!(report.stats.solutions, 220);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn count_parallel(&mut self, limit: Option<u64>, budget: &Budget) -> Report {
        let threads = rayon::current_num_threads() as u64;
        if threads <= 1 {
            return self.count_within(limit, budget);
        }
        let start = Instant::now();
        let halt = AtomicBool::new(false);
        let nodes = AtomicU64::new(0);
        let depth = self.split_depth(threads * NODES_PER_THREAD, &halt, &nodes);
        let limit = limit.unwrap_or(u64::MAX);
        let found = AtomicU64::new(0);
        let base = &*self;
        let results: Vec<Report> = (0..threads)
            .into_par_iter()
            .map(|residue| {
                let mut xcc = base.clone();
                let mut split = Share {
                    turns: Turns {
                        depth,
                        modulus: threads,
                        residue,
                        met: 0,
                    },
                    halt: &halt,
                    nodes: &nodes,
                };
                if limit == u64::MAX {
                    return xcc.run(budget, CountSink::new(None), Some(&mut split));
                }
                let sink = shared_limit(&found, &halt, limit);
                xcc.run(budget, sink, Some(&mut split))
            })
            .collect();
        combine(Stats::default(), &results, limit, start)
    }

    /// The shallowest depth with at least `wanted` nodes (up to [`MAX_SPLIT_DEPTH`]), found
    /// by walking the tree down to each depth in turn.
    fn split_depth(&mut self, wanted: u64, halt: &AtomicBool, nodes: &AtomicU64) -> usize {
        let mut depth = 1;
        while depth < MAX_SPLIT_DEPTH {
            let mut probe = Share {
                turns: Turns {
                    depth,
                    modulus: 0,
                    residue: 0,
                    met: 0,
                },
                halt,
                nodes,
            };
            self.run(
                &Budget::unlimited(),
                |_: &Solution<'_>| Control::Continue,
                Some(&mut probe),
            );
            if probe.turns.met >= wanted || probe.turns.met == 0 {
                break;
            }
            depth += 1;
        }
        nodes.store(0, Ordering::Relaxed);
        depth
    }
}
