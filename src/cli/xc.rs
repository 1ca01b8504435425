//! `quadrille xc`: any exact-cover problem in Knuth's dlx format.

use std::io::Write;

use quadrille::exact_cover::{Dlx, PartsDone, Problem};
use quadrille::io::dlx;
use quadrille::request::{
    self, CheapestRecord, CheapestRequest, CheckpointRequest, CostGoal, CountRecord,
    ExactCoverCount, ListRequest, SampleRequest, Search, problem_kind,
};
use quadrille::{Budget, SolutionCount, Stop};

use super::flags::{self, BudgetArgs, MemoArgs};
use super::long_count::{self, LongCountArgs};
use super::scale::{self, ScaleArgs};
use super::{Status, open_input, stderr_is_terminal, stdout, usage};

/// Arguments of `quadrille xc`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  quadrille xc fixtures/queens8.dlx --count --json
  quadrille xc fixtures/pentominoes_6x10.dlx --estimate 100000 --seed 1
  quadrille xc fixtures/dlx3_example.dlx   (colours x:A and bounds 2:3|C, as dlx2 and dlx3)
  quadrille xc fixtures/costs_assignment6.dlx --cheapest 3   (costs |n, as dlx5)")]
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
    /// Threads for counting and --cheapest/--min-cost (0: one per core); solutions are listed
    /// by one thread.
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
    /// The K cheapest solutions by their options' costs (`|7` on an option line, as Knuth's
    /// dlx5 writes them, or `$7` as miniexact does), cheapest first, each after a line
    /// `| cost N` (`| cost N, best found` when a budget stopped the search before it was
    /// proved); ties in the order of the search tree. Branch and bound; --threads shares the
    /// bound and gives the same answer.
    #[arg(long, value_name = "K", conflicts_with_all = ["limit", "knuth", "restarts", "no_restarts", "estimate", "shard", "checkpoint", "zdd", "sample", "count"])]
    cheapest: Option<u64>,
    /// The least cost of a solution (see --cheapest), and with --count the number of
    /// solutions of that cost instead.
    #[arg(long, conflicts_with_all = ["cheapest", "limit", "knuth", "restarts", "no_restarts", "estimate", "shard", "checkpoint", "zdd", "sample"])]
    min_cost: bool,
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
    if args.cheapest.is_some() || args.min_cost {
        return cheapest(&args, &problem, budget);
    }
    let search = if args.knuth {
        Search::Knuth
    } else if args.no_restarts {
        Search::Plain
    } else {
        Search::Default
    };
    let request = ExactCoverCount {
        limit: args.limit,
        threads: args.threads,
        budget,
        search,
        seed: args.seed,
        memo: args.memo.memo(),
    };
    request.check(&problem)?;
    if !problem.is_plain() {
        // Estimates, shards, checkpoints, diagrams and samples walk dlx1's tree: refused
        // rather than walked on a tree they do not describe.
        let refused = [
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
                    "{flag} is for plain exact cover, and {} has {}",
                    input.name,
                    problem_kind(&problem)
                )));
            }
        }
    } else {
        if args.zdd.is_some() || args.sample.is_some() {
            return diagram(&args, &problem, &budget);
        }
        let mut dlx = Dlx::new(&problem);
        dlx.set_memo(args.memo.memo());
        if let Some(status) = scale::run(
            &args.scale,
            &mut dlx,
            args.seed,
            &budget,
            args.json,
            args.quiet,
        ) {
            return status;
        }
        if let Some(checkpoint) = &args.checkpoint {
            let long = LongCountArgs {
                request: CheckpointRequest {
                    checkpoint,
                    threads: args.threads,
                    budget,
                },
                json: args.json,
                quiet: args.quiet,
            };
            return long.run(&mut dlx);
        }
    }
    if args.count || args.json {
        // A spinner for a count on a terminal (the JSON of a count keeps its own fields).
        let spinner = (args.count && !args.json && !args.quiet && stderr_is_terminal())
            .then(long_count::spinner);
        let progress = |done: PartsDone| {
            if let Some(spinner) = &spinner {
                spinner.set_message(long_count::describe_parts(&done, spinner.elapsed()));
            }
        };
        let record = request.run(&problem, &progress)?;
        if let Some(spinner) = spinner {
            spinner.finish_and_clear();
            if let Some(route) = long_count::route(&record, args.threads) {
                eprintln!("{route}");
            }
        }
        return finish(&args, &record, &mut stdout());
    }
    list(&args, &problem, search, budget)
}

/// Lists up to `--limit` solutions ([`ListRequest`]), each as its options' lines, a blank
/// line between two.
fn list(
    args: &Args,
    problem: &Problem,
    search: Search,
    budget: Budget,
) -> quadrille::Result<Status> {
    let request = ListRequest {
        limit: args.limit,
        search,
        seed: args.seed,
        budget,
    };
    let mut out = stdout();
    let mut printed = 0u64;
    let record = request.each(problem, &mut |options| {
        if printed > 0 {
            writeln!(out)?;
        }
        dlx::write_solution(problem, options, &mut out)?;
        printed += 1;
        Ok(())
    })?;
    out.flush()?;
    if !args.quiet {
        eprintln!(
            "{}",
            summary(
                &SolutionCount::new(record.found, record.stop),
                record.stop,
                record.nodes,
                record.updates,
                record.max_depth,
                record.seconds
            )
        );
    }
    Ok(Status::Success)
}

/// Prints the cheapest solutions (`--cheapest K`) or the least cost (`--min-cost`), as text or
/// as [`CheapestRecord`]'s JSON, and the summary.
fn cheapest(args: &Args, problem: &Problem, budget: Budget) -> quadrille::Result<Status> {
    let goal = match args.cheapest {
        Some(k) => CostGoal::Cheapest(k),
        None => CostGoal::MinCost,
    };
    let request = CheapestRequest {
        goal,
        threads: args.threads,
        budget,
    };
    let record = request.run(problem)?;
    let mut out = stdout();
    if args.json {
        let object = serde_json::to_value(&record).map_err(std::io::Error::from)?;
        writeln!(out, "{object}")?;
    } else if args.min_cost {
        if args.count {
            writeln!(out, "{}", record.count_at_min.unwrap_or(0))?;
        } else if let Some(cost) = record.min_cost {
            writeln!(out, "{cost}")?;
        }
    } else {
        for (rank, s) in record.solutions.iter().enumerate() {
            if rank > 0 {
                writeln!(out)?;
            }
            let status = if s.proved { "" } else { ", best found" };
            writeln!(out, "| cost {}{status}", s.cost)?;
            dlx::write_solution(problem, &s.options, &mut out)?;
        }
    }
    out.flush()?;
    if !args.quiet {
        eprintln!("{}", cheapest_summary(&record));
    }
    Ok(Status::Success)
}

/// The summary line of a search for the cheapest: what it proved, and its work.
fn cheapest_summary(record: &CheapestRecord) -> String {
    let found = match (record.count_at_min, record.min_cost) {
        (_, None) if record.complete => "no solution".to_string(),
        (_, None) => "no solution found".to_string(),
        (Some(count), Some(cost)) => format!(
            "least cost {cost}{}, {count}{} solution{} of that cost",
            if record.solutions.iter().all(|s| s.proved) {
                ""
            } else {
                " (not proved)"
            },
            if record.complete { "" } else { "+" },
            if count == 1 { "" } else { "s" }
        ),
        (None, Some(_)) => {
            let proved = record.solutions.iter().filter(|s| s.proved).count();
            let costs: Vec<String> = record
                .solutions
                .iter()
                .map(|s| s.cost.to_string())
                .collect();
            format!(
                "{} cheapest solution{} (cost {}), {}",
                costs.len(),
                if costs.len() == 1 { "" } else { "s" },
                costs.join(", "),
                if proved == costs.len() {
                    "proved".to_string()
                } else {
                    format!("{proved} proved")
                }
            )
        }
    };
    let stopped = match record.stop {
        Stop::NodeBudget | Stop::TimeBudget => format!(
            " ({} ran out; every solution not found costs at least {})",
            record.stop.budget_name(),
            record.bound.unwrap_or(0)
        ),
        _ => String::new(),
    };
    format!(
        "{found}{stopped}, {} nodes, {} pruned, {} updates, max depth {}, {:.3} s",
        record.nodes, record.pruned, record.updates, record.max_depth, record.seconds
    )
}

/// Writes the diagram of every solution (`--zdd`, [`request::diagram`]) or draws from it
/// (`--sample`, [`SampleRequest`]).
fn diagram(args: &Args, problem: &Problem, budget: &Budget) -> quadrille::Result<Status> {
    let start = std::time::Instant::now();
    let mut out = stdout();
    let zdd = request::diagram(problem, &args.memo.memo(), budget)?;
    if let Some(path) = &args.zdd {
        let written = std::fs::File::create(path)
            .map_err(quadrille::Error::from)
            .and_then(|file| {
                let mut file = std::io::BufWriter::new(file);
                zdd.write(&mut file)?;
                file.flush()?;
                Ok(())
            });
        if let Err(err) = written {
            eprintln!("quadrille: --zdd {}: {err}", path.display());
            return Ok(Status::BadInput);
        }
    }
    let nodes = zdd.node_count();
    let count = if let Some(k) = args.sample {
        let request = SampleRequest {
            k,
            seed: args.seed,
            memo: args.memo.memo(),
            budget: *budget,
        };
        let mut first = true;
        let record = request.draw(&zdd, start, &mut |options| {
            if !first {
                writeln!(out)?;
            }
            first = false;
            dlx::write_solution(problem, options, &mut out)?;
            Ok(())
        })?;
        if record.stop != Stop::Exhausted && !args.quiet {
            eprintln!(
                "quadrille: the time budget stopped the draws after {} of {k}",
                record.drawn
            );
        }
        record.solutions
    } else if args.json {
        let record = request::DiagramRecord::of(&zdd, start.elapsed());
        let count = record.solutions.clone();
        let object = serde_json::to_value(record).map_err(std::io::Error::from)?;
        writeln!(out, "{object}")?;
        count
    } else {
        let count = zdd.count();
        if args.count {
            writeln!(out, "{count}")?;
        }
        count
    };
    out.flush()?;
    if !args.quiet {
        eprintln!(
            "{count} solutions, a diagram of {nodes} nodes, {:.3} s",
            start.elapsed().as_secs_f64()
        );
    }
    Ok(Status::Success)
}

/// Prints the count (`--count`) or the record (`--json`), and the summary.
fn finish(args: &Args, record: &CountRecord, out: &mut impl Write) -> quadrille::Result<Status> {
    if args.json {
        let object = serde_json::to_value(record).map_err(std::io::Error::from)?;
        writeln!(out, "{object}")?;
    } else if args.count {
        writeln!(out, "{}", record.solutions)?;
    }
    out.flush()?;
    if !args.quiet {
        eprintln!(
            "{}",
            summary(
                &record.solutions,
                record.stop,
                record.nodes,
                record.updates,
                record.max_depth,
                record.seconds
            )
        );
    }
    Ok(Status::Success)
}

/// The summary line on standard error: the count, why it stopped, and the work.
fn summary(
    count: &SolutionCount,
    stop: Stop,
    nodes: u64,
    updates: u64,
    max_depth: usize,
    seconds: f64,
) -> String {
    let n = &count.solutions;
    format!(
        "{n} solution{}{}, {nodes} nodes, {updates} updates, max depth {max_depth}, {seconds:.3} s",
        if count.to_u64() == Some(1) { "" } else { "s" },
        match stop {
            _ if count.is_exact() => "",
            Stop::Exhausted => "",
            Stop::Limit => " (limit reached)",
            Stop::NodeBudget => " (node budget ran out: the count is a lower bound)",
            Stop::TimeBudget => " (time budget ran out: the count is a lower bound)",
        },
    )
}
