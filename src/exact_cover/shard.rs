//! Shards: a search tree cut into N disjoint parts that separate processes count with no
//! communication, for a scheduler (GNU parallel, a Slurm job array) to run, and
//! [`crate::merge`] to add up.
//!
//! The tree is split ([`Dlx::split`]) into about [`NODES_PER_SHARD`] nodes per shard, each
//! node's options cut into a few runs (a part: a node and a run of its options), and the
//! parts, in the tree's order, are dealt out snake-wise: the first N to shards 1 to N, the next
//! N to shards N to 1, and so on. Nothing is dealt by an estimate: Knuth's estimates of parts
//! are heavy-tailed (most probes die early, a few find the deep branches), so a part that its
//! probes underestimated lands on a shard already full; thousands of parts dealt in turn,
//! neighbours in the tree to different shards, even out to within a few percent
//! (`benches/peers/shard_balance.sh`). A shard walks its parts in the tree's order, forcing
//! once the top of the prefixes that neighbouring parts share. Everything is a function of the
//! links and N, so every process and every machine makes the same plan, and the plan's
//! fingerprint says so: [`crate::merge`] refuses to add shards of different plans.
//!
//! Every shard walks the nodes above the parts to make the plan; each reports an even share of
//! their work, and shard 1 the solutions among them, so that the merged nodes and solutions are
//! those of one search of the whole tree.

use std::time::Instant;

use num_bigint::BigUint;

use super::search::{CountSink, Report, Sink, Stats};
use super::split::{Prefix, Split, Subtree};
use super::{CountStart, Dlx};
use crate::budget::{Budget, Stop};

/// Nodes of the split per shard: enough that their subtrees, dealt in turn, even out within a
/// shard (6x10 pentominoes, 16 shards: 7,748 nodes; `benches/peers/shard_balance.sh`).
pub const NODES_PER_SHARD: usize = 256;
/// The most nodes the split aims at, however many shards, as every shard walks the nodes above
/// them: on the 6x10 pentominoes the level of 7,748 nodes is reached by walking 15,294, 1.6% of
/// one search's updates, the next level by walking 68,197, 6%. More shards than 4,096 / 256
/// get fewer nodes each, cut into more runs (`ALSO="32 64" sh benches/peers/shard_balance.sh`).
const MOST_SPLIT_NODES: usize = 4_096;
/// Runs of options per node of the split, on average, more where a node has more options: runs
/// even out the shards where whole nodes leave some shards with more of the large subtrees, at
/// the cost of the covers a shard repeats as it enters each run (`ALSO="12 24" sh
/// benches/peers/shard_balance.sh`: the largest shard, against the mean, and the updates in all).
const RUNS_PER_NODE: usize = 4;
/// Nodes per shard that the split makes before it may stop where the tree narrows.
const LEAST_NODES_PER_SHARD: usize = 32;

/// How a search tree is cut into shards.
///
/// The tree is split into about 256 nodes per shard (4,096 at most; fewer when the tree is
/// small), each node's options cut into a few runs, and the parts (a node and a run of its
/// options), in the tree's order, are dealt out snake-wise (shards 1 to N, then N to 1, ...).
/// Everything is a function of the links and N, so every process and every machine makes the
/// same plan, and the plan's [`fingerprint`](ShardPlan::fingerprint) says so: [`crate::merge`]
/// refuses to add shards of different plans. Each shard reports an even share of the nodes
/// above the parts, and shard 1 the solutions among them.
///
/// A count that remembers subproblems (as [`Dlx::count_all`] decides, after its first search
/// and its trial) is not cut: its subproblems repeat across the whole tree, which parts counted
/// apart would each count again. Shard 1 counts it whole, as one process would, and the
/// others have nothing to count.
#[derive(Clone, Debug)]
pub struct ShardPlan {
    shards: usize,
    /// Each shard's parts (shard `i` at index `i - 1`), in the tree's order.
    parts: Vec<Vec<Subtree>>,
    /// The nodes above the parts, and the solutions among them.
    top: Stats,
    /// The solutions above the parts, as the options chosen on the way.
    top_solutions: Vec<Vec<usize>>,
    problem: u64,
    fingerprint: u64,
    /// The nodes the split walked to make the plan.
    planning_nodes: u64,
    /// Whether the count remembers subproblems ([`Dlx::counts_by_remembering`]): then the
    /// plan has no parts, and shard 1 counts the whole tree.
    remembers: bool,
}

impl ShardPlan {
    /// The number of shards.
    pub fn shards(&self) -> usize {
        self.shards
    }

    /// The fingerprint of the problem (the links as they stand, forced options included).
    pub fn problem_fingerprint(&self) -> u64 {
        self.problem
    }

    /// The fingerprint of the plan: the problem, N, and which options each shard takes.
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }

    /// The nodes walked to make the plan, the split's. A budget's nodes pay for them before
    /// the shard's search, so that a node budget bounds the whole run.
    pub fn planning_nodes(&self) -> u64 {
        self.planning_nodes
    }

    /// Whether a count of these links remembers subproblems, as the whole count would: then
    /// shard 1 counts it whole and the others count nothing ([`Dlx::count_shard`]).
    pub(crate) fn remembers(&self) -> bool {
        self.remembers
    }

    /// The parts of shard `shard` (1-based), in the tree's order.
    pub(crate) fn parts_of(&self, shard: usize) -> impl Iterator<Item = &Subtree> + '_ {
        self.parts[shard - 1].iter()
    }

    /// Shard `shard`'s record of the nodes above the parts: an even share of their work, and
    /// for shard 1 their solutions.
    fn top_share(&self, shard: usize) -> Stats {
        let share = |total: u64| {
            let part = |i: usize| (u128::from(total) * i as u128 / self.shards as u128) as u64;
            part(shard) - part(shard - 1)
        };
        let top = &self.top;
        Stats {
            nodes: share(top.nodes),
            updates: share(top.updates),
            backtracks: share(top.backtracks),
            covers: share(top.covers),
            solutions: if shard == 1 { top.solutions } else { 0 },
            max_depth: top.max_depth,
            ..Stats::default()
        }
    }
}

impl Dlx {
    /// The plan that cuts the tree below the options forced now into `shards` shards (1 or
    /// more); the same links and `shards` give the same plan everywhere. The links are left as
    /// they were.
    ///
    /// ```
    /// use quadrille::Budget;
    /// use quadrille::exact_cover::{CountSink, Dlx, Plan};
    /// use quadrille::problems;
    ///
    /// let mut dlx = Dlx::new(&problems::langford(8)?);
    /// let shards = dlx.shard_plan(3);
    /// let mut counts = Vec::new();
    /// for i in 1..=3 {
    ///     let plan = Plan::new().shard(&shards, i);
    ///     counts.push(dlx.run(&plan, &Budget::unlimited(), CountSink::new(None))?.stats.solutions);
    /// }
    /// assert_eq!(counts.iter().sum::<u64>(), 300); // Langford pairs, n = 8: 150 pairs each way
    /// assert_eq!(shards.fingerprint(), Dlx::new(&problems::langford(8)?).shard_plan(3).fingerprint());
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    ///
    /// # Panics
    /// If `shards` is 0.
    pub fn shard_plan(&mut self, shards: usize) -> ShardPlan {
        self.shard_plan_within(shards, &Budget::unlimited())
            .expect("nothing stops a plan without a budget")
    }

    /// [`Dlx::shard_plan`] within `budget`: its time, interrupt and nodes, read once the split
    /// is made ([`ShardPlan::planning_nodes`] tells a finished plan's nodes). A plan is all or
    /// nothing (a part of one is no plan, and its fingerprint would be another's), so `Err`
    /// says which budget ran out first; the split itself, bounded by the number of nodes
    /// wanted, is not stopped. The links are left as they were.
    ///
    /// ```
    /// use std::time::Duration;
    /// use quadrille::{Budget, Stop};
    /// use quadrille::exact_cover::Dlx;
    /// use quadrille::problems;
    ///
    /// let mut dlx = Dlx::new(&problems::langford(8)?);
    /// assert_eq!(dlx.shard_plan_within(3, &Budget::time(Duration::ZERO)).err(), Some(Stop::TimeBudget));
    /// assert_eq!(dlx.shard_plan_within(3, &Budget::nodes(10)).err(), Some(Stop::NodeBudget));
    /// let plan = dlx.shard_plan(3);
    /// let within = dlx.shard_plan_within(3, &Budget::nodes(plan.planning_nodes())).expect("a plan");
    /// assert_eq!(within.fingerprint(), plan.fingerprint());
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    ///
    /// # Panics
    /// If `shards` is 0.
    pub fn shard_plan_within(&mut self, shards: usize, budget: &Budget) -> Result<ShardPlan, Stop> {
        assert!(shards > 0, "a plan needs at least one shard");
        let start = Instant::now();
        // Remembered subproblems repeat across the whole tree: a count that remembers is not
        // split (its plan has no parts).
        let remembers = self.counts_by_remembering();
        let split = if remembers {
            Split {
                subtrees: Vec::new(),
                stats: Stats::default(),
                solutions: Vec::new(),
            }
        } else {
            self.split_while_wide(
                shards.saturating_mul(NODES_PER_SHARD).min(MOST_SPLIT_NODES),
                shards.saturating_mul(LEAST_NODES_PER_SHARD),
                shards.saturating_mul(NODES_PER_SHARD * RUNS_PER_NODE),
            )
        };
        let planning_nodes = split.stats.nodes;
        if planning_nodes > budget.node_limit() {
            return Err(Stop::NodeBudget);
        }
        if budget.is_interrupted() || budget.deadline(start).is_some_and(|d| Instant::now() >= d) {
            return Err(Stop::TimeBudget);
        }

        // The parts in the tree's order, dealt snake-wise: part k goes to shard k mod N in
        // even rounds of N and to shard N - 1 - k mod N in odd ones, so that no shard is always
        // first in a round.
        let mut parts: Vec<Vec<Subtree>> = vec![Vec::new(); shards];
        for (k, part) in split.subtrees.into_iter().enumerate() {
            let (round, place) = (k / shards, k % shards);
            let shard = if round % 2 == 0 {
                place
            } else {
                shards - 1 - place
            };
            // A shard dealt several runs of one node (an item with very many options) takes
            // them as one part: its item is covered once.
            let part = match parts[shard].last_mut() {
                Some(last) => last.absorb(part),
                None => Some(part),
            };
            parts[shard].extend(part);
        }

        let problem = self.fingerprint();
        let mut hash = Fnv::new();
        hash.add(problem);
        hash.add(shards as u64);
        // A plan without parts is told apart from one that remembers; a plan with parts keeps
        // the fingerprint its shards' records already carry.
        if remembers {
            hash.add(u64::MAX);
        }
        for (shard, parts) in parts.iter().enumerate() {
            for part in parts {
                hash.add(shard as u64);
                hash.add(part.header() as u64);
                hash.add(part.prefix().len() as u64);
                part.prefix().iter().for_each(|&o| hash.add(o as u64));
                hash.add(part.options().len() as u64);
                part.options().iter().for_each(|&o| hash.add(o as u64));
            }
        }
        Ok(ShardPlan {
            shards,
            parts,
            top: split.stats,
            top_solutions: split.solutions,
            problem,
            fingerprint: hash.finish(),
            planning_nodes,
            remembers,
        })
    }

    /// Searches shard `shard` (1-based) of `plan` within `budget`, handing each solution to
    /// `sink`: what [`Dlx::run`] does for a plan with [`Plan::shard`](super::Plan::shard).
    /// Shard 1 also reports the nodes above the parts and the solutions among them.
    ///
    /// # Panics
    /// If `shard` is not in `1..=plan.shards()` (the plan's check refuses it first).
    pub(crate) fn search_shard<S: Sink>(
        &mut self,
        plan: &ShardPlan,
        shard: usize,
        budget: &Budget,
        mut sink: S,
    ) -> Report {
        assert!(
            (1..=plan.shards).contains(&shard),
            "shard {shard} of {}",
            plan.shards
        );
        if plan.remembers() {
            // No parts: shard 1 walks the whole tree, handing each solution to the sink (a
            // count takes `count_shard`, which remembers).
            if shard > 1 {
                return Report {
                    stats: Stats::default(),
                    stop: Stop::Exhausted,
                };
            }
            return self.search(budget, |s: &super::Solution<'_>| sink.solution(s));
        }
        let start = std::time::Instant::now();
        let deadline = budget.deadline(start);
        let mut stats = plan.top_share(shard);
        let mut stop = Stop::Exhausted;
        if shard == 1 {
            // The split counted these; a search of each, from its options forced, hands it
            // to the sink as any other.
            let keep = self.links().forced_count();
            for options in &plan.top_solutions {
                for &option in options {
                    self.force(option)
                        .expect("a solution's options never clash");
                }
                let report = self.search(&Budget::unlimited(), |s: &super::Solution<'_>| {
                    sink.solution(s)
                });
                self.release_to(keep);
                if report.stop == Stop::Limit {
                    stop = Stop::Limit;
                }
            }
        }
        let mut at = Prefix::new(self);
        for part in plan.parts_of(shard) {
            if stop != Stop::Exhausted {
                break;
            }
            if stats.nodes >= budget.node_limit() {
                stop = Stop::NodeBudget;
                break;
            }
            let left = budget.until(budget.nodes.map(|n| n - stats.nodes), deadline);
            let report = self.search_subtree_at(
                part,
                &mut at,
                &left,
                &|| false,
                |s: &super::Solution<'_>| sink.solution(s),
            );
            stats.add(&report.stats);
            if report.stop != Stop::Exhausted {
                stop = report.stop;
                break;
            }
        }
        at.release(self);
        stats.elapsed = start.elapsed();
        Report { stats, stop }
    }

    /// Counts shard `shard` (1-based) of `plan` within `budget`: the count, of any size, and
    /// the report (its count cut at 64 bits, complete when the count is exact). A plan with
    /// parts is searched by them ([`Dlx::search_shard`]); of a plan that remembers, shard 1
    /// counts the whole tree as [`Dlx::count_all`] counts it (remembering, after the same first
    /// search and trial as the plan's) and the others count nothing.
    ///
    /// # Panics
    /// If `shard` is not in `1..=plan.shards()` (the plan's check refuses it first).
    pub(crate) fn count_shard(
        &mut self,
        plan: &ShardPlan,
        shard: usize,
        budget: &Budget,
    ) -> (BigUint, Report) {
        if !plan.remembers() || shard > 1 {
            let report = self.search_shard(plan, shard, budget, CountSink::new(None));
            return (BigUint::from(report.stats.solutions), report);
        }
        let counted = match self.count_all_start(budget) {
            CountStart::Done(report) => return (BigUint::from(report.stats.solutions), report),
            CountStart::Remembered(counted) => counted,
            CountStart::Enumerate { spent, rest } => {
                let mut report = self.search(&rest, CountSink::new(None));
                report.stats.add(&spent);
                return (BigUint::from(report.stats.solutions), report);
            }
        };
        let mut report = counted.report;
        // A count past 64 bits ends its report with a limit: the count says it all.
        if counted.exact {
            report.stop = Stop::Exhausted;
        }
        (counted.solutions, report)
    }

    /// A fingerprint of the problem as the links hold it: the items, each option's items in
    /// order, and the options forced. Equal problems give equal fingerprints on every machine
    /// (FNV-1a over the numbers, not the standard library's hasher, which may change).
    pub fn fingerprint(&self) -> u64 {
        let mut hash = Fnv::new();
        let links = self.links();
        hash.add(links.item_count() as u64);
        hash.add(links.primary_count() as u64);
        hash.add(links.option_count() as u64);
        for k in 0..links.option_count() {
            hash.add(links.items_of(k).count() as u64);
            for h in links.items_of(k) {
                hash.add(links.item_number(h) as u64);
            }
        }
        hash.add(links.forced_count() as u64);
        for option in self.forced() {
            hash.add(option as u64);
        }
        hash.finish()
    }
}

/// 64-bit FNV-1a, fed little-endian bytes of 64-bit numbers.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn add(&mut self, value: u64) {
        for byte in value.to_le_bytes() {
            self.0 ^= byte as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact_cover::CountSink;
    use crate::problems;

    /// Each shard walks its parts on one walk of prefixes, forcing only what the next part does
    /// not share with the last: the links come back as they were, and the shards' solutions
    /// and nodes add up to one search's.
    #[test]
    fn shards_leave_the_links_as_they_were_and_add_up_to_one_search() {
        for shards in [1, 2, 3, 7, 16] {
            let mut dlx = Dlx::new(&problems::queens(9).unwrap());
            let whole = dlx.count(None).stats;
            let before = dlx.link_fingerprint();
            let plan = dlx.shard_plan(shards);
            let (mut solutions, mut nodes) = (0, 0);
            for shard in 1..=shards {
                let report =
                    dlx.search_shard(&plan, shard, &Budget::unlimited(), CountSink::new(None));
                assert_eq!(report.stop, Stop::Exhausted);
                assert_eq!(dlx.link_fingerprint(), before, "shard {shard}/{shards}");
                solutions += report.stats.solutions;
                nodes += report.stats.nodes;
                let (count, counted) = dlx.count_shard(&plan, shard, &Budget::unlimited());
                assert_eq!(
                    (count, counted.stats.nodes),
                    (report.stats.solutions.into(), report.stats.nodes)
                );
                assert_eq!(dlx.link_fingerprint(), before, "shard {shard}/{shards}");
            }
            assert_eq!(
                (solutions, nodes),
                (whole.solutions, whole.nodes),
                "{shards} shards"
            );
            assert_eq!(solutions, 352, "9 queens");
        }
    }

    /// A count that remembers is not cut: shard 1 counts the whole tree, remembering, and the
    /// others nothing, whether counted or searched solution by solution; the links come back
    /// as they were, and the fingerprint tells the plan from the plain one.
    #[test]
    fn a_remembering_count_is_shard_ones_whole() {
        use crate::exact_cover::memo::{Memo, MemoMode};
        let plain = Dlx::new(&problems::queens(9).unwrap()).shard_plan(4);
        let mut dlx = Dlx::new(&problems::queens(9).unwrap());
        dlx.set_memo(Memo {
            mode: MemoMode::Always,
            ..dlx.memo()
        });
        let before = dlx.link_fingerprint();
        let plan = dlx.shard_plan(4);
        assert!(plan.remembers() && plan.planning_nodes() == 0);
        assert_ne!(plan.fingerprint(), plain.fingerprint());
        for shard in 1..=4 {
            let (count, report) = dlx.count_shard(&plan, shard, &Budget::unlimited());
            let searched =
                dlx.search_shard(&plan, shard, &Budget::unlimited(), CountSink::new(None));
            assert_eq!(dlx.link_fingerprint(), before, "shard {shard}");
            assert_eq!(
                (report.stop, searched.stop),
                (Stop::Exhausted, Stop::Exhausted)
            );
            let expected = if shard == 1 { 352u32 } else { 0 };
            assert_eq!(count, BigUint::from(expected), "shard {shard}");
            assert_eq!(
                searched.stats.solutions,
                u64::from(expected),
                "shard {shard}"
            );
            assert_eq!(report.stats.nodes > 0, shard == 1, "shard {shard}");
        }
    }

    /// A shard stopped by its budget in the middle of its parts leaves the links as they were.
    #[test]
    fn a_shard_stopped_among_its_parts_leaves_the_links_as_they_were() {
        let mut dlx = Dlx::new(&problems::queens(9).unwrap());
        let before = dlx.link_fingerprint();
        let plan = dlx.shard_plan(3);
        let above = plan.top_share(2).nodes;
        for nodes in [1, above + 50, above + 500] {
            let report = dlx.search_shard(&plan, 2, &Budget::nodes(nodes), CountSink::new(None));
            assert_eq!(report.stop, Stop::NodeBudget, "{nodes} nodes");
            assert_eq!(dlx.link_fingerprint(), before, "{nodes} nodes");
            if nodes > above {
                assert!(
                    report.stats.nodes > above,
                    "{nodes} nodes: a part was entered"
                );
            }
        }
    }
}
