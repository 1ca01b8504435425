//! Algorithm X with randomised restarts (see [`crate::restart`]): the search of
//! [`Dlx::search`], cut off and run again with [`ConflictMrv`] on Luby's schedule until the sink
//! stops it, a run finishes, or the budget runs out; or, after a first plain run, the learning
//! search of [`Dlx::search_learning`], which restarts on the same schedule.

use std::cell::Cell;
use std::time::Instant;

use super::Dlx;
use super::choose::{ConflictMrv, Mrv};
use super::search::{Cutoff, Report, Sink, Solution, Stats};
use crate::budget::{Budget, Stop};
use crate::restart::Restarts;

impl Dlx {
    /// Like [`Dlx::search`], but restarting: the first run makes [`Mrv`]'s choices (unless
    /// some options are preferred, [`Dlx::set_preferred`]), the later ones [`ConflictMrv`]'s,
    /// each cut off after [`Restarts::cutoff`] nodes unless it has found a solution. So runs
    /// that were cut off found nothing, and the sink sees the solutions of one run, each once.
    /// The report's nodes, updates and backtracks are those of all runs together, and its
    /// `restarts` the runs cut off. The search is [`Stop::Exhausted`] (the
    /// count exact) only when its last run explored its whole tree.
    ///
    /// Keep it for finding a few solutions or telling one from two: a count of all solutions
    /// must visit the whole tree anyway, so restarts only add to it.
    ///
    /// ```
    /// use quadrille::Budget;
    /// use quadrille::exact_cover::{CountSink, Dlx};
    /// use quadrille::problems;
    /// use quadrille::restart::Restarts;
    ///
    /// // 10 queens have 724 solutions. With cutoffs of a few nodes, runs are cut off until one
    /// // finds a solution; that run is not cut, and finishes the count.
    /// let mut dlx = Dlx::new(&problems::queens(10)?);
    /// let restarts = Restarts { seed: 3, unit: 1 };
    /// let report = dlx.search_restarting(&restarts, &Budget::unlimited(), CountSink::new(None));
    /// assert_eq!(report.stats.solutions, 724);
    /// assert!(report.is_complete());
    /// assert!(report.stats.restarts > 0);
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    pub fn search_restarting<S: Sink>(
        &mut self,
        restarts: &Restarts,
        budget: &Budget,
        mut sink: S,
    ) -> Report {
        let start = Instant::now();
        let deadline = budget.deadline(start);
        let mut chooser = ConflictMrv::new(restarts.seed);
        let mut total = Stats::default();
        let mut run = 0u64;
        let stop = loop {
            let nodes_left = budget.node_limit().saturating_sub(total.nodes);
            let run_budget = Budget {
                nodes: Some(nodes_left),
                time: deadline.map(|d| d.saturating_duration_since(Instant::now())),
            };
            // A run that finds a solution is not cut off (see `crate::restart`).
            let found = Cell::new(false);
            let cutoff = Cutoff {
                nodes: restarts.cutoff(run),
                lifted: &found,
            };
            let pass_on = |s: &Solution<'_>| {
                found.set(true);
                sink.solution(s)
            };
            // With preferred options, every run orders the options (see `Dlx::set_preferred`).
            let report = if run == 0 && self.preferred.is_empty() {
                self.search_cut(&mut Mrv, &run_budget, pass_on, Some(cutoff))
            } else {
                self.search_cut(&mut chooser, &run_budget, pass_on, Some(cutoff))
            };
            total.add(&report.stats);
            match report.stop {
                Stop::NodeBudget if report.stats.nodes < nodes_left => {
                    debug_assert_eq!(report.stats.solutions, 0, "a run with solutions is not cut");
                    total.restarts += 1;
                    run += 1;
                }
                stop => break stop,
            }
        };
        total.elapsed = start.elapsed();
        Report { stats: total, stop }
    }

    /// Like [`Dlx::search_restarting`], but learning: the first run makes [`Mrv`]'s choices
    /// (unless some options are preferred, [`Dlx::set_preferred`]), and is cut off after
    /// [`Restarts::cutoff`]`(0)` nodes unless it has found a solution. A run cut off found
    /// nothing; the search goes on with [`Dlx::search_learning`] (runs numbered from 1),
    /// which learns from its conflicts, restarts on the same schedule and delivers each
    /// solution once. So the sink sees each solution once. The report's nodes, updates and
    /// backtracks are those of all runs together, and its `restarts` the runs cut off. The
    /// search is [`Stop::Exhausted`] (the count exact) only when no solution is left.
    ///
    /// The first run is the plain search, so a search that it decides is exactly the plain
    /// one. Where the first run is not enough, learning pays at large sizes: on random 25x25
    /// Sudoku puzzles with 340 blanks it took the nodes per puzzle from about 320,000 to
    /// 60,000-100,000 (see the README's "Restarts and heavy tails").
    ///
    /// ```
    /// use quadrille::Budget;
    /// use quadrille::exact_cover::{CountSink, Dlx};
    /// use quadrille::problems;
    /// use quadrille::restart::Restarts;
    ///
    /// // 10 queens have 724 solutions. With a cutoff of one node, the first run is cut off;
    /// // the learning search finds every solution once and proves there are no more.
    /// let mut dlx = Dlx::new(&problems::queens(10)?);
    /// let restarts = Restarts { seed: 3, unit: 1 };
    /// let report = dlx.search_restarting_learning(&restarts, &Budget::unlimited(), CountSink::new(None));
    /// assert_eq!(report.stats.solutions, 724);
    /// assert!(report.is_complete());
    /// assert!(report.stats.restarts > 0);
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    pub fn search_restarting_learning<S: Sink>(
        &mut self,
        restarts: &Restarts,
        budget: &Budget,
        mut sink: S,
    ) -> Report {
        let start = Instant::now();
        let deadline = budget.deadline(start);
        // A run that finds a solution is not cut off (see `crate::restart`). The same few lines
        // as in `search_restarting`'s loop: one shared function for them cost 9x9 searches 0.6%
        // more instructions (callgrind), because `search_cut` was then no longer inlined.
        let found = Cell::new(false);
        let cutoff = Cutoff {
            nodes: restarts.cutoff(0),
            lifted: &found,
        };
        let pass_on = |s: &Solution<'_>| {
            found.set(true);
            sink.solution(s)
        };
        let mut chooser = ConflictMrv::new(restarts.seed);
        let mut first = if self.preferred.is_empty() {
            self.search_cut(&mut Mrv, budget, pass_on, Some(cutoff))
        } else {
            // It orders the options (see `Dlx::set_preferred`); its weights go on to learning.
            self.search_cut(&mut chooser, budget, pass_on, Some(cutoff))
        };
        let cut = first.stop == Stop::NodeBudget && first.stats.nodes < budget.node_limit();
        if !cut {
            first.stats.elapsed = start.elapsed();
            return first;
        }
        debug_assert_eq!(first.stats.solutions, 0, "a run with solutions is not cut");
        let rest = Budget {
            nodes: Some(budget.node_limit() - first.stats.nodes),
            time: deadline.map(|d| d.saturating_duration_since(Instant::now())),
        };
        let mut report = self.learning(&mut chooser, restarts, 1, &rest, sink);
        report.stats.add(&first.stats);
        report.stats.restarts += 1;
        report.stats.elapsed = start.elapsed();
        report
    }
}
