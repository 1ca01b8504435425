//! `quadrille count`: the number of solutions of each puzzle.

use std::io::{Read, Write};
use std::sync::atomic::{AtomicUsize, Ordering};

use quadrille::batch::{self, Parallelism};
use quadrille::engine::{DlxSolver, Engine};
use quadrille::exact_cover::PartsDone;
use quadrille::io::puzzle::{MAX_LINE_BYTES, Puzzle};
use quadrille::request::CheckpointRequest;
use quadrille::{Request, SolutionCount};

use super::flags;
use super::long_count::{self, LongCountArgs};
use super::puzzles::{self, Mode, PuzzleArgs, reader_of};
use super::scale::{self, ScaleArgs};
use super::{Status, open_input, open_inputs, stderr_is_terminal, stdout, usage};

/// Arguments of `quadrille count`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  printf '................\\n' | quadrille count
  printf '....................................\\n' | quadrille count --estimate
  printf '....................................\\n' | quadrille count --shard 1/16 --json")]
pub struct Args {
    #[command(flatten)]
    common: PuzzleArgs,
    /// Stop counting a puzzle at N solutions (printed as `N+`).
    #[arg(long, value_name = "N", value_parser = flags::positive)]
    limit: Option<u64>,
    /// --estimate and --shard take one puzzle (a single count too big for one run).
    #[command(flatten)]
    scale: ScaleArgs,
    /// Count one puzzle in 128 shards, appending each finished shard's result to FILE, and
    /// resume from FILE if it has some: a long count stopped by Ctrl-C or a budget goes on
    /// where it stopped.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["limit", "estimate", "shard"])]
    checkpoint: Option<std::path::PathBuf>,
}

/// Counts the solutions of every puzzle of the inputs; a long count uses every thread.
pub fn run(args: Args) -> quadrille::Result<Status> {
    let common = &args.common;
    let one_count = args.scale.estimate.is_some() || args.scale.shard.is_some();
    if !one_count && args.checkpoint.is_none() {
        // A bar for a long count of one puzzle on a terminal (text out, DLX, no limit).
        let bar = stderr_is_terminal()
            && !common.quiet
            && !common.json
            && !common.stats
            && args.limit.is_none()
            && matches!(common.engine, Engine::Dlx | Engine::Auto)
            && common.files.len() <= 1;
        if !bar {
            return puzzles::run(common, Mode::Count, args.limit);
        }
        let input = open_input(common.files.first().map(String::as_str))?;
        return match one_puzzle(input, common)? {
            Ok(puzzle) => count_with_bar(&puzzle, common),
            Err(input) => puzzles::run_inputs(common, Mode::Count, args.limit, vec![input]),
        };
    }
    let mut puzzles = Vec::new();
    for input in open_inputs(&common.files)? {
        for puzzle in reader_of(common, &input.name, input.reader) {
            match puzzle {
                Ok(puzzle) => puzzles.push(puzzle),
                Err(err) => {
                    eprintln!("quadrille: {}: {err}{}", input.name, super::flag_hint(&err));
                    return Ok(Status::BadInput);
                }
            }
        }
    }
    let [puzzle] = &puzzles[..] else {
        return Ok(usage(format!(
            "--estimate, --shard and --checkpoint take one puzzle, and the input has {}",
            puzzles.len()
        )));
    };
    let mut links = DlxSolver::links(puzzle.board(), &puzzle.grid);
    let budget = common.budget.budget();
    if let Some(checkpoint) = &args.checkpoint {
        let long = LongCountArgs {
            request: CheckpointRequest {
                checkpoint,
                threads: common.threads,
                budget,
            },
            json: common.json,
            quiet: common.quiet,
        };
        return long.run(&mut links);
    }
    scale::run(
        &args.scale,
        &mut links,
        common.restarts.seed,
        &budget,
        common.json,
        common.quiet,
    )
    .expect("--estimate or --shard is given")
}

/// The input's only puzzle, if it has exactly one within the reader's bound on a puzzle's line
/// ([`MAX_LINE_BYTES`], the library's); otherwise the input itself, whole again, for the
/// batch. It decides only whether a spinner is drawn: the count is the batch's own call
/// ([`batch::solve_one_with`]) either way.
fn one_puzzle(
    mut input: super::Input,
    common: &PuzzleArgs,
) -> quadrille::Result<Result<Puzzle, super::Input>> {
    let mut prefix = Vec::new();
    (&mut input.reader)
        .take(MAX_LINE_BYTES as u64 + 1)
        .read_to_end(&mut prefix)?;
    if prefix.len() as u64 <= MAX_LINE_BYTES as u64 {
        let mut puzzles = reader_of(common, &input.name, &prefix[..]);
        if let (Some(Ok(puzzle)), None) = (puzzles.next(), puzzles.next()) {
            return Ok(Ok(puzzle));
        }
    }
    let rest = std::mem::replace(&mut input.reader, Box::new(std::io::empty()));
    input.reader = Box::new(std::io::Cursor::new(prefix).chain(rest));
    Ok(Err(input))
}

/// Counts one puzzle as the batch does (the same library call, [`batch::solve_one_with`]), with
/// a spinner showing what a count split across the threads has done.
fn count_with_bar(puzzle: &Puzzle, common: &PuzzleArgs) -> quadrille::Result<Status> {
    let request = Request {
        limit: None,
        budget: common.budget.budget(),
        restarts: common.restarts.restarts(),
        ..Request::default()
    };
    let spinner = long_count::spinner();
    let parts = AtomicUsize::new(0);
    let progress = |done: PartsDone| {
        parts.store(done.parts, Ordering::Relaxed);
        spinner.set_message(long_count::describe_parts(&done, spinner.elapsed()));
    };
    let counted = flags::pool(common.threads)?.install(|| {
        batch::solve_one_with(
            puzzle,
            common.engine,
            &request,
            Parallelism::WithinPuzzle,
            &progress,
        )
    });
    spinner.finish_and_clear();
    let (outcome, _) = counted?;
    let count = SolutionCount::new(outcome.solutions, outcome.stop);
    let how = match parts.into_inner() {
        0 if outcome.learned > 0 => Some(long_count::learned(outcome.restarts, outcome.learned)),
        0 => None,
        parts => Some(long_count::enumerated(parts, common.threads)),
    };
    if let Some(how) = how {
        eprintln!(
            "{}",
            long_count::route_line(&how, &count, outcome.nodes, outcome.elapsed)
        );
    }
    print_count(count)
}

fn print_count(count: SolutionCount) -> quadrille::Result<Status> {
    let mut out = stdout();
    writeln!(out, "{count}")?;
    out.flush()?;
    Ok(Status::Success)
}
