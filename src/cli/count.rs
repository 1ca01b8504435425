//! `quadrille count`: the number of solutions of each puzzle.

use super::Status;
use super::flags;
use super::puzzles::{self, Mode, PuzzleArgs};

/// Arguments of `quadrille count`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    common: PuzzleArgs,
    /// Stop counting a puzzle at N solutions (printed as `N+`).
    #[arg(long, value_name = "N", value_parser = flags::positive)]
    limit: Option<u64>,
}

/// Counts the solutions of every puzzle of the inputs; a long count uses every thread.
pub fn run(args: Args) -> quadrille::Result<Status> {
    puzzles::run(&args.common, Mode::Count, args.limit)
}
