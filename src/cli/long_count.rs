//! How `count` and `xc` show a count of every solution on a terminal: a spinner with what the
//! count knows (its size is not known in advance) while it is decided and split
//! ([`count_every`]), and for a checkpointed count in shards ([`quadrille::long_count`]) a
//! progress bar of the share of the shards done, then the count with its statistics.

use std::io::Write;
use std::time::Duration;

use indicatif::{HumanCount, HumanDuration, ProgressBar, ProgressStyle};
use quadrille::SolutionCount;
use quadrille::exact_cover::{Dlx, PartsDone};
use quadrille::long_count::{self, Progress};
use quadrille::request::{CheckpointRecord, CheckpointRequest, CountRecord, Route};

use super::{Status, stderr_is_terminal, stdout};

/// How a checkpointed count is shown: its request, and the output asked for.
pub struct LongCountArgs<'a> {
    /// The count.
    pub request: CheckpointRequest<'a>,
    /// Whether to print JSON.
    pub json: bool,
    /// No progress bar, no summary.
    pub quiet: bool,
}

/// How a count went, for a person at a terminal: which search counted it, and its pace; nothing
/// for a count that one search finished, or that remembering made, which are as quick as they
/// look.
pub(super) fn route(record: &CountRecord, threads: usize) -> Option<String> {
    let how = match record.route {
        Route::Enumerated { parts } => enumerated(parts, threads),
        Route::Learning => learned(record.restarts, record.learned),
        _ => return None,
    };
    Some(route_line(
        &how,
        &record.solutions,
        record.nodes,
        Duration::from_secs_f64(record.seconds),
    ))
}

/// `enumerated in N parts on T threads`.
pub(super) fn enumerated(parts: usize, threads: usize) -> String {
    let threads = match threads {
        0 => "every core".to_string(),
        1 => "1 thread".to_string(),
        n => format!("{n} threads"),
    };
    format!(
        "enumerated in {parts} part{} on {threads}",
        if parts == 1 { "" } else { "s" }
    )
}

/// `proved by the learning search (R restarts, L nogoods)`.
pub(super) fn learned(restarts: u64, learned: u64) -> String {
    format!("proved by the learning search ({restarts} restarts, {learned} nogoods)")
}

/// `counted N solutions: HOW, nodes (rate), seconds`.
pub(super) fn route_line(
    how: &str,
    count: &SolutionCount,
    nodes: u64,
    elapsed: Duration,
) -> String {
    let n = count.to_u64();
    format!(
        "counted {}{} solution{}: {how}, {} nodes ({}), {:.3} s",
        n.map_or_else(
            || count.solutions.to_string(),
            |n| HumanCount(n).to_string()
        ),
        if count.is_exact() { "" } else { "+" },
        if n == Some(1) { "" } else { "s" },
        short(nodes as f64),
        rate(nodes as f64, elapsed),
        elapsed.as_secs_f64(),
    )
}

impl LongCountArgs<'_> {
    /// Runs the count on `links`, with a bar on a terminal, and prints its record.
    pub fn run(&self, links: &mut Dlx) -> quadrille::Result<Status> {
        let bar = (!self.quiet && stderr_is_terminal()).then(bar);
        // The share resumed from the checkpoint, told first: this run's rate is of the rest.
        let resumed = std::sync::OnceLock::new();
        let progress = |progress: Progress| {
            let resumed = *resumed.get_or_init(|| progress.share());
            if let Some(bar) = &bar {
                bar.set_position((progress.share() * BAR_LENGTH as f64) as u64);
                bar.set_message(describe(&progress, resumed, bar.elapsed()));
            }
        };
        let counted = self.request.run(links, &progress);
        if let Some(bar) = &bar {
            bar.finish_and_clear();
        }
        let record = match counted {
            Ok(record) => record,
            // Every error of the count is its checkpoint's: reading, writing or matching it.
            Err(err) => {
                eprintln!("quadrille: {}: {err}", self.request.checkpoint.display());
                return Ok(Status::BadInput);
            }
        };
        self.print(&record)?;
        Ok(Status::Success)
    }

    fn print(&self, record: &CheckpointRecord) -> quadrille::Result<()> {
        let mut out = stdout();
        if self.json {
            let object = serde_json::to_value(record).map_err(std::io::Error::from)?;
            writeln!(out, "{object}")?;
        } else {
            writeln!(out, "{}", record.solutions)?;
        }
        out.flush()?;
        if !self.quiet {
            eprintln!(
                "{} solutions{}, {} nodes, {} updates, {:.3} s; {} of {} shards done ({} from the checkpoint)",
                record.solutions.solutions,
                if record.complete {
                    ""
                } else {
                    " (stopped: the count is a lower bound)"
                },
                record.nodes,
                record.updates,
                record.seconds,
                record.shards_done,
                record.shards,
                record.shards_resumed,
            );
        }
        Ok(())
    }
}

/// The bar's length: its unit is one millionth of the estimated tree.
const BAR_LENGTH: u64 = 1_000_000;

/// How often the bar and the spinner are drawn again.
pub(super) const TICK: Duration = Duration::from_millis(500);

fn bar() -> ProgressBar {
    let bar = ProgressBar::new(BAR_LENGTH);
    bar.set_style(
        ProgressStyle::with_template(
            "[{bar:20}] {percent}% of the tree (estimated), {elapsed}: {msg}",
        )
        .expect("the template is valid")
        .progress_chars("=> "),
    );
    bar.set_message("no shard done yet");
    bar.enable_steady_tick(TICK);
    bar
}

/// The spinner of a count whose size is not known: it shows the time, and what
/// [`describe_parts`] says once the parts are counted.
pub(super) fn spinner() -> ProgressBar {
    spinner_of("counting", "deciding how")
}

/// A spinner on standard error for work whose size is not known: `doing` and the time, then
/// the message, `first` until one is set.
pub(super) fn spinner_of(doing: &str, first: &str) -> ProgressBar {
    let spinner = ProgressBar::new_spinner();
    let template = format!("{{spinner}} {doing}, {{elapsed}}: {{msg}}");
    spinner.set_style(ProgressStyle::with_template(&template).expect("the template is valid"));
    spinner.set_message(first.to_string());
    spinner.enable_steady_tick(TICK);
    spinner
}

/// What the spinner knows of a split count: parts, solutions, nodes and their rate.
pub(super) fn describe_parts(done: &PartsDone, elapsed: Duration) -> String {
    format!(
        "{}/{} parts, {} solutions, {} nodes ({})",
        done.parts_done,
        done.parts,
        HumanCount(done.stats.solutions),
        short(done.stats.nodes as f64),
        rate(done.stats.nodes as f64, elapsed),
    )
}

/// What the bar knows of a count in shards: shards, solutions, nodes and their rate, and the
/// time left at this run's pace once it has done some of the tree beyond the `resumed` share
/// (an estimate: the shards' sizes are estimates).
fn describe(progress: &Progress, resumed: f64, elapsed: Duration) -> String {
    let mut text = format!(
        "{}/{} shards, {} solutions, {} nodes ({})",
        progress.shards_done,
        long_count::SHARDS,
        HumanCount(progress.solutions as u64),
        short(progress.nodes as f64),
        rate(progress.nodes as f64, elapsed),
    );
    let done_here = progress.share() - resumed;
    if done_here > 0.0 && progress.nodes > 0 {
        let left = elapsed.as_secs_f64() * (1.0 - progress.share()).max(0.0) / done_here;
        text.push_str(&format!(
            ", ~{} left",
            HumanDuration(Duration::from_secs_f64(left))
        ));
    }
    text
}

/// Nodes per second over `elapsed`.
fn rate(nodes: f64, elapsed: Duration) -> String {
    format!("{}/s", short(nodes / elapsed.as_secs_f64().max(1e-3)))
}

/// A count in three significant figures with a k, M, G or T suffix: the bar stays on one line
/// of an 80-column terminal.
fn short(x: f64) -> String {
    let mut x = x;
    for suffix in ["", "k", "M", "G", "T"] {
        if x < 999.5 {
            return if suffix.is_empty() || x >= 99.95 {
                format!("{x:.0}{suffix}")
            } else if x >= 9.995 {
                format!("{x:.1}{suffix}")
            } else {
                format!("{x:.2}{suffix}")
            };
        }
        x /= 1000.0;
    }
    format!("{:.0}P", x)
}
