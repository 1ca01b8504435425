//! Splitting one search tree into disjoint parts of bounded cost to set up: what
//! [`Dlx::count_parallel`] hands to its threads and what [`shards`](super::ShardPlan) are made
//! of.
//!
//! The top of the tree is expanded breadth-first, with the item choice of the search, one level
//! at a time while the next level stays small (at most [`GROWTH`] times the parts wanted). Each
//! part ([`Subtree`]) is then a node of the last level expanded, given as the options that lead
//! to it (its prefix), and a run of the options of the item chosen there. A part is searched by
//! forcing its prefix once, covering its item once, and then, for each of its options, covering
//! the rest of the option and searching below: an item of 100,000 options becomes a few runs of
//! thousands of options each (see [`COVER_BUDGET`]), and its 100,000 options are each tried
//! once, where forcing each option on its own would cover the item 100,000 times.
//!
//! The nodes above the parts (and any solution or dead end among them) are counted by the
//! split itself, so the nodes of a complete split search add up to those of [`Dlx::search`].

use std::time::Instant;

use super::Dlx;
use super::choose::{ActiveItems, ItemChooser, Mrv};
use super::links::Item;
use super::search::{Report, Sink, Solution, Stats};
use crate::budget::{Budget, Stop};

/// A level is expanded only while it has at most this many times the parts wanted.
pub(crate) const GROWTH: usize = 8;
/// The split never goes deeper than this.
const MAX_DEPTH: usize = 16;
/// A run of an item's options costs a cover of the whole item (its `len` options hidden): an
/// item is cut into at most this many options' worth of covers in all (a few milliseconds), or
/// into `wanted / GROWTH` runs if that is more. An item of 100,000 options on 2 threads is then
/// 16 runs, not 128: 1.6 million hides rather than 12.8 million.
const COVER_BUDGET: usize = 1 << 20;

/// A part of a search tree: the node reached by forcing `prefix` (in order), and, of the
/// options of the item that the search branches on there, those listed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Subtree {
    prefix: Vec<usize>,
    /// The item chosen at the node, as [`Item::id`] names it: a number, checked when the part
    /// is entered, since a part may be handed to other links.
    header: u32,
    options: Vec<usize>,
}

impl Subtree {
    /// The options that lead to the part's node, from the root down.
    pub fn prefix(&self) -> &[usize] {
        &self.prefix
    }

    /// The options of the item chosen at the node that belong to this part, in list order.
    pub fn options(&self) -> &[usize] {
        &self.options
    }

    /// The item chosen at the node, as a number (for fingerprints).
    pub(crate) fn header(&self) -> u32 {
        self.header
    }

    /// Takes the options of `later`, a later run of the same node, into this part, so that
    /// the node's item is covered once for both; gives `later` back if it is another node's.
    pub(crate) fn absorb(&mut self, later: Subtree) -> Option<Subtree> {
        if later.header == self.header && later.prefix == self.prefix {
            self.options.extend(later.options);
            None
        } else {
            Some(later)
        }
    }
}

/// A search tree split into parts, and what the split found above them.
#[derive(Clone, Debug)]
pub(crate) struct Split {
    /// The parts, in the tree's order (left to right).
    pub subtrees: Vec<Subtree>,
    /// The nodes above the parts and the solutions and dead ends among them.
    pub stats: Stats,
    /// The solutions above the parts, each as the options chosen on the way (the options
    /// forced before the split not included).
    pub solutions: Vec<Vec<usize>>,
}

/// The prefix forced for the part being walked, left forced for the next part of the same walk:
/// parts taken in the tree's order share the top of their prefixes, which is then forced once
/// rather than once a part (the options near the root, with the longest lists, are the dearest
/// to force).
pub(crate) struct Prefix {
    /// The options forced before the walk.
    keep: usize,
    /// The options forced since, in order.
    path: Vec<usize>,
}

impl Prefix {
    /// A walk from the node the links stand at.
    pub(crate) fn new(dlx: &Dlx) -> Prefix {
        Prefix {
            keep: dlx.links().forced_count(),
            path: Vec::new(),
        }
    }

    /// Forces `prefix`, keeping the options it shares with the prefix forced now; returns the
    /// updates.
    ///
    /// # Panics
    /// If `prefix` is not a path of the tree.
    fn go_to(&mut self, dlx: &mut Dlx, prefix: &[usize]) -> u64 {
        let common = self
            .path
            .iter()
            .zip(prefix)
            .take_while(|(a, b)| a == b)
            .count();
        dlx.release_to(self.keep + common);
        self.path.truncate(common);
        let mut updates = 0;
        for &option in &prefix[common..] {
            updates += dlx
                .links_mut()
                .force(option)
                .expect("a part's prefix is a path of the tree");
            self.path.push(option);
        }
        updates
    }

    /// Ends the walk: the links are left as they were before it.
    pub(crate) fn release(self, dlx: &mut Dlx) {
        dlx.release_to(self.keep);
    }
}

impl Dlx {
    /// Splits the tree below the options forced now into about `wanted` parts (fewer when the
    /// tree is small, possibly none when the root is a leaf). The same links and `wanted` give
    /// the same split on every machine. Leaves the links as they were. The parts together count
    /// what one search counts (`split_parts_count_what_one_search_counts`).
    pub(crate) fn split(&mut self, wanted: usize) -> Split {
        self.split_while_wide(wanted, wanted, wanted)
    }

    /// [`Dlx::split`] into about `wanted` nodes, each then cut into runs of its options so that
    /// there are about `runs` parts, more where a node has more options. Once it has `least`
    /// nodes or more, the split stops where the tree narrows (fewer than two children a node):
    /// the split of a tree too small for `wanted` nodes then leaves most of its nodes to the
    /// parts, rather than walking the whole tree itself.
    pub(crate) fn split_while_wide(&mut self, wanted: usize, least: usize, runs: usize) -> Split {
        let wanted = wanted.max(1);
        let mut stats = Stats::default();
        let mut level = Vec::new();
        let mut solutions = Vec::new();
        match self.open_node(&mut stats) {
            Some((h, options)) => level.push(Subtree {
                prefix: Vec::new(),
                header: h.id(),
                options,
            }),
            None if stats.solutions > 0 => solutions.push(Vec::new()),
            None => {}
        }
        for depth in 0..MAX_DEPTH {
            let children: usize = level.iter().map(|s| s.options.len()).sum();
            if level.len() >= wanted
                || children > wanted * GROWTH
                || (level.len() >= least && children < 2 * level.len())
            {
                break;
            }
            debug_assert!(level.iter().all(|part| part.prefix.len() == depth));
            let mut next = Vec::with_capacity(children);
            let mut at = Prefix::new(self);
            for part in &level {
                self.expand(part, &mut at, &mut stats, &mut solutions, &mut next);
            }
            at.release(self);
            level = next;
        }
        Split {
            subtrees: chunk(level, runs.max(wanted)),
            stats,
            solutions,
        }
    }

    /// Replaces a part by its children, one a node below each of its options, pushed onto
    /// `children` in the tree's order: their nodes (and the solutions and dead ends among them)
    /// are counted in `stats`, as the split counts the nodes above its parts, and a solution
    /// is pushed onto `solutions` as its options. The links are left as they were, the prefix
    /// forced on the walk `at`.
    pub(crate) fn expand(
        &mut self,
        part: &Subtree,
        at: &mut Prefix,
        stats: &mut Stats,
        solutions: &mut Vec<Vec<usize>>,
        children: &mut Vec<Subtree>,
    ) {
        let (h, updates) = self.enter(part, at);
        stats.updates += updates;
        stats.max_depth = stats.max_depth.max(part.prefix.len() + 1);
        for &option in &part.options {
            let x = self.links().node_of(option, h);
            stats.updates += self.links_mut().choose(x);
            let solved = stats.solutions;
            let open = self.open_node(stats);
            let mut prefix = part.prefix.clone();
            prefix.push(option);
            match open {
                Some((h, options)) => children.push(Subtree {
                    prefix,
                    header: h.id(),
                    options,
                }),
                None if stats.solutions > solved => solutions.push(prefix),
                None => {}
            }
            self.links_mut().unchoose(x);
        }
        self.links_mut().uncover_item(h);
    }

    /// Counts the solutions of one part of a split (see [`Dlx::split`]) within `budget`.
    #[cfg(test)]
    pub(crate) fn count_subtree(&mut self, part: &Subtree, budget: &Budget) -> Report {
        self.search_subtree(part, budget, &|| false, |_: &Solution<'_>| {
            super::search::Control::Continue
        })
    }

    /// Searches one part of a split, handing each solution to `sink`, within `budget`, and
    /// stopping (as for [`Stop::Limit`]) between two options when `halt` says so. Solutions
    /// hold the part's prefix and option. The links are left as they were.
    pub(crate) fn search_subtree<S: Sink>(
        &mut self,
        part: &Subtree,
        budget: &Budget,
        halt: &dyn Fn() -> bool,
        sink: S,
    ) -> Report {
        let mut at = Prefix::new(self);
        let report = self.search_subtree_at(part, &mut at, budget, halt, sink);
        at.release(self);
        report
    }

    /// [`Dlx::search_subtree`] on the walk `at`: the part's prefix is left forced for the
    /// walk's next part.
    pub(crate) fn search_subtree_at<S: Sink>(
        &mut self,
        part: &Subtree,
        at: &mut Prefix,
        budget: &Budget,
        halt: &dyn Fn() -> bool,
        mut sink: S,
    ) -> Report {
        self.walk_part(part, at, budget, halt, |dlx, left| {
            dlx.search(left, |s: &Solution<'_>| sink.solution(s))
        })
    }

    /// Enters one part of a split and hands each of its options, chosen, to `below` with what
    /// is left of `budget`, until `below` or the budget stops, or `halt` says so (as for
    /// [`Stop::Limit`]); the work of the options below adds up. The links are left as they
    /// were, the part's prefix forced on the walk `at`.
    fn walk_part(
        &mut self,
        part: &Subtree,
        at: &mut Prefix,
        budget: &Budget,
        halt: &dyn Fn() -> bool,
        mut below: impl FnMut(&mut Dlx, &Budget) -> Report,
    ) -> Report {
        let start = Instant::now();
        let deadline = budget.deadline(start);
        let stop_at = budget.stop_at(start);
        let node_limit = budget.node_limit();
        let mut stats = Stats::default();
        let (h, updates) = self.enter(part, at);
        stats.updates += updates;
        let mut stop = Stop::Exhausted;
        for &option in &part.options {
            // A search of few nodes never reads the clock: read it here, once per option.
            if stop_at.is_some_and(|d| d.has_passed()) {
                stop = Stop::TimeBudget;
                break;
            }
            if stats.nodes >= node_limit {
                stop = Stop::NodeBudget;
                break;
            }
            if halt() {
                stop = Stop::Limit;
                break;
            }
            let x = self.links().node_of(option, h);
            stats.updates += self.links_mut().choose(x);
            let left = budget.until(budget.nodes.map(|_| node_limit - stats.nodes), deadline);
            let report = below(self, &left);
            self.links_mut().unchoose(x);
            let mut sub = report.stats;
            sub.max_depth += part.prefix.len() + 1;
            sub.elapsed = Default::default();
            stats.add(&sub);
            if report.stop != Stop::Exhausted {
                stop = report.stop;
                break;
            }
        }
        self.links_mut().uncover_item(h);
        stats.elapsed = start.elapsed();
        Report { stats, stop }
    }

    /// Forces a part's prefix on the walk `at` and covers its item; returns the item and the
    /// updates. Uncovering the item leaves the links as the walk left them.
    ///
    /// # Panics
    /// If the part is not a part of these links' tree.
    fn enter(&mut self, part: &Subtree, at: &mut Prefix) -> (Item, u64) {
        let updates = at.go_to(self, &part.prefix);
        let h = self.links().item_by_id(part.header);
        (h, updates + self.links_mut().cover_item(h))
    }

    /// Counts the node the links stand at (`stats.nodes`, and a solution or dead end there).
    /// Returns the item the search would branch on and its options, in list order, unless the
    /// node is a leaf.
    fn open_node(&mut self, stats: &mut Stats) -> Option<(Item, Vec<usize>)> {
        stats.nodes += 1;
        if self.links().is_solved() {
            stats.solutions += 1;
            return None;
        }
        if self.links().known_dead_end() {
            stats.backtracks += 1;
            return None;
        }
        let chosen = Mrv.choose(&ActiveItems::new(self));
        if chosen.len == 0 {
            stats.backtracks += 1;
            return None;
        }
        let h = self.links().primary_item(chosen.index());
        let mut options = Vec::with_capacity(chosen.len as usize);
        let mut next = self.links().first_option(h);
        while let Some(x) = next {
            options.push(self.links().option_of(x));
            next = self.links().next_option(x);
        }
        Some((h, options))
    }
}

/// Cuts the option lists of a level into runs, so that there are about `wanted` parts: a part
/// with a share of the level's options gets that share of the parts.
fn chunk(level: Vec<Subtree>, wanted: usize) -> Vec<Subtree> {
    let total: usize = level.iter().map(|s| s.options.len()).sum();
    if level.len() >= wanted || total <= level.len() {
        return level;
    }
    let mut parts = Vec::with_capacity(wanted + level.len());
    let floor = (wanted / GROWTH).max(1);
    for part in level {
        let len = part.options.len();
        let most = (COVER_BUDGET / len).max(floor);
        let pieces = (len * wanted).div_ceil(total).clamp(1, len).min(most);
        if pieces == 1 {
            parts.push(part);
            continue;
        }
        for i in 0..pieces {
            let (from, to) = (i * len / pieces, (i + 1) * len / pieces);
            parts.push(Subtree {
                prefix: part.prefix.clone(),
                header: part.header,
                options: part.options[from..to].to_vec(),
            });
        }
    }
    parts
}

#[cfg(test)]
mod tests {
    use crate::budget::{Budget, Stop};
    use crate::exact_cover::{CountSink, Dlx, Problem, ProblemBuilder};
    use crate::problems;
    use crate::sudoku::{Shape, encode};

    #[test]
    fn split_parts_count_what_one_search_counts() {
        let shape = Shape::new(2, 2).unwrap();
        for (name, problem) in [
            ("queens 8", problems::queens(8).unwrap()),
            ("langford 8", problems::langford(8).unwrap()),
            ("pentominoes 3x20", problems::pentominoes(3, 20).unwrap()),
            ("knuth", problems::exact_cover_knuth_example()),
            ("4x4 grid", encode::problem(shape.board())),
        ] {
            let mut dlx = Dlx::new(&problem);
            let whole = dlx.count(None).stats;
            for wanted in [1, 5, 64, 1000] {
                let split = dlx.split(wanted);
                let mut total = split.stats;
                for part in &split.subtrees {
                    total.add(&dlx.count_subtree(part, &Budget::unlimited()).stats);
                }
                assert_eq!(
                    (total.solutions, total.nodes),
                    (whole.solutions, whole.nodes),
                    "{name}, {wanted} parts"
                );
            }
        }
    }

    /// The options of the wide problems: far more than the parts of a split. Not more: a build
    /// with debug assertions checks the links after the search of each option, over all of them.
    const WIDE: usize = 10_000;

    /// One item of `options` options, each with a secondary item of ten: one solution per
    /// option.
    fn wide(options: usize) -> Problem {
        let mut b = ProblemBuilder::new();
        let a = b.primary("a").unwrap();
        let tags: Vec<usize> = (0..10)
            .map(|i| b.secondary(&format!("t{i}")).unwrap())
            .collect();
        for i in 0..options {
            b.option([a, tags[i % 10]]).unwrap();
        }
        b.build().unwrap()
    }

    fn two_threads() -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap()
    }

    /// An item of many options is cut into parts of options, not into one part per option, and
    /// counted on two threads each option's cover is paid per part.
    #[test]
    fn an_item_of_10000_options_splits_into_few_parts_on_two_threads() {
        let mut dlx = Dlx::new(&wide(WIDE));
        let split = dlx.split(128);
        assert!(
            split.subtrees.len() <= 128 * 2,
            "{} parts",
            split.subtrees.len()
        );
        let one = dlx.count(None);
        let both = two_threads().install(|| dlx.count_parallel(None, &Budget::unlimited()));
        assert!(both.is_complete());
        assert_eq!(
            (both.stats.solutions, both.stats.nodes),
            (WIDE as u64, one.stats.nodes)
        );
        // Each option hidden once per part that holds its item, not once per option: the
        // updates of covering the item are paid per part, 128 parts of WIDE each at most.
        assert!(both.stats.updates <= one.stats.updates + 128 * 2 * WIDE as u64);
    }

    #[test]
    fn every_path_of_the_parallel_count_honours_the_budgets() {
        let mut dlx = Dlx::new(&wide(WIDE));
        let two = two_threads();
        let timed =
            two.install(|| dlx.count_parallel(None, &Budget::time(std::time::Duration::ZERO)));
        assert!(!timed.is_complete());
        assert_eq!(timed.stop, Stop::TimeBudget);
        assert!(timed.stats.solutions < WIDE as u64);
        let counted = two.install(|| dlx.count_parallel(None, &Budget::nodes(1_000)));
        assert_eq!(counted.stop, Stop::NodeBudget);
        assert!(counted.stats.solutions < WIDE as u64);
        // Two threads may each start a part with the budget the other has not used yet.
        assert!(
            counted.stats.nodes <= 2 * 1_000 + 1_000,
            "{}",
            counted.stats.nodes
        );
        let mut plan_dlx = Dlx::new(&wide(WIDE));
        let plan = plan_dlx.shard_plan(2);
        let shard = plan_dlx.search_shard(&plan, 2, &Budget::nodes(500), CountSink::new(None));
        assert_eq!(shard.stop, Stop::NodeBudget);
        assert!(shard.stats.nodes <= 500);
    }
}
