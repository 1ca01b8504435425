//! The cheapest solutions of a problem whose options have costs: branch and bound on
//! Algorithm M, as Knuth's dlx5 does on Algorithm C.
//!
//! # How
//!
//! - **Taxes** (dlx5): each item that every solution covers exactly once is taxed the least
//!   cost of its options, which is taken off the cost of every option that covers it. A
//!   solution's **net cost** is its cost less the total tax, the same for all solutions, so
//!   the order of solutions is unchanged; every net cost is 0 or more, and every taxed item has
//!   an option of net cost 0 (at the time it was taxed). Items with other multiplicities are
//!   not taxed, as a solution may cover them any number of times within their bounds.
//! - **Each item's options in order of net cost** (dlx5 sorts them too, stably): the first
//!   option left in an item's list is its cheapest, and once an option is too dear, so are the
//!   ones after it.
//! - **A lower bound at every node**: the net cost so far plus the larger of (a) dlx5's bound,
//!   the dearest of the cheapest options left to the active items that still need a cover, and
//!   (b) the sum over those items of the cover each needs times the least **share** of an
//!   option left to it, an option's share being its net cost divided by its number of primary
//!   items (each option's cost spread over the items it covers, so that no cost is counted
//!   twice). A node whose bound reaches the cost to beat is cut off, as is every option whose
//!   own cost reaches it.
//! - **The cost to beat** is the K-th cheapest net cost found so far ([`cheapest`]; ties with
//!   it are cut off, so that a tie is settled by the order of the tree), or the cheapest found
//!   so far for [`min_cost`], whose ties are kept, to be counted.
//!
//! The items are chosen as Algorithm M chooses them (see the module docs of `xcc`), among all
//! the options left, not only the affordable ones as dlx5 does: the tree is then the same
//! whatever the bound, so that ties fall in the tree's order with any number of threads (on
//! the priced pentominoes `--cheapest 1` took 2% longer than with dlx5's choice).
//!
//! # Threads
//!
//! [`cheapest_parallel`] and [`min_cost_parallel`] split the tree as `Xcc::count_parallel`
//! does: every thread walks the top of the tree without cutting anything, and below a split
//! depth explores only its share of the nodes met there, dealt round-robin. The cost to beat
//! is shared: a solution that beats it is kept under a lock, and each thread reads the new
//! cost to beat when a counter says it changed. A solution's place in the tree's order is its
//! part (the number of its node at the split depth) and its rank within the part, so a tie
//! with the cost to beat is cut off only in its own part or a later one: the answer is the one
//! thread's, solutions, costs and order.
//!
//! # Budgets
//!
//! A search stopped by its budget still says what it proved: the least lower bound of the
//! nodes it had not finished ([`Cheapest::bound`]). A solution found that costs no more is
//! among the cheapest for certain; the others are only the best found so far.

use std::collections::BinaryHeap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::search::{Turn, Turns};
use super::{Node, Xcc};
use crate::budget::{Budget, CLOCK_INTERVAL, Stop};
use crate::exact_cover::problem::Problem;
use crate::exact_cover::{Report, Stats};

/// A solution with its cost.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Priced {
    /// The total cost of its options.
    pub cost: u64,
    /// Its options, by number, in the order the search chose them.
    pub options: Vec<usize>,
}

/// The cheapest solutions found by [`cheapest`], in order of cost.
#[derive(Clone, Debug)]
pub struct Cheapest {
    /// Up to K solutions, cheapest first; solutions of equal cost in the order of the search
    /// tree, which depends only on the problem (not on the bound nor the threads).
    pub solutions: Vec<Priced>,
    /// How many of the first solutions are proved to be the cheapest: all of them when the
    /// search was complete; under a budget, those that cost no more than [`Cheapest::bound`].
    /// The solution at rank `r` below `proved` costs exactly what the `r`-th cheapest solution
    /// of the problem costs.
    pub proved: usize,
    /// A lower bound on the cost of every solution that the search did not find (and did not
    /// cut off as too dear): `None` when it finished.
    pub bound: Option<u64>,
    /// Nodes and options cut off by the bound.
    pub pruned: u64,
    /// The statistics and why the search stopped.
    pub report: Report,
}

/// The least cost of a solution and how many solutions cost that, found by [`min_cost`].
#[derive(Clone, Debug)]
pub struct MinCost {
    /// The cheapest solution found (the first of that cost), if any.
    pub best: Option<Priced>,
    /// How many solutions cost as much as `best` (among those found, under a budget).
    pub count: u64,
    /// Whether `best`'s cost is proved to be the least, or that there is no solution when
    /// `best` is `None` (always true of a finished search).
    pub proved: bool,
    /// As [`Cheapest::bound`].
    pub bound: Option<u64>,
    /// Nodes and options cut off by the bound.
    pub pruned: u64,
    /// The statistics and why the search stopped.
    pub report: Report,
}

/// Up to `k` cheapest solutions of `problem` by the costs of its options
/// ([`ProblemBuilder::set_cost`](crate::exact_cover::ProblemBuilder::set_cost)), within
/// `budget`, on one thread. Colours and multiplicities are allowed; a problem without costs
/// gives its first `k` solutions, each of cost 0.
///
/// ```
/// use quadrille::Budget;
/// use quadrille::exact_cover::{ProblemBuilder, cheapest};
///
/// // Cover a and b: by one option of cost 5, or by two of costs 1 and 2.
/// let mut b = ProblemBuilder::new();
/// b.primary("a")?;
/// b.primary("b")?;
/// let both = b.option_by_names(["a", "b"])?;
/// let a = b.option_by_names(["a"])?;
/// let b_only = b.option_by_names(["b"])?;
/// b.set_cost(both, 5)?;
/// b.set_cost(a, 1)?;
/// b.set_cost(b_only, 2)?;
/// let found = cheapest(&b.build()?, 3, &Budget::unlimited());
/// let costs: Vec<u64> = found.solutions.iter().map(|s| s.cost).collect();
/// assert_eq!((costs, found.proved), (vec![3, 5], 2));
/// # Ok::<(), quadrille::Error>(())
/// ```
pub fn cheapest(problem: &Problem, k: usize, budget: &Budget) -> Cheapest {
    search(problem, Some(k.max(1)), budget, 1).cheapest()
}

/// [`cheapest`] on the threads of the current rayon pool (see the module docs): the same
/// solutions in the same order; the statistics add up every thread's work.
///
/// ```
/// use quadrille::Budget;
/// use quadrille::exact_cover::{ProblemBuilder, cheapest, cheapest_parallel};
///
/// // Choose 2 of 8 options, option k costing k % 3: ties everywhere.
/// let mut b = ProblemBuilder::new();
/// b.primary_with_bounds("two", 2, 2)?;
/// for k in 0..8 {
///     let option = b.option_by_names(["two"])?;
///     b.set_cost(option, k % 3)?;
/// }
/// let problem = b.build()?;
/// let one = cheapest(&problem, 5, &Budget::unlimited());
/// let two_threads = rayon::ThreadPoolBuilder::new().num_threads(2).build()?;
/// let two = two_threads.install(|| cheapest_parallel(&problem, 5, &Budget::unlimited()));
/// assert_eq!(one.solutions, two.solutions);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn cheapest_parallel(problem: &Problem, k: usize, budget: &Budget) -> Cheapest {
    search(
        problem,
        Some(k.max(1)),
        budget,
        rayon::current_num_threads(),
    )
    .cheapest()
}

/// The least cost of a solution of `problem` and the number of solutions of that cost, within
/// `budget` (see [`cheapest`]).
///
/// ```
/// use quadrille::Budget;
/// use quadrille::exact_cover::{ProblemBuilder, min_cost};
///
/// // Two ways to cover a and b that cost 3, one that costs 4.
/// let mut b = ProblemBuilder::new();
/// b.primary("a")?;
/// b.primary("b")?;
/// for (items, cost) in [(&["a", "b"][..], 3), (&["a"], 1), (&["b"], 2), (&["b"], 3)] {
///     let option = b.option_by_names(items.iter().copied())?;
///     b.set_cost(option, cost)?;
/// }
/// let found = min_cost(&b.build()?, &Budget::unlimited());
/// assert_eq!((found.best.map(|s| s.cost), found.count, found.proved), (Some(3), 2, true));
/// # Ok::<(), quadrille::Error>(())
/// ```
pub fn min_cost(problem: &Problem, budget: &Budget) -> MinCost {
    search(problem, None, budget, 1).least()
}

/// [`min_cost`] on the threads of the current rayon pool: the same cost, count and first
/// solution.
pub fn min_cost_parallel(problem: &Problem, budget: &Budget) -> MinCost {
    search(problem, None, budget, rayon::current_num_threads()).least()
}

/// A solution's place in the tree's order: its part (see [`Seeker::part`]), then its rank
/// among the solutions its thread found.
type Place = (u64, u64);

/// A solution found: its net cost, its place, its options.
type Found = (u64, Place, Vec<usize>);

/// What the threads of one search share.
struct Shared {
    /// `Some(k)`: the `k` cheapest; `None`: the least cost.
    k: Option<usize>,
    /// The `k` cheapest so far (dearest on top), and the cost to beat with the part it was
    /// found in: `(net, part)` of the top once there are `k`, else `u64::MAX` twice.
    kept: Mutex<(BinaryHeap<Found>, (u64, u64))>,
    /// Incremented after each change of the cost to beat, so that a thread reads it again.
    version: AtomicU64,
    /// The least net cost found so far (`u64::MAX`: none), for the least cost.
    least: AtomicU64,
    /// Set when a thread stops on a budget, so that the others stop too.
    halt: AtomicBool,
    /// Nodes of all threads, added every `CLOCK_INTERVAL` nodes, for a shared node budget.
    nodes: AtomicU64,
}

impl Shared {
    fn new(k: Option<usize>) -> Shared {
        Shared {
            k,
            kept: Mutex::new((BinaryHeap::new(), (u64::MAX, u64::MAX))),
            version: AtomicU64::new(0),
            least: AtomicU64::new(u64::MAX),
            halt: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
        }
    }
}

/// One thread's view of the search: its share of the tree, and what it found.
struct Seeker<'a> {
    shared: &'a Shared,
    /// The part of the node being searched: 0 without a split; below the split depth, twice
    /// the node's number there plus one; above it, twice the number of nodes met there so
    /// far, so that the solutions above and below the split fall in the tree's order.
    part: u64,
    /// Solutions found so far by this thread.
    rank: u64,
    /// The cost to beat and its part, as last read, and the version it was read at.
    bar: (u64, u64),
    seen: u64,
    /// The least cost: this thread's cheapest solution (the first found of its cost) and how
    /// many of that cost it found.
    best: Option<Found>,
    count: u64,
}

impl<'a> Seeker<'a> {
    fn new(shared: &'a Shared) -> Seeker<'a> {
        Seeker {
            shared,
            part: 0,
            rank: 0,
            bar: (u64::MAX, u64::MAX),
            seen: 0,
            best: None,
            count: 0,
        }
    }

    /// Whether a subtree of the current part none of whose solutions costs less than `net`
    /// can be skipped.
    #[inline]
    fn cuts(&mut self, net: u64) -> bool {
        if self.shared.k.is_none() {
            return net > self.shared.least.load(Ordering::Relaxed);
        }
        let version = self.shared.version.load(Ordering::Acquire);
        if version != self.seen {
            self.seen = version;
            self.bar = self.shared.kept.lock().expect("no thread panics").1;
        }
        // A tie in a part after the bar's, or in its own (found later), loses.
        (net, self.part) >= self.bar
    }

    /// Takes in a solution of net cost `net`.
    fn found(&mut self, net: u64, options: &[usize]) {
        self.rank += 1;
        let place = (self.part, self.rank);
        let shared = self.shared;
        let Some(k) = shared.k else {
            match &self.best {
                Some((b, _, _)) if net > *b => {}
                Some((b, _, _)) if net == *b => self.count += 1,
                _ => {
                    self.best = Some((net, place, options.to_vec()));
                    self.count = 1;
                    shared.least.fetch_min(net, Ordering::Relaxed);
                }
            }
            return;
        };
        if (net, self.part) >= self.bar {
            return;
        }
        let mut kept = shared.kept.lock().expect("no thread panics");
        let (heap, bar) = &mut *kept;
        heap.push((net, place, options.to_vec()));
        if heap.len() > k {
            heap.pop();
        }
        if heap.len() == k
            && let Some((top, (part, _), _)) = heap.peek()
        {
            *bar = (*top, *part);
            shared.version.fetch_add(1, Ordering::Release);
        }
    }
}

/// What a search (on one thread or several) found, before it is priced.
struct Outcome {
    links: PricedLinks,
    shared: Shared,
    /// Each thread's least cost: its first solution of that cost and how many.
    least: Vec<(Option<Found>, u64)>,
    report: Report,
    bound: Option<u64>,
    pruned: u64,
}

impl Outcome {
    fn cheapest(self) -> Cheapest {
        let tax = self.links.tax;
        let heap = self.shared.kept.into_inner().expect("no thread panics").0;
        let mut found: Vec<Found> = heap.into_vec();
        found.sort_unstable();
        let solutions: Vec<Priced> = found
            .into_iter()
            .map(|(net, _, options)| Priced {
                cost: net + tax,
                options,
            })
            .collect();
        let proved = match self.bound {
            None => solutions.len(),
            Some(b) => solutions.iter().take_while(|s| s.cost <= b).count(),
        };
        Cheapest {
            solutions,
            proved,
            bound: self.bound,
            pruned: self.pruned,
            report: self.report,
        }
    }

    fn least(self) -> MinCost {
        let tax = self.links.tax;
        let least = self
            .least
            .iter()
            .filter_map(|(b, _)| b.as_ref().map(|b| b.0))
            .min();
        let (mut best, mut count): (Option<Found>, u64) = (None, 0);
        for (b, c) in self.least {
            if let Some(b) = b
                && Some(b.0) == least
            {
                count += c;
                if best.as_ref().is_none_or(|first| b.1 < first.1) {
                    best = Some(b);
                }
            }
        }
        let best = best.map(|(net, _, options)| Priced {
            cost: net + tax,
            options,
        });
        let proved = match (&best, self.bound) {
            (_, None) => true,
            (Some(best), Some(b)) => best.cost <= b,
            (None, Some(_)) => false,
        };
        MinCost {
            best,
            count,
            proved,
            bound: self.bound,
            pruned: self.pruned,
            report: self.report,
        }
    }
}

/// Nodes at the split depth wanted per thread, so that uneven subtrees even out.
const NODES_PER_THREAD: u64 = 64;
/// The split is never deeper than this.
const MAX_SPLIT_DEPTH: usize = 12;

/// The search for the `k` cheapest (`None`: the least cost) on `threads` threads of the
/// current rayon pool.
fn search(problem: &Problem, k: Option<usize>, budget: &Budget, threads: usize) -> Outcome {
    let start = Instant::now();
    let mut links = PricedLinks::new(problem);
    let shared = Shared::new(k);
    if threads <= 1 {
        let mut seeker = Seeker::new(&shared);
        let (report, bound, pruned) = links.run(budget, &mut seeker, None);
        let least = vec![(seeker.best, seeker.count)];
        return Outcome {
            links,
            shared,
            least,
            report,
            bound,
            pruned,
        };
    }
    let threads = threads as u64;
    let depth = links.split_depth(threads * NODES_PER_THREAD, k);
    let base = &links;
    let shared_ref = &shared;
    let results: Vec<_> = (0..threads)
        .into_par_iter()
        .map(|residue| {
            let mut links = base.clone();
            let mut seeker = Seeker::new(shared_ref);
            let mut share = Turns {
                depth,
                modulus: threads,
                residue,
                met: 0,
            };
            let run = links.run(budget, &mut seeker, Some(&mut share));
            (run, (seeker.best, seeker.count))
        })
        .collect();
    let mut stats = Stats::default();
    let mut stop = Stop::Exhausted;
    let (mut bound, mut pruned) = (None::<u64>, 0);
    let mut least = Vec::new();
    for ((report, b, p), l) in results {
        stats.add(&report.stats);
        if report.stop != Stop::Exhausted && (stop == Stop::Exhausted || report.stop.is_budget()) {
            stop = report.stop;
        }
        if let Some(b) = b {
            bound = Some(bound.map_or(b, |a| a.min(b)));
        }
        pruned += p;
        least.push(l);
    }
    stats.elapsed = start.elapsed();
    Outcome {
        links,
        shared,
        least,
        report: Report { stats, stop },
        bound,
        pruned,
    }
}

/// Shares are net costs times `SHARE_ONE` divided by a number of items, rounded down, so that
/// their sum is never above the costs it bounds.
const SHARE_ONE: u64 = 1 << 16;

/// The links of a problem with its options' net costs, sorted for the search.
#[derive(Clone)]
struct PricedLinks {
    xcc: Xcc,
    /// The net cost of each option.
    net: Vec<u64>,
    /// Each option's share: its net cost times [`SHARE_ONE`] over its number of primary items.
    share: Vec<u64>,
    /// Each primary item's most primary items in one of its options (index: header).
    widest: Vec<u64>,
    /// The total tax: a solution's cost is its net cost plus this.
    tax: u64,
    /// The net cost before each level's choice, and the lower bound of each level's node.
    part: Vec<u64>,
    bound_at: Vec<u64>,
}

impl PricedLinks {
    /// The links of `problem`, taxed, with every item's options sorted by net cost.
    fn new(problem: &Problem) -> PricedLinks {
        let mut xcc = Xcc::new(problem);
        let options = problem.option_count();
        let mut net: Vec<u64> = (0..options).map(|o| problem.option_cost(o)).collect();
        let primaries: Vec<u64> = (0..options)
            .map(|o| {
                let items = problem.option(o).iter();
                items.filter(|&&i| problem.item_bounds(i).is_some()).count() as u64
            })
            .collect();
        let mut widest = vec![0u64; xcc.primary_count as usize + 1];
        let mut tax = 0u64;
        for h in 1..=xcc.primary_count {
            let nodes = xcc.list(h);
            for &p in &nodes {
                let w = &mut widest[h as usize];
                *w = (*w).max(primaries[xcc.option_of[p as usize] as usize]);
            }
            // Only an item covered exactly once by every solution is taxed.
            if xcc.bound[h as usize] != 1 || xcc.slack[h as usize] != 0 {
                continue;
            }
            let Some(least) = nodes
                .iter()
                .map(|&p| net[xcc.option_of[p as usize] as usize])
                .min()
            else {
                continue;
            };
            tax += least;
            for &p in &nodes {
                net[xcc.option_of[p as usize] as usize] -= least;
            }
        }
        for h in 1..=xcc.primary_count {
            let mut nodes = xcc.list(h);
            // Stable: options of equal net cost stay in input order, as in dlx5.
            nodes.sort_by_key(|&p| net[xcc.option_of[p as usize] as usize]);
            xcc.relink(h, &nodes);
        }
        let share = (0..options)
            .map(|o| net[o].saturating_mul(SHARE_ONE) / primaries[o].max(1))
            .collect();
        let depth = xcc.choice.len();
        PricedLinks {
            xcc,
            net,
            share,
            widest,
            tax,
            part: vec![0; depth],
            bound_at: vec![0; depth],
        }
    }

    /// The net cost of node `p`'s option.
    #[inline]
    fn net_of(&self, p: u32) -> u64 {
        self.net[self.xcc.option_of[p as usize] as usize]
    }

    /// A lower bound on the net cost still to pay (see the module docs); `u64::MAX` when an
    /// item that needs a cover has no option left.
    fn bound(&self) -> u64 {
        let xcc = &self.xcc;
        let (mut dearest, mut shares) = (0u64, 0u64);
        let mut h = xcc.next[0];
        while h != 0 {
            let bound = xcc.bound[h as usize];
            let need = bound - xcc.slack[h as usize].min(bound);
            if need > 0 {
                let first = xcc.nodes[h as usize].down;
                if first == h {
                    return u64::MAX;
                }
                let cheapest = self.net_of(first);
                dearest = dearest.max(cheapest);
                // The least share: an option of net cost c has a share of at least
                // c / widest, so the scan ends where that reaches the least so far.
                let widest = self.widest[h as usize].max(1);
                let mut least = self.share[self.xcc.option_of[first as usize] as usize];
                let mut p = xcc.nodes[first as usize].down;
                while p != h {
                    let net = self.net_of(p);
                    if net.saturating_mul(SHARE_ONE) / widest >= least {
                        break;
                    }
                    least = least.min(self.share[self.xcc.option_of[p as usize] as usize]);
                    p = xcc.nodes[p as usize].down;
                }
                shares = shares.saturating_add(least.saturating_mul(need as u64));
            }
            h = xcc.next[h as usize];
        }
        dearest.max(shares.div_ceil(SHARE_ONE))
    }

    /// The shallowest depth with at least `wanted` nodes (up to [`MAX_SPLIT_DEPTH`]), found
    /// by walking the top of the tree down to each depth in turn (nothing is cut there).
    fn split_depth(&mut self, wanted: u64, k: Option<usize>) -> usize {
        let mut depth = 1;
        while depth < MAX_SPLIT_DEPTH {
            let shared = Shared::new(k);
            let mut probe = Turns {
                depth,
                modulus: 0,
                residue: 0,
                met: 0,
            };
            self.run(
                &Budget::unlimited(),
                &mut Seeker::new(&shared),
                Some(&mut probe),
            );
            if probe.met >= wanted || probe.met == 0 {
                break;
            }
            depth += 1;
        }
        depth
    }

    /// Algorithm M (as `Xcc::run`), on one share of the tree when `split` is given, cutting
    /// off what `seeker` says cannot be among the cheapest. Returns the report, the least
    /// bound of the nodes left unfinished (`None` if none was), and the nodes and options cut
    /// off.
    fn run(
        &mut self,
        budget: &Budget,
        seeker: &mut Seeker<'_>,
        mut split: Option<&mut Turns>,
    ) -> (Report, Option<u64>, u64) {
        #[derive(Clone, Copy)]
        enum Phase {
            Enter,
            Try,
            Restore,
            Leave,
        }
        let start = Instant::now();
        let deadline = budget.stop_at(start);
        let node_limit = budget.node_limit();
        let mut stats = Stats::default();
        let mut pruned = 0u64;
        let mut level = 0usize;
        let (mut i, mut x) = (0u32, 0u32);
        let mut net = 0u64;
        let mut halted: Option<Stop> = None;
        let mut unfinished: Option<u64> = None;
        let mut phase = Phase::Enter;

        let stop = loop {
            match phase {
                Phase::Enter => {
                    // Above the split every thread walks the same nodes: none is cut there,
                    // and only share 0 counts them.
                    let above = split.as_ref().is_some_and(|s| level < s.depth);
                    let counted = split.as_ref().is_none_or(|s| s.counts(level));
                    match split.as_mut().map_or(Turn::Free, |s| s.turn(level)) {
                        Turn::Free => {}
                        Turn::Mine(number) => seeker.part = 2 * number + 1,
                        Turn::Theirs => {
                            phase = Phase::Leave;
                            continue;
                        }
                    }
                    if stats.nodes >= node_limit {
                        halted = Some(Stop::NodeBudget);
                    } else if counted
                        && stats.nodes.is_multiple_of(CLOCK_INTERVAL)
                        && stats.nodes > 0
                    {
                        if deadline.is_some_and(|d| d.has_passed()) {
                            halted = Some(Stop::TimeBudget);
                        } else if split.is_some() {
                            let shared = seeker.shared;
                            let all = shared.nodes.fetch_add(CLOCK_INTERVAL, Ordering::Relaxed);
                            if all + CLOCK_INTERVAL >= node_limit {
                                halted = Some(Stop::NodeBudget);
                            } else if shared.halt.load(Ordering::Relaxed) {
                                halted = Some(Stop::Limit);
                            }
                        }
                    }
                    if halted.is_some() {
                        if halted.is_some_and(|h| h.is_budget()) {
                            seeker.shared.halt.store(true, Ordering::Relaxed);
                        }
                        // Every node not finished lies below one of the levels on the stack.
                        let least = self.bound_at[..level].iter().copied().min();
                        unfinished = Some(least.unwrap_or(0).saturating_add(self.tax));
                        phase = Phase::Leave;
                        continue;
                    }
                    if counted {
                        stats.nodes += 1;
                    }
                    stats.max_depth = stats.max_depth.max(level);
                    let lower = net.saturating_add(self.bound());
                    self.bound_at[level] = lower;
                    if lower == u64::MAX || (!above && seeker.cuts(lower)) {
                        pruned += (lower != u64::MAX && counted) as u64;
                        stats.backtracks += (lower == u64::MAX && counted) as u64;
                        phase = Phase::Leave;
                        continue;
                    }
                    match self.xcc.choose() {
                        None => {
                            if counted {
                                stats.solutions += 1;
                                self.xcc.list_solution(level);
                                if let Some(s) = split.as_ref()
                                    && above
                                {
                                    seeker.part = 2 * s.met;
                                }
                                seeker.found(net, &self.xcc.solution);
                            }
                            phase = Phase::Leave;
                        }
                        Some((_, score)) if score <= 0 => {
                            stats.backtracks += counted as u64;
                            phase = Phase::Leave;
                        }
                        Some((h, _)) => {
                            i = h;
                            x = self.xcc.nodes[h as usize].down;
                            self.xcc.bound[h as usize] -= 1;
                            if self.xcc.bound[h as usize] == 0 {
                                stats.updates += self.xcc.cover::<false>(h);
                            }
                            self.xcc.first_tweak[level] = x;
                            phase = Phase::Try;
                        }
                    }
                }
                Phase::Try => {
                    let xcc = &mut self.xcc;
                    let (bound, slack) = (xcc.bound[i as usize], xcc.slack[i as usize]);
                    // Options come cheapest first: one too dear means the rest are too.
                    let above = split.as_ref().is_some_and(|s| level < s.depth);
                    let dear = x != i && !above && seeker.cuts(net.saturating_add(self.net_of(x)));
                    let xcc = &mut self.xcc;
                    if bound == 0 && slack == 0 {
                        if x == i || dear {
                            pruned += dear as u64;
                            phase = Phase::Restore;
                            continue;
                        }
                    } else if xcc.len[i as usize] as i64 <= bound as i64 - slack as i64 {
                        phase = Phase::Restore;
                        continue;
                    } else if x != i {
                        stats.updates += xcc.tweak::<false>(x, i, bound == 0);
                        if dear {
                            // Tweaked without being tried, so that leaving `i` alone
                            // excludes it too.
                            pruned += 1;
                            x = xcc.nodes[x as usize].down;
                            continue;
                        }
                    } else if bound != 0 {
                        xcc.deactivate(i);
                    }
                    xcc.choice[level] = x;
                    self.part[level] = net;
                    if x != i {
                        stats.updates += self.xcc.commit_others::<false>(x);
                        net += self.net_of(x);
                    }
                    level += 1;
                    phase = Phase::Enter;
                }
                Phase::Restore => {
                    let xcc = &mut self.xcc;
                    let (bound, slack) = (xcc.bound[i as usize], xcc.slack[i as usize]);
                    if bound == 0 && slack == 0 {
                        xcc.uncover::<false>(i);
                    } else {
                        xcc.untweak::<false>(i, xcc.first_tweak[level], bound == 0);
                        if bound == 0 {
                            xcc.uncover::<false>(i);
                        }
                    }
                    xcc.bound[i as usize] += 1;
                    phase = Phase::Leave;
                }
                Phase::Leave => {
                    if level == 0 {
                        break halted.unwrap_or(Stop::Exhausted);
                    }
                    level -= 1;
                    net = self.part[level];
                    let xcc = &mut self.xcc;
                    x = xcc.choice[level];
                    if xcc.is_header(x) {
                        i = x;
                        if xcc.bound[i as usize] != 0 {
                            xcc.reactivate(i);
                        }
                        phase = Phase::Restore;
                        continue;
                    }
                    i = xcc.nodes[x as usize].top;
                    xcc.uncommit_others::<false>(x);
                    if halted.is_some() {
                        phase = Phase::Restore;
                    } else {
                        x = xcc.nodes[x as usize].down;
                        phase = Phase::Try;
                    }
                }
            }
        };
        debug_assert_eq!(self.xcc.sanity(), Ok(()));
        stats.elapsed = start.elapsed();
        (Report { stats, stop }, unfinished, pruned)
    }
}

impl Xcc {
    /// The nodes of item `h`'s list, top to bottom.
    fn list(&self, h: u32) -> Vec<u32> {
        let mut nodes = Vec::with_capacity(self.len[h as usize] as usize);
        let mut p = self.nodes[h as usize].down;
        while p != h {
            nodes.push(p);
            p = self.nodes[p as usize].down;
        }
        nodes
    }

    /// Links item `h`'s list anew, in the order of `nodes` (its nodes, each once).
    fn relink(&mut self, h: u32, nodes: &[u32]) {
        let mut above = h;
        for &p in nodes {
            self.nodes[above as usize].down = p;
            self.nodes[p as usize] = Node {
                up: above,
                ..self.nodes[p as usize]
            };
            above = p;
        }
        self.nodes[above as usize].down = h;
        self.nodes[h as usize].up = above;
    }
}
