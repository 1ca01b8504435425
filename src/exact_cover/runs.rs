//! Searches in runs (see [`crate::restart`]): Algorithm X cut off and run again, each run after
//! the first with [`ConflictMrv`], on Luby's schedule until the sink stops it, a run finishes,
//! or the budget runs out; and the learning search of the `learn` module, started after a first
//! plain run or from the start. [`Dlx::run`] picks one from its [`Plan`](super::Plan).

use std::cell::Cell;
use std::time::Instant;

use super::Dlx;

use super::choose::{ActiveItems, ConflictMrv, Mrv, ReadingOrder};
use super::search::{Cutoff, Report, Sink, Solution, Stats};
use crate::budget::{Budget, Stop};
use crate::restart::Restarts;

impl Dlx {
    /// Algorithm X in runs: the first makes [`Mrv`]'s choices when `PLAIN_FIRST` is set and
    /// no option is preferred ([`Dlx::set_preferred`]), the others [`ConflictMrv`]'s, each cut
    /// off after [`Restarts::cutoff`] nodes unless it has found a solution. So runs that were
    /// cut off found nothing, and the sink sees the solutions of one run, each once. The
    /// report's nodes, updates and backtracks are those of all runs together, and its
    /// `restarts` the runs cut off. The search is [`Stop::Exhausted`] (the count exact) only
    /// when its last run explored its whole tree.
    pub(crate) fn search_restarting<S: Sink, const PLAIN_FIRST: bool>(
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
        let mut restarts = *restarts;
        let stop = loop {
            let (nodes_left, run_budget) = budget_left(budget, deadline, total.nodes);
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
            let report = if PLAIN_FIRST && run == 0 && !self.prefers_any() {
                self.search_cut(&mut Mrv, &run_budget, pass_on, Some(cutoff))
            } else {
                self.search_cut(&mut chooser, &run_budget, pass_on, Some(cutoff))
            };
            total.add(&report.stats);
            match report.stop {
                Stop::NodeBudget if report.stats.nodes < nodes_left => {
                    debug_assert_eq!(report.stats.solutions, 0, "a run with solutions is not cut");
                    if run == 0 {
                        restarts = restarts.reaching(self.descent());
                    }
                    total.restarts += 1;
                    run += 1;
                }
                stop => break stop,
            }
        };
        total.elapsed = start.elapsed();
        Report { stats: total, stop }
    }

    /// [`Dlx::search_restarting`] with `PLAIN_FIRST`, but learning: the first run makes
    /// [`Mrv`]'s choices (unless some options are preferred, [`Dlx::set_preferred`]), and is
    /// cut off after [`Restarts::cutoff`]`(0)` nodes unless it has found a solution. A run cut
    /// off found nothing; the search goes on with the learning search (runs numbered from 1),
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
    /// At the easy end of large grids ([`near_the_easy_end`]: a deep descent that the first
    /// run nearly finished), a plain fill run in [`ReadingOrder`] comes next, and the learning
    /// search then branches in the same order and checks Hall's condition on the matchings
    /// ([`Dlx::set_matchings`]), with runs that can reach the bottom of two descents
    /// (docs/performance.md, "The easy end of large grids").
    pub(crate) fn search_restarting_learning<S: Sink>(
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
        let mut first = if !self.prefers_any() {
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
        first.stats.restarts += 1;
        let descent = self.descent();
        let easy_end = !self.prefers_any() && near_the_easy_end(&first.stats, descent);
        // Runs after the first can reach the bottom of a descent (see `Restarts::reaching`); at
        // the easy end, of two, since nearly every descent there meets a few dead ends.
        let restarts = restarts.reaching(if easy_end { 2 * descent } else { descent });
        let mut fill = None;
        if easy_end {
            let reading = ReadingOrder::new(self.reading_until(descent));
            let left = budget.until(Some(budget.node_limit() - first.stats.nodes), deadline);
            let (filled, stop) = self.fill_run(reading, descent, &left, &mut sink);
            first.stats.add(&filled);
            if let Some(stop) = stop {
                first.stats.elapsed = start.elapsed();
                return Report {
                    stats: first.stats,
                    stop,
                };
            }
            first.stats.restarts += 1;
            fill = Some(reading);
        }
        let rest = budget.until(Some(budget.node_limit() - first.stats.nodes), deadline);
        let mut report = self.learning(&mut chooser, &restarts, 1, fill, &rest, sink);
        report.stats.add(&first.stats);
        report.stats.elapsed = start.elapsed();
        report
    }

    /// The fill run: Algorithm X with `reading`'s choices, cut off after two descents unless
    /// it finds a solution. Returns its statistics, and why the search ended if it ended
    /// there: the run found a solution (and went on to the sink's limit, the end of its tree
    /// or the budget) or the budget ran out.
    ///
    /// It fills the empty 64x64 grid in two descents without learning's cost per node; where
    /// it fails, it costs two descents of plain nodes (`sh benches/peers/easy_end.sh`, the
    /// DLX rows).
    fn fill_run<S: Sink>(
        &mut self,
        mut reading: ReadingOrder,
        descent: u64,
        budget: &Budget,
        sink: &mut S,
    ) -> (Stats, Option<Stop>) {
        let found = Cell::new(false);
        let cutoff = Cutoff {
            nodes: descent.saturating_mul(2),
            lifted: &found,
        };
        let pass_on = |s: &Solution<'_>| {
            found.set(true);
            sink.solution(s)
        };
        let report = self.search_cut(&mut reading, budget, pass_on, Some(cutoff));
        match report.stop {
            Stop::NodeBudget if report.stats.nodes < budget.node_limit() => (report.stats, None),
            stop => (report.stats, Some(stop)),
        }
    }

    /// The item before which a fill branches in reading order: the one three quarters of
    /// `descent` into the active items (on a Sudoku grid, which begin with the open cells),
    /// as the CSP's `fill` does (see [`Config::FILL_UNTIL`](crate::csp::Config::FILL_UNTIL)).
    fn reading_until(&self, descent: u64) -> usize {
        (ActiveItems::new(self).iter())
            .nth(usize::try_from(descent * 3 / 4).unwrap_or(usize::MAX))
            .map_or(usize::MAX, |item| item.index())
    }

    /// The fewest levels a search needs to reach a solution from here: the active primary
    /// items over the most primary items an option holds (the open cells of a Sudoku grid).
    pub(crate) fn descent(&self) -> u64 {
        let active = ActiveItems::new(self).iter().count();
        let primary = self.links().primary_count();
        let widest = (0..self.links().option_count())
            .map(|k| {
                (self.links().items_of(k))
                    .filter(|h| h.number() <= primary)
                    .count()
            })
            .max()
            .unwrap_or(1)
            .max(1);
        active.div_ceil(widest) as u64
    }

    /// The learning search from its first run on (see the `learn` module): each solution is
    /// delivered once, the count is exact when the report is [`Stop::Exhausted`], and a budget
    /// stops it with a lower bound. Runs restart on Luby's schedule with `restarts`' unit and
    /// seed, keeping what they learned.
    pub(crate) fn search_learning<S: Sink>(
        &mut self,
        restarts: &Restarts,
        budget: &Budget,
        sink: S,
    ) -> Report {
        let mut chooser = ConflictMrv::new(restarts.seed);
        self.learning(&mut chooser, restarts, 0, None, budget, sink)
    }
}

/// The fewest levels of a descent at the easy end: smaller searches that go deep are decided
/// by their first run or are hard puzzles, where the fill and the Hall checks would only add
/// work (random 25x25 puzzles with 380 blanks, the hardness peak, have descents of 380).
const FILL_FROM_DESCENT: u64 = 512;

/// Whether a search whose first run ended with `first` (cut off) is at the easy end of large
/// grids, where almost every choice is right: a descent of at least [`FILL_FROM_DESCENT`]
/// levels, and a first run that came within a tenth of its bottom, or of the depth its nodes
/// allowed when it was cut off before it could get there. On the first runs of
/// random 25x25 puzzles with 380 blanks the deepest level was 46% to 83% of the descent; on
/// near-empty grids from 36x36 up, and empty ones from 25x25 up, 94% and more.
fn near_the_easy_end(first: &Stats, descent: u64) -> bool {
    let reachable = descent.min(first.nodes);
    descent >= FILL_FROM_DESCENT && 10 * first.max_depth as u64 >= 9 * reachable
}

/// The nodes of `budget` left after `used`, and a budget of those nodes and the time left to
/// `deadline`.
#[inline(always)]
fn budget_left(budget: &Budget, deadline: Option<Instant>, used: u64) -> (u64, Budget) {
    let nodes_left = budget.node_limit().saturating_sub(used);
    (nodes_left, budget.until(Some(nodes_left), deadline))
}
