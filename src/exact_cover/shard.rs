//! Shards: a search tree cut into N disjoint parts that separate processes count with no
//! communication, for a scheduler (GNU parallel, a Slurm job array) to run, and
//! [`crate::merge`] to add up.
//!
//! The tree is split ([`Dlx::split`]) into [`PARTS_PER_SHARD`] parts per shard; the size of each
//! part is estimated with Knuth's probes ([`Dlx::estimate`]), seeded by the part's number, and the
//! parts are dealt out largest first, each to the shard with the least estimated work so far
//! (Graham's LPT rule). Everything is a function of the links and N, computed in the same order
//! with the same arithmetic, so every process and every machine makes the same plan, and the
//! plan's fingerprint says so: [`crate::merge`] refuses to add shards of different plans.
//!
//! The nodes above the parts (and any solution among them) belong to shard 1, so that the merged
//! nodes and solutions are those of one search of the whole tree.

use std::time::Instant;

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;

use num_bigint::BigUint;

use super::Dlx;
use super::memo::{Memo, MemoMode};
use super::search::{Report, Sink, Stats};
use super::split::Subtree;
use crate::budget::{Budget, Stop};

/// Parts per shard: enough for the estimate's errors to even out within a shard.
pub const PARTS_PER_SHARD: usize = 32;
/// Probes spent on the estimates of one plan, shared out among its parts (at least
/// [`MIN_PROBES`] each): a few milliseconds, paid by every shard.
const PLAN_PROBES: usize = 8_192;
/// The fewest probes for one part's estimate.
const MIN_PROBES: usize = 4;
/// A part estimated at more than 1/(`REFINE_SHARE` x shards) of the whole tree is refined:
/// replaced by its children, each estimated afresh.
const REFINE_SHARE: f64 = 4.0;
/// Rounds of refinement at most (each goes one level deeper in the largest parts).
const REFINE_ROUNDS: usize = 3;

/// How a search tree is cut into shards.
///
/// The tree is split (`Dlx::split`) into 32 parts per shard; the size of each part is
/// estimated with Knuth's probes ([`Dlx::estimate`]), seeded by the part's number, and the parts
/// are dealt out largest first, each to the shard with the least estimated work so far
/// (Graham's LPT rule). Everything is a function of the links and N, computed in the same order
/// with the same arithmetic, so every process and every machine makes the same plan, and the
/// plan's [`fingerprint`](ShardPlan::fingerprint) says so: [`crate::merge`] refuses to add
/// shards of different plans. The nodes above the parts (and any solution among them) belong
/// to shard 1.
#[derive(Clone, Debug)]
pub struct ShardPlan {
    shards: usize,
    parts: Vec<Subtree>,
    /// Each part's shard, 0-based.
    owner: Vec<usize>,
    /// Each part's estimated nodes.
    cost: Vec<f64>,
    /// The nodes above the parts, and the solutions among them (shard 1's).
    top: Stats,
    /// The solutions above the parts, as the options chosen on the way.
    top_solutions: Vec<Vec<usize>>,
    problem: u64,
    fingerprint: u64,
    /// The nodes the split and the probes walked to make the plan.
    planning_nodes: u64,
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

    /// The nodes walked to make the plan: the split's and its probes'. A budget's nodes pay
    /// for them before the shard's search, so that a node budget bounds the whole run.
    pub fn planning_nodes(&self) -> u64 {
        self.planning_nodes
    }

    /// The parts of shard `shard` (1-based), in the tree's order.
    pub(crate) fn parts_of(&self, shard: usize) -> impl Iterator<Item = &Subtree> + '_ {
        self.parts
            .iter()
            .zip(&self.owner)
            .filter(move |&(_, &owner)| owner + 1 == shard)
            .map(|(part, _)| part)
    }

    /// The estimated nodes of each shard (1-based shard `i` at index `i - 1`).
    pub fn estimated_nodes(&self) -> Vec<f64> {
        let mut load = vec![0.0; self.shards];
        for (&owner, &cost) in self.owner.iter().zip(&self.cost) {
            load[owner] += cost;
        }
        load[0] += self.top.nodes as f64;
        load
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

    /// [`Dlx::shard_plan`] within `budget`, read after each probe of the parts' estimates: its
    /// time and interrupt, and its nodes, which count the split's nodes and every node the
    /// probes walk ([`ShardPlan::planning_nodes`] tells a finished plan's). A plan is all or
    /// nothing (a part of one is no plan, and its fingerprint would be another's), so `Err`
    /// says which budget ran out first; the split itself, bounded by the number of parts, is
    /// not stopped. The links are left as they were.
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
        let deadline = budget.deadline(start);
        let split = self.split(shards * PARTS_PER_SHARD);
        let node_limit = budget.node_limit();
        let mut walked = split.stats.nodes;
        let mut stopped = |nodes: u64| {
            walked = walked.saturating_add(nodes);
            if walked > node_limit {
                Some(Stop::NodeBudget)
            } else {
                (budget.is_interrupted() || deadline.is_some_and(|d| Instant::now() >= d))
                    .then_some(Stop::TimeBudget)
            }
        };
        if let Some(stop) = stopped(0) {
            return Err(stop);
        }
        let mut parts = split.subtrees;
        let (mut top, mut top_solutions) = (split.stats, split.solutions);
        let probes = (PLAN_PROBES / parts.len().max(1)).max(MIN_PROBES);
        let mut cost = Vec::with_capacity(parts.len());
        // Each part's probes are seeded by its number in the order estimated.
        let mut seed = 0u64;
        for part in &parts {
            cost.push(self.estimate_part(part, probes, seed, &mut stopped)?);
            seed += 1;
        }
        // A part estimated at more than a share of the whole is replaced by its children, each
        // estimated afresh: no shard is left with one part too large to balance, and a part
        // whose few probes overestimated it is measured again in finer pieces.
        for _ in 0..REFINE_ROUNDS {
            let most = cost.iter().sum::<f64>() / (REFINE_SHARE * shards as f64);
            if !cost.iter().any(|&c| c > most) {
                break;
            }
            let mut finer = Vec::with_capacity(parts.len());
            let mut finer_cost = Vec::with_capacity(parts.len());
            for (part, c) in parts.into_iter().zip(cost) {
                if c <= most {
                    finer.push(part);
                    finer_cost.push(c);
                    continue;
                }
                let (from, above) = (finer.len(), top.nodes);
                self.expand(&part, &mut top, &mut top_solutions, &mut finer);
                if let Some(stop) = stopped(top.nodes - above) {
                    return Err(stop);
                }
                for child in &finer[from..] {
                    finer_cost.push(self.estimate_part(child, probes, seed, &mut stopped)?);
                    seed += 1;
                }
            }
            (parts, cost) = (finer, finer_cost);
        }

        // Largest first, to the least loaded shard; ties go to the earlier part and shard.
        let mut order: Vec<usize> = (0..parts.len()).collect();
        order.sort_by(|&a, &b| cost[b].total_cmp(&cost[a]).then(a.cmp(&b)));
        let mut load = vec![0.0f64; shards];
        load[0] = top.nodes as f64;
        let mut owner = vec![0; parts.len()];
        for i in order {
            let lightest = (0..shards)
                .min_by(|&a, &b| load[a].total_cmp(&load[b]).then(a.cmp(&b)))
                .expect("at least one shard");
            owner[i] = lightest;
            load[lightest] += cost[i];
        }

        let planning_nodes = walked;
        let problem = self.fingerprint();
        let mut hash = Fnv::new();
        hash.add(problem);
        hash.add(shards as u64);
        for (part, &owner) in parts.iter().zip(&owner) {
            hash.add(owner as u64);
            hash.add(part.header() as u64);
            hash.add(part.prefix().len() as u64);
            part.prefix().iter().for_each(|&o| hash.add(o as u64));
            hash.add(part.options().len() as u64);
            part.options().iter().for_each(|&o| hash.add(o as u64));
        }
        Ok(ShardPlan {
            shards,
            parts,
            owner,
            cost,
            top,
            top_solutions,
            problem,
            fingerprint: hash.finish(),
            planning_nodes,
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
        let start = std::time::Instant::now();
        let deadline = budget.deadline(start);
        let mut stats = if shard == 1 {
            plan.top
        } else {
            Stats::default()
        };
        stats.elapsed = Default::default();
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
        for part in plan.parts_of(shard) {
            if stop != Stop::Exhausted {
                break;
            }
            if stats.nodes >= budget.node_limit() {
                stop = Stop::NodeBudget;
                break;
            }
            let left = budget.until(budget.nodes.map(|n| n - stats.nodes), deadline);
            let report = self.search_subtree(part, &left, &|| false, |s: &super::Solution<'_>| {
                sink.solution(s)
            });
            stats.add(&report.stats);
            if report.stop != Stop::Exhausted {
                stop = report.stop;
                break;
            }
        }
        stats.elapsed = start.elapsed();
        Report { stats, stop }
    }

    /// Counts shard `shard` (1-based) of `plan` within `budget`, remembering subproblems below
    /// each of its parts ([`Dlx::count_subtree_remembering`], always, as the whole count would
    /// after its trial): the count, of any size, and the report (its count cut at 64 bits).
    /// Shard 1 counts the solutions above the parts too.
    ///
    /// # Panics
    /// If `shard` is not in `1..=plan.shards()` (the plan's check refuses it first).
    pub(crate) fn count_shard_remembering(
        &mut self,
        plan: &ShardPlan,
        shard: usize,
        budget: &Budget,
    ) -> (BigUint, Report) {
        assert!(
            (1..=plan.shards).contains(&shard),
            "shard {shard} of {}",
            plan.shards
        );
        let start = std::time::Instant::now();
        let deadline = budget.deadline(start);
        let memo = Memo {
            mode: MemoMode::Always,
            ..self.memo()
        };
        let mut stats = if shard == 1 {
            plan.top
        } else {
            Stats::default()
        };
        stats.elapsed = Default::default();
        let mut count = BigUint::from(stats.solutions);
        let mut stop = Stop::Exhausted;
        for part in plan.parts_of(shard) {
            if stats.nodes >= budget.node_limit() {
                stop = Stop::NodeBudget;
                break;
            }
            let left = budget.until(budget.nodes.map(|n| n - stats.nodes), deadline);
            let (part_count, report) = self.count_subtree_remembering(part, &left, &memo);
            stats.add(&report.stats);
            count += part_count;
            if report.stop != Stop::Exhausted {
                stop = report.stop;
                break;
            }
        }
        stats.elapsed = start.elapsed();
        stats.solutions = u64::try_from(&count).unwrap_or(u64::MAX);
        (count, Report { stats, stop })
    }

    /// Estimated nodes of one part, from `probes` probes seeded by `seed`, unless `stopped`,
    /// told after each probe the nodes it walked, says a budget ran out.
    fn estimate_part(
        &mut self,
        part: &Subtree,
        probes: usize,
        seed: u64,
        stopped: &mut dyn FnMut(u64) -> Option<Stop>,
    ) -> Result<f64, Stop> {
        let keep = self.links().forced_count();
        let (h, _) = self.enter(part);
        let mut rng = Pcg64::seed_from_u64(seed);
        let len = part.options().len();
        let mut nodes = 0.0;
        for _ in 0..probes {
            let k = rng.random_range(0..len as u64) as usize;
            let x = self.links().node_of(part.options()[k], h);
            self.links_mut().choose(x);
            let probe = self.probe(&mut rng, len as f64);
            nodes += probe.nodes;
            self.links_mut().unchoose(x);
            if let Some(stop) = stopped(probe.walked) {
                self.leave(h, keep);
                return Err(stop);
            }
        }
        self.leave(h, keep);
        Ok(nodes / probes as f64)
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
