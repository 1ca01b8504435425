//! Long counts: one exact-cover count cut into [`SHARDS`] shards of even size (see
//! [`ShardPlan`]), counted on the threads of the current rayon pool, with the share of the
//! shards done reported as it grows and, given a checkpoint file, each finished
//! shard's [`ShardRecord`] appended to it at once.
//!
//! A run stopped at any point (Ctrl-C, a budget, a crash) resumes from its checkpoint without
//! counting finished shards again, and the file is itself a set of shard results that
//! [`merge`](mod@crate::merge) adds up. A run holds an exclusive lock on its checkpoint
//! ([`File::try_lock`]) from before it reads the file to its end, so that a second run on the
//! same file at once is refused ([`ErrorKind::CheckpointInUse`]) instead of counting and
//! writing the same shards again. The count is the same whatever the number of threads: the
//! shards are fixed by the problem, not by the pool.
//!
//! ```
//! use quadrille::Budget;
//! use quadrille::engine::DlxSolver;
//! use quadrille::long_count;
//! use quadrille::sudoku::{Grid, Shape};
//! use quadrille::sudoku::variant::Variant;
//!
//! // The empty 4x4 X-Sudoku: 48 grids.
//! let board = Variant::X.board_of_shape(Shape::new(2, 2)?)?.expect("X-Sudoku's board");
//! let mut links = DlxSolver::links(&board, &Grid::empty(Shape::new(2, 2)?));
//! let count = long_count::count(&mut links, &Budget::unlimited(), None, &|_progress| {})?;
//! assert_eq!(count.solutions, 48u32.into());
//! assert!(count.is_complete());
//! # Ok::<(), quadrille::Error>(())
//! ```

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{BufReader, Write};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use num_bigint::BigUint;
use rayon::prelude::*;

use crate::budget::{Budget, Stop};
use crate::error::{Error, ErrorKind, Result};
use crate::exact_cover::{Dlx, ShardPlan};
use crate::merge::{self, ShardRecord};

/// The shards of a long count: the unit of a checkpoint (at most 1/128 of the work is lost
/// when a run stops) and of progress. Fixed, so that a run may resume on another number of
/// threads.
pub const SHARDS: usize = 128;

/// What a long count found.
#[derive(Clone, Debug, PartialEq)]
pub struct LongCount {
    /// Solutions counted: all of them when the count [is complete](LongCount::is_complete),
    /// else a lower bound.
    pub solutions: BigUint,
    /// Search-tree nodes, over the shards counted in this run and those resumed.
    pub nodes: u128,
    /// Link updates, likewise.
    pub updates: u128,
    /// Why the count ended: [`Stop::Exhausted`] when every shard is done.
    pub stop: Stop,
    /// Shards finished, this run's and the checkpoint's.
    pub shards_done: usize,
    /// Shards that the checkpoint already held.
    pub shards_resumed: usize,
    /// This run's time.
    pub elapsed: Duration,
}

impl LongCount {
    /// Whether every shard was counted to its end, so that `solutions` is the whole count.
    pub fn is_complete(&self) -> bool {
        self.stop == Stop::Exhausted
    }
}

/// How far a long count has got, as [`count`] tells its `progress` callback.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Progress {
    /// Shards finished, this run's and the checkpoint's.
    pub shards_done: usize,
    /// Solutions counted in the shards finished (for display: at most `u128::MAX`).
    pub solutions: u128,
    /// Search-tree nodes of the shards finished in this run: what the run's rate is made of.
    pub nodes: u128,
}

impl Progress {
    /// The share of the shards done, from 0 to 1: of the tree too, as the shards are of even
    /// size ([`ShardPlan`]).
    pub fn share(&self) -> f64 {
        self.shards_done as f64 / SHARDS as f64
    }
}

/// Counts every solution of `links` in [`SHARDS`] shards on the threads of the current rayon
/// pool, within `budget`, resuming from `checkpoint` (a file of [`ShardRecord`] lines, created
/// if missing) and appending each shard finished to it. `progress` is told how far the count
/// has got: once at the start (what was resumed) and after each shard.
///
/// # Errors
/// A checkpoint that cannot be read or written, that holds records of another problem or
/// split or a record that fails its checksum, or that another count holds
/// ([`ErrorKind::CheckpointInUse`]); the caller, who knows the file's name, says which file.
pub fn count(
    links: &mut Dlx,
    budget: &Budget,
    checkpoint: Option<&Path>,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<LongCount> {
    let start = Instant::now();
    let plan = match links.shard_plan_within(SHARDS, budget) {
        Ok(plan) => plan,
        // The budget ran out before the split was made: nothing was counted, and the count
        // is the lower bound 0 (the checkpoint, not read, is left as it was).
        Err(stop) => {
            return Ok(LongCount {
                solutions: BigUint::ZERO,
                nodes: 0,
                updates: 0,
                stop,
                shards_done: 0,
                shards_resumed: 0,
                elapsed: start.elapsed(),
            });
        }
    };
    // The plan's time and nodes are the budget's too.
    let budget = &budget.after(plan.planning_nodes(), start.elapsed());
    let ids = Ids {
        problem: format!("{:016x}", plan.problem_fingerprint()),
        split: format!("{:016x}", plan.fingerprint()),
    };
    // Held, and so locked, until the count returns.
    let file = checkpoint.map(open_locked).transpose()?;
    let mut records = match &file {
        Some(file) => {
            let (records, whole) = read_checkpoint(file, &ids)?;
            // A line cut short by a stop mid-write is dropped, and its shard counted again.
            file.set_len(whole)?;
            records
        }
        None => Vec::new(),
    };
    let resumed = records.len();
    let counted = count_rest(
        links,
        &plan,
        &records,
        &ids,
        budget,
        progress,
        file.as_ref(),
    )?;

    let mut stop = Stop::Exhausted;
    for (record, shard_stop) in counted {
        // A budget is the reason worth reporting; a shard halted by another's stop is not.
        if shard_stop != Stop::Exhausted && (stop == Stop::Exhausted || shard_stop.is_budget()) {
            stop = shard_stop;
        }
        records.extend(record);
    }
    let merged = merge::merge(&records)?;
    if merged.is_total() {
        stop = Stop::Exhausted;
    } else if stop == Stop::Exhausted {
        stop = Stop::Limit;
    }
    Ok(LongCount {
        solutions: merged.solutions,
        nodes: merged.nodes,
        updates: merged.updates,
        stop,
        shards_done: merged.present.len() - merged.incomplete.len(),
        shards_resumed: resumed,
        elapsed: start.elapsed(),
    })
}

/// The fingerprints that every record of one count carries, as written.
struct Ids {
    problem: String,
    split: String,
}

/// Counts the shards not `done`, on the pool's threads; each finished one goes to the
/// checkpoint at once; `resumed` are the checkpoint's. A shard that stops (a budget, a failed write) halts the others.
fn count_rest(
    links: &Dlx,
    plan: &ShardPlan,
    resumed: &[ShardRecord],
    ids: &Ids,
    budget: &Budget,
    progress: &(dyn Fn(Progress) + Sync),
    file: Option<&File>,
) -> Result<Vec<(Option<ShardRecord>, Stop)>> {
    let done: Vec<bool> = (1..=SHARDS)
        .map(|i| resumed.iter().any(|r| r.shard == i))
        .collect();
    // Kept under a lock that each report is made under, so that reports never go backwards.
    let tally = Mutex::new(Progress {
        shards_done: done.iter().filter(|&&d| d).count(),
        solutions: resumed
            .iter()
            .map(|r| u128::try_from(&r.solutions).unwrap_or(u128::MAX))
            .fold(0, u128::saturating_add),
        nodes: 0,
    });
    progress(*tally.lock().expect("no reporter panics"));

    let start = Instant::now();
    let (deadline, stop_at) = (budget.deadline(start), budget.stop_at(start));
    let node_limit = budget.node_limit();
    let used = AtomicU64::new(0);
    let halt = AtomicBool::new(false);
    let file = Mutex::new(file);
    let failure = Mutex::new(None);
    let todo: Vec<usize> = (1..=SHARDS).filter(|&i| !done[i - 1]).collect();
    let results = todo
        .par_iter()
        .map_init(
            || links.clone(),
            |links, &shard| {
                let spent = used.load(Ordering::Relaxed);
                if spent >= node_limit {
                    return (None, Stop::NodeBudget);
                }
                if stop_at.is_some_and(|d| d.has_passed()) {
                    return (None, Stop::TimeBudget);
                }
                if halt.load(Ordering::Relaxed) {
                    // Another shard stopped, and says why.
                    return (None, Stop::Limit);
                }
                let shard_budget = budget.until(budget.nodes.map(|_| node_limit - spent), deadline);
                let (solutions, report) = links.count_shard(plan, shard, &shard_budget);
                used.fetch_add(report.stats.nodes, Ordering::Relaxed);
                let record = ShardRecord {
                    shard,
                    shards: SHARDS,
                    problem: ids.problem.clone(),
                    split: ids.split.clone(),
                    solutions,
                    nodes: u128::from(report.stats.nodes),
                    updates: u128::from(report.stats.updates),
                    seconds: report.stats.elapsed.as_secs_f64(),
                    complete: report.is_complete(),
                    origin: None,
                };
                if record.complete {
                    let mut file = file.lock().expect("no writer panics");
                    if let Some(file) = file.as_mut()
                        && let Err(err) =
                            writeln!(file, "{}", record.to_line()).and_then(|()| file.flush())
                    {
                        halt.store(true, Ordering::Relaxed);
                        *failure.lock().expect("no writer panics") = Some(err);
                    }
                    let mut tally = tally.lock().expect("no reporter panics");
                    tally.shards_done += 1;
                    tally.solutions = tally
                        .solutions
                        .saturating_add(u128::try_from(&record.solutions).unwrap_or(u128::MAX));
                    tally.nodes += record.nodes;
                    progress(*tally);
                } else {
                    halt.store(true, Ordering::Relaxed);
                }
                (Some(record), report.stop)
            },
        )
        .collect();
    if let Some(err) = failure.into_inner().expect("no writer panics") {
        return Err(err.into());
    }
    Ok(results)
}

/// The checkpoint, opened to read and append (created if missing) and locked for this run: a
/// second count on the same file at once is refused before it reads it.
fn open_locked(path: &Path) -> Result<File> {
    let file = OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .open(path)?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(TryLockError::WouldBlock) => Err(Error::new(ErrorKind::CheckpointInUse)),
        Err(TryLockError::Error(err)) => Err(err.into()),
    }
}

/// The finished shards of a checkpoint file, checked against the count's fingerprints, and
/// the bytes of its whole lines. A last line without its newline was cut short by a stop
/// mid-write, and is left out. The file is read as `merge` reads shard results, within their
/// limits and checking each record's checksum: a file that never ends a line (`/dev/full`,
/// which reads as zeros) is refused at its first line.
fn read_checkpoint(file: &File, ids: &Ids) -> Result<(Vec<ShardRecord>, u64)> {
    let (records, whole) = merge::read_whole_records(BufReader::new(file))?;
    for (i, r) in records.iter().enumerate() {
        if r.problem != ids.problem || r.split != ids.split || r.shards != SHARDS {
            return Err(Error::new(ErrorKind::ShardMismatch {
                reason: format!(
                    "record {} is of another problem or split than this count (problem {}, split {})",
                    i + 1,
                    ids.problem,
                    ids.split
                ),
            }));
        }
    }
    if !records.is_empty() {
        // Refuses a shard given twice.
        merge::merge(&records)?;
    }
    let finished = records.into_iter().filter(|r| r.complete).collect();
    Ok((finished, whole))
}
