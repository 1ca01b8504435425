//! `quadrille xc`: any exact-cover problem in Knuth's dlx format.

use std::io::Write;

use quadrille::exact_cover::{
    Branching, Control, CountSink, Dlx, MemoCount, MemoMode, Plan, Problem, Report, Sink, Xcc,
    up_to,
};
use quadrille::io::dlx;
use quadrille::restart::Restarts;
use quadrille::{Budget, SolutionCount, Stop};
use rand::SeedableRng;
use rand_pcg::Pcg64;
use serde_json::json;

use super::flags::{self, BudgetArgs, MemoArgs};
use super::long_count::{self, LongCountArgs};
use super::scale::{self, ScaleArgs};
use super::{Status, open_input, stderr_is_terminal, stdout, usage};

/// Arguments of `quadrille xc`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  quadrille xc fixtures/queens8.dlx --count --json
  quadrille xc fixtures/pentominoes_6x10.dlx --estimate 100000 --seed 1
  quadrille xc fixtures/dlx3_example.dlx   (colours x:A and bounds 2:3|C, as dlx2 and dlx3)")]
pub struct Args {
    /// The problem in Knuth's dlx format (standard input when absent or `-`), with dlx2's
    /// colours (`x:red` on an option line) and dlx3's multiplicities (`2:3|a` on the item line)
    /// if you like.
    file: Option<String>,
    /// Print only the number of solutions.
    #[arg(long)]
    count: bool,
    /// Stop after this many solutions (1 or more).
    #[arg(long, value_name = "N", value_parser = flags::positive)]
    limit: Option<u64>,
    /// Print one JSON object with the count and the search statistics.
    #[arg(long)]
    json: bool,
    /// Threads for counting (0: one per core); solutions are listed by one thread.
    #[arg(long, short = 'j', value_name = "N", default_value_t = 1, value_parser = flags::threads)]
    threads: usize,
    #[command(flatten)]
    budget: BudgetArgs,
    /// Restart on Luby's schedule with randomised, conflict-weighted choices (see the README)
    /// when a first run in Knuth's order finds no solution in 3,000 nodes: the default, so
    /// this flag only says so. A count of every solution proves with the learning search and
    /// enumerates with plain search, whichever the problem needs.
    #[arg(long, conflicts_with_all = ["estimate", "shard", "no_restarts"])]
    restarts: bool,
    /// One plain run of Algorithm X, never restarted, with no learning: its statistics are
    /// those of the textbook search (slow on hard problems; for comparisons).
    #[arg(long)]
    no_restarts: bool,
    /// Walk Knuth's tree and count as he does: dlx1's item choice (an item with no option left
    /// is chosen, and fails, before any other) and updates as in "Dancing Links" (2000), which
    /// count covered items and dead ends too, so the statistics can be put beside his.
    #[arg(long, conflicts_with_all = ["restarts", "estimate", "shard"])]
    knuth: bool,
    /// The seed of the random choices of the restarts and of --estimate.
    #[arg(long, value_name = "SEED", default_value_t = 0)]
    seed: u64,
    #[command(flatten)]
    scale: ScaleArgs,
    #[command(flatten)]
    memo: MemoArgs,
    /// Write the zero-suppressed decision diagram of every solution to FILE (format in
    /// docs/memo.md), built by the remembering count within --memory.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["limit", "knuth", "estimate", "shard", "checkpoint"])]
    zdd: Option<std::path::PathBuf>,
    /// Print K solutions drawn exactly uniformly at random (with repetition) from the diagram
    /// of every solution, seeded by --seed: the same seed gives the same solutions.
    #[arg(long, value_name = "K", value_parser = flags::positive, conflicts_with_all = ["limit", "knuth", "estimate", "shard", "checkpoint", "count", "json"])]
    sample: Option<u64>,
    /// Count (as --count) in 128 shards, appending each finished shard's result to FILE, and
    /// resume from FILE if it has some: a long count stopped by Ctrl-C or a budget goes on
    /// where it stopped. FILE is also a set of shard results for `quadrille merge`.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["limit", "restarts", "knuth", "estimate", "shard"])]
    checkpoint: Option<std::path::PathBuf>,
    /// Nothing on standard error but errors: no summary.
    #[arg(long, short)]
    quiet: bool,
}

/// Reads the problem, searches, prints.
pub fn run(args: Args) -> quadrille::Result<Status> {
    // `--threads 1`, the default, is what these searches do anyway: only more is a conflict.
    for (given, flag) in [(args.knuth, "--knuth"), (args.restarts, "--restarts")] {
        if given && args.threads != 1 {
            return Ok(usage(format!(
                "{flag} searches on one thread, and --threads {} asks for {}",
                args.threads,
                if args.threads == 0 {
                    "one per core"
                } else {
                    "more"
                }
            )));
        }
    }
    let input = open_input(args.file.as_deref())?;
    let problem = match dlx::read_problem(input.reader) {
        Ok(problem) => problem.into_problem(),
        Err(err) => {
            eprintln!("quadrille: {}: {err}", input.name);
            return Ok(Status::BadInput);
        }
    };
    let budget = args.budget.budget();
    let restarts = (!args.no_restarts && !args.knuth).then_some(Restarts::new(args.seed));
    let mut links = if problem.is_plain() {
        Links::Plain(Dlx::new(&problem))
    } else {
        // Knuth's statistics and the restarts are those of dlx1's tree: refused rather than
        // walked on a tree they do not describe.
        let what = match (problem.has_colors(), problem.has_multiplicities()) {
            (true, true) => "colours and multiplicities",
            (true, false) => "colours",
            _ => "multiplicities",
        };
        let refused = [
            (args.knuth, "--knuth"),
            (args.restarts, "--restarts"),
            (args.scale.estimate.is_some(), "--estimate"),
            (args.scale.shard.is_some(), "--shard"),
            (args.checkpoint.is_some(), "--checkpoint"),
            (args.zdd.is_some(), "--zdd"),
            (args.sample.is_some(), "--sample"),
        ];
        for (given, flag) in refused {
            if given {
                return Ok(usage(format!(
                    "{flag} is for plain exact cover, and {} has {what}",
                    input.name
                )));
            }
        }
        Links::General(Box::new(Xcc::new(&problem)))
    };
    // Estimates, shards, checkpoints and the progress bar walk dlx1's tree; a problem with
    // colours or multiplicities was refused them above and counts in one piece.
    if let Links::Plain(dlx) = &mut links {
        dlx.set_memo(args.memo.memo());
        if args.zdd.is_some() || args.sample.is_some() {
            return diagram(&args, &problem, dlx);
        }
        if let Some(status) =
            scale::run(&args.scale, dlx, args.seed, &budget, args.json, args.quiet)
        {
            return status;
        }
        let count_all = (args.count || args.json) && args.limit.is_none() && !args.knuth;
        // A spinner for a count on a terminal (the JSON of a count keeps its own fields).
        let bar = count_all && args.count && !args.json && !args.quiet && stderr_is_terminal();
        if let Some(checkpoint) = &args.checkpoint {
            let long = LongCountArgs {
                checkpoint: Some(checkpoint),
                budget,
                json: args.json,
                quiet: args.quiet,
            };
            return flags::pool(args.threads)?.install(|| long.run(dlx));
        }
        if bar {
            let report =
                long_count::count_every(dlx, &budget, restarts.is_some(), args.threads, false)?;
            let wide = beyond_64_bits(&args, dlx, &report, &budget);
            return finish(&args, report, wide, &mut stdout());
        }
        if count_all && restarts.is_some() {
            // Every solution, with the search that the problem needs (see `Dlx::count_all`).
            let report = if args.threads == 1 {
                dlx.count_all(&budget)
            } else {
                long_count::count_every(dlx, &budget, true, args.threads, true)?
            };
            let wide = beyond_64_bits(&args, dlx, &report, &budget);
            return finish(&args, report, wide, &mut stdout());
        }
    }
    let listing = !args.count && !args.json;
    let branching = if args.knuth {
        Branching::Knuth
    } else {
        Branching::Mrv
    };
    // Knuth's order first, restarts after a run of `Restarts::DEFAULT_UNIT` nodes without a
    // solution; a list of every solution learns too, so that each comes once and the proof
    // that there is no other is short.
    let learning = restarts.is_some() && args.limit.is_none();
    let plan = (Plan::new().branching(branching).restarts(restarts)).learning(learning);
    let mut out = stdout();

    let report: Report = if listing {
        let mut printed = 0u64;
        let mut failure = None;
        let mut options = Vec::new();
        let sink = up_to(args.limit, |s| {
            options.clear();
            s.options_into(&mut options);
            let written = if printed > 0 { writeln!(out) } else { Ok(()) }
                .and_then(|()| dlx::write_solution(&problem, &options, &mut out));
            if let Err(err) = written {
                failure = Some(err);
                return Control::Stop;
            }
            printed += 1;
            Control::Continue
        });
        let report = links.run(&plan, &budget, sink)?;
        if let Some(err) = failure {
            return Err(err.into());
        }
        report
    } else if args.threads != 1 {
        flags::pool(args.threads)?.install(|| links.count_parallel(args.limit, &budget))
    } else {
        links.run(&plan, &budget, CountSink::new(args.limit))?
    };

    finish(&args, report, None, &mut out)
}

/// Builds the diagram of every solution, writes it (`--zdd`) and draws from it (`--sample`).
fn diagram(args: &Args, problem: &Problem, dlx: &mut Dlx) -> quadrille::Result<Status> {
    let start = std::time::Instant::now();
    let zdd = dlx.zdd(&args.memo.memo())?;
    if let Some(path) = &args.zdd {
        let mut file = std::io::BufWriter::new(std::fs::File::create(path)?);
        zdd.write(&mut file)?;
        file.flush()?;
    }
    let count = zdd.count();
    let mut out = stdout();
    if let Some(k) = args.sample {
        if let Some(sampler) = zdd.sampler() {
            let mut rng = Pcg64::seed_from_u64(args.seed);
            let mut options = Vec::new();
            for i in 0..k {
                sampler.sample(&mut rng, &mut options);
                options.sort_unstable();
                if i > 0 {
                    writeln!(out)?;
                }
                dlx::write_solution(problem, &options, &mut out)?;
            }
        }
    } else if args.json {
        let object = json!({
            "solutions": count.map(|c| c.to_string()),
            "zdd_nodes": zdd.node_count(),
            "seconds": start.elapsed().as_secs_f64(),
        });
        writeln!(out, "{object}")?;
    } else if args.count {
        match count {
            Some(count) => writeln!(out, "{count}")?,
            None => writeln!(out, "{}+", u128::MAX)?,
        }
    }
    out.flush()?;
    if !args.quiet {
        eprintln!(
            "{} solutions, a diagram of {} nodes, {:.3} s",
            count.map_or_else(|| format!("more than {}", u128::MAX), |c| c.to_string()),
            zdd.node_count(),
            start.elapsed().as_secs_f64()
        );
    }
    Ok(Status::Success)
}

/// Prints the count and the statistics of a search.
/// The count again, in 128 bits, when a count stopped at the 64-bit limit and remembering
/// is allowed: a count that large was made by remembering, which makes it again quickly.
fn beyond_64_bits(
    args: &Args,
    dlx: &mut Dlx,
    report: &Report,
    budget: &Budget,
) -> Option<MemoCount> {
    let full = report.stop == Stop::Limit && report.stats.solutions == u64::MAX;
    (full && args.memo.memo != MemoMode::Off).then(|| dlx.count_memo(budget, &args.memo.memo()))
}

/// Prints the count and the statistics of a search; `wide`, a count in 128 bits, replaces
/// the report's when it is given.
fn finish(
    args: &Args,
    report: Report,
    wide: Option<MemoCount>,
    out: &mut impl Write,
) -> quadrille::Result<Status> {
    let report = wide.map_or(report, |w| w.report);
    let (count, exact) = wide.map_or(
        (u128::from(report.stats.solutions), report.is_complete()),
        |w| (w.solutions, w.exact),
    );
    let stats = &report.stats;
    let updates = if args.knuth {
        stats.knuth_updates()
    } else {
        stats.updates
    };
    if args.json {
        // A count beyond 64 bits as a string of digits, which JSON readers keep exact.
        let solutions =
            u64::try_from(count).map_or_else(|_| json!(count.to_string()), |c| json!(c));
        let object = json!({
            "solutions": solutions,
            "nodes": stats.nodes,
            "updates": updates,
            "seconds": stats.elapsed.as_secs_f64(),
            "complete": exact,
            "stop": report.stop.name(),
            "max_depth": stats.max_depth,
            "restarts": stats.restarts,
            "learned": stats.learned,
            "subproblems": stats.subproblems,
            "cache_hits": stats.cache_hits,
            "memo_branching": (stats.subproblems > 0).then(|| args.memo.memo_branching.name()),
        });
        writeln!(out, "{object}")?;
    } else if args.count {
        // As `quadrille count` writes it: `N+` when a limit or budget cut the count short.
        match wide {
            Some(_) => writeln!(out, "{count}{}", if exact { "" } else { "+" })?,
            None => writeln!(out, "{}", SolutionCount::new(stats.solutions, report.stop))?,
        }
    }
    out.flush()?;
    if !args.quiet {
        eprintln!(
            "{} solution{}{}, {} nodes, {} updates, max depth {}, {:.3} s",
            count,
            if count == 1 { "" } else { "s" },
            match report.stop {
                _ if exact => "",
                Stop::Exhausted => "",
                Stop::Limit if wide.is_some() => " (beyond 128 bits: the count is a lower bound)",
                Stop::Limit => " (limit reached)",
                Stop::NodeBudget => " (node budget ran out: the count is a lower bound)",
                Stop::TimeBudget => " (time budget ran out: the count is a lower bound)",
            },
            stats.nodes,
            updates,
            stats.max_depth,
            stats.elapsed.as_secs_f64(),
        );
    }
    Ok(Status::Success)
}

/// The links of the problem read: plain exact cover takes the fast path, colours and
/// multiplicities Knuth's Algorithm M. Chosen once, before any search.
// One value per run, so its size does not matter: the `Dlx` stays unboxed.
#[allow(clippy::large_enum_variant)]
enum Links {
    Plain(Dlx),
    General(Box<Xcc>),
}

impl Links {
    /// Runs `plan` on plain links; colours and multiplicities are searched by Algorithm M with
    /// its own choice, which is all the plan can ask of them (`--knuth` and `--restarts` are
    /// refused for them before).
    fn run<S: Sink>(
        &mut self,
        plan: &Plan<'_>,
        budget: &Budget,
        sink: S,
    ) -> quadrille::Result<Report> {
        match self {
            Links::Plain(dlx) => dlx.run(plan, budget, sink),
            Links::General(xcc) => Ok(xcc.search(budget, sink)),
        }
    }

    fn count_parallel(&mut self, limit: Option<u64>, budget: &Budget) -> Report {
        match self {
            Links::Plain(dlx) => dlx.count_parallel(limit, budget),
            Links::General(xcc) => xcc.count_parallel(limit, budget),
        }
    }
}
