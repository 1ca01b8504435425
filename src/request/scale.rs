//! Counts too big for one run, asked the same way by every front end: [`EstimateRequest`]
//! (Knuth's estimate of the tree, with the time a count would take here) and [`ShardRequest`]
//! (one of N disjoint parts of the tree, for `quadrille merge` to add up), and
//! [`CheckpointRequest`] (every part, counted into a checkpoint that a later run resumes).
//! All take plain
//! links ([`Dlx`]): an exact-cover problem's, or a Sudoku puzzle's with its givens placed.

use std::path::Path;
use std::time::{Duration, Instant};

use serde::Serialize;

use super::check::{Field, Invalid};
use crate::Result;
use crate::budget::{Budget, SolutionCount, Stop};
use crate::exact_cover::{Control, CountSink, Dlx, Estimate, Interval};
use crate::long_count;
use crate::merge::ShardRecord;

/// Below this many probes that met a solution, a bounded interval of the solutions may be too
/// low: on the 6x10 pentominoes, 100,000 probes meet one 10 to 16 times (seeds 1 to 3) and
/// the "95%" interval held the true 9,356 for only 11 of seeds 1 to 20 (`xc
/// fixtures/pentominoes_6x10.dlx --estimate 100000 --seed S`). A thousand is a margin chosen,
/// not measured.
const FEW_MET: u64 = 1_000;

/// How long the timed sample of an estimate searches, to measure this machine's speed.
const SAMPLE: Duration = Duration::from_millis(300);

pub use crate::merge::MAX_SHARDS;

/// Knuth's estimate of the search tree from `probes` random probes, and the time a count
/// would take on this machine, measured by a sample search of at most 0.3 s: the request of
/// `--estimate` and of Python's `ExactCover.estimate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EstimateRequest {
    /// Probes to take (1 or more); a time budget may stop them first.
    pub probes: u64,
    /// The seed of the probes' random choices: the same seed gives the same estimate.
    pub seed: u64,
    /// The budget: its time bounds the probes and the sample together (the sample's share,
    /// up to a quarter, is kept back from the probes), and so do its nodes (the nodes the
    /// probes walk, then the sample's).
    pub budget: Budget,
}

/// The answer to an [`EstimateRequest`]; serialised, it is `--estimate --json`'s object.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EstimateRecord {
    /// Probes taken.
    pub probes: u64,
    /// Probes asked for.
    pub probes_asked: u64,
    /// `exhausted` when every probe asked for was taken, `time_budget` or `node_budget` when
    /// a budget stopped them (an interrupt is `time_budget`).
    pub stop: &'static str,
    /// The seed.
    pub seed: u64,
    /// Estimated solutions.
    pub solutions: f64,
    /// Their 95% interval (no upper end when too few probes met one).
    pub solutions_interval: (f64, Option<f64>),
    /// Probes that met a solution.
    pub solutions_met: u64,
    /// Estimated search-tree nodes.
    pub nodes: f64,
    /// Their 95% interval.
    pub nodes_interval: (f64, Option<f64>),
    /// Estimated link updates.
    pub updates: f64,
    /// Their 95% interval.
    pub updates_interval: (f64, Option<f64>),
    /// The seconds a count would take here, at the sample's speed (exact when the sample
    /// counted everything); none when the sample measured nothing.
    pub seconds: Option<f64>,
    /// Seconds of the probes.
    pub probe_seconds: f64,
    /// Seconds of the sample.
    pub sample_seconds: f64,
    /// The count, when the sample counted everything.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact_solutions: Option<u64>,
    /// The estimate itself, with its standard errors.
    #[serde(skip)]
    pub estimate: Estimate,
}

impl EstimateRecord {
    /// Whether the solutions' interval, though bounded, rests on too few probes that met a
    /// solution to be trusted for a heavy tail: it may be too low.
    pub fn solutions_interval_may_be_low(&self) -> bool {
        let solutions = &self.estimate.solutions;
        solutions.nonzero < self.estimate.probes
            && solutions.nonzero < FEW_MET
            && solutions.high.is_finite()
    }
}

impl EstimateRequest {
    /// The probes of an estimate whose number is not given.
    pub const DEFAULT_PROBES: u64 = 10_000;

    /// Checks the request: 1 probe or more.
    pub fn check(&self) -> std::result::Result<(), Invalid> {
        if self.probes == 0 {
            return Err(Invalid::new(Field::Probes, "must be 1 or more"));
        }
        super::check::node_budget(self.budget.nodes)?;
        Ok(())
    }

    /// Estimates the tree of `links`, telling `progress` the probes taken so far; the probes
    /// stop early when the budget's time is up or its interrupt is raised.
    ///
    /// ```
    /// use quadrille::Budget;
    /// use quadrille::exact_cover::Dlx;
    /// use quadrille::problems;
    /// use quadrille::request::EstimateRequest;
    ///
    /// let mut links = Dlx::new(&problems::queens(8)?);
    /// let request = EstimateRequest { probes: 1000, seed: 1, budget: Budget::unlimited() };
    /// let record = request.run(&mut links, &mut |_| {})?;
    /// assert_eq!(record.probes, 1000);
    /// assert_eq!(record.exact_solutions, Some(92)); // the sample counted it all
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    pub fn run(&self, links: &mut Dlx, progress: &mut dyn FnMut(u64)) -> Result<EstimateRecord> {
        self.check()?;
        let budget = self.budget;
        let start = Instant::now();
        // The sample's share of a time budget is kept back from the probes.
        let probe_budget = Budget {
            time: budget.time.map(|t| t.saturating_sub(SAMPLE.min(t / 4))),
            ..budget
        };
        let estimate = links.estimate_within(self.probes, self.seed, &probe_budget, &mut |taken| {
            progress(taken);
            Control::Continue
        });
        let left = budget.after(estimate.walked, start.elapsed());
        let sample_budget = Budget {
            time: Some(left.time.map_or(SAMPLE, |t| t.min(SAMPLE))),
            ..budget
        };
        let sample = links.search(&sample_budget, CountSink::new(None));
        // A tree the sample exhausted is known exactly: its time is the sample's.
        let time = if sample.is_complete() {
            Some(sample.stats.elapsed)
        } else {
            estimate.time_at_speed_of(&sample.stats)
        };
        let pair = |i: &Interval| (i.low, i.high.is_finite().then_some(i.high));
        Ok(EstimateRecord {
            probes: estimate.probes,
            probes_asked: self.probes,
            stop: match estimate.stop {
                Stop::Exhausted => "exhausted",
                Stop::NodeBudget => "node_budget",
                _ => "time_budget",
            },
            seed: self.seed,
            solutions: estimate.solutions.estimate,
            solutions_interval: pair(&estimate.solutions),
            solutions_met: estimate.solutions.nonzero,
            nodes: estimate.nodes.estimate,
            nodes_interval: pair(&estimate.nodes),
            updates: estimate.updates.estimate,
            updates_interval: pair(&estimate.updates),
            seconds: time.map(|t| t.as_secs_f64()),
            probe_seconds: estimate.elapsed.as_secs_f64(),
            sample_seconds: sample.stats.elapsed.as_secs_f64(),
            exact_solutions: sample.is_complete().then_some(sample.stats.solutions),
            estimate,
        })
    }
}

/// One shard of N disjoint shards of the search tree, counted on one thread: the request of
/// `--shard I/N` and of Python's `ExactCover.count_shard`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShardRequest {
    /// The shard, 1 to `shards`.
    pub shard: usize,
    /// The number of shards, 1 to [`MAX_SHARDS`].
    pub shards: usize,
    /// The budget of the shard's search.
    pub budget: Budget,
}

impl ShardRequest {
    /// Checks the request: 1 <= shard <= shards <= [`MAX_SHARDS`].
    pub fn check(&self) -> std::result::Result<(), Invalid> {
        let (shard, shards) = (self.shard, self.shards);
        if shards == 0 || shard == 0 || shard > shards {
            return Err(Invalid::new(
                Field::Shard,
                format!("shard {shard} of {shards}: shards are 1 to N, N >= 1"),
            ));
        }
        if shards > MAX_SHARDS {
            return Err(Invalid::new(
                Field::Shard,
                format!("at most {MAX_SHARDS} shards, not {shards}"),
            ));
        }
        super::check::node_budget(self.budget.nodes)?;
        Ok(())
    }

    /// Counts the shard of `links`; the record's time is the whole run's, the split included:
    /// what a scheduler pays.
    ///
    /// ```
    /// use quadrille::Budget;
    /// use quadrille::exact_cover::Dlx;
    /// use quadrille::problems;
    /// use quadrille::request::ShardRequest;
    ///
    /// let mut links = Dlx::new(&problems::queens(8)?);
    /// let total: num_bigint::BigUint = (1..=4)
    ///     .map(|shard| ShardRequest { shard, shards: 4, budget: Budget::unlimited() })
    ///     .map(|request| request.run(&mut links).map(|record| record.solutions))
    ///     .sum::<quadrille::Result<_>>()?;
    /// assert_eq!(total, 92u32.into());
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    pub fn run(&self, links: &mut Dlx) -> Result<ShardRecord> {
        self.check()?;
        let start = Instant::now();
        let plan = links
            .shard_plan_within(self.shards, &self.budget)
            .map_err(|stop| {
                crate::Error::new(crate::ErrorKind::StoppedBuilding {
                    budget: stop.budget_name(),
                    what: "the tree was being split into shards, before the shard was counted",
                })
            })?;
        // The plan's time and nodes are the budget's too.
        let budget = self.budget.after(plan.planning_nodes(), start.elapsed());
        // A shard remembers where the whole count would, as its plan decided.
        let (solutions, report) = links.count_shard(&plan, self.shard, &budget);
        Ok(ShardRecord {
            shard: self.shard,
            shards: self.shards,
            problem: format!("{:016x}", plan.problem_fingerprint()),
            split: format!("{:016x}", plan.fingerprint()),
            solutions,
            nodes: u128::from(report.stats.nodes),
            updates: u128::from(report.stats.updates),
            seconds: start.elapsed().as_secs_f64(),
            complete: report.is_complete(),
            origin: None,
        })
    }
}

/// A count of every solution in [`SHARDS`](long_count::SHARDS) shards, each finished shard
/// appended to a checkpoint file at once, resumed from that file when it holds some: the
/// request of `--checkpoint FILE` and of Python's `ExactCover.count_checkpointed`. A run
/// stopped by a budget, a cancel or a crash loses at most the shards it was counting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheckpointRequest<'a> {
    /// The checkpoint: created if missing, resumed from if not.
    pub checkpoint: &'a Path,
    /// Threads to count on: 1, or 0 for the pool the request runs in. The count is the same
    /// on any number: the shards are the problem's, not the pool's.
    pub threads: usize,
    /// This run's budget (the shards resumed cost nothing).
    pub budget: Budget,
}

/// The answer to a [`CheckpointRequest`]; serialised, it is `--checkpoint --json`'s object.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CheckpointRecord {
    /// The count over the shards done: exact when every shard is, else a lower bound.
    pub solutions: SolutionCount,
    /// Search-tree nodes of the shards done, this run's and the checkpoint's.
    pub nodes: u64,
    /// Link updates, likewise.
    pub updates: u64,
    /// This run's seconds.
    pub seconds: f64,
    /// Whether every shard is done.
    pub complete: bool,
    /// Why the count ended: `exhausted` when every shard is done.
    pub stop: Stop,
    /// The shards of the split.
    pub shards: usize,
    /// Shards done, this run's and the checkpoint's.
    pub shards_done: usize,
    /// Shards that the checkpoint already held.
    pub shards_resumed: usize,
}

impl CheckpointRequest<'_> {
    /// Checks the request: threads and budget in range.
    pub fn check(&self) -> std::result::Result<(), Invalid> {
        super::check::threads(self.threads)?;
        super::check::node_budget(self.budget.nodes)?;
        Ok(())
    }

    /// Counts `links` in shards on `threads` threads, resuming from and appending to the
    /// checkpoint; `progress` is told the share of the tree done, once at the start (what was
    /// resumed) and after each shard.
    ///
    /// ```
    /// use quadrille::Budget;
    /// use quadrille::exact_cover::Dlx;
    /// use quadrille::problems;
    /// use quadrille::request::CheckpointRequest;
    ///
    /// let path = std::env::temp_dir().join(format!("queens8-{}.jsonl", std::process::id()));
    /// let request = CheckpointRequest { checkpoint: &path, threads: 1, budget: Budget::unlimited() };
    /// let first = request.run(&mut Dlx::new(&problems::queens(8)?), &|_| {})?;
    /// // A second run finds every shard in the checkpoint, and counts nothing again.
    /// let again = request.run(&mut Dlx::new(&problems::queens(8)?), &|_| {})?;
    /// assert_eq!((first.solutions.to_string(), again.solutions.to_string()), ("92".into(), "92".into()));
    /// assert_eq!((again.shards_resumed, again.nodes), (again.shards, first.nodes));
    /// std::fs::remove_file(&path)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// A request out of range, or a checkpoint that cannot be read or written, or holds
    /// records of another problem or split (the caller, who knows the file's name, says which
    /// file).
    pub fn run(
        &self,
        links: &mut Dlx,
        progress: &(dyn Fn(long_count::Progress) + Sync),
    ) -> Result<CheckpointRecord> {
        self.check()?;
        let count = super::on_threads(self.threads, || {
            long_count::count(links, &self.budget, Some(self.checkpoint), progress)
        })??;
        let saturated = |n: u128| u64::try_from(n).unwrap_or(u64::MAX);
        let complete = count.is_complete();
        Ok(CheckpointRecord {
            solutions: SolutionCount::new(count.solutions, count.stop),
            nodes: saturated(count.nodes),
            updates: saturated(count.updates),
            seconds: count.elapsed.as_secs_f64(),
            complete,
            stop: count.stop,
            shards: long_count::SHARDS,
            shards_done: count.shards_done,
            shards_resumed: count.shards_resumed,
        })
    }
}
