//! `quadrille count`: the number of solutions of each puzzle.

use quadrille::exact_cover::Dlx;
use quadrille::io::puzzle::{Layout, PuzzleReader};
use quadrille::sudoku::{check, encode};

use super::flags;
use super::long_count::LongCount;
use super::puzzles::{self, InputLayout, Mode, PuzzleArgs};
use super::scale::{self, ScaleArgs};
use super::{Status, open_inputs, usage};

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
        return puzzles::run(&args.common, Mode::Count, args.limit);
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
    // The links and the item choice of the count itself (see `DlxSolver`).
    let grid = &puzzle.grid;
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
