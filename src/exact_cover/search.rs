//! Algorithm X: the search, its statistics, and the sink that receives solutions.
//!
//! The search keeps its own stack (one node per level, allocated when the [`Dlx`] is built), so
//! depth is limited only by the number of primary items, never by the thread's stack. It hands
//! every solution to a [`Sink`], which says whether to go on; [`Dlx::count`], [`Dlx::first`] and
//! [`Dlx::solutions`] are sinks for the usual policies.

use std::time::{Duration, Instant};

use super::Dlx;
use super::choose::{ActiveItems, ItemChooser, Mrv};
use crate::budget::{Budget, Stop};

/// What a [`Sink`] tells the search after a solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// Look for more solutions.
    Continue,
    /// Stop now; the search reports [`Stop::Limit`].
    Stop,
}

/// A sink that hands each solution to `each` and stops the search after `limit` of them
/// (`None`: never), or as soon as `each` says [`Control::Stop`] (that one not counted).
///
/// ```
/// use quadrille::Budget;
/// use quadrille::exact_cover::{Control, Dlx, up_to};
/// use quadrille::problems;
///
/// let mut dlx = Dlx::new(&problems::queens(8)?);
/// let mut firsts = Vec::new();
/// let report = dlx.search(&Budget::unlimited(), up_to(Some(3), |s| {
///     firsts.push(s.to_vec());
///     Control::Continue
/// }));
/// assert_eq!((firsts.len(), report.stats.solutions), (3, 3));
/// # Ok::<(), quadrille::Error>(())
/// ```
pub fn up_to(
    limit: Option<u64>,
    mut each: impl FnMut(&Solution<'_>) -> Control,
) -> impl FnMut(&Solution<'_>) -> Control {
    let mut count = CountSink::new(limit);
    move |solution| match each(solution) {
        Control::Stop => Control::Stop,
        Control::Continue => count.solution(solution),
    }
}

/// A solution, as the search holds it: read its options only if you need them.
pub struct Solution<'a> {
    /// `Sync`, so that a `Solution` is `Send` and `Sync` as it was when it held a `&Dlx`.
    picks: &'a (dyn Picks + Sync),
    /// The levels of the search that chose options.
    depth: usize,
}

/// Where a search keeps the options of its solutions: a [`Dlx`] in its forced options and
/// choice stack, an [`Xcc`](super::Xcc) in a list of option numbers. A `Solution` reaches
/// either through a trait object, so that the search loop builds only a reference and a
/// depth: an enum of the two kinds cost the restarting 9x9 search 2% more instructions
/// (callgrind, `solve --limit 2 -j1` on 1,000 17-clue puzzles), even read out of line.
pub(crate) trait Picks {
    /// The number of options of the solution at `depth`.
    fn count(&self, depth: usize) -> usize;

    /// The option at `i` (below [`Picks::count`]) of the solution at `depth`.
    fn option(&self, depth: usize, i: usize) -> usize;
}

impl Picks for Dlx {
    fn count(&self, depth: usize) -> usize {
        self.links().forced_count() + depth
    }

    fn option(&self, _: usize, i: usize) -> usize {
        let forced = self.links().forced_nodes();
        let x = match forced.get(i) {
            Some(&x) => x,
            None => self.choice(i - forced.len()),
        };
        self.links().option_of(x)
    }
}

impl Picks for Vec<usize> {
    fn count(&self, _: usize) -> usize {
        self.len()
    }

    fn option(&self, _: usize, i: usize) -> usize {
        self[i]
    }
}

impl<'a> Solution<'a> {
    /// The solution at `depth` of a search that keeps its options in `picks`.
    #[inline(always)]
    pub(crate) fn new(picks: &'a (dyn Picks + Sync), depth: usize) -> Solution<'a> {
        Solution { picks, depth }
    }

    /// The number of options in the solution (forced ones included).
    pub fn len(&self) -> usize {
        self.picks.count(self.depth)
    }

    /// Whether the solution has no options (never true of exact cover; a problem with
    /// multiplicities may be solved by choosing no option).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The options of the solution: forced ones first, then those chosen by the search, level by
    /// level.
    pub fn options(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.len()).map(|i| self.picks.option(self.depth, i))
    }

    /// The options of the solution, appended to `out` (no allocation once `out` is large enough).
    pub fn options_into(&self, out: &mut Vec<usize>) {
        out.extend(self.options());
    }

    /// The options of the solution, as a new vector.
    pub fn to_vec(&self) -> Vec<usize> {
        let mut out = Vec::with_capacity(self.len());
        self.options_into(&mut out);
        out
    }
}

/// Receives the solutions of a search, one at a time.
pub trait Sink {
    /// Called once per solution; return [`Control::Stop`] to end the search.
    fn solution(&mut self, solution: &Solution<'_>) -> Control;
}

impl<F: FnMut(&Solution<'_>) -> Control> Sink for F {
    #[inline]
    fn solution(&mut self, solution: &Solution<'_>) -> Control {
        self(solution)
    }
}

/// A sink that only counts, up to an optional limit.
#[derive(Clone, Copy, Debug)]
pub struct CountSink {
    limit: u64,
    seen: u64,
}

impl CountSink {
    /// Counts up to `limit` solutions (`None`: all).
    pub fn new(limit: Option<u64>) -> CountSink {
        CountSink {
            limit: limit.unwrap_or(u64::MAX),
            seen: 0,
        }
    }
}

impl Sink for CountSink {
    #[inline]
    fn solution(&mut self, _: &Solution<'_>) -> Control {
        self.seen += 1;
        if self.seen >= self.limit {
            Control::Stop
        } else {
            Control::Continue
        }
    }
}

/// What a search did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Search-tree nodes: the times the search entered a level (the root included).
    pub nodes: u64,
    /// Link updates: the nodes taken out of item lists by `hide` (Knuth's "updates").
    pub updates: u64,
    /// Solutions found.
    pub solutions: u64,
    /// Dead ends: nodes where some primary item had no option left, so the search backed up.
    /// Zero means the search never met a contradiction (it may still have branched).
    pub backtracks: u64,
    /// The deepest level reached (options chosen by the search, forced ones not counted; in
    /// an [`Xcc`](super::Xcc) search a level may also leave an item alone).
    pub max_depth: usize,
    /// Runs cut off and started again, in a search with restarts
    /// ([`Plan::restarts`](super::Plan::restarts)).
    pub restarts: u64,
    /// Items covered: the item chosen at each node and the other items of each option tried.
    /// Counted only by searches with [`Branching::Knuth`](super::Branching::Knuth) (see
    /// [`Stats::knuth_updates`]); 0 otherwise, to keep the hot loop lean.
    pub covers: u64,
    /// Nogoods learned from conflicts, in a learning search
    /// ([`Plan::learning`](super::Plan::learning)); 0 otherwise.
    pub learned: u64,
    /// Subproblems whose count a remembering count ([`Dlx::count_memo`]) stored; 0 in a
    /// count that did not remember.
    pub subproblems: u64,
    /// Subproblems that a remembering count found stored, and so did not count again.
    pub cache_hits: u64,
    /// Wall-clock time of the search.
    pub elapsed: Duration,
}

impl Stats {
    /// Adds another search's counts to these (the deepest depth, the summed time).
    pub fn add(&mut self, other: &Stats) {
        self.nodes += other.nodes;
        self.updates += other.updates;
        self.solutions += other.solutions;
        self.backtracks += other.backtracks;
        self.max_depth = self.max_depth.max(other.max_depth);
        self.restarts += other.restarts;
        self.covers += other.covers;
        self.learned += other.learned;
        self.subproblems += other.subproblems;
        self.cache_hits += other.cache_hits;
        self.elapsed += other.elapsed;
    }
}

impl Stats {
    /// The updates as Knuth counts them in "Dancing Links" (2000) and dlx1: every removal from
    /// a list, so the options hidden ([`Stats::updates`]), plus one for each item covered (its
    /// header leaves the item list, secondary items included), plus one for each dead end,
    /// where his search covers the item that has no option left before it backs up.
    ///
    /// Exact for a search with [`Branching::Knuth`](super::Branching::Knuth), which walks
    /// dlx1's tree: [`problems::queens_knuth`](crate::problems::queens_knuth) then gives the
    /// paper's N-queens table.
    ///
    /// ```
    /// use quadrille::Budget;
    /// use quadrille::exact_cover::{Branching, CountSink, Dlx, Plan};
    /// use quadrille::problems;
    ///
    /// let mut dlx = Dlx::new(&problems::queens_knuth(8)?);
    /// let knuth = Plan::new().branching(Branching::Knuth);
    /// let stats = dlx.run(&knuth, &Budget::unlimited(), CountSink::new(None))?.stats;
    /// assert_eq!((stats.solutions, stats.nodes, stats.knuth_updates()), (92, 1_049, 16_680));
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    pub fn knuth_updates(&self) -> u64 {
        self.updates + self.covers + self.backtracks
    }
}

/// The result of a search: its statistics and why it ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Report {
    /// What the search did.
    pub stats: Stats,
    /// Why it ended; only [`Stop::Exhausted`] means the solution count is exact.
    pub stop: Stop,
}

impl Report {
    /// Whether the whole search space was explored.
    pub fn is_complete(&self) -> bool {
        self.stop.is_complete()
    }
}

/// A restart cutoff: a run stops after `nodes` search-tree nodes (reporting
/// [`Stop::NodeBudget`]) unless `lifted` is set when it gets there, in which case it runs on
/// within its budget.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cutoff<'a> {
    pub nodes: u64,
    pub lifted: &'a std::cell::Cell<bool>,
}

pub(crate) use crate::budget::{CLOCK_INTERVAL, past_deadline};

impl Dlx {
    /// Runs Algorithm X with minimum-remaining-values item choice, handing each solution to
    /// `sink`. Forced options ([`Dlx::force`]) are part of every solution.
    ///
    /// ```
    /// use quadrille::exact_cover::{Control, Dlx, ProblemBuilder};
    /// use quadrille::Budget;
    ///
    /// let mut b = ProblemBuilder::new();
    /// b.primary("x")?;
    /// b.primary("y")?;
    /// b.option_by_names(["x"])?;
    /// b.option_by_names(["y"])?;
    /// b.option_by_names(["x", "y"])?;
    /// let mut dlx = Dlx::new(&b.build()?);
    /// let mut found = Vec::new();
    /// let report = dlx.search(&Budget::unlimited(), |s: &quadrille::exact_cover::Solution<'_>| {
    ///     let mut options = s.to_vec();
    ///     options.sort();
    ///     found.push(options);
    ///     Control::Continue
    /// });
    /// found.sort();
    /// assert_eq!(found, vec![vec![0, 1], vec![2]]);
    /// assert!(report.is_complete());
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    pub fn search<S: Sink>(&mut self, budget: &Budget, sink: S) -> Report {
        self.search_cut(&mut Mrv, budget, sink, None)
    }

    /// Algorithm X with `chooser`'s item choice, cut off after `cutoff.nodes` nodes unless
    /// `cutoff.lifted` has been set by then (see [`Cutoff`]).
    pub(crate) fn search_cut<C: ItemChooser, S: Sink>(
        &mut self,
        chooser: &mut C,
        budget: &Budget,
        sink: S,
        cutoff: Option<Cutoff<'_>>,
    ) -> Report {
        self.search_from(chooser, 0, budget, sink, cutoff)
    }

    /// [`Dlx::search_cut`] from the node where the search before it was cut off at its node
    /// budget (`Dlx::cut_level`, with its choices still on the stack), so that a count
    /// stopped to try remembering goes on where it stopped: its choices are made again, and
    /// the nodes and solutions from there on are this search's.
    pub(crate) fn search_resumed<S: Sink>(&mut self, budget: &Budget, sink: S) -> Report {
        let level = self.cut_level;
        self.search_from(&mut Mrv, level, budget, sink, None)
    }

    fn search_from<C: ItemChooser, S: Sink>(
        &mut self,
        chooser: &mut C,
        resume: usize,
        budget: &Budget,
        sink: S,
        cutoff: Option<Cutoff<'_>>,
    ) -> Report {
        match (self.links().tracks_dead_ends(), self.links().tracks_bytes()) {
            (true, true) => {
                self.algorithm_x::<C, S, true, true>(chooser, resume, budget, sink, cutoff)
            }
            (true, false) => {
                self.algorithm_x::<C, S, true, false>(chooser, resume, budget, sink, cutoff)
            }
            _ => self.algorithm_x::<C, S, false, false>(chooser, resume, budget, sink, cutoff),
        }
    }

    /// Algorithm X, with or without the count of empty items (`TRACK`) and the `len`s kept in
    /// bytes (`BYTES`, only with `TRACK`; see [`Dlx::track_forced_items`]), from the root or,
    /// with `resume` levels, from the node below the choices on the stack's first `resume`
    /// levels (made again here; a plain chooser's, which neither rotates nor learns).
    fn algorithm_x<C: ItemChooser, S: Sink, const TRACK: bool, const BYTES: bool>(
        &mut self,
        chooser: &mut C,
        resume: usize,
        budget: &Budget,
        mut sink: S,
        mut cutoff: Option<Cutoff<'_>>,
    ) -> Report {
        let start = Instant::now();
        let deadline = budget.stop_at(start);
        let mut node_limit = budget.node_limit();
        if let Some(cut) = &cutoff {
            node_limit = node_limit.min(cut.nodes);
        }
        let mut stats = Stats::default();
        let mut level = 0usize;
        while level < resume {
            let x = self.choice(level);
            let h = self.links().item_of(x);
            stats.updates += self.links_mut().cover::<TRACK, BYTES>(h);
            stats.updates += self.links_mut().cover_others::<TRACK, BYTES>(x);
            level += 1;
        }
        // Every primary item before `floor` is covered: it rises by one when the item chosen
        // stands at it, and comes down to an item when its level closes. So a chain of forced
        // choices down the items costs each choice its own item, where scans from the first
        // item made it quadratic (5.7 s for 100,000 items). Kept here, in a local, rather than
        // in the links beside every cover: there it cost 5% of a 17-clue search by dancing
        // links (benches/peers/guards.sh), and a chain's forced choices are the search's own.
        let mut floor = 0usize;
        for l in 0..resume {
            // As the search that made these choices raised it (scans from 0 cost 4% more on
            // 12 queens resumed); not past items that other items' options cover, which the
            // levels' next options uncover.
            let h = self.links().item_of(self.choice(l));
            floor += usize::from(h.number() - 1 == floor);
        }

        let stop = 'search: loop {
            // Enter a node of the search tree: the options on `stack[..level]` are chosen.
            if stats.nodes >= node_limit {
                if cutoff.take().is_some_and(|cut| cut.lifted.get()) {
                    node_limit = budget.node_limit();
                }
                if stats.nodes >= node_limit {
                    self.cut_level = level;
                    break 'search Stop::NodeBudget;
                }
            }
            stats.nodes += 1;
            if let Some(deadline) = deadline
                && stats.nodes % CLOCK_INTERVAL == 0
                && deadline.has_passed()
            {
                break 'search Stop::TimeBudget;
            }
            stats.max_depth = stats.max_depth.max(level);

            if self.links().all_covered_above::<BYTES>(floor) {
                stats.solutions += 1;
                let solution = Solution::new(self, level);
                if sink.solution(&solution) == Control::Stop {
                    break 'search Stop::Limit;
                }
            } else if !TRACK || self.links().empty_items() == 0 {
                let chosen = chooser.choose(&ActiveItems::above(self, floor));
                let h = self.links().primary_item(chosen.index());
                if let Some(first) = self.links().first_option(h) {
                    stats.updates += self.links_mut().cover::<TRACK, BYTES>(h);
                    floor += usize::from(chosen.index() == floor);
                    if C::COUNTS_COVERS {
                        stats.covers += 1;
                    }
                    let mut x = first;
                    if C::ROTATES {
                        for _ in 0..chooser.first_option(&ActiveItems::new(self), chosen) {
                            // Past the bottom of the list comes its top.
                            x = self.links().next_option(x).unwrap_or(first);
                        }
                        self.set_first_tried(level, x);
                    }
                    stats.updates += self.links_mut().cover_others::<TRACK, BYTES>(x);
                    if C::COUNTS_COVERS {
                        stats.covers += self.links().option_size(x) - 1;
                    }
                    self.set_choice(level, x);
                    level += 1;
                    continue 'search;
                }
                stats.backtracks += 1;
                if C::LEARNS {
                    chooser.dead_end(&ActiveItems::new(self));
                }
            } else {
                // Some primary item can no longer be covered: a dead end, seen without a scan.
                stats.backtracks += 1;
                if C::LEARNS {
                    chooser.dead_end(&ActiveItems::new(self));
                }
            }

            // Back up to the deepest level with an untried option.
            loop {
                if level == 0 {
                    break 'search Stop::Exhausted;
                }
                level -= 1;
                let x = self.choice(level);
                self.links_mut().uncover_others::<TRACK, BYTES>(x);
                let h = self.links().item_of(x);
                let mut next = self.links().next_option(x);
                if C::ROTATES {
                    // Past the bottom of the list comes its top; back at the first option
                    // tried, the level is done.
                    if next.is_none() {
                        next = self.links().first_option(h);
                    }
                    if next == Some(self.first_tried(level)) {
                        next = None;
                    }
                }
                if let Some(next) = next {
                    stats.updates += self.links_mut().cover_others::<TRACK, BYTES>(next);
                    if C::COUNTS_COVERS {
                        stats.covers += self.links().option_size(next) - 1;
                    }
                    self.set_choice(level, next);
                    level += 1;
                    continue 'search;
                }
                self.links_mut().uncover::<TRACK, BYTES>(h);
                floor = floor.min(h.number() - 1);
            }
        };

        // A search stopped early unwinds what it had chosen.
        while level > 0 {
            level -= 1;
            let x = self.choice(level);
            self.links_mut().uncover_others::<TRACK, BYTES>(x);
            let h = self.links().item_of(x);
            self.links_mut().uncover::<TRACK, BYTES>(h);
        }
        debug_assert_eq!(self.sanity(), Ok(()));
        stats.elapsed = start.elapsed();
        Report { stats, stop }
    }

    /// Counts solutions, up to `limit` if one is given.
    pub fn count(&mut self, limit: Option<u64>) -> Report {
        self.search(&Budget::unlimited(), CountSink::new(limit))
    }

    /// The first solution, if there is one, as option numbers.
    pub fn first(&mut self) -> (Option<Vec<usize>>, Report) {
        first_of(|sink| self.search(&Budget::unlimited(), sink))
    }

    /// Up to `limit` solutions (`None`: all), each as option numbers.
    pub fn solutions(&mut self, limit: Option<u64>) -> (Vec<Vec<usize>>, Report) {
        solutions_of(limit, |sink| self.search(&Budget::unlimited(), sink))
    }
}

/// A sink as the collecting searches hand it to a search.
pub(crate) type CollectSink<'s> = &'s mut dyn FnMut(&Solution<'_>) -> Control;

/// The first solution of `search` (a search run with the sink given), as option numbers: what
/// [`Dlx::first`] and [`Xcc::first`](super::Xcc::first) return.
pub(crate) fn first_of(
    search: impl FnOnce(CollectSink<'_>) -> Report,
) -> (Option<Vec<usize>>, Report) {
    let mut found = None;
    let report = search(&mut |s: &Solution<'_>| {
        found = Some(s.to_vec());
        Control::Stop
    });
    (found, report)
}

/// Up to `limit` solutions of `search` (`None`: all), as option numbers: what
/// [`Dlx::solutions`] and [`Xcc::solutions`](super::Xcc::solutions) return.
pub(crate) fn solutions_of(
    limit: Option<u64>,
    search: impl FnOnce(CollectSink<'_>) -> Report,
) -> (Vec<Vec<usize>>, Report) {
    let mut found = Vec::new();
    let report = search(&mut up_to(limit, |s| {
        found.push(s.to_vec());
        Control::Continue
    }));
    (found, report)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A solution may be handed to another thread, as when it borrowed a whole `Dlx`.
    #[test]
    fn a_solution_is_send_and_sync() {
        fn send_and_sync<T: Send + Sync>() {}
        send_and_sync::<Solution<'_>>();
    }
}
