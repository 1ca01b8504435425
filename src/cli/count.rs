//! `quadrille count`: the number of solutions of each puzzle.

use std::io::{Read, Write};

use quadrille::engine::Engine;
use quadrille::exact_cover::Dlx;
use quadrille::io::puzzle::{Layout, PuzzleReader};
use quadrille::sudoku::{Grid, check, encode};
use quadrille::{Budget, SolutionCount, Stop};

use super::flags;
use super::long_count::{BudgetLeft, LongCount, SHORT_NODES};
use super::puzzles::{self, InputLayout, Mode, PuzzleArgs};
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
    if args.scale.estimate.is_none() && args.scale.shard.is_none() && args.checkpoint.is_none() {
        let common = &args.common;
        // A bar for a long count of one puzzle on a terminal (text out, DLX, no limit).
        let bar = stderr_is_terminal()
            && !common.quiet
            && !common.json
            && !common.stats
            && args.limit.is_none()
            && common.engine == Engine::Dlx
            && common.files.len() <= 1;
        if !bar {
            return puzzles::run(common, Mode::Count, args.limit);
        }
        let input = open_input(common.files.first().map(String::as_str))?;
        return match one_puzzle(input, common)? {
            Ok(grid) => count_with_bar(&grid, common),
            Err(input) => puzzles::run_inputs(common, Mode::Count, args.limit, vec![input]),
        };
    }
    let common = &args.common;
    let layout = match common.input {
        InputLayout::Line => Layout::Line,
        InputLayout::Grid => Layout::Grid,
    };
    let mut puzzles = Vec::new();
    for input in open_inputs(&common.files)? {
        for puzzle in PuzzleReader::new(input.reader, common.shape, layout) {
            match puzzle.and_then(|p| check::conflicts(&p.grid).map(|()| p)) {
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
    let mut links = links_of(&puzzle.grid);
    let budget = common.budget.budget();
    if args.checkpoint.is_some() {
        let long = LongCount {
            checkpoint: args.checkpoint.as_deref(),
            budget,
            json: common.json,
            quiet: common.quiet,
        };
        return flags::pool(common.threads)?.install(|| long.run(&mut links));
    }
    scale::run(
        &args.scale,
        &mut links,
        common.restarts.seed,
        &budget,
        common.json,
        common.quiet,
    )
    .expect("--estimate, --shard or --checkpoint is given")
}

/// The links of a puzzle without conflicts, with its givens forced, and the item choice of the
/// count itself (see `DlxSolver`).
fn links_of(grid: &Grid) -> Dlx {
    let mut links = Dlx::new(&encode::problem(grid.shape().board()));
    links.track_dead_ends(true);
    for (cell, digit) in grid.cells().iter().enumerate() {
        if let Some(digit) = quadrille::board::Digit::new(*digit) {
            let option = encode::option(grid.size(), quadrille::board::Cell::new(cell), digit);
            links
                .force(option)
                .expect("givens without conflicts never clash");
        }
    }
    links
}

/// The most of an input read to see whether it is one puzzle.
const ONE_PUZZLE_BYTES: u64 = 1 << 16;

/// The input's only puzzle, if it has exactly one, without conflicts, in its first
/// [`ONE_PUZZLE_BYTES`] bytes; otherwise the input itself, whole again, for the batch.
fn one_puzzle(
    mut input: super::Input,
    common: &PuzzleArgs,
) -> quadrille::Result<Result<Grid, super::Input>> {
    let mut prefix = Vec::new();
    (&mut input.reader)
        .take(ONE_PUZZLE_BYTES + 1)
        .read_to_end(&mut prefix)?;
    if prefix.len() as u64 <= ONE_PUZZLE_BYTES {
        let layout = match common.input {
            InputLayout::Line => Layout::Line,
            InputLayout::Grid => Layout::Grid,
        };
        let puzzles: Vec<_> = PuzzleReader::new(&prefix[..], common.shape, layout).collect();
        if let [Ok(puzzle)] = &puzzles[..]
            && check::conflicts(&puzzle.grid).is_ok()
        {
            return Ok(Ok(puzzle.grid.clone()));
        }
    }
    let rest = std::mem::replace(&mut input.reader, Box::new(std::io::empty()));
    input.reader = Box::new(std::io::Cursor::new(prefix).chain(rest));
    Ok(Err(input))
}

/// Counts one puzzle as the batch would, but, when a short search does not finish it, in
/// estimated-equal shards with a progress bar.
fn count_with_bar(grid: &Grid, common: &PuzzleArgs) -> quadrille::Result<Status> {
    let mut links = links_of(grid);
    let budget = common.budget.budget();
    let short = Budget {
        nodes: Some(budget.node_limit().min(SHORT_NODES)),
        time: budget.time,
    };
    let probe = links.count_within(None, &short);
    if probe.stop != Stop::NodeBudget || budget.node_limit() <= SHORT_NODES {
        let mut out = stdout();
        writeln!(
            out,
            "{}",
            SolutionCount::new(probe.stats.solutions, probe.stop)
        )?;
        out.flush()?;
        return Ok(Status::Success);
    }
    let long = LongCount {
        checkpoint: None,
        budget: budget.after(&probe.stats),
        json: false,
        quiet: false,
    };
    flags::pool(common.threads)?.install(|| long.run(&mut links))
}
