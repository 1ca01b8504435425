//! Knuth's Monte Carlo estimate of a search tree ("Estimating the efficiency of backtrack
//! programs", Mathematics of Computation 29, 1975).
//!
//! A probe walks from the root to a leaf, choosing the item as the search does ([`Mrv`]) and
//! one of its `len` options uniformly at random. A node reached through branchings of degrees
//! d1, d2, ..., dk stands for d1·d2···dk nodes of its level; summing those weights along the path
//! gives an unbiased estimate of the number of nodes, and the weights of the solution and of each
//! node's updates give unbiased estimates of the solutions and updates. The mean of many probes
//! is the estimate.
//!
//! The interval, and how far to trust it, is described at [`Interval`].

use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;

use super::Dlx;
use super::choose::{ActiveItems, ItemChooser, Mrv};
use super::search::{Control, Stats};
use crate::budget::{Budget, Stop};

/// z for a two-sided 95% interval of a normal distribution.
const Z_95: f64 = 1.959_963_984_540_054;
/// The fewest probes with a nonzero value for a bounded interval (see [`Interval`]).
pub const MIN_NONZERO: u64 = 10;

/// One quantity estimated by the probes: the mean and its 95% interval.
///
/// # The interval, and how far to trust it
///
/// Each quantity is reported with the normal 95% interval of the mean, `mean ± 1.96·s/√N` over
/// the `N` probes (`s`: their sample standard deviation), cut at 0 below. That is the interval
/// the central limit theorem gives for a mean of independent probes, and it is honest for
/// balanced trees (Sudoku grids, queens), where it holds the true count in most seeded runs (see
/// the tests). But a probe's value is the product of the branching degrees on its path, so its
/// distribution is heavy-tailed when the tree is lopsided: most probes then fall in small
/// subtrees and underestimate, a rare one lands in a huge subtree and dominates the mean, and a
/// sample that has not yet met such a probe has both a low mean and a low spread. The interval is
/// then too narrow and too low, and nothing in the sample says so. More probes are the only
/// cure; the interval is a guide to the order of magnitude, never a proof.
///
/// One case the sample does reveal: when fewer than [`MIN_NONZERO`] probes met what is counted
/// (a solution, typically, in a tree whose solutions are rare and deep, such as pentominoes),
/// the mean rests on a handful of values and the normal interval means nothing; the upper end
/// is then infinite, and the estimate says only that more probes are needed. On the 6x10
/// pentomino board 2,000 probes meet a solution about twice (Mrv's tree: 4.3 million nodes,
/// 9,356 solutions), so the solutions are unbounded there while the nodes are estimated well.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    /// The mean over the probes: Knuth's estimate.
    pub estimate: f64,
    /// The standard error of the mean (`s/√N`).
    pub std_error: f64,
    /// The interval's lower end, `estimate - 1.96·std_error`, never below 0.
    pub low: f64,
    /// The interval's upper end, `estimate + 1.96·std_error`; infinite when fewer than
    /// [`MIN_NONZERO`] probes had a nonzero value.
    pub high: f64,
    /// The probes with a nonzero value.
    pub nonzero: u64,
}

impl Interval {
    /// Whether `value` lies in the interval.
    pub fn contains(&self, value: f64) -> bool {
        self.low <= value && value <= self.high
    }
}

/// Running sums of one quantity over the probes (Welford's mean and variance).
#[derive(Clone, Copy, Debug, Default)]
struct Moments {
    count: u64,
    nonzero: u64,
    mean: f64,
    squares: f64,
}

impl Moments {
    fn add(&mut self, x: f64) {
        self.count += 1;
        self.nonzero += (x != 0.0) as u64;
        let delta = x - self.mean;
        self.mean += delta / self.count as f64;
        self.squares += delta * (x - self.mean);
    }

    fn interval(&self) -> Interval {
        let n = self.count as f64;
        let variance = if self.count > 1 {
            self.squares / (n - 1.0)
        } else {
            0.0
        };
        let std_error = (variance / n.max(1.0)).sqrt();
        Interval {
            estimate: self.mean,
            std_error,
            low: (self.mean - Z_95 * std_error).max(0.0),
            high: if self.nonzero >= MIN_NONZERO {
                self.mean + Z_95 * std_error
            } else {
                f64::INFINITY
            },
            nonzero: self.nonzero,
        }
    }
}

/// What one probe found: the weighted sums along its path.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Probe {
    /// Estimated nodes below and at the probe's start.
    pub nodes: f64,
    /// Estimated updates.
    pub updates: f64,
    /// Estimated solutions.
    pub solutions: f64,
    /// Nodes the probe walked (not estimated): what a node budget counts.
    pub walked: u64,
}

/// Knuth's estimate of the search tree of [`Dlx::search`] below the options forced now.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The number of probes taken: all those asked for, unless a budget stopped them first
    /// ([`Dlx::estimate_within`]).
    pub probes: u64,
    /// Why the probes ended: [`Stop::Exhausted`] when every probe asked for was taken.
    pub stop: Stop,
    /// Nodes the probes walked, as a node budget counts them.
    pub walked: u64,
    /// Search-tree nodes, as [`Stats::nodes`] counts them.
    pub nodes: Interval,
    /// Link updates, as [`Stats::updates`] counts them.
    pub updates: Interval,
    /// Solutions.
    pub solutions: Interval,
    /// How long the probes took.
    pub elapsed: Duration,
}

impl Estimate {
    /// The time the whole search would take at the speed of `sample`, a search of part of the
    /// same tree (see [`Dlx::estimate`]'s example): the estimated updates at the sample's
    /// updates per second (nodes per second if it made no update). `None` when the sample
    /// did nothing measurable.
    pub fn time_at_speed_of(&self, sample: &Stats) -> Option<Duration> {
        let seconds = sample.elapsed.as_secs_f64();
        let ratio = if sample.updates > 0 {
            self.updates.estimate / sample.updates as f64
        } else if sample.nodes > 0 {
            self.nodes.estimate / sample.nodes as f64
        } else {
            return None;
        };
        (seconds > 0.0).then(|| Duration::from_secs_f64((ratio * seconds).min(1e15)))
    }
}

impl Dlx {
    /// Knuth's estimate of the search tree of [`Dlx::search`] (the same item choice,
    /// [`Branching::Mrv`](super::Branching::Mrv)) below the options forced now, from `probes`
    /// random root-to-leaf walks seeded by `seed`: the same seed gives the same estimate. The
    /// links are left as they were. See the [`Interval`] for the interval and why it is no
    /// proof.
    ///
    /// ```
    /// use std::time::Duration;
    /// use quadrille::Budget;
    /// use quadrille::exact_cover::{CountSink, Dlx};
    /// use quadrille::problems;
    ///
    /// let mut dlx = Dlx::new(&problems::queens(10)?);
    /// let estimate = dlx.estimate(2_000, 1);
    /// assert!(estimate.solutions.contains(724.0));
    /// let again = Dlx::new(&problems::queens(10)?).estimate(2_000, 1);
    /// assert_eq!((estimate.nodes, estimate.solutions), (again.nodes, again.solutions));
    /// // The time: the estimated updates at the speed of a short search.
    /// let sample = dlx.search(&Budget::time(Duration::from_millis(20)), CountSink::new(None));
    /// assert!(estimate.time_at_speed_of(&sample.stats).is_some());
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    pub fn estimate(&mut self, probes: u64, seed: u64) -> Estimate {
        self.estimate_within(probes, seed, &Budget::unlimited(), &mut |_| {
            Control::Continue
        })
    }

    /// [`Dlx::estimate`] within `budget`: its time, the nodes the probes walk, its interrupt
    /// (the estimate is then of the probes taken, which [`Estimate::probes`] and
    /// [`Estimate::stop`] say); `progress` is told the number of probes taken every 1,024
    /// probes (a few milliseconds), and stops there when it returns [`Control::Stop`]. The
    /// same seed gives the same probes, so a stopped estimate is the start of the whole one.
    ///
    /// ```
    /// use std::time::Duration;
    /// use quadrille::{Budget, Stop};
    /// use quadrille::exact_cover::{Control, Dlx};
    /// use quadrille::problems;
    ///
    /// let mut dlx = Dlx::new(&problems::queens(8)?);
    /// let go_on = &mut |_| Control::Continue;
    /// let estimate = dlx.estimate_within(u64::MAX, 1, &Budget::time(Duration::ZERO), go_on);
    /// assert_eq!((estimate.probes, estimate.stop), (0, Stop::TimeBudget));
    /// let estimate = dlx.estimate_within(u64::MAX, 1, &Budget::nodes(100), go_on);
    /// assert!(estimate.probes > 0 && estimate.walked <= 100 && estimate.stop == Stop::NodeBudget);
    /// let estimate = dlx.estimate_within(u64::MAX, 1, &Budget::unlimited(), &mut |_| Control::Stop);
    /// assert_eq!(estimate.probes, 1024);
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    pub fn estimate_within(
        &mut self,
        probes: u64,
        seed: u64,
        budget: &Budget,
        progress: &mut dyn FnMut(u64) -> Control,
    ) -> Estimate {
        let start = Instant::now();
        let (deadline, node_limit) = (budget.deadline(start), budget.node_limit());
        let (mut walked, mut stop) = (0, Stop::Exhausted);
        let mut rng = Pcg64::seed_from_u64(seed);
        let (mut nodes, mut updates, mut solutions) =
            (Moments::default(), Moments::default(), Moments::default());
        let mut taken = 0;
        while taken < probes {
            // A probe is a few microseconds: the clock is read before each.
            if deadline.is_some_and(|d| Instant::now() >= d) {
                stop = Stop::TimeBudget;
                break;
            }
            let probe = self.probe(&mut rng, 1.0);
            // A probe that would pass the node budget is not taken, as a search stops at it.
            if walked + probe.walked > node_limit {
                stop = Stop::NodeBudget;
                break;
            }
            walked += probe.walked;
            nodes.add(probe.nodes);
            updates.add(probe.updates);
            solutions.add(probe.solutions);
            taken += 1;
            if taken % 1024 == 0 {
                if budget.is_interrupted() {
                    stop = Stop::TimeBudget;
                    break;
                }
                if progress(taken) == Control::Stop {
                    stop = Stop::Limit;
                    break;
                }
            }
        }
        Estimate {
            probes: taken,
            stop,
            walked,
            nodes: nodes.interval(),
            updates: updates.interval(),
            solutions: solutions.interval(),
            elapsed: start.elapsed(),
        }
    }

    /// One probe from the present node, whose weight (the product of the branching degrees
    /// above it) is `weight`. Leaves the links as it found them.
    pub(crate) fn probe(&mut self, rng: &mut Pcg64, mut weight: f64) -> Probe {
        let keep = self.links().forced_count();
        let mut probe = Probe::default();
        loop {
            probe.nodes += weight;
            probe.walked += 1;
            if self.links().is_solved() {
                probe.solutions += weight;
                break;
            }
            if self.links().known_dead_end() {
                break;
            }
            let chosen = Mrv.choose(&ActiveItems::new(self));
            if chosen.len == 0 {
                break;
            }
            let h = self.links().primary_item(chosen.index());
            // The node covers its item once (the `hide`s of every option in its list), and each
            // child covers the rest of its option: the sampled child stands for all `len`.
            let mut cover_item = 0;
            let mut next = self.links().first_option(h);
            let mut pick = None;
            let k = rng.random_range(0..chosen.len);
            for i in 0..chosen.len {
                let x = next.expect("an item's list holds its `len` options");
                cover_item += self.links().option_size(x) - 1;
                if i == k {
                    pick = Some(x);
                }
                next = self.links().next_option(x);
            }
            let picked = pick.expect("k < len, the length of the list walked");
            let option = self.links().option_of(picked);
            let both = self
                .force(option)
                .expect("an option in an active item's list has every item active");
            let len = chosen.len as f64;
            probe.updates += weight * (cover_item as f64 + len * (both - cover_item) as f64);
            weight *= len;
        }
        self.release_to(keep);
        probe
    }
}
