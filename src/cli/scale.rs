//! What `xc` and `count` share for counts too big for one run: `--estimate` (Knuth's estimate
//! of the tree, with the time it would take here) and `--shard I/N` (one of N disjoint parts,
//! for a scheduler to run and `quadrille merge` to add up).

use std::io::Write;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

use quadrille::exact_cover::{Control, CountSink, Dlx, Interval, Plan};
use quadrille::merge::ShardRecord;
use quadrille::{Budget, SolutionCount};
use serde_json::json;

use super::Status;
use super::flags;

/// The probes of `--estimate` without a number.
pub const DEFAULT_PROBES: &str = "10000";
/// How long the timed sample of `--estimate` searches, to measure this machine's speed.
const SAMPLE: Duration = Duration::from_millis(300);

/// Below this many probes that met a solution, the solutions' interval is flagged: on the 6x10
/// pentominoes, 100,000 probes meet one 10 to 16 times (seeds 1 to 3) and the "95%" interval
/// held the true 9,356 for only 11 of seeds 1 to 20 (`xc fixtures/pentominoes_6x10.dlx
/// --estimate 100000 --seed S`). A thousand is a margin chosen, not measured.
const FEW_MET: u64 = 1_000;

/// The flags for counts too big for one run.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct ScaleArgs {
    /// Estimate instead of counting: Knuth's Monte Carlo estimate of the nodes, updates and
    /// solutions from PROBES random root-to-leaf probes (10,000 when no number is given), each
    /// with a 95% interval, and the time a count would take on this machine. Seeded by --seed.
    #[arg(long, value_name = "PROBES", num_args = 0..=1, default_missing_value = DEFAULT_PROBES,
          value_parser = flags::positive, conflicts_with_all = ["shard", "limit"])]
    pub estimate: Option<u64>,
    /// Count only shard I of N (1 <= I <= N): a deterministic split of the search tree into N
    /// disjoint parts of similar estimated size, counted on one thread (run as many shards at
    /// once as there are cores). Add the shards' `--json` lines up with `quadrille merge`.
    #[arg(long, value_name = "I/N", value_parser = shard_spec, conflicts_with = "limit")]
    pub shard: Option<(usize, usize)>,
}

/// Parses `I/N` with 1 <= I <= N.
pub fn shard_spec(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("'{text}' is not a shard I/N (two whole numbers, 1 <= I <= N)");
    let (i, n) = text.trim().split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (i.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
    if n == 0 || i == 0 || i > n {
        return Err(bad());
    }
    if n > 1 << 20 {
        return Err(format!("at most {} shards, not {n}", 1 << 20));
    }
    Ok((i, n))
}

/// Runs what the flags ask for on `links`, if they ask for anything: `None` when neither flag
/// is given.
pub fn run(
    args: &ScaleArgs,
    links: &mut Dlx,
    seed: u64,
    budget: &Budget,
    json: bool,
    quiet: bool,
) -> Option<quadrille::Result<Status>> {
    if let Some(probes) = args.estimate {
        return Some(estimate(links, probes, seed, budget, json, quiet));
    }
    let (shard, shards) = args.shard?;
    Some(count_shard(links, shard, shards, budget, json, quiet))
}

/// Knuth's estimate from `probes` probes, or those a time budget leaves room for, and a timed
/// sample search (within what is left of the budget) for the time a count would take.
fn estimate(
    links: &mut Dlx,
    probes: u64,
    seed: u64,
    budget: &Budget,
    json: bool,
    quiet: bool,
) -> quadrille::Result<Status> {
    let start = Instant::now();
    // The sample's share of a time budget is kept back from the probes.
    let deadline = budget
        .time
        .map(|t| start + t.saturating_sub(SAMPLE.min(t / 4)));
    let bar = (!quiet && super::stderr_is_terminal()).then(|| {
        let bar = ProgressBar::new(probes);
        bar.set_style(
            ProgressStyle::with_template(
                "estimating [{bar:40}] {pos}/{len} probes, {elapsed} elapsed, eta {eta}",
            )
            .expect("the template is valid")
            .progress_chars("=> "),
        );
        bar
    });
    let estimate = links.estimate_within(probes, seed, deadline, &mut |taken| {
        if let Some(bar) = &bar {
            bar.set_position(taken);
        }
        Control::Continue
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let left = budget.after(0, start.elapsed());
    let sample_budget = Budget {
        nodes: budget.nodes,
        time: Some(left.time.map_or(SAMPLE, |t| t.min(SAMPLE))),
        ..*budget
    };
    let sample = links.search(&sample_budget, CountSink::new(None));
    let stopped = estimate.probes < probes;
    // A tree the sample exhausted is known exactly: its time is the sample's.
    let time = if sample.is_complete() {
        Some(sample.stats.elapsed)
    } else {
        estimate.time_at_speed_of(&sample.stats)
    };
    let mut out = super::stdout();
    let pair = |i: &Interval| {
        json!([
            i.low,
            if i.high.is_finite() {
                json!(i.high)
            } else {
                json!(null)
            }
        ])
    };
    if json {
        let mut object = json!({
            "probes": estimate.probes,
            "probes_asked": probes,
            "stop": if stopped { "time_budget" } else { "exhausted" },
            "seed": seed,
            "solutions": estimate.solutions.estimate,
            "solutions_interval": pair(&estimate.solutions),
            "solutions_met": estimate.solutions.nonzero,
            "nodes": estimate.nodes.estimate,
            "nodes_interval": pair(&estimate.nodes),
            "updates": estimate.updates.estimate,
            "updates_interval": pair(&estimate.updates),
            "seconds": time.map(|t| t.as_secs_f64()),
            "probe_seconds": estimate.elapsed.as_secs_f64(),
            "sample_seconds": sample.stats.elapsed.as_secs_f64(),
        });
        if sample.is_complete() {
            object["exact_solutions"] = json!(sample.stats.solutions);
        }
        writeln!(out, "{object}")?;
    } else {
        let line = |name: &str, i: &Interval| {
            let high = if i.high.is_finite() {
                format!("{:.4e}", i.high)
            } else {
                "unbounded (too few probes met one)".to_string()
            };
            format!(
                "{name:<10} {:.4e}  95% interval [{:.4e}, {high}]",
                i.estimate, i.low
            )
        };
        if stopped {
            writeln!(
                out,
                "estimate from {} probes (seed {seed}): the time budget stopped it before the {probes} asked:",
                estimate.probes
            )?;
        } else {
            writeln!(out, "estimate from {probes} probes (seed {seed}):")?;
        }
        // How many probes met a solution, when not all did: the interval rests on those.
        let met = estimate.solutions.nonzero;
        let bounded = estimate.solutions.high.is_finite();
        let met = match met {
            m if m == estimate.probes => String::new(),
            m if m < FEW_MET && bounded => format!(
                " (met by {m} of {} probes: too few for a heavy tail, the interval may be too low)",
                estimate.probes
            ),
            m => format!(" (met by {m} of {} probes)", estimate.probes),
        };
        writeln!(out, "{}{met}", line("solutions", &estimate.solutions))?;
        writeln!(out, "{}", line("nodes", &estimate.nodes))?;
        writeln!(out, "{}", line("updates", &estimate.updates))?;
        match (time, sample.is_complete()) {
            (Some(t), true) => writeln!(
                out,
                "time       {:.3} s: the timed sample counted everything, {} solutions",
                t.as_secs_f64(),
                sample.stats.solutions
            )?,
            (Some(t), false) => writeln!(
                out,
                "time       about {} on one core here (at the speed of a {:.1} s sample)",
                human(t),
                sample.stats.elapsed.as_secs_f64()
            )?,
            (None, _) => writeln!(out, "time       unknown: the sample measured nothing")?,
        }
    }
    out.flush()?;
    Ok(Status::Success)
}

/// A duration as people read it.
fn human(t: Duration) -> String {
    let s = t.as_secs_f64();
    match s {
        s if s < 120.0 => format!("{s:.1} s"),
        s if s < 7_200.0 => format!("{:.1} min", s / 60.0),
        s if s < 172_800.0 => format!("{:.1} h", s / 3_600.0),
        s if s < 3.0e7 * 2.0 => format!("{:.1} days", s / 86_400.0),
        s => format!("{:.1} years", s / 3.156e7),
    }
}

fn count_shard(
    links: &mut Dlx,
    shard: usize,
    shards: usize,
    budget: &Budget,
    json: bool,
    quiet: bool,
) -> quadrille::Result<Status> {
    let start = std::time::Instant::now();
    let plan = links.shard_plan(shards);
    let report = links.run(
        &Plan::new().shard(&plan, shard),
        budget,
        CountSink::new(None),
    )?;
    let mut stats = report.stats;
    // The shard's time is the whole run's, the plan included: what a scheduler pays.
    stats.elapsed = start.elapsed();
    let mut out = super::stdout();
    if json {
        let record = ShardRecord {
            shard,
            shards,
            problem: format!("{:016x}", plan.problem_fingerprint()),
            split: format!("{:016x}", plan.fingerprint()),
            solutions: stats.solutions as u128,
            nodes: stats.nodes as u128,
            updates: stats.updates as u128,
            seconds: stats.elapsed.as_secs_f64(),
            complete: report.is_complete(),
            origin: None,
        };
        writeln!(out, "{}", record.to_line())?;
    } else {
        writeln!(out, "{}", SolutionCount::new(stats.solutions, report.stop))?;
    }
    out.flush()?;
    if !quiet {
        eprintln!(
            "shard {shard}/{shards}: {} solutions{}, {} nodes, {} updates, {:.3} s",
            stats.solutions,
            if report.is_complete() {
                ""
            } else {
                " (stopped by the budget: a lower bound)"
            },
            stats.nodes,
            stats.updates,
            stats.elapsed.as_secs_f64()
        );
    }
    Ok(Status::Success)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_spec_takes_i_of_n_and_nothing_else() {
        assert_eq!(shard_spec("3/16"), Ok((3, 16)));
        assert_eq!(shard_spec("1/1"), Ok((1, 1)));
        for bad in ["0/4", "5/4", "1/0", "1", "a/b", "1/2/3", "-1/2", ""] {
            assert!(shard_spec(bad).is_err(), "{bad}");
        }
        assert!(shard_spec("1/2000000").unwrap_err().contains("at most"));
    }
}
