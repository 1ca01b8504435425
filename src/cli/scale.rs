//! What `xc` and `count` share for counts too big for one run: `--estimate` (Knuth's estimate
//! of the tree, with the time it would take here) and `--shard I/N` (one of N disjoint parts,
//! for a scheduler to run and `quadrille merge` to add up).

use std::io::Write;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

use quadrille::exact_cover::{Dlx, Interval};
use quadrille::request::{EstimateRequest, ShardRequest};
use quadrille::{Budget, SolutionCount, Stop};

use super::Status;
use super::flags;

/// The flags for counts too big for one run.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct ScaleArgs {
    /// Estimate instead of counting: Knuth's Monte Carlo estimate of the nodes, updates and
    /// solutions from PROBES random root-to-leaf probes (10,000 when no number is given), each
    /// with a 95% interval, and the time a count would take on this machine. Seeded by --seed.
    #[arg(long, value_name = "PROBES", num_args = 0..=1, value_parser = flags::positive,
          conflicts_with_all = ["shard", "limit"])]
    pub estimate: Option<Option<u64>>,
    /// Count only shard I of N (1 <= I <= N): a deterministic split of the search tree into N
    /// disjoint parts of even size, counted on one thread (run as many shards at
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
    let request = ShardRequest {
        shard: i,
        shards: n,
        budget: Budget::unlimited(),
    };
    request.check().map_err(|invalid| invalid.message)?;
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
        let probes = probes.unwrap_or(EstimateRequest::DEFAULT_PROBES);
        return Some(estimate(links, probes, seed, budget, json, quiet));
    }
    let (shard, shards) = args.shard?;
    Some(count_shard(links, shard, shards, budget, json, quiet))
}

/// Knuth's estimate from `probes` probes, or those a time budget leaves room for, and a timed
/// sample search for the time a count would take ([`EstimateRequest`]), with a bar on a
/// terminal.
fn estimate(
    links: &mut Dlx,
    probes: u64,
    seed: u64,
    budget: &Budget,
    json: bool,
    quiet: bool,
) -> quadrille::Result<Status> {
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
    let request = EstimateRequest {
        probes,
        seed,
        budget: *budget,
    };
    let record = request.run(links, &mut |taken| {
        if let Some(bar) = &bar {
            bar.set_position(taken);
        }
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let record = record?;
    let mut out = super::stdout();
    if json {
        let object = serde_json::to_value(record).map_err(std::io::Error::from)?;
        writeln!(out, "{object}")?;
    } else {
        let estimate = &record.estimate;
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
        if record.probes < probes {
            let budget = if record.stop == "node_budget" {
                "node"
            } else {
                "time"
            };
            writeln!(
                out,
                "estimate from {} probes (seed {seed}): the {budget} budget stopped it before the {probes} asked:",
                record.probes
            )?;
        } else {
            writeln!(out, "estimate from {probes} probes (seed {seed}):")?;
        }
        // How many probes met a solution, when not all did: the interval rests on those.
        let met = match estimate.solutions.nonzero {
            m if m == estimate.probes => String::new(),
            m if record.solutions_interval_may_be_low() => format!(
                " (met by {m} of {} probes: too few for a heavy tail, the interval may be too low)",
                estimate.probes
            ),
            m => format!(" (met by {m} of {} probes)", estimate.probes),
        };
        writeln!(out, "{}{met}", line("solutions", &estimate.solutions))?;
        writeln!(out, "{}", line("nodes", &estimate.nodes))?;
        writeln!(out, "{}", line("updates", &estimate.updates))?;
        match (record.seconds, record.exact_solutions) {
            (Some(t), Some(solutions)) => writeln!(
                out,
                "time       {t:.3} s: the timed sample counted everything, {solutions} solutions"
            )?,
            (Some(t), None) => writeln!(
                out,
                "time       about {} on one core here (at the speed of a {:.1} s sample)",
                human(Duration::from_secs_f64(t)),
                record.sample_seconds
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
    let request = ShardRequest {
        shard,
        shards,
        budget: *budget,
    };
    let record = request.run(links)?;
    let mut out = super::stdout();
    if json {
        writeln!(out, "{}", record.to_line())?;
    } else {
        let stop = if record.complete {
            Stop::Exhausted
        } else {
            Stop::NodeBudget
        };
        writeln!(
            out,
            "{}",
            SolutionCount::new(record.solutions.clone(), stop)
        )?;
    }
    out.flush()?;
    if !quiet {
        eprintln!(
            "shard {shard}/{shards}: {} solutions{}, {} nodes, {} updates, {:.3} s",
            record.solutions,
            if record.complete {
                ""
            } else {
                " (stopped by the budget: a lower bound)"
            },
            record.nodes,
            record.updates,
            record.seconds
        );
    }
    Ok(Status::Success)
}
