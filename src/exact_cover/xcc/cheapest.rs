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
//!   it are cut off, so that a tie is settled by the order of discovery), or the cheapest found
//!   so far for [`min_cost`], whose ties are kept, to be counted.
//!
//! The items are chosen as Algorithm M chooses them (see the module docs of `xcc`), counting
//! only the options still affordable (dlx5 does so too): on the priced pentominoes that took
//! `--min-cost` from 644,915 nodes and 27.43G instructions to 539,407 and 24.62G (callgrind).
//! Where the bound cuts nothing, the search is the plain one's. It runs on one thread.
//!
//! # Budgets
//!
//! A search stopped by its budget still says what it proved: the least lower bound of the
//! nodes it had not finished ([`Cheapest::bound`]). A solution found that costs no more is
//! among the cheapest for certain; the others are only the best found so far.

use std::collections::BinaryHeap;
use std::time::Instant;

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
    /// Up to K solutions, cheapest first; solutions of equal cost in the order the search found
    /// them (which depends only on the problem).
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
/// `budget`. Colours and multiplicities are allowed; a problem without costs gives its first
/// `k` solutions, each of cost 0.
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
    let mut priced = PricedLinks::new(problem);
    let mut goal = Goal::Cheapest {
        k: k.max(1),
        heap: BinaryHeap::new(),
        found: 0,
    };
    let (report, bound, pruned) = priced.run(budget, &mut goal);
    let Goal::Cheapest { heap, .. } = goal else {
        unreachable!("the goal keeps its kind")
    };
    let mut found: Vec<(u64, u64, Vec<usize>)> = heap.into_vec();
    found.sort_unstable_by_key(|&(cost, seq, _)| (cost, seq));
    let solutions: Vec<Priced> = found
        .into_iter()
        .map(|(net, _, options)| Priced {
            cost: net + priced.tax,
            options,
        })
        .collect();
    let proved = match bound {
        None => solutions.len(),
        Some(b) => solutions.iter().take_while(|s| s.cost <= b).count(),
    };
    Cheapest {
        solutions,
        proved,
        bound,
        pruned,
        report,
    }
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
    let mut priced = PricedLinks::new(problem);
    let mut goal = Goal::Least {
        best: None,
        count: 0,
    };
    let (report, bound, pruned) = priced.run(budget, &mut goal);
    let Goal::Least { best, count } = goal else {
        unreachable!("the goal keeps its kind")
    };
    let best = best.map(|(net, options)| Priced {
        cost: net + priced.tax,
        options,
    });
    let proved = match (&best, bound) {
        (_, None) => true,
        (Some(best), Some(b)) => best.cost <= b,
        (None, Some(_)) => false,
    };
    MinCost {
        best,
        count,
        proved,
        bound,
        pruned,
        report,
    }
}

/// What the search keeps of the solutions it meets.
enum Goal {
    /// The `k` cheapest net costs so far, dearest on top, with the order they were found in
    /// (`found` so far).
    Cheapest {
        k: usize,
        heap: BinaryHeap<(u64, u64, Vec<usize>)>,
        found: u64,
    },
    /// The cheapest net cost so far, its first solution, and how many cost that.
    Least {
        best: Option<(u64, Vec<usize>)>,
        count: u64,
    },
}

impl Goal {
    /// Whether a subtree none of whose solutions costs less than `net` can be skipped.
    #[inline]
    fn cuts(&self, net: u64) -> bool {
        match self {
            Goal::Cheapest { k, heap, .. } => {
                heap.len() >= *k && heap.peek().is_some_and(|top| net >= top.0)
            }
            Goal::Least { best, .. } => best.as_ref().is_some_and(|(b, _)| net > *b),
        }
    }

    /// Takes in a solution of net cost `net`.
    fn found(&mut self, net: u64, options: &[usize]) {
        match self {
            Goal::Cheapest { k, heap, found } => {
                *found += 1;
                if heap.len() < *k {
                    heap.push((net, *found, options.to_vec()));
                } else if heap.peek().is_some_and(|top| net < top.0) {
                    heap.pop();
                    heap.push((net, *found, options.to_vec()));
                }
            }
            Goal::Least { best, count } => match best {
                Some((b, _)) if net > *b => {}
                Some((b, _)) if net == *b => *count += 1,
                _ => {
                    *best = Some((net, options.to_vec()));
                    *count = 1;
                }
            },
        }
    }
}

/// Shares are net costs times `SHARE_ONE` divided by a number of items, rounded down, so that
/// their sum is never above the costs it bounds.
const SHARE_ONE: u64 = 1 << 16;

/// The links of a problem with its options' net costs, sorted for the search.
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

    /// Algorithm M's choice of item (`Xcc::choose`), counting only the options of an item
    /// that `goal` does not cut off at net cost `net` so far, as dlx5 does: an item with few
    /// affordable options is the better branch, and one with too few is a dead end.
    fn choose(&self, net: u64, goal: &Goal) -> Option<(u32, i64)> {
        let xcc = &self.xcc;
        let mut best = None;
        let (mut best_score, mut best_slack, mut best_len) = (i64::MAX, 0, 0);
        let mut h = xcc.next[0];
        while h != 0 {
            let bound = xcc.bound[h as usize];
            let slack = xcc.slack[h as usize].min(bound);
            // The options are in order of net cost: count up to the first one too dear, and
            // no further than makes this item worse than the best so far.
            let enough = best_score.saturating_add((bound - slack) as i64);
            let mut len = 0u32;
            let mut p = xcc.nodes[h as usize].down;
            while p != h && (len as i64) < enough && !goal.cuts(net.saturating_add(self.net_of(p)))
            {
                len += 1;
                p = xcc.nodes[p as usize].down;
            }
            let score = len as i64 + 1 - (bound - slack) as i64;
            if score < best_score
                || (score == best_score
                    && (slack < best_slack || (slack == best_slack && len > best_len)))
            {
                best = Some(h);
                (best_score, best_slack, best_len) = (score, slack, len);
            }
            h = xcc.next[h as usize];
        }
        best.map(|h| (h, best_score))
    }

    /// Algorithm M (as `Xcc::run`, without shares), cutting off what `goal` says cannot be
    /// among the cheapest. Returns the report, the least bound of the nodes left unfinished
    /// (`None` if none was), and the nodes and options cut off.
    fn run(&mut self, budget: &Budget, goal: &mut Goal) -> (Report, Option<u64>, u64) {
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
                    if stats.nodes >= node_limit {
                        halted = Some(Stop::NodeBudget);
                    } else if stats.nodes.is_multiple_of(CLOCK_INTERVAL)
                        && stats.nodes > 0
                        && deadline.is_some_and(|d| d.has_passed())
                    {
                        halted = Some(Stop::TimeBudget);
                    }
                    if halted.is_some() {
                        // Every node not finished lies below one of the levels on the stack.
                        let least = self.bound_at[..level].iter().copied().min();
                        unfinished = Some(least.unwrap_or(0).saturating_add(self.tax));
                        phase = Phase::Leave;
                        continue;
                    }
                    stats.nodes += 1;
                    stats.max_depth = stats.max_depth.max(level);
                    let lower = net.saturating_add(self.bound());
                    self.bound_at[level] = lower;
                    if lower == u64::MAX || goal.cuts(lower) {
                        pruned += (lower != u64::MAX) as u64;
                        stats.backtracks += (lower == u64::MAX) as u64;
                        phase = Phase::Leave;
                        continue;
                    }
                    match self.choose(net, goal) {
                        None => {
                            stats.solutions += 1;
                            self.xcc.list_solution(level);
                            goal.found(net, &self.xcc.solution);
                            phase = Phase::Leave;
                        }
                        Some((_, score)) if score <= 0 => {
                            stats.backtracks += 1;
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
                    let dear = x != i && goal.cuts(net.saturating_add(self.net_of(x)));
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
