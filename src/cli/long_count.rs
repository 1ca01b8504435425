//! How `count` and `xc` show a long count ([`quadrille::long_count`]): a progress bar of the
//! estimated share of the tree done (on a terminal), and the count with its statistics.

use std::io::Write;
use std::path::Path;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use quadrille::exact_cover::Dlx;
use quadrille::long_count::{self, LongCount};
use quadrille::{Budget, SolutionCount};
use serde_json::json;

use super::{Status, stderr_is_terminal, stdout};

/// What a long count is asked, and how it is shown.
pub struct LongCountArgs<'a> {
    /// The checkpoint file, if any.
    pub checkpoint: Option<&'a Path>,
    /// The budget of this run (the shards already in the checkpoint cost nothing).
    pub budget: Budget,
    /// Whether to print JSON.
    pub json: bool,
    /// No progress bar, no summary.
    pub quiet: bool,
}

impl LongCountArgs<'_> {
    /// Counts `links` in shards on the current pool, resuming from the checkpoint if it has
    /// any, with a bar on a terminal, and prints the count.
    pub fn run(&self, links: &mut Dlx) -> quadrille::Result<Status> {
        let bar = (!self.quiet && stderr_is_terminal()).then(bar);
        let progress = |share: f64| {
            if let Some(bar) = &bar {
                bar.set_position((share * BAR_LENGTH as f64) as u64);
            }
        };
        let counted = long_count::count(links, &self.budget, self.checkpoint, &progress);
        if let Some(bar) = &bar {
            bar.finish_and_clear();
        }
        let count = match (counted, self.checkpoint) {
            (Ok(count), _) => count,
            // Every error of the count is its checkpoint's: reading, writing or matching it.
            (Err(err), Some(path)) => {
                eprintln!("quadrille: {}: {err}", path.display());
                return Ok(Status::BadInput);
            }
            (Err(err), _) => return Err(err),
        };
        self.print(&count)?;
        Ok(Status::Success)
    }

    fn print(&self, count: &LongCount) -> quadrille::Result<()> {
        let mut out = stdout();
        if self.json {
            let object = json!({
                "solutions": count.solutions as u64,
                "nodes": count.nodes as u64,
                "updates": count.updates as u64,
                "seconds": count.elapsed.as_secs_f64(),
                "complete": count.is_complete(),
                "stop": count.stop.name(),
                "shards": long_count::SHARDS,
                "shards_done": count.shards_done,
                "shards_resumed": count.shards_resumed,
            });
            writeln!(out, "{object}")?;
        } else {
            writeln!(
                out,
                "{}",
                SolutionCount::new(count.solutions as u64, count.stop)
            )?;
        }
        out.flush()?;
        if !self.quiet {
            eprintln!(
                "{} solutions{}, {} nodes, {} updates, {:.3} s; {} of {} shards done ({} from the checkpoint)",
                count.solutions,
                if count.is_complete() {
                    ""
                } else {
                    " (stopped: the count is a lower bound)"
                },
                count.nodes,
                count.updates,
                count.elapsed.as_secs_f64(),
                count.shards_done,
                long_count::SHARDS,
                count.shards_resumed,
            );
        }
        Ok(())
    }
}

/// The bar's length: its unit is one millionth of the estimated tree.
const BAR_LENGTH: u64 = 1_000_000;

fn bar() -> ProgressBar {
    let bar = ProgressBar::new(BAR_LENGTH);
    bar.set_style(
        ProgressStyle::with_template(
            "counting [{bar:40}] {percent}% of the estimated tree, {elapsed} elapsed, eta {eta}",
        )
        .expect("the template is valid")
        .progress_chars("=> "),
    );
    bar.enable_steady_tick(Duration::from_millis(500));
    bar
}
