//! Long counts: the tree cut into [`CHECKPOINT_SHARDS`] shards of similar estimated size (see
//! `exact_cover::ShardPlan`), counted on the pool's threads, with a progress bar of the
//! estimated share of the tree done (on a terminal only) and, with `--checkpoint FILE`, each
//! finished shard's result appended to FILE as a `--shard --json` line. A run stopped at any
//! point (Ctrl-C, a budget, a crash) resumes from the file without recounting finished shards,
//! and the file is itself a set of shard results that `quadrille merge` adds up.

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use quadrille::exact_cover::{Dlx, ShardPlan};
use quadrille::merge::{self, ShardRecord};
use quadrille::{Budget, ErrorKind, SolutionCount, Stop};
use rayon::prelude::*;
use serde_json::json;

use super::{Status, stderr_is_terminal, stdout};

/// The shards of a long count: the unit of a checkpoint (at most 1/128 of the work is lost when
/// a run stops) and of the progress bar. Fixed, so that a run may resume on another number of
/// threads.
pub const CHECKPOINT_SHARDS: usize = 128;

/// Nodes a count runs on one thread before it is deemed long enough for a progress bar.
pub const SHORT_NODES: u64 = 2_000_000;

/// What is left of a budget after a search that did `done`.
pub trait BudgetLeft {
    /// The budget less `done`'s nodes and time.
    fn after(&self, done: &quadrille::exact_cover::Stats) -> Budget;
}

impl BudgetLeft for Budget {
    fn after(&self, done: &quadrille::exact_cover::Stats) -> Budget {
        Budget {
            nodes: self.nodes.map(|n| n.saturating_sub(done.nodes).max(1)),
            time: self.time.map(|t| t.saturating_sub(done.elapsed)),
        }
    }
}

/// What the caller prints with the count.
pub struct LongCount<'a> {
    /// The checkpoint file, if any.
    pub checkpoint: Option<&'a Path>,
    /// The budget of this run (the shards already in the checkpoint cost nothing).
    pub budget: Budget,
    /// Whether to print JSON.
    pub json: bool,
    /// No progress bar, no summary.
    pub quiet: bool,
}

impl LongCount<'_> {
    /// Counts in shards, resuming from the checkpoint if it has any, and prints the count.
    pub fn run(&self, links: &mut Dlx) -> quadrille::Result<Status> {
        let start = Instant::now();
        let plan = links.shard_plan(CHECKPOINT_SHARDS);
        let problem = format!("{:016x}", plan.problem_fingerprint());
        let split = format!("{:016x}", plan.fingerprint());
        let mut records = match self.checkpoint {
            Some(path) => match read_checkpoint(path, &problem, &split) {
                Ok(records) => records,
                Err(err) => {
                    eprintln!("quadrille: {}: {err}", path.display());
                    return Ok(Status::BadInput);
                }
            },
            None => Vec::new(),
        };
        let file = match self.checkpoint {
            Some(path) => Some(
                OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| {
                        std::io::Error::new(e.kind(), format!("{}: {e}", path.display()))
                    })?,
            ),
            None => None,
        };
        if let Some(file) = &file {
            // A line cut short by a stop mid-write is dropped, and counted again.
            file.set_len(whole_lines(self.checkpoint.expect("a file has a path"))?)?;
        }

        let done: Vec<bool> = (1..=CHECKPOINT_SHARDS)
            .map(|i| records.iter().any(|r| r.shard == i))
            .collect();
        let estimated = plan.estimated_nodes();
        let bar = self.bar(&estimated, &done);
        let file = Mutex::new(file);
        let counted = self.count_rest(links, &plan, &done, &problem, &split, &bar, &file)?;
        if let Some(bar) = &bar {
            bar.finish_and_clear();
        }
        let resumed = records.len();
        let mut stop = Stop::Exhausted;
        for (record, shard_stop) in counted {
            if shard_stop != Stop::Exhausted && (stop == Stop::Exhausted || shard_stop.is_budget())
            {
                stop = shard_stop;
            }
            records.extend(record);
        }
        let merged = merge::merge(&records)?;
        let complete = merged.is_total();
        if complete {
            stop = Stop::Exhausted;
        } else if stop == Stop::Exhausted {
            stop = Stop::Limit;
        }
        let mut out = stdout();
        if self.json {
            let object = json!({
                "solutions": merged.solutions as u64,
                "nodes": merged.nodes as u64,
                "updates": merged.updates as u64,
                "seconds": start.elapsed().as_secs_f64(),
                "complete": complete,
                "stop": stop.name(),
                "shards": CHECKPOINT_SHARDS,
                "shards_done": merged.present.len() - merged.incomplete.len(),
                "shards_resumed": resumed,
            });
            writeln!(out, "{object}")?;
        } else {
            writeln!(out, "{}", SolutionCount::new(merged.solutions as u64, stop))?;
        }
        out.flush()?;
        if !self.quiet {
            eprintln!(
                "{} solutions{}, {} nodes, {} updates, {:.3} s; {} of {} shards done ({} from the checkpoint)",
                merged.solutions,
                if complete {
                    ""
                } else {
                    " (stopped: the count is a lower bound)"
                },
                merged.nodes,
                merged.updates,
                start.elapsed().as_secs_f64(),
                merged.present.len() - merged.incomplete.len(),
                CHECKPOINT_SHARDS,
                resumed,
            );
        }
        Ok(Status::Success)
    }

    /// A bar of the estimated nodes done, when standard error is a terminal.
    fn bar(&self, estimated: &[f64], done: &[bool]) -> Option<ProgressBar> {
        if self.quiet || !stderr_is_terminal() {
            return None;
        }
        let total: f64 = estimated.iter().sum();
        let scale = 1e6 / total.max(1.0);
        let bar = ProgressBar::new(1_000_000);
        bar.set_style(
            ProgressStyle::with_template(
                "counting [{bar:40}] {percent}% of the estimated tree, {elapsed} elapsed, eta {eta}",
            )
            .expect("the template is valid")
            .progress_chars("=> "),
        );
        let already: f64 = estimated
            .iter()
            .zip(done)
            .filter(|&(_, &d)| d)
            .map(|(e, _)| e)
            .sum();
        bar.set_position((already * scale) as u64);
        bar.reset_eta();
        bar.enable_steady_tick(Duration::from_millis(500));
        // The bar's unit: one millionth of the estimated tree.
        bar.set_length(1_000_000);
        Some(bar)
    }

    /// Counts the shards not done, on the pool's threads; each finished one is appended to the
    /// checkpoint at once.
    #[allow(clippy::too_many_arguments)]
    fn count_rest(
        &self,
        links: &Dlx,
        plan: &ShardPlan,
        done: &[bool],
        problem: &str,
        split: &str,
        bar: &Option<ProgressBar>,
        file: &Mutex<Option<File>>,
    ) -> quadrille::Result<Vec<(Option<ShardRecord>, Stop)>> {
        let estimated = plan.estimated_nodes();
        let total: f64 = estimated.iter().sum();
        let start = Instant::now();
        let deadline = self.budget.deadline(start);
        let node_limit = self.budget.node_limit();
        let used = AtomicU64::new(0);
        let halt = AtomicBool::new(false);
        let failure = Mutex::new(None);
        let todo: Vec<usize> = (1..=CHECKPOINT_SHARDS).filter(|&i| !done[i - 1]).collect();
        let results: Vec<(Option<ShardRecord>, Stop)> = todo
            .par_iter()
            .map_init(
                || links.clone(),
                |dlx, &shard| {
                    let spent = used.load(Ordering::Relaxed);
                    if spent >= node_limit {
                        return (None, Stop::NodeBudget);
                    }
                    if deadline.is_some_and(|d| Instant::now() >= d) {
                        return (None, Stop::TimeBudget);
                    }
                    if halt.load(Ordering::Relaxed) {
                        // Another shard stopped (and says why).
                        return (None, Stop::Limit);
                    }
                    let budget = Budget {
                        nodes: self.budget.nodes.map(|_| node_limit - spent),
                        time: deadline.map(|d| d.saturating_duration_since(Instant::now())),
                    };
                    let report = dlx.count_shard(plan, shard, &budget);
                    used.fetch_add(report.stats.nodes, Ordering::Relaxed);
                    let record = ShardRecord {
                        shard,
                        shards: CHECKPOINT_SHARDS,
                        problem: problem.to_string(),
                        split: split.to_string(),
                        solutions: report.stats.solutions as u128,
                        nodes: report.stats.nodes as u128,
                        updates: report.stats.updates as u128,
                        seconds: report.stats.elapsed.as_secs_f64(),
                        complete: report.is_complete(),
                    };
                    if report.is_complete() {
                        let mut file = file.lock().expect("no writer panics");
                        if let Some(file) = file.as_mut()
                            && let Err(err) =
                                writeln!(file, "{}", record.to_line()).and_then(|()| file.flush())
                        {
                            halt.store(true, Ordering::Relaxed);
                            *failure.lock().expect("no writer panics") = Some(err);
                        }
                        if let Some(bar) = bar {
                            bar.inc((estimated[shard - 1] * 1e6 / total.max(1.0)) as u64);
                        }
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
}

/// The records of a checkpoint file (none if it does not exist), checked against the plan. A
/// last line without its newline was cut short by a stop mid-write, and is left out.
fn read_checkpoint(path: &Path, problem: &str, split: &str) -> quadrille::Result<Vec<ShardRecord>> {
    let mut text = String::new();
    match File::open(path) {
        Ok(mut file) => file.read_to_string(&mut text)?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e.into()),
    };
    let whole = match text.rfind('\n') {
        Some(end) => &text[..=end],
        None => "",
    };
    let records = merge::read_records(whole.as_bytes())?;
    for (i, r) in records.iter().enumerate() {
        if r.problem != problem || r.split != split || r.shards != CHECKPOINT_SHARDS {
            return Err(quadrille::Error::new(ErrorKind::ShardMismatch {
                reason: format!(
                    "record {} is of another problem or split than this count (problem {}, split {})",
                    i + 1,
                    problem,
                    split
                ),
            }));
        }
    }
    // Refuses a shard given twice.
    if !records.is_empty() {
        merge::merge(&records)?;
    }
    Ok(records.into_iter().filter(|r| r.complete).collect())
}

/// The length of the file's text up to its last newline.
fn whole_lines(path: &Path) -> std::io::Result<u64> {
    let text = std::fs::read(path)?;
    Ok(text
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |end| end as u64 + 1))
}
